package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apiver/apiver/internal/filelock"
	"github.com/apiver/apiver/internal/longtest"
)

// tinySpec is a one-operation snapshot whose response adds a property in
// each release, so every release records a change.
func tinySpec(properties ...string) string {
	var b strings.Builder
	b.WriteString(`openapi: 3.0.3
info: {title: Widgets, version: "1"}
paths:
  /widgets:
    get:
      responses:
        "200":
          description: OK
          content:
            application/vnd.example.2024-01-01+json:
              schema:
                type: object
                properties:
`)
	for _, p := range properties {
		fmt.Fprintf(&b, "                  %s: {type: string}\n", p)
	}
	return b.String()
}

// writeFiles writes each file under dir, the folders on its path made.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// recordedDates reads the dates a changelog records.
func recordedDates(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var releases []struct{ Date string }
	if err := json.Unmarshal(data, &releases); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	var dates []string
	for _, r := range releases {
		dates = append(dates, r.Date)
	}
	return dates
}

// TestConcurrentUpdate runs two `changelog update`s with different releases
// on one changelog at once, as two release pipelines would: both releases
// are kept, every round (10; 100 in the long suite). The changelog is
// reached through a symlink in half of the rounds, which must stay a link.
func TestConcurrentUpdate(t *testing.T) {
	t.Parallel()
	rounds := 10
	if longtest.Enabled() && !testing.Short() {
		rounds = 100
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"api-2024-01-01.yaml": tinySpec("id"),
		"api-2024-02-01.yaml": tinySpec("id", "name"),
		"api-2024-03-01.yaml": tinySpec("id", "name", "size"),
	})
	if err := os.Mkdir(filepath.Join(dir, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "shared", "changelog.json")
	link := filepath.Join(dir, "changelog.json")
	if err := os.Symlink(filepath.Join("shared", "changelog.json"), link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	updates := [][]string{
		{"api-2024-01-01.yaml", "api-2024-02-01.yaml"},
		{"api-2024-02-01.yaml", "api-2024-03-01.yaml"},
	}
	for round := range rounds {
		if err := os.WriteFile(target, []byte("[]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		name := target
		if round%2 == 1 {
			name = link
		}
		var wg sync.WaitGroup
		outputs := make([]string, len(updates))
		codes := make([]int, len(updates))
		for i, pair := range updates {
			// One through the link, one by the target's own name in odd
			// rounds: both are one file and take one lock.
			changelog := name
			if i == 1 {
				changelog = target
			}
			cmd := apiverProcess(t, dir, "changelog", "update", "--changelog", changelog, pair[0], pair[1])
			wg.Go(func() {
				out, err := cmd.CombinedOutput()
				outputs[i], codes[i] = string(out), exitCode(err)
			})
		}
		wg.Wait()
		for i := range updates {
			if codes[i] != exitPass || !strings.Contains(outputs[i], "added the release of") {
				t.Fatalf("round %d: update %d: exit %d: %s", round, i, codes[i], outputs[i])
			}
		}
		if got := strings.Join(recordedDates(t, target), " "); got != "2024-03-01 2024-02-01" {
			t.Fatalf("round %d: the changelog records %q, want both releases", round, got)
		}
		if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("round %d: the changelog's link was replaced by a file", round)
		}
	}
}

// A run that cannot get the lock within --lock-timeout gives up with exit 2
// and leaves the file alone.
func TestLockTimeout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"api-2024-01-01.yaml": tinySpec("id"),
		"api-2024-02-01.yaml": tinySpec("id", "name"),
		"changelog.json":      "[]\n",
		"history.json":        "[]\n",
	})
	changelog := filepath.Join(dir, "changelog.json")
	unlock, err := filelock.Lock(changelog, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	cmd := apiverProcess(t, dir, "changelog", "update", "--lock-timeout", "100ms", "--changelog", "changelog.json", "api-2024-01-01.yaml", "api-2024-02-01.yaml")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if code := exitCode(cmd.Run()); code != exitInput {
		t.Fatalf("exit %d, want %d; stderr: %s", code, exitInput, stderr.String())
	}
	if msg := stderr.String(); !strings.HasPrefix(msg, "apiver: changelog.json: ") || !strings.Contains(msg, "--lock-timeout") || strings.Count(msg, "\n") != 1 {
		t.Errorf("stderr %q: want one line naming the file and --lock-timeout", msg)
	}
	if got, _ := os.ReadFile(changelog); string(got) != "[]\n" {
		t.Errorf("the changelog was changed without the lock: %s", got)
	}
	// Every command that writes a file or folder waits for the same lock.
	for _, args := range [][]string{
		{"changelog", "render", "history.json", "-o", "changelog.json"},
		{"changelog", "build", ".", "-o", "changelog.json"},
		{"sunset", "api-2024-02-01.yaml", "-o", "changelog.json"},
		{"check", "--output", "json=changelog.json", "api-2024-01-01.yaml", "api-2024-02-01.yaml"},
	} {
		cmd := apiverProcess(t, dir, append(args, "--lock-timeout", "0s")...)
		out, err := cmd.CombinedOutput()
		if code := exitCode(err); code != exitInput || !strings.Contains(string(out), "--lock-timeout") {
			t.Errorf("apiver %s: exit %d, %s; want exit 2 for the held lock", strings.Join(args, " "), code, out)
		}
	}
}

