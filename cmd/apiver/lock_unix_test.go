//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLockInWriteOnlyFolder: `changelog update` in a folder it may write
// but not read (0333) works: the folder cannot be opened to lock it, so
// the lock is a file beside the target. Root reads any folder, so as root
// the update runs as nobody, from a copy of this test binary.
func TestLockInWriteOnlyFolder(t *testing.T) {
	dir, err := os.MkdirTemp("", "apiver-write-only")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "drop"), 0o755); os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"api-2024-01-01.yaml": tinySpec("id"), "api-2024-02-01.yaml": tinySpec("id", "name")})
	drop := filepath.Join(dir, "drop")
	if err := os.Mkdir(drop, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(drop, 0o333); err != nil {
		t.Fatal(err)
	}
	args := []string{"changelog", "update", "--changelog", filepath.Join(drop, "changelog.json"), "api-2024-01-01.yaml", "api-2024-02-01.yaml"}
	cmd := apiverProcess(t, dir, args...)
	if os.Geteuid() == 0 {
		binary := filepath.Join(dir, "apiver.test")
		if err := copyFile(os.Args[0], binary); err != nil {
			t.Fatal(err)
		}
		cmd = apiverProcess(t, dir, args...)
		cmd.Path, cmd.Args[0] = binary, binary
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, err := cmd.CombinedOutput()
	if code := exitCode(err); code != exitPass || !strings.Contains(string(out), "created") {
		t.Fatalf("changelog update in a 0333 folder: exit %d: %s", code, out)
	}
	if err := os.Chmod(drop, 0o755); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(drop, "changelog.json")); err != nil || info.Size() == 0 {
		t.Errorf("no changelog written: %v", err)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
