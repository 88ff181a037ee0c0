package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// markerFile marks a folder as a site apiver wrote, the only kind of
// folder it replaces.
const markerFile = ".apiver-site"

// Write puts the site at dir: built in a folder beside it, then swapped in,
// so readers and an interrupted run see the old site or the new one, never
// a mix. A dir that exists must be empty or a site apiver wrote, so a wrong
// -o never deletes someone's folder.
func Write(dir string, files Files) error {
	dir = filepath.Clean(dir)
	if err := replaceable(dir); err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	// A run killed midway leaves its half-built folder; the next run clears it.
	stale, _ := filepath.Glob(filepath.Join(parent, "."+filepath.Base(dir)+".new-*"))
	for _, s := range stale {
		os.RemoveAll(s)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		target := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[p], 0o644); err != nil {
			return err
		}
	}
	// MkdirTemp makes 0700; a published site is readable by all, unless
	// the folder it replaces was not.
	perm := os.FileMode(0o755)
	if info, err := os.Stat(dir); err == nil && info.IsDir() {
		perm = info.Mode().Perm()
	}
	if err := os.Chmod(tmp, perm); err != nil {
		return err
	}
	return swap(tmp, dir)
}

func replaceable(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, markerFile)); err != nil {
		return fmt.Errorf("%s: refusing to replace a folder that is not a site written by apiver (no %s); choose an empty or new folder", dir, markerFile)
	}
	return nil
}

// swapInPlace moves the old site aside and the new one in with two
// renames, then deletes the old one; used where an atomic exchange is not
// available.
func swapInPlace(tmp, dir string) error {
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if restoreErr := os.Rename(old, dir); restoreErr != nil && !errors.Is(restoreErr, fs.ErrNotExist) {
			return errors.Join(err, restoreErr)
		}
		return err
	}
	return os.RemoveAll(old)
}
