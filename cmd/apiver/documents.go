package main

import (
	"fmt"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
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
	case policy.ByDocument:
		for i, p := range paths {
			if !folders[i] {
				return false, fmt.Errorf("%s: versioning.by is document: want a folder of version documents (or REF:FOLDER), not a file", p)
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
			return false, &usageError{fmt.Errorf("%s is a folder and %s a file: compare two folders of version documents, or two files", folder, file)}
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
	var base, revision *specs.DocumentSet
	if base, err = specs.ReadDocumentSet(basePath, baseOpts); err != nil {
		return nil, err
	}
	if revision, err = specs.ReadDocumentSet(revisionPath, revisionOpts); err != nil {
		return nil, err
	}
	opts := pairOptions(f.fullPipeline, f.verbose, f.stderr)
	opts.Read(documentBytes(base) + documentBytes(revision))
	return specs.LoadDocumentPair(base, revision, opts)
}

// documentBytes is the size of a set's documents: each is read by the
// fast pass, whose trees the comparison holds.
func documentBytes(set *specs.DocumentSet) int64 {
	var n int64
	for _, d := range set.Documents {
		n += d.Source.Size()
	}
	return n
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
	clock := policy.Clock{Months: cfg.DeprecationMonths, Today: date}
	return clock, clock.Lifecycles(s, set.Operations()), nil
}
