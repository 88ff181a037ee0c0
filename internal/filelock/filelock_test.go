package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestLockIsExclusiveAndReleased(t *testing.T) {
	t.Parallel()
	target := filepath.Join(t.TempDir(), "changelog.json")
	unlock, err := Lock(target, 0)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to an open file: a second open in the same process
	// contends like another process would.
	if _, err := Lock(target, 0); !errors.As(err, new(*TimeoutError)) {
		t.Fatalf("second Lock = %v, want a *TimeoutError", err)
	}
	unlock()
	unlock, err = Lock(target, 0)
	if err != nil {
		t.Fatalf("Lock after release: %v", err)
	}
	unlock()
}

// A link and its target are one file, so they take one lock.
func TestLinkSharesItsTargetsLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "real", "changelog.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "changelog.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if Path(link) != Path(target) {
		t.Errorf("lock of the link %s, of the target %s", Path(link), Path(target))
	}
}
