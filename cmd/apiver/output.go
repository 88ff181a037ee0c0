package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/apiver/apiver/internal/filelock"
	"github.com/apiver/apiver/internal/outfile"
	"github.com/spf13/pflag"
)

// lockFlag declares --lock-timeout on a command that rewrites a file or a
// folder in place.
func lockFlag(fs *pflag.FlagSet, timeout *time.Duration) {
	*timeout = filelock.DefaultTimeout
	fs.Var(waitFlag{timeout}, "lock-timeout",
		"how long to wait while another apiver run writes to the same folder, as a `DURATION` such as 60s or 5m (exit 2 after)")
}

// waitFlag is a duration to wait: none below zero.
type waitFlag struct{ d *time.Duration }

func (f waitFlag) String() string {
	if f.d == nil {
		return ""
	}
	return f.d.String()
}

func (f waitFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("not a duration such as 60s or 5m")
	}
	if d < 0 {
		return errors.New("a time to wait is not negative")
	}
	*f.d = d
	return nil
}

func (f waitFlag) Type() string { return "duration" }

// withLock runs write while holding the lock of target, so that runs
// writing the same target at once take turns; errors name the target as
// named, shown.
func withLock(shown, target string, timeout time.Duration, write func() error) error {
	unlock, err := filelock.LockNamed(target, shown, timeout)
	if err != nil {
		return err
	}
	defer unlock()
	return write()
}

// refuseInput refuses an output file that is one of the files the command
// reads: writing it would replace what the output is made from (a history
// rendered over itself, a report written over the spec it judges).
func refuseInput(output string, inputs ...string) error {
	if output == "" || output == "-" {
		return nil
	}
	out, err := os.Stat(output)
	if err != nil {
		return nil // a new file is no input
	}
	for _, in := range inputs {
		if info, err := os.Stat(in); err == nil && os.SameFile(out, info) {
			return fmt.Errorf("%s: is the input %s: refused, so that the output does not replace what it is made from", output, in)
		}
	}
	return nil
}

// writeOutput renders to stdout, or writes the file at path as the output
// policy says (package outfile): a regular file replaced atomically under
// its lock, so a reader or an interrupted run finds the old file or the
// complete new one; a device, a named pipe or /dev/stdout written into; a
// link out of the work tree, a folder or a socket refused.
func writeOutput(path string, lockTimeout time.Duration, stdout io.Writer, render func(io.Writer) error) error {
	if path == "" {
		return render(stdout)
	}
	t, err := outfile.Resolve(path)
	if err != nil {
		return err
	}
	switch t.Kind {
	case outfile.Folder:
		return fmt.Errorf("%s: is a folder: name a file", path)
	case outfile.Stream:
		// Nothing to replace, so nothing to take turns on.
		return t.Write(0o644, render)
	}
	return withLock(path, t.Real, lockTimeout, func() error { return t.Write(0o644, render) })
}

// fileTarget resolves the regular file a command reads and rewrites in
// place (changelog update's history), refusing a stream or a folder.
func fileTarget(path, what string) (*outfile.Target, error) {
	t, err := outfile.Resolve(path)
	if err != nil {
		return nil, err
	}
	switch t.Kind {
	case outfile.Folder:
		return nil, fmt.Errorf("%s: is a folder: %s is a file", path, what)
	case outfile.Stream:
		return nil, fmt.Errorf("%s: not a regular file (%s): %s is read and replaced, so it must be one", path, t.What, what)
	}
	return t, nil
}
