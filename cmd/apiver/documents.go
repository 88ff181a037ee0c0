package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/fix"
	"github.com/apiver/apiver/internal/atomicfile"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/internal/outfile"
	"github.com/apiver/apiver/pipeline"
)

// fixDocuments fixes a revision set of version documents (fix.Documents)
// and checks the result: the documents restored and the new one are
// written in place in the revision's folder, or with -o the whole fixed
// set into a folder, or with --diff their unified diff.
func fixDocuments(opts *fixOptions, cmp *pipeline.Comparison, version civil.Date) error {
	report := cmp.Check()
	revision := cmp.Documents.Revision
	res, err := fix.Documents(cmp.Documents, report, version)
	cmp.Documents.Release()
	if err != nil {
		return err
	}
	left := report
	if res.Set != nil {
		if left, err = cmp.CheckFixed(res.Set); err != nil {
			return err
		}
	}
	if opts.unified {
		original := map[string][]byte{}
		for _, d := range revision.Documents {
			original[d.Path()] = d.Source.Data()
		}
		out := res.Unified(func(path string) []byte { return original[path] })
		if err := writeOutput(opts.outPath, opts.lockTimeout, opts.out, func(w io.Writer) error { _, err := w.Write(out); return err }); err != nil {
			return err
		}
	}
	// With -o, each document is written at its place in that folder.
	written := func(path string) string {
		if opts.outPath == "" || opts.unified {
			return path
		}
		return filepath.Join(opts.outPath, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(path, revision.Path), "/")))
	}
	if !opts.unified {
		files, root := res.Files, revision.Path
		switch {
		case opts.outPath != "":
			if info, err := os.Stat(opts.outPath); err == nil && !info.IsDir() {
				return &usageError{fmt.Errorf("%s: not a folder: -o names the folder the fixed documents are written into", opts.outPath)}
			}
			set := res.Set
			if set == nil {
				set = revision // nothing fixed: the revision as it is
			}
			files, root = map[string][]byte{}, opts.outPath
			for _, d := range set.Documents {
				// Only the documents are written: a file they $ref would be
				// missing beside them.
				if ref := fix.FirstExternalRef(d.Source.Data()); ref != "" {
					return fmt.Errorf("%s: $ref %q names a file that -o %s would not hold: fix the documents in place, or print the fix with --diff", d.Path(), ref, opts.outPath)
				}
				files[written(d.Path())] = d.Source.Data()
			}
		case revision.Ref != "":
			return &usageError{fmt.Errorf("%s is read from git: write the fixed documents with -o FOLDER, or print them with --diff", opts.revisionPath)}
		}
		if err := writeDocuments(files, root, opts.lockTimeout); err != nil {
			return err
		}
	}
	for _, r := range res.Restored {
		fmt.Fprintf(opts.stderr, "apiver: document %s restored from the base; its changes are in document %s (%s)\n", r.Version, res.New, escape.Text(written(r.NewPath)))
	}
	return notFixable(opts.stderr, left)
}

// writeDocuments writes a fix's documents into the folder root named on
// the command line, all or none: every target is checked first (a regular
// file, or a new one, inside root or the git work tree, links resolved),
// and a refusal writes nothing. Then the folders missing are made and each
// file is replaced atomically under its lock.
func writeDocuments(files map[string][]byte, root string, lockTimeout time.Duration) error {
	paths := slices.Sorted(maps.Keys(files))
	targets := make([]*outfile.Target, len(paths))
	for i, path := range paths {
		t, err := outfile.ResolveIn(path, root)
		if err != nil {
			return err
		}
		if t.Kind != outfile.File {
			return &outfile.Error{Path: path, Msg: "not a regular file: fix writes a document only as a regular file, or a new one"}
		}
		targets[i] = t
	}
	// A file is written beside its target and renamed over it: a folder
	// that takes no new file, or a target that takes no write (read-only,
	// immutable), would stop the fix half-way, so each is tried first.
	for i, t := range targets {
		if err := t.Writable(); err != nil {
			return fmt.Errorf("%s: %w: nothing written", paths[i], err)
		}
	}
	var batch atomicfile.Batch
	for i, t := range targets {
		if err := os.MkdirAll(filepath.Dir(t.Real), 0o755); err != nil {
			return err
		}
		if err := withLock(paths[i], t.Real, lockTimeout, func() error {
			return t.WriteIn(&batch, 0o644, func(w io.Writer) error { _, err := w.Write(files[paths[i]]); return err })
		}); err != nil {
			return err
		}
	}
	return nil
}
