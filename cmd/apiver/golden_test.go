package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
			var stdout, stderr bytes.Buffer
			if code := run(c.args, &stdout, &stderr); code == exitInput {
				t.Fatalf("apiver %s: exit %d: %s", strings.Join(c.args, " "), code, stderr.String())
			}
			path := filepath.Join("testdata", "golden", c.golden)
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
				t.Errorf("apiver %s differs from %s (-want +got):\n%s", strings.Join(c.args, " "), path, diff)
			}
		})
	}
}
