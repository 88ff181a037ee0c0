package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/load"
	"github.com/google/go-cmp/cmp"
)

// The real corpus's history is built once per test process and shared by
// the tests that read it: built by the fast pipeline, as its own process,
// under the memory limit the README documents. It runs beside the test
// that starts it, which builds the same history another way meanwhile.
var realHistory struct {
	start sync.Once
	done  chan struct{}
	run   pipelineRun
}

// realHistoryArgs is the build the shared history is: the corpus with the
// config that reads it as latest-version snapshots.
func realHistoryArgs(t *testing.T) []string {
	t.Helper()
	config, err := filepath.Abs("testdata/atlas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return []string{"changelog", "build", "--config", config, corpus.Shared(t)}
}

// startRealHistory starts the shared build, once, and returns a function
// that waits for it.
func startRealHistory(t *testing.T) (wait func() pipelineRun) {
	t.Helper()
	args := realHistoryArgs(t)
	realHistory.start.Do(func() {
		realHistory.done = make(chan struct{})
		go func() {
			defer close(realHistory.done)
			realHistory.run = runProcess(corpusGuard, "", append(slices.Clone(flagsOnly), "GOMEMLIMIT=256MiB"), args...)
		}()
	})
	return func() pipelineRun {
		<-realHistory.done
		return realHistory.run
	}
}

// TestRealHistoryUnderMemoryLimit: the shared build of the real history,
// under the memory limit the README documents, succeeds, holds every
// release, and its Markdown reads like a hand-written changelog.
func TestRealHistoryUnderMemoryLimit(t *testing.T) {
	t.Parallel()
	built := startRealHistory(t)()
	if built.code != exitPass {
		t.Fatalf("changelog build with GOMEMLIMIT=256MiB: %s", built)
	}
	h, err := changelog.Parse([]byte(built.stdout))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(h.Dates()), len(corpus.Names(t))-1; got != want {
		t.Errorf("%d releases, want %d", got, want)
	}

	// At most 5,000 lines of Markdown, though the JSON keeps every change.
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

// TestPipelinesAgreeOnRealHistory: the full pipeline builds the real
// history byte for byte as the shared fast build does.
func TestPipelinesAgreeOnRealHistory(t *testing.T) {
	t.Parallel()
	wait := startRealHistory(t)
	args := realHistoryArgs(t)
	full := runProcess(corpusGuard, "", []string{load.FullPipelineEnv + "=1"}, args...)
	if diff := cmp.Diff(full.String(), wait().String()); diff != "" {
		t.Errorf("apiver %s: the fast pipeline differs from the full one (-full +fast):\n%s", strings.Join(args, " "), diff)
	}
}

// TestRealHistoryDetectsLatestVersion: the real corpus publishes only the
// newest version of each operation; without a config that says so, the
// history is the one snapshot: latest-version gives, and a note says why.
// It is built with -v: no reduced text failed to load where the whole did.
func TestRealHistoryDetectsLatestVersion(t *testing.T) {
	t.Parallel()
	wait := startRealHistory(t)
	// No config at all: none named, none in this folder or above it up to
	// the git top.
	detected := runProcess(corpusGuard, "", flagsOnly, "changelog", "build", "-v", corpus.Shared(t))
	if detected.code != exitPass || strings.Count(detected.stderr, "read as snapshot: latest-version") != 1 {
		t.Fatalf("build without a config: exit %d, stderr %q; want 0 and one note", detected.code, detected.stderr)
	}
	for line := range strings.Lines(detected.stderr) {
		if strings.Contains(line, "did not load") {
			t.Errorf("changelog build -v: %s", line)
		}
	}
	declared := wait()
	if declared.code != exitPass || declared.stderr != "" {
		t.Fatalf("build with snapshot: latest-version: %s", declared)
	}
	if detected.stdout != declared.stdout {
		t.Errorf("the history without a config differs from the one with snapshot: latest-version")
	}
}

// TestRealPairOneScreen holds the check of the real pair 2024-11-19 →
// 2024-12-19 to what a reviewer reads in one screen: its error findings
// are at most 60 root changes, the text is at most 200 lines, and GitHub
// gets at most ten error annotations.
func TestRealPairOneScreen(t *testing.T) {
	t.Parallel()
	const base, revision = "atlas-api-2024-11-19.yaml", "atlas-api-2024-12-19.yaml"
	dir := corpus.Shared(t)
	check := func(args ...string) string {
		t.Helper()
		r := runProcess(corpusGuard, dir, flagsOnly, append(append([]string{"check"}, args...), base, revision)...)
		if r.code != exitPolicy {
			t.Fatalf("apiver check %s: %s; want exit %d", strings.Join(args, " "), r, exitPolicy)
		}
		return r.stdout
	}
	var report struct {
		Summary struct {
			Errors int
			Groups struct{ Errors int }
		}
	}
	if err := json.Unmarshal([]byte(check("--format", "json")), &report); err != nil {
		t.Fatal(err)
	}
	if report.Summary.Errors == 0 || report.Summary.Groups.Errors > 60 {
		t.Errorf("%d error findings in %d groups, want at most 60 groups", report.Summary.Errors, report.Summary.Groups.Errors)
	}
	text := check()
	if n := strings.Count(text, "\n"); n > 200 {
		t.Errorf("text is %d lines, want at most 200", n)
	}
	if !strings.HasPrefix(text, "check FAILED: ") {
		t.Errorf("text does not start with the verdict: %.80q", text)
	}
	annotations := check("--format", "githubactions")
	if n := strings.Count(annotations, "\n::error "); n > 10 || !strings.HasPrefix(annotations, "::error ") {
		t.Errorf("%d error annotations, want at most 10 (the first on the first line)", n+1)
	}
}
