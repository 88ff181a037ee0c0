//go:build !unix

package filelock

import (
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

func lockPath(target string) (path string, flag flock.Option) {
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".lock"), flock.SetFlag(os.O_CREATE | os.O_RDWR)
}
