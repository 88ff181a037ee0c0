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
	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/fix"
	"github.com/apiver/apiver/internal/atomicfile"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/internal/outfile"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
)

// documentMigration is the migration guide between two version documents
// of a set; in a resource tree, between the documents of each resource
// that serve the two versions (specs.DocumentSet.Serving).
func documentMigration(cfg policy.Config, path, from, to string, paths specs.PathFilter) (changelog.Migration, error) {
	set, err := specs.ReadDocumentSet(path, specs.LoadOptions{MaxSize: cfg.MaxSpecSize(), MaxNodes: cfg.MaxNodes(), Paths: paths, Layout: cfg.Layout()})
	if err != nil {
		return changelog.Migration{}, err
	}
	for _, v := range []string{from, to} {
		if set.Document(v) == nil {
			var have []string
			for _, d := range set.Documents {
				have = append(have, d.Version)
			}
			return changelog.Migration{}, fmt.Errorf("%s: no version document %s (it has %s)", path, v, strings.Join(slices.Compact(slices.Sorted(slices.Values(have))), ", "))
		}
	}
	resources := []string{""}
	if set.ByResource {
		resources = nil
		for _, d := range set.Documents {
			if !slices.Contains(resources, d.Resource) {
				resources = append(resources, d.Resource)
			}
		}
		slices.Sort(resources)
	}
	all := &diff.Result{ByDocument: true}
	for _, resource := range resources {
		docs := [2]*specs.VersionDocument{set.Serving(resource, from), set.Serving(resource, to)}
		if docs[0] == nil || docs[1] == nil || docs[0] == docs[1] {
			continue
		}
		if docs[0].Snapshot, docs[1].Snapshot, err = specs.LoadReducedPair(docs[0].Source, docs[1].Source, specs.PairOptions{Full: specs.FullPipelineFromEnv()}); err != nil {
			return changelog.Migration{}, err
		}
		res, err := diff.CompareDocumentVersions(docs[0], docs[1], diff.Options{Levels: cfg.ChangeLevels()})
		if err != nil {
			return changelog.Migration{}, err
		}
		all.Pairs = append(all.Pairs, res.Pairs...)
	}
	slices.SortStableFunc(all.Pairs, func(a, b *diff.Pair) int { return versions.CompareOperationNames(a.Operation, b.Operation) })
	m := changelog.NewMigration(from, to, all)
	m.Select = cfg.Versioning.Select.Request(to)
	return m, nil
}

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
	} else {
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
				rel := strings.TrimPrefix(strings.TrimPrefix(d.Path(), revision.Path), "/")
				files[filepath.Join(opts.outPath, filepath.FromSlash(rel))] = d.Source.Data()
			}
		case revision.Ref != "":
			return &usageError{fmt.Errorf("%s is read from git: write the fixed documents with -o FOLDER, or print them with --diff", opts.revisionPath)}
		}
		if err := writeDocuments(files, root, opts.lockTimeout); err != nil {
			return err
		}
	}
	for _, r := range res.Restored {
		fmt.Fprintf(opts.stderr, "apiver: document %s restored from the base; its changes are in document %s (%s)\n", r.Version, res.New, escape.Text(r.NewPath))
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
