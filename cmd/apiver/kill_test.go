package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestUpdateSurvivesKill kills `changelog update` with SIGKILL at many
// points of its run: the changelog is always either the old file or the
// complete new one, never half-written.
func TestUpdateSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: runs apiver twenty times")
	}
	t.Parallel()
	seed, _ := filepath.Abs("../../testdata/seed-history")
	base, revision := filepath.Join(seed, "example-2026-02-10.yaml"), filepath.Join(seed, "example-2026-02-11.yaml")
	dir := t.TempDir()
	old := []byte(`[{"date": "2026-02-10", "description": "kept by hand", "changes": []}]` + "\n")
	target := filepath.Join(dir, "changelog.json")

	// The complete result, from an uninterrupted run.
	if err := os.WriteFile(target, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runProcess(hangGuard, dir, nil, "changelog", "update", "--changelog", target, base, revision); r.code != exitPass {
		t.Fatalf("update: %s", r)
	}
	complete, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}

	for i := range 20 {
		if err := os.WriteFile(target, old, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := apiverProcess(t, dir, "changelog", "update", "--changelog", target, base, revision)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i*15) * time.Millisecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		got, err := os.ReadFile(target)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, old) && !bytes.Equal(got, complete) {
			t.Fatalf("killed after %d ms: the changelog is neither the old file nor the complete new one:\n%s", i*15, got)
		}
		// The new file is written unnamed (O_TMPFILE) and named only just
		// before the rename, so a kill leaves nothing but in that instant.
		if left := besides(t, dir); len(left) > 0 {
			t.Logf("killed after %d ms: left %v", i*15, left)
		}
	}
	// Whatever a kill left, the next run clears.
	if r := runProcess(hangGuard, dir, nil, "changelog", "update", "--changelog", target, base, revision); r.code != exitPass {
		t.Fatalf("update: %s", r)
	}
	if left := besides(t, dir); len(left) > 0 {
		t.Errorf("temporary files left beside the changelog: %v", left)
	}
}

// besides lists the files in dir other than changelog.json.
func besides(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != "changelog.json" {
			names = append(names, e.Name())
		}
	}
	return names
}
