package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite golden files and the want sections of txtar cases")

// TestRules runs every case in testdata/rules/<rule>/<case>.txtar: the
// archive's comment is the command line, its files are the snapshots, and
// its want section the exit code and the findings, one line each, by rule
// id, operation, version, change and location (never message text). For a
// `diff` command line the lines are the changes, by level, change id,
// operation, version and location.
func TestRules(t *testing.T) {
	cases, err := filepath.Glob("../../testdata/rules/*/*.txtar")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no rule cases found: %v", err)
	}
	for _, file := range cases {
		name := strings.TrimSuffix(strings.TrimPrefix(file, "../../testdata/rules/"), ".txtar")
		t.Run(name, func(t *testing.T) { runRuleCase(t, file) })
	}
}

func runRuleCase(t *testing.T, file string) {
	archive, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(file)
	wantIndex := slices.IndexFunc(archive.Files, func(f txtar.File) bool { return f.Name == "want" })
	if wantIndex < 0 {
		t.Fatal("no want section")
	}
	t.Chdir(extractCase(t, archive))
	args := append(strings.Fields(strings.TrimSpace(string(archive.Comment))), "--format", "json")
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	got := summarizeFindings(t, code, stdout.Bytes(), stderr.String())

	compareWant(t, abs, archive, wantIndex, got, "apiver "+strings.Join(args, " "))
}

// extractCase writes a case's files, all but its want section, into a new
// temporary folder and returns it.
func extractCase(t *testing.T, archive *txtar.Archive) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range archive.Files {
		if f.Name == "want" {
			continue
		}
		path := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// summarizeFindings is the exit code, then one line per finding of a
// check, or per change of a diff (by level, change id, operation, version
// and location), or the input error.
func summarizeFindings(t *testing.T, code int, stdout []byte, stderr string) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "exit %d\n", code)
	if code == exitInput {
		fmt.Fprintf(&b, "stderr %s", stderr)
		return b.String()
	}
	var report struct {
		Findings []policy.Finding
		Changes  []diff.Change
	}
	if err := json.Unmarshal(stdout, &report); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	for _, f := range report.Findings {
		fmt.Fprintf(&b, "%s %s %q %s %s %s", f.Severity, f.Rule, f.Operation, dash(f.Version), dash(f.Change), locationText(f.Location))
		if f.Exempted {
			b.WriteString(" exempted")
		}
		b.WriteString("\n")
	}
	for _, c := range report.Changes {
		fmt.Fprintf(&b, "%s %s %q %s %s\n", c.Level, c.ID, c.Operation, dash(c.Version), locationText(c.Location))
	}
	return b.String()
}

func locationText(l *diff.Location) string {
	if l == nil {
		return "-"
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// compareWant compares got with the archive's want section, or with
// -update rewrites that section.
func compareWant(t *testing.T, path string, archive *txtar.Archive, wantIndex int, got, what string) {
	t.Helper()
	if *update {
		archive.Files[wantIndex].Data = []byte(got)
		if err := os.WriteFile(path, txtar.Format(archive), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(string(archive.Files[wantIndex].Data), got); diff != "" {
		t.Errorf("%s: result differs (-want +got):\n%s", what, diff)
	}
}
