package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// writeAnonymous writes into an unnamed file (O_TMPFILE) that the kernel
// discards if the process dies, names it only once its data is on disk, and
// renames it over path at once: a kill leaves a named temporary only in the
// microseconds between the two.
func writeAnonymous(path string, perm os.FileMode, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, uint32(perm))
	if err != nil {
		if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EINVAL) {
			return errNoAnonymous
		}
		return &os.PathError{Op: "create", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	if err := writeBuffered(f, write); err != nil {
		return err
	}
	// The umask applied at open; the file gets exactly perm, as renameio's
	// static permissions do.
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	tmp := filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d", filepath.Base(path), rand.Uint64()))
	if err := unix.Linkat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", fd), unix.AT_FDCWD, tmp, unix.AT_SYMLINK_FOLLOW); err != nil {
		if errors.Is(err, unix.ENOENT) {
			// No /proc to name the file by.
			return errNoAnonymous
		}
		return &os.PathError{Op: "link", Path: tmp, Err: err}
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
