package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSiteKeepsItsInputs: a site folder is replaced whole, so one that
// holds the changelog it is made from, or the working folder, is refused
// and left as it was.
func TestSiteKeepsItsInputs(t *testing.T) {
	seed, err := filepath.Abs("../../testdata/seed-history")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if code, _, stderr := runArgs(t, "changelog", "build", seed, "-o", "changelog.json"); code != exitPass {
		t.Fatalf("changelog build: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runArgs(t, "site", "changelog.json", "-o", "public"); code != exitPass {
		t.Fatalf("site: exit %d: %s", code, stderr)
	}
	if err := os.Rename("changelog.json", filepath.Join("public", "changelog.json")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runArgs(t, "site", filepath.Join("public", "changelog.json"), "-o", "public")
	if code != exitInput || !strings.Contains(stderr, "lies inside the site folder") {
		t.Errorf("site of a changelog inside its folder: exit %d, %s; want exit 2 naming it", code, stderr)
	}
	if _, err := os.Stat(filepath.Join("public", "changelog.json")); err != nil {
		t.Errorf("the changelog is gone: %v", err)
	}
	for _, flags := range [][]string{{"--base-url", "../../"}, {"--match-path", "("}} {
		args := append([]string{"site", filepath.Join("public", "changelog.json"), "-o", "other"}, flags...)
		if code, _, stderr := runArgs(t, args...); code != exitInput || !strings.Contains(stderr, flags[0]) {
			t.Errorf("site %s %q: exit %d, %s; want exit 2 naming the flag", flags[0], flags[1], code, stderr)
		}
	}
	if err := os.Mkdir("empty", 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir("empty")
	code, _, stderr = runArgs(t, "site", filepath.Join("..", "public", "changelog.json"), "-o", ".")
	if code != exitInput || !strings.Contains(stderr, "holds the current folder") {
		t.Errorf("site -o .: exit %d, %s; want exit 2 saying why", code, stderr)
	}
}
