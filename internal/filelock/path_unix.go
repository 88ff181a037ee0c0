//go:build unix

package filelock

import (
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
	"golang.org/x/sys/unix"
)

// lockPath is the folder that holds target, which flock locks opened
// read-only: nothing is left beside the target. A folder apiver may write
// but not read (mode 0333: a drop box) cannot be opened that way; there the
// lock is a ".NAME.lock" file beside the target, which stays, as on
// Windows. Which one applies depends on the folder's mode bits alone, so
// that every run on one folder, root included, takes the same lock.
func lockPath(target string) (path string, flag flock.Option) {
	dir := filepath.Dir(target)
	if info, err := os.Stat(dir); err == nil && (info.Mode().Perm()&0o444 == 0 || unix.Access(dir, unix.R_OK) != nil) {
		return filepath.Join(dir, "."+filepath.Base(target)+".lock"), flock.SetFlag(os.O_CREATE | os.O_WRONLY)
	}
	return dir, flock.SetFlag(os.O_RDONLY)
}
