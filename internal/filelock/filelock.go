// Package filelock serializes the apiver runs that rewrite the same file or
// folder: each takes an exclusive lock on a file beside its target, so that
// two runs at once (two release pipelines, a retried job) take turns
// instead of one silently undoing the other's write.
package filelock

import (
	"context"
	"errors"
	"fmt"
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

// Path is the lock file of target: ".NAME.lock" beside it, after symlinks,
// so a link and its target share one lock. The lock file stays: removing it
// would let a waiting run and a new one lock two different files.
func Path(target string) string {
	real := filepath.Clean(target)
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	return filepath.Join(filepath.Dir(real), "."+filepath.Base(real)+".lock")
}

// Lock takes the exclusive lock of target, waiting up to timeout (0: one
// try), and returns its release. The lock is the operating system's
// (flock), so a run that dies releases it.
func Lock(target string, timeout time.Duration) (unlock func(), err error) {
	path := Path(target)
	l := flock.New(path)
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
		return nil, &TimeoutError{Target: target, Lock: path, Timeout: timeout}
	default:
		return nil, fmt.Errorf("%s: cannot lock it: %w", target, err)
	}
}
