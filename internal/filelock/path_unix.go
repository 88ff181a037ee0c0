//go:build unix

package filelock

import (
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

func lockPath(target string) string { return filepath.Dir(target) }

// openFlag opens the folder read-only: a folder cannot be created or
// written, and flock needs neither.
var openFlag = flock.SetFlag(os.O_RDONLY)
