package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestGolden renders every output format of every command on the seed
// fixtures and compares it with testdata/golden (go test -update rewrites).
func TestGolden(t *testing.T) {
	const (
		base     = "testdata/seed-history/example-2026-02-08.yaml"
		revision = "testdata/seed-history/example-2026-02-09.yaml"
	)
	cases := []struct {
		golden string
		args   []string
	}{
		{"check.txt", []string{"check", base, revision}},
		{"check.json", []string{"check", "--format", "json", base, revision}},
		{"check.md", []string{"check", "--format", "markdown", base, revision}},
		{"check-exempted.txt", []string{"check", "--exemptions", "testdata/seed-history/exemptions.yaml", base, revision}},
		{"check-exempted.md", []string{"check", "--format", "markdown", "--exemptions", "testdata/seed-history/exemptions.yaml", base, revision}},
		{"check.githubactions.txt", []string{"check", "--format", "githubactions", base, revision}},
		{"check.sarif", []string{"check", "--format", "sarif", base, revision}},
		{"check-exempted.sarif", []string{"check", "--format", "sarif", "--exemptions", "testdata/seed-history/exemptions.yaml", base, revision}},
		{"check.junit.xml", []string{"check", "--format", "junit", base, revision}},
		{"check.codeclimate.json", []string{"check", "--format", "code-climate", base, revision}},
		{"diff.txt", []string{"diff", base, revision}},
		{"diff.json", []string{"diff", "--format", "json", base, revision}},
		{"diff.md", []string{"diff", "--format", "markdown", base, revision}},
		{"versions.txt", []string{"versions", revision}},
		{"versions.json", []string{"versions", "--format", "json", revision}},
		{"sunset.txt", []string{"sunset", "--date", "2024-01-01", "--within", "60d", revision}},
		{"sunset.json", []string{"sunset", "--date", "2024-01-01", "--within", "60d", "--format", "json", revision}},
		{"sunset.ics", []string{"sunset", "--date", "2024-01-01", "--within", "60d", "--format", "ics", revision}},
		{"changelog.json", []string{"changelog", "build", "testdata/seed-history"}},
		{"changelog.md", []string{"changelog", "render", "testdata/golden/changelog.json"}},
		{"changelog.txt", []string{"changelog", "render", "--format", "text", "testdata/golden/changelog.json"}},
	}
	t.Chdir("../..")
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			compareGolden(t, filepath.Join("testdata", "golden", c.golden), c.args)
		})
	}
}

// checkFormatGoldens names the golden file of every check format.
var checkFormatGoldens = map[string]string{
	"text": "txt", "json": "json", "markdown": "md", "githubactions": "githubactions.txt",
	"sarif": "sarif", "junit": "junit.xml", "code-climate": "codeclimate.json",
}

// TestGoldenCases renders every check format on each archive of
// testdata/golden-cases (its two snapshots, oldest first, checked in the
// archive's folder) and compares it with NAME.check.EXT beside it.
func TestGoldenCases(t *testing.T) {
	archives, err := filepath.Glob("testdata/golden-cases/*.txtar")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, archivePath := range archives {
		goldenDir, err := filepath.Abs(filepath.Dir(archivePath))
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(archivePath), ".txtar")
		archive, err := txtar.ParseFile(archivePath)
		if err != nil {
			t.Fatal(err)
		}
		if len(archive.Files) != 2 {
			t.Fatalf("%s: %d files, want a base and a revision", archivePath, len(archive.Files))
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range archive.Files {
				if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			base, revision := archive.Files[0].Name, archive.Files[1].Name
			for format, ext := range checkFormatGoldens {
				t.Run(format, func(t *testing.T) {
					compareGolden(t, filepath.Join(goldenDir, name+".check."+ext), []string{"check", "--format", format, base, revision})
				})
			}
		})
	}
}

// compareGolden runs apiver with args and compares its stdout with the
// file at path (-update rewrites it).
func compareGolden(t *testing.T, path string, args []string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code == exitInput {
		t.Fatalf("apiver %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	if *update {
		if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), stdout.String()); diff != "" {
		t.Errorf("apiver %s differs from %s (-want +got):\n%s", strings.Join(args, " "), path, diff)
	}
}
