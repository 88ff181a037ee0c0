package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
)

// TestRealCorpusPairs checks every consecutive pair of the real corpus: each
// must give a verdict (exit 0 or 1), never an input error or a panic.
func TestRealCorpusPairs(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: loads 23 large snapshots")
	}
	dir := corpus.Unpack(t)
	names := corpus.Names(t)
	for i := 1; i < len(names); i++ {
		base, revision := filepath.Join(dir, names[i-1]), filepath.Join(dir, names[i])
		var stdout, stderr bytes.Buffer
		code := run([]string{"check", "--config", "testdata/atlas.yaml", base, revision}, &stdout, &stderr)
		if code != exitPass && code != exitPolicy {
			t.Errorf("check %s %s: exit %d: %s", names[i-1], names[i], code, stderr.String())
		}
	}
}
