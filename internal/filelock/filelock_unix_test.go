//go:build unix

package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLockInFolderThatCannotBeRead: where the folder cannot be opened for
// reading (mode 0333 for anyone but root), the lock is a file beside the
// target, exclusive all the same.
func TestLockInFolderThatCannotBeRead(t *testing.T) {
	defer func(r func(string) bool) { readable = r }(readable)
	readable = func(string) bool { return false }
	dir := t.TempDir()
	target := filepath.Join(dir, "changelog.json")
	if err := os.Chmod(dir, 0o333); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if got, want := Path(target), filepath.Join(dir, ".changelog.json.lock"); got != want {
		t.Fatalf("Path = %s, want %s", got, want)
	}
	unlock, err := Lock(target, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(target, 0); !errors.As(err, new(*TimeoutError)) {
		t.Fatalf("second Lock = %v, want a *TimeoutError", err)
	}
	unlock()
}
