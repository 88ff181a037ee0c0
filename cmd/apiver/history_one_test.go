package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHistoryOfOneSnapshot: one snapshot is a history of one release, read
// and checked as any other, in every form a history takes: a file, a folder
// of one dated file, a folder of one version document, one dated folder of
// version documents. A broken one fails naming its file and line; a good
// one records no change.
func TestHistoryOfOneSnapshot(t *testing.T) {
	t.Setenv(configEnv, "")
	t.Chdir(t.TempDir())
	const good = "openapi: 3.0.3\ninfo: {title: x, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses:\n        \"200\": {description: ok}\n"
	const broken = "openapi: 3.0.3\ninfo: {title: x, version: \"1\"}\npaths:\n  /a:\n    get: [\n"
	for _, kind := range []struct{ name, text string }{{"good", good}, {"broken", broken}} {
		for _, form := range []struct {
			file string // written, under the kind's folder
			arg  string // the history's argument, under it
		}{
			{"api-2024-01-01.yaml", "api-2024-01-01.yaml"},
			{"files/api-2024-01-01.yaml", "files"},
			{"documents/api.2024-01-01.yaml", "documents"},
			{"snapshots/2024-01-01/api.2024-01-01.yaml", "snapshots"},
		} {
			path := filepath.Join(kind.name, filepath.FromSlash(form.file))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(kind.text), 0o644); err != nil {
				t.Fatal(err)
			}
			arg := filepath.Join(kind.name, filepath.FromSlash(form.arg))
			code, stdout, stderr := runArgs(t, "changelog", "build", arg)
			switch kind.name {
			case "good":
				if code != exitPass || strings.TrimSpace(stdout) != "[]" {
					t.Errorf("changelog build %s: exit %d\n%s%s", arg, code, stdout, stderr)
				}
			case "broken":
				if code != exitInput || !strings.Contains(stderr, path+":5:") {
					t.Errorf("changelog build %s: exit %d, want %d naming %s:5\n%s", arg, code, exitInput, path, stderr)
				}
			}
		}
	}
}