// Named pipes, devices and /dev/stdin are refused at once, before anything
// waits on them; "-" reads standard input explicitly.
func TestSpecialFilesAreRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"api-2024-01-01.yaml": tinySpec("id"),
		"ref-2024-01-01.yaml": strings.Replace(tinySpec("id"), "type: object", "$ref: ./fifo.yaml", 1),
		"changelog.json":      "[]\n",
	})
	if err := mkfifo(filepath.Join(dir, "fifo.yaml")); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	for _, tt := range []struct {
		args  []string
		named string
	}{
		{[]string{"versions", "fifo.yaml"}, "fifo.yaml"},
		{[]string{"versions", "/dev/stdin"}, "/dev/stdin"},
		{[]string{"versions", "ref-2024-01-01.yaml"}, "ref-2024-01-01.yaml"},
		{[]string{"check", "--config", "fifo.yaml", "api-2024-01-01.yaml", "api-2024-01-01.yaml"}, "fifo.yaml"},
		{[]string{"changelog", "render", "fifo.yaml"}, "fifo.yaml"},
		{[]string{"changelog", "update", "--changelog", "fifo.yaml", "api-2024-01-01.yaml", "api-2024-01-01.yaml"}, "fifo.yaml"},
		{[]string{"versions", os.DevNull}, os.DevNull},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cmd := apiverProcess(t, dir, tt.args...)
			// Standard input is a pipe nobody writes to and nobody closes:
			// reading it would never end.
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			defer r.Close()
			cmd.Stdin = r
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if code := exitCode(cmd.Run()); code != exitInput {
				t.Fatalf("exit %d, want %d; stderr: %s", code, exitInput, stderr.String())
			}
			msg := stderr.String()
			if !strings.HasPrefix(msg, "apiver: "+tt.named) || !strings.Contains(msg, "not a regular file") || strings.Count(msg, "\n") != 1 {
				t.Errorf("stderr %q: want one line naming %s as not a regular file", msg, tt.named)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout: %s", stdout.String())
			}
		})
	}
}

// "-" reads the snapshot from standard input, under the same size limit.
func TestStdinDash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := apiverProcess(t, dir, "versions", "--format", "json", "-")
	cmd.Stdin = strings.NewReader(tinySpec("id"))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "2024-01-01") {
		t.Fatalf("versions -: %v\n%s", err, out)
	}

	// Standard input can be read once.
	cmd = apiverProcess(t, dir, "check", "-", "-")
	cmd.Stdin = strings.NewReader(tinySpec("id"))
	out, err = cmd.CombinedOutput()
	if code := exitCode(err); code != exitInput || !strings.Contains(string(out), "not both") {
		t.Errorf("check - -: exit %d, %s", code, out)
	}

	writeFiles(t, dir, map[string]string{"apiver.yaml": "maxSpecSizeMiB: 1\n"})
	cmd = apiverProcess(t, dir, "versions", "-")
	cmd.Stdin = strings.NewReader(tinySpec("id") + "# " + strings.Repeat("x", 2<<20) + "\n")
	out, err = cmd.CombinedOutput()
	if code := exitCode(err); code != exitInput || !strings.Contains(string(out), "size limit") {
		t.Errorf("versions - over the limit: exit %d, %s", code, out)
	}
}
