package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/apiver/apiver/internal/atomicfile"
)

// writeOutput renders to stdout, or with a path replaces that file
// atomically: a reader, or an interrupted run, finds the old file or the
// complete new one.
func writeOutput(path string, stdout io.Writer, render func(io.Writer) error) error {
	if path == "" {
		return render(stdout)
	}
	err := atomicfile.Write(path, 0o644, render)
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		// The error may name a temporary file; name the user's.
		return fmt.Errorf("%s: %w", path, pathErr.Err)
	}
	return err
}
