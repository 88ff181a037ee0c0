//go:build unix

package filelock

import (
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
	"golang.org/x/sys/unix"
)

// lockPath is the folder that holds target, which flock locks opened
// read-only: nothing is left beside the target. A folder this run may
// write but not read (mode 0333: a drop box) cannot be opened that way;
// there the lock is a ".NAME.lock" file beside the target, which stays, as
// on Windows.
func lockPath(target string) (path string, flag flock.Option) {
	dir := filepath.Dir(target)
	if !readable(dir) {
		return filepath.Join(dir, "."+filepath.Base(target)+".lock"), flock.SetFlag(os.O_CREATE | os.O_WRONLY)
	}
	return dir, flock.SetFlag(os.O_RDONLY)
}

// readable reports whether this run can open dir for reading; a folder
// that does not exist counts as readable, so that the error is the one
// writing would give.
var readable = func(dir string) bool {
	err := unix.Access(dir, unix.R_OK)
	return err == nil || err == unix.ENOENT
}
