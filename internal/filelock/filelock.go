// Package filelock serializes the apiver runs that rewrite the same file or
// folder: each takes an exclusive lock of the folder that holds its target
// (on Windows, of a ".NAME.lock" file beside it), so that two runs at once
// (two release pipelines, a retried job) take turns instead of one silently
// undoing the other's write. Locking the folder leaves nothing beside the
// target and needs no write permission (in a folder this run cannot read,
// mode 0333, it is a ".NAME.lock" file instead); runs writing different files of
// one folder take turns too, which costs little, as each holds the lock
// only to re-read, merge and write.
package filelock

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// DefaultTimeout is how long a run waits for another to finish with the
// same target before it gives up.
const DefaultTimeout = time.Minute

// retryDelay is how often a waiting run tries the lock again.
const retryDelay = 10 * time.Millisecond

// TimeoutError is a lock that stayed taken for the whole wait.
type TimeoutError struct {
	Target, Lock string
	Timeout      time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s: another run held its lock (%s) for longer than the %v --lock-timeout; try again, or raise --lock-timeout", e.Target, e.Lock, e.Timeout)
}

// Path is what is locked for target, after symlinks, so that a link and
// its target share one lock: the folder that holds it, or on Windows a
// ".NAME.lock" file beside it (which stays: removing it would let a waiting
// run and a new one lock two different files).
func Path(target string) string {
	path, _ := lockPath(realTarget(target))
	return path
}

func realTarget(target string) string {
	real := filepath.Clean(target)
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	return real
}

// Lock takes the exclusive lock of target, waiting up to timeout (0: one
// try), and returns its release. The lock is the operating system's
// (flock), so a run that dies releases it.
func Lock(target string, timeout time.Duration) (unlock func(), err error) {
	return LockNamed(target, target, timeout)
}

// LockNamed is Lock with errors naming the target as shown (the path the
// user gave, where target is where it leads).
func LockNamed(target, shown string, timeout time.Duration) (unlock func(), err error) {
	path, flag := lockPath(realTarget(target))
	l := flock.New(path, flag)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ok, err := l.TryLock()
	if err == nil && !ok && timeout > 0 {
		ok, err = l.TryLockContext(ctx, retryDelay)
	}
	switch {
	case ok:
		return func() { _ = l.Unlock() }, nil
	case err == nil || errors.Is(err, context.DeadlineExceeded):
		return nil, &TimeoutError{Target: shown, Lock: path, Timeout: timeout}
	default:
		if pathErr, ok := errors.AsType[*fs.PathError](err); ok {
			// A missing folder: the error writing would give.
			return nil, fmt.Errorf("%s: %w", shown, pathErr.Err)
		}
		return nil, fmt.Errorf("%s: cannot lock it: %w", shown, err)
	}
}
