//go:build unix

package sizelimit

import (
	"os"
	"syscall"
)

// openNonBlocking opens path without waiting: opening a named pipe for
// reading would otherwise block until a writer comes. O_NONBLOCK changes
// nothing for a regular file.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
