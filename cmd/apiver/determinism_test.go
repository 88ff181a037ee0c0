package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apiver/apiver/internal/longtest"
)

// TestDeterminism runs every command as its own process three times with
// GOMAXPROCS=1 and three times with GOMAXPROCS=8 (ten times each in the
// long suite): stdout, stderr, the exit code and every file written must be
// the same bytes each time.
func TestDeterminism(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: runs apiver 6 times per command")
	}
	t.Parallel()
	runs := 3
	if longtest.Enabled() {
		runs = 5
	}
	seed, _ := filepath.Abs("../../testdata/seed-history")
	golden, _ := filepath.Abs("../../testdata/golden/changelog.json")
	base, revision := filepath.Join(seed, "example-2026-02-08.yaml"), filepath.Join(seed, "example-2026-02-09.yaml")
	commands := [][]string{
		{"check", base, revision},
		{"check", "--format", "json", base, revision},
		{"check", "--format", "sarif", "--output", "junit=out/check.xml", "--output", "githubactions=out/check.txt", "--output", "markdown=out/check.md", "--output", "code-climate=out/check.codeclimate.json", base, revision},
		{"check", "--exemptions", filepath.Join(seed, "exemptions.yaml"), "--format", "markdown", base, revision},
		{"diff", "--format", "json", base, revision},
		{"diff", "--format", "markdown", base, revision},
		{"versions", "--format", "json", revision},
		{"sunset", "--date", "2024-01-01", "--within", "60d", "--format", "ics", "-o", "out/sunset.ics", filepath.Join(seed, "example-2023-02-01.yaml")},
		{"changelog", "build", seed, "-o", "out/changelog.json"},
		{"changelog", "render", golden},
		{"changelog", "migrate", filepath.Join(seed, "example-2023-02-01.yaml"), "--from", "2023-01-01", "--to", "2023-02-01", "--format", "json"},
		{"site", golden, "-o", "out/site", "--snapshot", filepath.Join(seed, "example-2026-02-11.yaml")},
		{"rules", "--format", "json"},
		{"fix", base, revision, "-o", "out/fixed.yaml"},
		{"fix", "--diff", base, revision},
		{"check", base, filepath.Join(seed, "missing.yaml")},
	}
	for _, args := range commands {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			var (
				mu      sync.Mutex
				outputs = map[string][]string{}
				wg      sync.WaitGroup
			)
			// Two at a time: one per core of a small CI machine.
			for _, procs := range []string{"1", "8"} {
				wg.Go(func() {
					for range runs {
						out := describeProcess(t, procs, args)
						mu.Lock()
						outputs[out] = append(outputs[out], procs)
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			if len(outputs) != 1 {
				var kinds []string
				for out, procs := range outputs {
					kinds = append(kinds, fmt.Sprintf("%d runs (GOMAXPROCS %v):\n%.2000s", len(procs), slices.Compact(slices.Sorted(slices.Values(procs))), out))
				}
				t.Errorf("apiver %s gave %d different results:\n%s", strings.Join(args, " "), len(outputs), strings.Join(kinds, "\n---\n"))
			}
		})
	}
}

// describeProcess runs apiver in a fresh folder and describes everything it
// produced: exit code, stdout, stderr and a digest of each file written.
func describeProcess(t *testing.T, procs string, args []string) string {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Error(err)
		return ""
	}
	r := runProcess(hangGuard, dir, []string{"GOMAXPROCS=" + procs}, args...)
	if r.code == -1 {
		t.Error(r.stderr)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "exit %d\nstdout %x\nstderr %s\n", r.code, sha256.Sum256([]byte(r.stdout)), r.stderr)
	err := filepath.WalkDir(filepath.Join(dir, "out"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(&b, "%s %x\n", rel, sha256.Sum256(data))
		return err
	})
	if err != nil {
		t.Error(err)
	}
	return b.String()
}
