package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// outputCase is a command that writes the file OUT stands for.
type outputCase struct {
	name string
	args []string
}

// writers are every command that writes a file it is given, with OUT for
// the file; changelog update, which reads its file first, is apart.
var writers = []outputCase{
	{"sunset", []string{"sunset", "api-2024-01-01.yaml", "-o", "OUT"}},
	{"check --output", []string{"check", "api-2024-01-01.yaml", "api-2024-02-01.yaml", "--output", "sarif=OUT"}},
	{"changelog build", []string{"changelog", "build", "history", "-o", "OUT"}},
	{"changelog render", []string{"changelog", "render", "changelog.json", "-o", "OUT"}},
	{"fix", []string{"fix", "api-2024-01-01.yaml", "api-2024-02-01.yaml", "-o", "OUT"}},
}

var updateCase = outputCase{"changelog update", []string{"changelog", "update", "--changelog", "OUT", "api-2024-01-01.yaml", "api-2024-02-01.yaml"}}

// outputInputs writes the inputs of the writers into dir.
func outputInputs(t *testing.T, dir string) {
	t.Helper()
	specs := map[string]string{"api-2024-01-01.yaml": tinySpec("id"), "api-2024-02-01.yaml": tinySpec("id", "name")}
	writeFiles(t, dir, specs)
	if err := os.Mkdir(filepath.Join(dir, "history"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, filepath.Join(dir, "history"), specs)
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	if code := run([]string{"changelog", "build", "history", "-o", "changelog.json"}, &out, &errOut); code != exitPass {
		t.Fatalf("changelog build: exit %d: %s", code, errOut.String())
	}
}

func (c outputCase) with(out string) []string {
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.Replace(a, "OUT", out, 1)
	}
	return args
}

func runCase(args []string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func modeOf(t *testing.T, path string) fs.FileMode {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode()
}

// TestOutputIntoCharacterDevice: a character device given as the output is
// written into, never replaced by a regular file (run as root, `-o
// /dev/null` once replaced /dev/null). changelog update, which reads its
// file, refuses one.
func TestOutputIntoCharacterDevice(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("mknod needs root on Linux")
	}
	dir := t.TempDir()
	outputInputs(t, dir)
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("mknod: %v", err)
	}
	for _, c := range append(writers, updateCase) {
		code, _, stderr := runCase(c.with(dev))
		if c.name == updateCase.name {
			if code != exitInput || !strings.Contains(stderr, dev) {
				t.Errorf("%s: exit %d (%s), want 2 naming the device", c.name, code, stderr)
			}
		} else if code == exitInput {
			t.Errorf("%s: exit 2: %s", c.name, stderr)
		}
		if m := modeOf(t, dev); m&fs.ModeCharDevice == 0 {
			t.Fatalf("%s: the device was replaced: %v", c.name, m)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".null") {
			t.Errorf("left beside the device: %s", e.Name())
		}
	}
}

// TestOutputIntoNamedPipe: a named pipe given as the output is written
// into, and what was written reaches its reader; it stays a pipe.
func TestOutputIntoNamedPipe(t *testing.T) {
	dir := t.TempDir()
	outputInputs(t, dir)
	for i, c := range writers {
		fifo := filepath.Join(dir, "pipe"+string(rune('a'+i)))
		if err := mkfifo(fifo); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		got := make(chan string)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- err.Error()
				return
			}
			data, _ := io.ReadAll(f)
			f.Close()
			got <- string(data)
		}()
		code, _, stderr := runCase(c.with(fifo))
		if code == exitInput {
			t.Errorf("%s: exit 2: %s", c.name, stderr)
		}
		if read := <-got; len(read) == 0 {
			t.Errorf("%s: the reader got nothing", c.name)
		}
		if m := modeOf(t, fifo); m&fs.ModeNamedPipe == 0 {
			t.Errorf("%s: the pipe was replaced: %v", c.name, m)
		}
	}
}

