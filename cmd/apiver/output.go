package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/apiver/apiver/internal/atomicfile"
	"github.com/apiver/apiver/internal/filelock"
	"github.com/spf13/pflag"
)

// lockFlag declares --lock-timeout on a command that rewrites a file or a
// folder in place.
func lockFlag(fs *pflag.FlagSet, timeout *time.Duration) {
	fs.DurationVar(timeout, "lock-timeout", filelock.DefaultTimeout,
		"how long to wait while another apiver run writes to the same folder, as a `DURATION` such as 60s or 5m (exit 2 after)")
}

// withLock runs write while holding the lock of target, so that runs
// writing the same target at once take turns.
func withLock(target string, timeout time.Duration, write func() error) error {
	unlock, err := filelock.Lock(target, timeout)
	if err != nil {
		return err
	}
	defer unlock()
	return write()
}

// writeOutput renders to stdout, or with a path replaces that file
// atomically under its lock: a reader, or an interrupted run, finds the old
// file or the complete new one.
func writeOutput(path string, lockTimeout time.Duration, stdout io.Writer, render func(io.Writer) error) error {
	if path == "" {
		return render(stdout)
	}
	return withLock(path, lockTimeout, func() error {
		err := atomicfile.Write(path, 0o644, render)
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			// The error may name a temporary file; name the user's.
			return fmt.Errorf("%s: %w", path, pathErr.Err)
		}
		return err
	})
}
