// Package corpus finds the shared corpus of real dated snapshots for tests
// and benchmarks, which skip when it is absent (a clone without ../shared).
package corpus

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apiver/apiver/internal/longtest"
)

// Dir is the folder of gzipped snapshots: $APIVER_CORPUS, or
// ../shared/corpus/atlas beside the module root.
func Dir() (string, bool) {
	if dir := os.Getenv("APIVER_CORPUS"); dir != "" {
		return dir, true
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			corpus := filepath.Join(dir, "..", "shared", "corpus", "atlas")
			_, err := os.Stat(corpus)
			return corpus, err == nil
		}
		if dir == filepath.Dir(dir) {
			return "", false
		}
	}
}

// Names lists the snapshot file names (without .gz), oldest first.
func Names(tb testing.TB) []string {
	dir := require(tb)
	matches, err := filepath.Glob(filepath.Join(dir, "*.yaml.gz"))
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, m := range matches {
		names = append(names, strings.TrimSuffix(filepath.Base(m), ".gz"))
	}
	slices.Sort(names)
	return names
}

// Texts reads every snapshot, by name, for a long test that holds a
// property over all of them: none unless the long tests run and the corpus
// is there.
func Texts(tb testing.TB) map[string][]byte {
	if _, ok := Dir(); !ok || !longtest.Enabled() {
		return nil
	}
	names := Names(tb)
	dir := Unpack(tb, names...)
	texts := map[string][]byte{}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			tb.Fatal(err)
		}
		texts[name] = data
	}
	return texts
}

// Unpack writes the named snapshots (or all, with none named), uncompressed,
// into a temporary folder and returns it.
func Unpack(tb testing.TB, names ...string) string {
	tb.Helper()
	dir := require(tb)
	if len(names) == 0 {
		names = Names(tb)
	}
	out := tb.TempDir()
	if err := unpack(dir, out, names); err != nil {
		tb.Fatal(err)
	}
	return out
}

// shared is the whole corpus unpacked once per test process.
var shared struct {
	once sync.Once
	dir  string
	err  error
}

// Shared is every snapshot, unpacked once per test process into a folder
// the tests that read the whole corpus share: they must not write into it.
// RemoveShared, called after the tests, deletes it.
func Shared(tb testing.TB) string {
	tb.Helper()
	dir := require(tb)
	names := Names(tb)
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "apiver-corpus-")
		if shared.err == nil {
			shared.err = unpack(dir, shared.dir, names)
		}
	})
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
	return shared.dir
}

// RemoveShared deletes the folder Shared unpacked into, if any.
func RemoveShared() {
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
}

func unpack(from, to string, names []string) error {
	for _, name := range names {
		if err := gunzip(filepath.Join(from, name+".gz"), filepath.Join(to, name)); err != nil {
			return err
		}
	}
	return nil
}

func require(tb testing.TB) string {
	tb.Helper()
	// Benchmarks are opt-in already (-bench); tests of the corpus are long.
	if _, benchmark := tb.(*testing.B); !benchmark {
		longtest.Require(tb, "the real corpus")
	}
	dir, ok := Dir()
	if !ok {
		tb.Skip("skipped: the shared corpus (../shared/corpus/atlas) is absent")
	}
	return dir
}

func gunzip(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		return err
	}
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, zr); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
