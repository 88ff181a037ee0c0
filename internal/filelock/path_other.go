//go:build !unix

package filelock

import (
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

func lockPath(target string) string {
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".lock")
}

var openFlag = flock.SetFlag(os.O_CREATE | os.O_RDWR)
