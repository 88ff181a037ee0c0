// Package atomicfile replaces files so that a reader, or a run interrupted
// at any point, finds the old file or the complete new one: never a mix, and
// no temporary file left beside it.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// Write replaces path with what write produces. The new file is written
// beside the old one and renamed into place only once write succeeded and
// the data is on disk; when write fails, the old file stays as it was.
// write may run twice: again when the file system cannot hold an unnamed
// file. A path that is a symlink is written through: its target is
// replaced and the link stays.
func Write(path string, perm os.FileMode, write func(io.Writer) error) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	removeStale(path)
	if err := anonymous(path, perm, write); !errors.Is(err, errNoAnonymous) {
		return err
	}
	return writeRenamed(path, perm, write)
}

// WriteFile is Write of bytes.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

var errNoAnonymous = errors.New("anonymous temporary files not supported")

// anonymous is writeAnonymous; tests take it away to exercise the fallback.
var anonymous = writeAnonymous

func writeBuffered(w io.Writer, write func(io.Writer) error) error {
	b := bufio.NewWriterSize(w, 64<<10)
	if err := write(b); err != nil {
		return err
	}
	return b.Flush()
}

// staleName matches the temporary names this package and renameio give a
// file's replacement: ".<name>" followed by digits or ".tmp-" and digits.
func staleName(base string) *regexp.Regexp {
	return regexp.MustCompile(`^\.` + regexp.QuoteMeta(base) + `(\.tmp-)?[0-9]+$`)
}

// removeStale deletes what a run killed between naming its new file and
// renaming it left behind.
func removeStale(path string) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	stale := staleName(base)
	for _, e := range entries {
		if e.Type().IsRegular() && stale.MatchString(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
