//go:build !linux

package atomicfile

import (
	"io"
	"os"
)

func writeAnonymous(string, os.FileMode, func(io.Writer) error) error { return errNoAnonymous }
