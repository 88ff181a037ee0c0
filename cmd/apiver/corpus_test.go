package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/changelog"
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

// TestRealHistoryUnderMemoryLimit builds the history of the real corpus with
// the memory limit the README documents: it must still succeed.
func TestRealHistoryUnderMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: builds the 23-snapshot history")
	}
	dir := corpus.Unpack(t)
	out := filepath.Join(t.TempDir(), "history.json")
	cmd := exec.Command(os.Args[0], "changelog", "build", "--config", "testdata/atlas.yaml", dir, "-o", out)
	cmd.Env = append(os.Environ(), "APIVER_AS_MAIN=1", "GOMEMLIMIT=256MiB")
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("changelog build with GOMEMLIMIT=256MiB: %v\n%s", err, output)
	}
	h, err := changelog.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(h.Dates()), len(corpus.Names(t))-1; got != want {
		t.Errorf("%d releases, want %d", got, want)
	}

	// The Markdown of the whole history reads like a hand-written changelog:
	// at most 5,000 lines, though the JSON keeps every change.
	releases, err := h.Releases()
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	if err := changelog.Render(&md, "markdown", releases); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(md.String(), "\n"); lines > 5000 {
		t.Errorf("the real history's Markdown takes %d lines, want at most 5000", lines)
	}
	history := changelog.NewLifecycles(releases)
	for _, r := range releases {
		n := 0
		for _, l := range changelog.Lines(r, history) {
			n += l.Entries
		}
		if n != len(r.Changes) {
			t.Errorf("%s: the lines stand for %d of %d changes", r.Date, n, len(r.Changes))
		}
	}
}

// TestRealPairOneScreen holds the check of the real pair 2024-11-19 →
// 2024-12-19 to what a reviewer reads in one screen: its error findings
// are at most 60 root changes, the text is at most 200 lines, and GitHub
// gets at most ten error annotations.
func TestRealPairOneScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: loads two large snapshots")
	}
	const base, revision = "atlas-api-2024-11-19.yaml", "atlas-api-2024-12-19.yaml"
	t.Chdir(corpus.Unpack(t, base, revision))
	var report struct {
		Summary struct {
			Errors int
			Groups struct{ Errors int }
		}
	}
	if err := json.Unmarshal([]byte(runCheck(t, exitPolicy, "check", "--format", "json", base, revision)), &report); err != nil {
		t.Fatal(err)
	}
	if report.Summary.Errors == 0 || report.Summary.Groups.Errors > 60 {
		t.Errorf("%d error findings in %d groups, want at most 60 groups", report.Summary.Errors, report.Summary.Groups.Errors)
	}
	text := runCheck(t, exitPolicy, "check", base, revision)
	if n := strings.Count(text, "\n"); n > 200 {
		t.Errorf("text is %d lines, want at most 200", n)
	}
	if !strings.HasPrefix(text, "check FAILED: ") {
		t.Errorf("text does not start with the verdict: %.80q", text)
	}
	annotations := runCheck(t, exitPolicy, "check", "--format", "githubactions", base, revision)
	if n := strings.Count(annotations, "\n::error "); n > 10 || !strings.HasPrefix(annotations, "::error ") {
		t.Errorf("%d error annotations, want at most 10 (the first on the first line)", n+1)
	}
}

// TestRealHistoryDetectsLatestVersion: the real corpus publishes only the
// newest version of each operation; without a config that says so, the
// history is the one snapshot: latest-version gives, and a note says why.
func TestRealHistoryDetectsLatestVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: builds the 23-snapshot history twice")
	}
	dir := corpus.Unpack(t)
	out := t.TempDir()
	detected, declared := filepath.Join(out, "detected.json"), filepath.Join(out, "declared.json")
	// No config at all: none in this folder or above it up to the git top.
	t.Setenv(configEnv, "")
	code, _, stderr := runArgs(t, "changelog", "build", dir, "-o", detected)
	if code != exitPass || strings.Count(stderr, "read as snapshot: latest-version") != 1 {
		t.Fatalf("build without a config: exit %d, stderr %q; want 0 and one note", code, stderr)
	}
	if code, _, stderr := runArgs(t, "changelog", "build", "--config", "testdata/atlas.yaml", dir, "-o", declared); code != exitPass || stderr != "" {
		t.Fatalf("build with snapshot: latest-version: exit %d: %s", code, stderr)
	}
	a, err := os.ReadFile(detected)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(declared)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("the history without a config differs from the one with snapshot: latest-version")
	}
}
