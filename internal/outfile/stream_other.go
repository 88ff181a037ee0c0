//go:build !unix

package outfile

import "os"

// openStream opens a device or a pipe for writing, as named: never
// created, never truncated.
func openStream(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
}
