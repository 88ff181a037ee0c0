package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestResolveKinds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]Kind{file: File, filepath.Join(dir, "new.json"): File, dir: Folder, "/dev/null": Stream, "/dev/stdout": Stream}
	for path, want := range cases {
		got, err := Resolve(path)
		if err != nil || got.Kind != want {
			t.Errorf("Resolve(%s) = %+v, %v; want kind %d", path, got, err, want)
		}
	}
}

// TestStreamWithoutReader: a named pipe that nobody opens for reading
// fails the write after a short wait instead of hanging, and stays a
// pipe.
func TestStreamWithoutReader(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no named pipes")
	}
	defer func(w time.Duration) { readerWait = w }(readerWait)
	readerWait = 50 * time.Millisecond
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	target, err := Resolve(fifo)
	if err != nil || target.Kind != Stream {
		t.Fatalf("Resolve = %+v, %v", target, err)
	}
	err = target.Write(0o644, func(w io.Writer) error { _, err := io.WriteString(w, "report"); return err })
	if e := new(Error); !errors.As(err, &e) || !strings.Contains(err.Error(), "nothing read") {
		t.Errorf("Write = %v, want a refusal", err)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v", err)
	}
}

// TestResolveRefusesOtherFiles: a socket is neither a file to replace nor
// a stream to write into.
func TestResolveRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no unix sockets")
	}
	dir, err := os.MkdirTemp("", "sock")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Skip(err)
	}
	if _, err := Resolve(sock); err == nil || !strings.Contains(err.Error(), "a socket") {
		t.Errorf("Resolve(socket) = %v, want a refusal", err)
	}
}

// TestResolveRefusesLinkIntoGit: a link inside a work tree that leads into
// its .git folder is refused; one to a file of the work tree is not.
func TestResolveRefusesLinkIntoGit(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"into-git.sarif": ".git/config", "inside.sarif": "reports/apiver.sarif"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Resolve(filepath.Join(dir, "into-git.sarif")); err == nil || !strings.Contains(err.Error(), ".git folder") {
		t.Errorf("Resolve(link into .git) = %v, want a refusal", err)
	}
	if got, err := Resolve(filepath.Join(dir, "inside.sarif")); err != nil || got.Kind != File {
		t.Errorf("Resolve(link inside the work tree) = %+v, %v; want a file", got, err)
	}
}

// TestWritableRefusesAFolderThatTakesNoFile: a writer of many files tries
// every target before it writes one, so a folder that takes no new file
// stops it before anything changed.
func TestWritableRefusesAFolderThatTakesNoFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into any folder")
	}
	dir := t.TempDir()
	locked := filepath.Join(dir, "2024-02-01")
	if err := os.Mkdir(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	if err := targetOf(t, filepath.Join(locked, "spec.yaml")).Writable(); err == nil {
		t.Error("writable accepted a folder without write permission")
	}
	if err := targetOf(t, filepath.Join(dir, "2024-03-01", "spec.yaml")).Writable(); err != nil {
		t.Errorf("writable refused a new folder's file: %v", err)
	}
}

func targetOf(t *testing.T, path string) *Target {
	t.Helper()
	target, err := Resolve(path)
	if err != nil {
		t.Fatal(err)
	}
	return target
}
