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
	"strings"
)

// Write replaces path with what write produces. The new file is written
// beside the old one and renamed into place only once write succeeded and
// the data is on disk; when write fails, the old file stays as it was.
// write may run twice: again when the file system cannot hold an unnamed
// file. A path that is a symlink is written through: its target is
// replaced and the link stays. A file replaced keeps its permissions; perm
// is a new file's.
func Write(path string, perm os.FileMode, write func(io.Writer) error) error {
	return new(Batch).Write(path, perm, write)
}

// Batch replaces many files, each as Write does, but lists each folder for
// the temporaries of killed runs once rather than once a file: replacing
// every file of a folder of thousands would otherwise take time in the
// square of their number. Removing a temporary from the listing is still
// safe when each file is written under its lock: one that is still there
// then belongs to no live writer of that file. The zero Batch is ready; it
// is not for concurrent use.
type Batch struct {
	// hidden are, by folder, the names of its regular files that start
	// with a dot, as listed by the first write into it.
	hidden map[string][]string
}

// Write is Write of path, its folder listed once for the whole batch.
func (b *Batch) Write(path string, perm os.FileMode, write func(io.Writer) error) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	// A file replaced keeps its permissions: a private one stays private.
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		perm = info.Mode().Perm()
	}
	b.removeStale(path)
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
func (b *Batch) removeStale(path string) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	hidden, listed := b.hidden[dir]
	if !listed {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Type().IsRegular() && strings.HasPrefix(e.Name(), ".") {
				hidden = append(hidden, e.Name())
			}
		}
		if b.hidden == nil {
			b.hidden = map[string][]string{}
		}
		b.hidden[dir] = hidden
	}
	stale := staleName(base)
	for _, name := range hidden {
		if stale.MatchString(name) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}
