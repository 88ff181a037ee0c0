package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apiver/apiver/internal/nonet"
	"github.com/rogpeppe/go-internal/txtar"
)

// badCaseTimeout turns a hang (a $ref cycle followed forever) into a
// failure instead of a stuck CI job; every case takes well under a second.
const badCaseTimeout = time.Minute

// badCaseMaxAlloc bounds what one case may allocate (each takes under 3
// MiB): an expanded alias bomb, or a file just above the 32 MiB limit that
// was read before it was refused, would take more.
const badCaseMaxAlloc = 16 << 20

// TestBadInput runs every case of testdata/bad: the archive's comment holds
// the setup steps and the command line, its files the inputs, and its want
// section the exit code and then the stderr line (exit 2) or the findings
// (see summarizeFindings). An input error must be one line on stderr that
// names a file of the case, with nothing on stdout; no case may panic, hang,
// allocate without bound or make a network request.
// go test -update rewrites the want sections.
func TestBadInput(t *testing.T) {
	cases, err := filepath.Glob("../../testdata/bad/*.txtar")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no bad-input cases found: %v", err)
	}
	requests := nonet.Block(t)
	for _, file := range cases {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			before := requests.Load()
			runBadCase(t, file)
			if n := requests.Load() - before; n != 0 {
				t.Errorf("%d HTTP requests were made, want none", n)
			}
		})
	}
}

// badCase is an archive's comment: setup steps, the command line, and the
// files that must be left untouched.
type badCase struct {
	setup     [][]string
	args      []string
	unchanged []string
}

// parseBadCase reads the comment. Lines starting with # are prose; the one
// line starting with "apiver" is the command; before it may come
//
//	truncate FILE SIZE       make FILE SIZE bytes long (sparse: no disk used)
//	gzip FILE                replace FILE with its gzip compression
//	symlink LINK -> TARGET   make a symbolic link
//	mkfifo FILE              make a named pipe (nobody writes to it)
//
// and after it
//
//	unchanged FILE           FILE must still hold the archive's bytes
func parseBadCase(comment []byte) (badCase, error) {
	var c badCase
	for line := range strings.Lines(string(comment)) {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		switch fields[0] {
		case "apiver":
			c.args = fields[1:]
		case "truncate", "gzip", "symlink", "mkfifo":
			c.setup = append(c.setup, fields)
		case "unchanged":
			c.unchanged = append(c.unchanged, fields[1:]...)
		default:
			return c, fmt.Errorf("unknown step %q", line)
		}
	}
	if c.args == nil {
		return c, errors.New("no apiver command line")
	}
	return c, nil
}

func runBadCase(t *testing.T, file string) {
	archive, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseBadCase(archive.Comment)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(file)
	dir := t.TempDir()
	wantIndex := -1
	inputs := map[string][]byte{}
	for i, f := range archive.Files {
		if f.Name == "want" {
			wantIndex = i
			continue
		}
		inputs[f.Name] = f.Data
		writeCaseFile(t, filepath.Join(dir, f.Name), f.Data)
	}
	if wantIndex < 0 {
		t.Fatal("no want section")
	}
	for _, step := range c.setup {
		setUpBadCase(t, dir, step)
	}
	t.Chdir(dir)

	code, stdout, stderr, alloc := runBounded(t, c.args)
	got := summarizeFindings(t, code, []byte(stdout), stderr)
	if code == exitInput {
		checkInputError(t, stdout, stderr, archive, c)
	}
	t.Logf("allocated %d KiB", alloc>>10)
	if alloc > badCaseMaxAlloc {
		t.Errorf("apiver %s allocated %d MiB, want at most %d MiB", strings.Join(c.args, " "), alloc>>20, badCaseMaxAlloc>>20)
	}
	for _, name := range c.unchanged {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if !bytes.Equal(data, inputs[name]) {
			t.Errorf("%s was changed:\n%s", name, data)
		}
	}

	compareWant(t, abs, archive, wantIndex, got, "apiver "+strings.Join(c.args, " "))
}

// runBounded runs the CLI under the case timeout, turning a panic into a
// test failure, and measures what it allocated.
func runBounded(t *testing.T, args []string) (code int, stdout, stderr string, alloc uint64) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
		panicked       string
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r.panicked = fmt.Sprintf("%v\n%s", p, debug.Stack())
			}
			done <- r
		}()
		var out, errOut bytes.Buffer
		r.code = run(args, &out, &errOut)
		r.stdout, r.stderr = out.String(), errOut.String()
	}()
	select {
	case r := <-done:
		runtime.ReadMemStats(&after)
		if r.panicked != "" {
			t.Fatalf("apiver %s panicked: %s", strings.Join(args, " "), r.panicked)
		}
		return r.code, r.stdout, r.stderr, after.TotalAlloc - before.TotalAlloc
	case <-time.After(badCaseTimeout):
		t.Fatalf("apiver %s did not finish within %v", strings.Join(args, " "), badCaseTimeout)
		return 0, "", "", 0
	}
}

// checkInputError asserts the shape of an input error: nothing on stdout,
// one line on stderr naming a file or folder of the case (as
// "apiver: FILE: ..." or "apiver: FILE:LINE: ...").
func checkInputError(t *testing.T, stdout, stderr string, archive *txtar.Archive, c badCase) {
	t.Helper()
	if stdout != "" {
		t.Errorf("stdout is not empty:\n%s", stdout)
	}
	line, ok := strings.CutSuffix(stderr, "\n")
	if !ok || strings.Contains(line, "\n") {
		t.Errorf("stderr is not exactly one line: %q", stderr)
	}
	rest, ok := strings.CutPrefix(line, "apiver: ")
	if !ok {
		t.Errorf("stderr %q does not start with \"apiver: \"", line)
	}
	var names []string
	for _, f := range archive.Files {
		names = append(names, f.Name, filepath.Dir(f.Name))
	}
	for _, step := range c.setup {
		names = append(names, step[1])
	}
	names = append(names, c.args...)
	for _, name := range names {
		if name != "." && strings.HasPrefix(rest, name+":") {
			return
		}
	}
	t.Errorf("stderr %q names no file of the case", line)
}

func writeCaseFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func setUpBadCase(t *testing.T, dir string, step []string) {
	t.Helper()
	switch {
	case step[0] == "truncate" && len(step) == 3:
		size, err := strconv.ParseInt(step[2], 10, 64)
		if err != nil {
			t.Fatalf("truncate %s: %v", step[2], err)
		}
		path := filepath.Join(dir, step[1])
		writeCaseFile(t, path, nil)
		if err := os.Truncate(path, size); err != nil {
			t.Fatal(err)
		}
	case step[0] == "gzip" && len(step) == 2:
		path := filepath.Join(dir, step[1])
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = zw.Write(data)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		writeCaseFile(t, path, b.Bytes())
	case step[0] == "symlink" && len(step) == 4 && step[2] == "->":
		if err := os.Symlink(step[3], filepath.Join(dir, step[1])); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	case step[0] == "mkfifo" && len(step) == 2:
		path := filepath.Join(dir, step[1])
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := mkfifo(path); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	default:
		t.Fatalf("bad step %q", strings.Join(step, " "))
	}
}

// A file name or a document may hold line breaks; the error line escapes them.
func TestOneLine(t *testing.T) {
	got := oneLine("history: a\nb.yaml and c\rd.yaml\u2028e\x00 have the same date")
	if want := `history: a\nb.yaml and c\rd.yaml\u2028e\x00 have the same date`; got != want {
		t.Errorf("oneLine = %q, want %q", got, want)
	}
}
