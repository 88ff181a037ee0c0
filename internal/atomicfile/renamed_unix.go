//go:build !windows

package atomicfile

import (
	"io"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// writeRenamed writes a named temporary file beside path and renames it
// over path (renameio: synced, then renamed).
func writeRenamed(path string, perm os.FileMode, write func(io.Writer) error) error {
	f, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)), renameio.WithStaticPermissions(perm))
	if err != nil {
		return err
	}
	defer f.Cleanup()
	if err := writeBuffered(f, write); err != nil {
		return err
	}
	return f.CloseAtomicallyReplace()
}
