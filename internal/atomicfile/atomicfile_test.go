package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func withAndWithoutAnonymous(t *testing.T, test func(t *testing.T)) {
	t.Run("anonymous", test)
	t.Run("renameio", func(t *testing.T) {
		anonymous = func(string, os.FileMode, func(io.Writer) error) error { return errNoAnonymous }
		defer func() { anonymous = writeAnonymous }()
		test(t)
	})
}

func only(t *testing.T, dir string, want string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != want {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the folder holds %q, want only %q", names, want)
	}
}

func TestWriteReplaces(t *testing.T) {
	withAndWithoutAnonymous(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "changelog.json")
		for _, content := range []string{"first\n", "second\n"} {
			if err := WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil || string(got) != content {
				t.Fatalf("read %q, %v; want %q", got, err, content)
			}
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644", info.Mode().Perm())
		}
		only(t, filepath.Dir(path), "changelog.json")
	})
}

// TestWriterFailingMidway: a write that fails after part of the new
// content leaves the old file whole and nothing beside it.
func TestWriterFailingMidway(t *testing.T) {
	withAndWithoutAnonymous(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "site.ics")
		if err := os.WriteFile(path, []byte("old calendar\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		broken := errors.New("disk on fire")
		err := Write(path, 0o644, func(w io.Writer) error {
			// More than the buffer, so part of it reaches the file.
			if _, err := w.Write(make([]byte, 200<<10)); err != nil {
				return err
			}
			return broken
		})
		if !errors.Is(err, broken) {
			t.Fatalf("Write: %v, want the writer's error", err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != "old calendar\n" {
			t.Errorf("after a failed write the file is %q (%v), want the old one", got, err)
		}
		only(t, filepath.Dir(path), "site.ics")
	})
}

func TestWriteClearsWhatAKilledRunLeft(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "changelog.json")
	for _, stale := range []string{".changelog.json.tmp-123", ".changelog.json4567"} {
		if err := os.WriteFile(filepath.Join(dir, stale), []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Not a temporary of ours: kept.
	if err := os.WriteFile(filepath.Join(dir, ".changelog.json.bak"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("left: %v, want changelog.json and .changelog.json.bak", entries)
	}
}

// TestBatchClearsWhatKilledRunsLeft: a batch that lists its folders once
// clears the temporaries of every file it writes, in each folder, as Write
// does, and keeps the rest.
func TestBatchClearsWhatKilledRunsLeft(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := []string{"api.2024-01-01.yaml", "api.2024-02-01.yaml", filepath.Join("2024-03-01", "spec.yaml")}
	for _, f := range files {
		d, name := filepath.Split(filepath.Join(dir, f))
		for _, left := range []string{"." + name + ".tmp-123", "." + name + "4567", "." + name + ".bak"} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, left), []byte("half"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	var b Batch
	for _, f := range files {
		if err := b.Write(filepath.Join(dir, f), 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
			t.Fatal(err)
		}
	}
	var left []string
	if err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			left = append(left, filepath.ToSlash(rel))
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{".api.2024-01-01.yaml.bak", ".api.2024-02-01.yaml.bak", "2024-03-01/.spec.yaml.bak", "2024-03-01/spec.yaml", "api.2024-01-01.yaml", "api.2024-02-01.yaml"}
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
}

// A file kept behind a symlink (a changelog in a shared folder) is updated
// through the link: the target gets the new content, the link stays a link.
func TestWriteThroughSymlink(t *testing.T) {
	withAndWithoutAnonymous(t, func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "shared", "changelog.json")
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "changelog.json")
		if err := os.Symlink(filepath.Join("shared", "changelog.json"), link); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
		if err := WriteFile(link, []byte("new\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v, %v", info.Mode(), err)
		}
		if got, _ := os.ReadFile(target); string(got) != "new\n" {
			t.Errorf("target holds %q, want the new content", got)
		}
	})
}

// TestWriteKeepsPermissions: a private file replaced stays private; perm is
// a new file's.
func TestWriteKeepsPermissions(t *testing.T) {
	withAndWithoutAnonymous(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "changelog.json")
		if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(path, []byte("new\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, %v; want 0600 as before", info.Mode().Perm(), err)
		}
	})
}
