//go:build unix

package outfile

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// readerWait is how long a write into a named pipe waits for a reader to
// open it: long enough for one started just before apiver, short enough
// that a pipe nobody reads fails the run instead of hanging it.
var readerWait = 5 * time.Second

// openStream opens a device, a pipe or a descriptor for writing, as named:
// never created, never truncated (a file behind /dev/stdout is appended
// to, as the shell's redirection left it). A pipe is opened without
// waiting, so that one without a reader cannot hang the run.
func openStream(path string) (*os.File, error) {
	deadline := time.Now().Add(readerWait)
	for {
		fd, err := unix.Open(path, unix.O_WRONLY|unix.O_APPEND|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err == nil {
			// Writes wait for a slow reader instead of failing.
			if err := unix.SetNonblock(fd, false); err != nil {
				unix.Close(fd)
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			return os.NewFile(uintptr(fd), path), nil
		}
		if !errors.Is(err, unix.ENXIO) {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if time.Now().After(deadline) {
			return nil, &Error{path, fmt.Sprintf("a named pipe that nothing read within %v: nothing written", readerWait)}
		}
		time.Sleep(20 * time.Millisecond)
	}
}
