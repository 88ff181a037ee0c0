package site

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// swap exchanges the new site and the old one in one atomic rename
// (renameat2 RENAME_EXCHANGE), then deletes the old one, now at tmp.
func swap(tmp, dir string) error {
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return os.RemoveAll(tmp)
	case errors.Is(err, fs.ErrNotExist):
		return os.Rename(tmp, dir)
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS):
		// Filesystems without RENAME_EXCHANGE.
		return swapInPlace(tmp, dir)
	}
	return err
}
