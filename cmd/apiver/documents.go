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
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
)

// byDocument tells how the inputs publish their versions: as version
// documents in a folder (or REF:FOLDER), or in the media types of one
// file. The config's versioning.by decides; unset, a folder means version
// documents. Inputs of both kinds in one comparison are a usage error.
func byDocument(cfg policy.Config, paths ...string) (bool, error) {
	folders := make([]bool, len(paths))
	for i, p := range paths {
		folders[i] = p != sizelimit.Stdin && specs.IsFolder(p)
	}
	switch cfg.Versioning.By {
	case policy.ByDocument, policy.ByResource:
		for i, p := range paths {
			if !folders[i] {
				return false, fmt.Errorf("%s: versioning.by is %s: want a folder of version documents (or REF:FOLDER), not a file", p, cfg.Versioning.By)
			}
		}
		return true, nil
	case policy.ByMediaType:
		for i, p := range paths {
			if folders[i] {
				return false, fmt.Errorf("%s: a folder, but versioning.by is media-type: name the snapshot file, or set versioning.by: document for a folder of version documents", p)
			}
		}
		return false, nil
	}
	for i := 1; i < len(paths); i++ {
		if folders[i] != folders[0] {
			folder, file := paths[0], paths[i]
			if !folders[0] {
				folder, file = file, folder
			}
			if file == sizelimit.Stdin || specs.Exists(file) {
				return false, &usageError{fmt.Errorf("%s is a folder and %s a file: compare two folders of version documents, or two files", folder, file)}
			}
			// Reading the missing one as a folder says what is missing.
			return true, nil
		}
	}
	return len(paths) > 0 && folders[0], nil
}

// loadDocuments reads two document sets and loads them for their
// comparison.
func (f *pairFlags) loadDocuments(cfg policy.Config, basePath, revisionPath string) (*specs.DocumentPair, error) {
	baseOpts, revisionOpts, err := f.loadOptions(cfg)
	if err != nil {
		return nil, err
	}
	sets, err := specs.ReadDocumentSets([]string{basePath, revisionPath}, []specs.LoadOptions{baseOpts, revisionOpts})
	if err != nil {
		return nil, err
	}
	// LoadDocumentPair tells opts.Read what it holds at once.
	return specs.LoadDocumentPair(sets[0], sets[1], pairOptions(f.fullPipeline, f.verbose, f.stderr))
}

// compareDocuments is compare for two document sets.
func (f *pairFlags) compareDocuments(cfg policy.Config, basePath, revisionPath string) (*comparison, error) {
	date, err := parseDate("--date", f.date)
	if err != nil {
		return nil, err
	}
	pair, err := f.loadDocuments(cfg, basePath, revisionPath)
	if err != nil {
		return nil, err
	}
	base, revision := pair.Base.Snapshot(), pair.Revision.Snapshot()
	if date.IsZero() {
		date = revision.Date
	}
	if date.IsZero() {
		date = today()
	}
	result, err := diff.CompareDocuments(pair, diff.Options{Levels: cfg.ChangeLevels(), Date: date})
	if err != nil {
		return nil, err
	}
	var evidence policy.SnapshotEvidence
	evidence.AddPair(result.Base, result.Revision)
	noteLatestVersion(f.stderr, cfg.DetectSnapshot(evidence))
	return &comparison{base: base, revision: revision, config: cfg, date: date, result: result, documents: pair}, nil
}

// documentLifecycles loads a document set and computes the clock of every
// version of its operations on date (zero: the set's date, else today).
func documentLifecycles(cfg policy.Config, path string, opts specs.LoadOptions, date civil.Date) (policy.Clock, []policy.Lifecycle, error) {
	set, err := specs.ReadDocumentSet(path, opts)
	if err != nil {
		return policy.Clock{}, nil, err
	}
	if err := specs.LoadDocumentSet(set, specs.PairOptions{Full: specs.FullPipelineFromEnv()}); err != nil {
		return policy.Clock{}, nil, err
	}
	s := set.Snapshot()
	if date.IsZero() {
		date = s.Date
	}
	if date.IsZero() {
		date = today()
	}
	clock := policy.Clock{Periods: cfg.Periods(), Today: date}
	return clock, clock.Lifecycles(s, set.Operations()), nil
}

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
func fixDocuments(opts *fixOptions, cmp *comparison, version civil.Date) error {
	report := policy.Check(policy.Input{Base: cmp.base, Revision: cmp.revision, Result: cmp.result, Date: cmp.date, Config: cmp.config})
	revision := cmp.documents.Revision
	res, err := fix.Documents(cmp.documents, report, version)
	cmp.documents.Release()
	if err != nil {
		return err
	}
	left := report
	if res.Set != nil {
		if left, err = opts.checkFixed(opts.basePath, cmp, res.Set); err != nil {
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

// checkFixed checks the base against the fixed revision set, as check
// would once the fix is written.
func (f *pairFlags) checkFixed(basePath string, cmp *comparison, fixed *specs.DocumentSet) (*policy.Report, error) {
	baseOpts, _, err := f.loadOptions(cmp.config)
	if err != nil {
		return nil, err
	}
	// The fixed set is the revision's, in its layout.
	baseOpts.Layout = specs.LayoutDocuments
	if fixed.ByResource {
		baseOpts.Layout = specs.LayoutResources
	}
	base, err := specs.ReadDocumentSet(basePath, baseOpts)
	if err != nil {
		return nil, err
	}
	pair, err := specs.LoadDocumentPair(base, fixed, pairOptions(f.fullPipeline, false, nil))
	if err != nil {
		return nil, fmt.Errorf("the fixed documents do not load: %w", err)
	}
	defer pair.Release()
	result, err := diff.CompareDocuments(pair, diff.Options{Levels: cmp.config.ChangeLevels(), Date: cmp.date})
	if err != nil {
		return nil, err
	}
	return policy.Check(policy.Input{Base: pair.Base.Snapshot(), Revision: pair.Revision.Snapshot(), Result: result, Date: cmp.date, Config: cmp.config}), nil
}

// documentsFixedBy is fixedBy for version documents: the findings that
// fix.Documents resolves, found by checking its result; nil when it
// resolves none or cannot run.
func documentsFixedBy(opts *checkOptions, cmp *comparison, report *policy.Report) []bool {
	res, err := fix.Documents(cmp.documents, report, newVersion(civil.Date{}, cmp))
	if err != nil || res.Set == nil {
		return nil
	}
	after, err := opts.checkFixed(opts.basePath, cmp, res.Set)
	if err != nil {
		return nil
	}
	fixed := fix.Fixed(report, after)
	if !slices.Contains(fixed, true) {
		return nil
	}
	return fixed
}
