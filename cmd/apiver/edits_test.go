package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/internal/corpus"
)

// checkGroups runs check --format json and returns its root changes.
func checkGroups(t *testing.T, args ...string) []struct{ Severity, Change, Message string } {
	t.Helper()
	var report struct {
		Groups []struct{ Severity, Change, Message string }
	}
	out := runCheck(t, exitPolicy, append([]string{"check", "--format", "json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	return report.Groups
}

// TestSeedEditsAreRootChanges: the seed's 2026-02-09 release removes
// values from four enums, one value a line, and raises minItems in seven
// alert configuration schemas. Each edit is one root change.
func TestSeedEditsAreRootChanges(t *testing.T) {
	t.Chdir("../..")
	errs := 0
	for _, g := range checkGroups(t, "testdata/seed-history/example-2026-02-08.yaml", "testdata/seed-history/example-2026-02-09.yaml") {
		if g.Severity == "error" {
			errs++
		}
	}
	if errs > 6 {
		t.Errorf("%d error root changes, want at most 6", errs)
	}
}

// TestRealSiblingEditIsOneRootChange: on the real pair 2024-11-19 →
// 2024-12-19 a pattern added to `notifierId` in every notification type is
// one root change of the check and one line of the history (and so of the
// site and the feed), not one per type.
func TestRealSiblingEditIsOneRootChange(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: loads two large snapshots")
	}
	const base, revision = "atlas-api-2024-11-19.yaml", "atlas-api-2024-12-19.yaml"
	config, err := filepath.Abs("testdata/atlas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(corpus.Unpack(t, base, revision))
	n := 0
	for _, g := range checkGroups(t, "--config", config, base, revision) {
		if g.Change == "request-property-pattern-added" && strings.Contains(g.Message, "`notifierId`") {
			n++
			if !strings.Contains(g.Message, "in 14 notification schemas") {
				t.Errorf("the notifierId root change does not name its schemas: %s", g.Message)
			}
		}
	}
	if n != 1 {
		t.Errorf("the notifierId pattern is %d root changes, want 1", n)
	}

	// The history, its site and feed read it as one line too.
	out := filepath.Join(t.TempDir(), "history.json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"changelog", "build", "--config", config, ".", "-o", out}, &stdout, &stderr); code != exitPass {
		t.Fatalf("changelog build: exit %d: %s", code, stderr.String())
	}
	h, err := changelog.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	releases, err := h.Releases()
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, l := range changelog.Lines(releases[0], changelog.NewLifecycles(releases)) {
		if l.ID == "request-property-pattern-added" && strings.Contains(l.Text, "notifierId") {
			lines++
			if !strings.Contains(l.Text, "in 14 notification variants") {
				t.Errorf("the notifierId line does not name its schemas: %s", l.Text)
			}
		}
	}
	if lines != 1 {
		t.Errorf("the notifierId pattern is %d lines of the history, want 1", lines)
	}
}