// TestOutputThroughDescriptorLink: a link to the process's standard
// output (what /dev/stdout is) is written into: the output reaches the
// pipe, and the link stays.
func TestOutputThroughDescriptorLink(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/1"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	dir := t.TempDir()
	outputInputs(t, dir)
	link := filepath.Join(dir, "stdout")
	if err := os.Symlink("/proc/self/fd/1", link); err != nil {
		t.Fatal(err)
	}
	for _, c := range writers {
		for _, out := range []string{link, "/dev/stdout"} {
			cmd := apiverProcess(t, dir, c.with(out)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if code := exitCode(cmd.Run()); code == exitInput {
				t.Errorf("%s -o %s: exit 2: %s", c.name, out, stderr.String())
			}
			if stdout.Len() == 0 {
				t.Errorf("%s -o %s: nothing reached the pipe", c.name, out)
			}
		}
		if m := modeOf(t, link); m&fs.ModeSymlink == 0 {
			t.Fatalf("%s: the link was replaced: %v", c.name, m)
		}
	}
}

// gitWorkTree makes dir/repo a git work tree and returns it.
func gitWorkTree(t *testing.T, dir string) string {
	t.Helper()
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		// A .git folder is what marks a work tree.
		t.Logf("git init: %v: %s; making .git by hand", err, out)
		if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

// TestOutputLinkOutOfWorkTree: a link in a git work tree whose target is
// outside it is refused by every writer, naming the link and the target,
// and the target keeps its content; a link that stays inside is written
// through and stays a link.
func TestOutputLinkOutOfWorkTree(t *testing.T) {
	dir := t.TempDir()
	repo := gitWorkTree(t, dir)
	outputInputs(t, repo)
	outside := filepath.Join(dir, "outside", "runner-file.json")
	if err := os.MkdirAll(filepath.Dir(outside), 0o755); err != nil {
		t.Fatal(err)
	}
	const kept = "the runner's own file\n"
	if err := os.WriteFile(outside, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{outside, filepath.Join("..", "outside", "runner-file.json")} {
		if err := os.Remove("out.json"); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.Symlink(target, "out.json"); err != nil {
			t.Fatal(err)
		}
		for _, c := range append(writers, updateCase) {
			code, _, stderr := runCase(c.with("out.json"))
			if code != exitInput || !strings.Contains(stderr, "out.json") || !strings.Contains(stderr, "runner-file.json") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s through a link to %s: exit %d, stderr %q; want 2 and one line naming the link and its target", c.name, target, code, stderr)
			}
			if got, _ := os.ReadFile(outside); string(got) != kept {
				t.Fatalf("%s overwrote the file outside the work tree: %q", c.name, got)
			}
			if m := modeOf(t, "out.json"); m&fs.ModeSymlink == 0 {
				t.Fatalf("%s replaced the link", c.name)
			}
		}
	}

	// A folder link out, for site -o.
	if err := os.MkdirAll(filepath.Join(dir, "outside", "site"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "outside", "site"), "public"); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCase([]string{"site", "changelog.json", "-o", "public"}); code != exitInput || !strings.Contains(stderr, "public") {
		t.Errorf("site -o through a link out: exit %d, %q; want 2 naming the link", code, stderr)
	}

	// Inside: written through.
	if err := os.MkdirAll("shared", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("shared", "in.json"), "in.json"); err != nil {
		t.Fatal(err)
	}
	for _, c := range append(writers, updateCase) {
		if c.name == updateCase.name {
			// The writers left a file that is not a history.
			if err := os.Remove(filepath.Join("shared", "in.json")); err != nil {
				t.Fatal(err)
			}
		}
		if code, _, stderr := runCase(c.with("in.json")); code == exitInput {
			t.Errorf("%s through a link inside the work tree: exit 2: %s", c.name, stderr)
		}
		if m := modeOf(t, "in.json"); m&fs.ModeSymlink == 0 {
			t.Fatalf("%s replaced the link inside", c.name)
		}
		if info, err := os.Stat(filepath.Join("shared", "in.json")); err != nil || info.Size() == 0 {
			t.Errorf("%s wrote nothing through the link: %v", c.name, err)
		}
	}
	if err := os.Symlink("shared", "site-link"); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join("shared", "site"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove("site-link"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("shared", "site"), "site-link"); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCase([]string{"site", "changelog.json", "-o", "site-link"}); code != exitPass {
		t.Errorf("site -o through a link inside: exit %d: %s", code, stderr)
	}
	if m := modeOf(t, "site-link"); m&fs.ModeSymlink == 0 {
		t.Error("site -o replaced the link to the site's folder")
	}
	if _, err := os.Stat(filepath.Join("shared", "site", "index.html")); err != nil {
		t.Errorf("the site was not written through the link: %v", err)
	}
}

// TestOutputLinkOutOfNamedFolder: outside git, the folder named on the
// command line bounds where a link may lead.
func TestOutputLinkOutOfNamedFolder(t *testing.T) {
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	outputInputs(t, work)
	if err := os.WriteFile(filepath.Join(dir, "elsewhere.txt"), []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "elsewhere.txt"), "out.txt"); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCase([]string{"sunset", "api-2024-01-01.yaml", "-o", "out.txt"})
	if code != exitInput || !strings.Contains(stderr, "out.txt") || !strings.Contains(stderr, "elsewhere.txt") {
		t.Errorf("exit %d, %q; want 2 naming the link and its target", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "elsewhere.txt")); string(got) != "kept\n" {
		t.Errorf("the file outside was overwritten: %q", got)
	}
}
