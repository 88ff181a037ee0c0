package changelog

import (
	"fmt"
	"slices"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/specs/prune"
)

// ListDocumentSnapshots finds the dated snapshot folders of a history of
// version documents (2025-02-11/, 2025-02-21/, …: the first YYYY-MM-DD in
// each folder's name), oldest first. Two folders of one date, or none at
// all, are input errors.
func ListDocumentSnapshots(dir string) ([]string, error) {
	return listDated(dir, "no dated snapshot folder (a folder of version documents with YYYY-MM-DD in its name)", func(e specs.FolderEntry) bool { return e.Dir })
}

// BuildDocuments walks snapshot folders of version documents in date order
// and records, for each one after the first, the release that leads to
// it, as Build does for snapshot files. Each pair of consecutive folders
// is read and compared on its own (specs.LoadDocumentPair), so that two
// snapshots at most are held at a time.
func BuildDocuments(dirs []string, opts BuildOptions) (*History, error) {
	read := func(i int, tree bool) (*specs.DocumentSet, error) {
		o := opts.load(i)
		if tree && o.Layout == specs.LayoutAuto {
			o.Layout = specs.LayoutResources
		}
		return specs.ReadDocumentSet(dirs[i], o)
	}
	inOrder := func(base, revision *specs.DocumentSet) error {
		return inDateOrder(inputName(base.Ref, base.Path), base.Date, inputName(revision.Ref, revision.Path), revision.Date)
	}
	return documentHistory(len(dirs), read, inOrder, opts)
}

// documentHistory compares each of n snapshots of version documents (read
// reads the i-th, as a resource tree when tree is set) with the one before
// it, after inOrder, when set, accepts the two, and builds the history of
// their releases. When one of two is found a resource tree, both are read
// so, that their versions pair.
func documentHistory(n int, read func(i int, tree bool) (*specs.DocumentSet, error), inOrder func(base, revision *specs.DocumentSet) error, opts BuildOptions) (*History, error) {
	if opts.Pair.Validator == nil {
		// Consecutive snapshots share most of their documents' parts: each
		// is read once.
		opts.Pair.Validator = prune.NewValidator()
	}
	var releases []pendingRelease
	var evidence policy.SnapshotEvidence
	for i := range n {
		if opts.Progress != nil {
			opts.Progress()
		}
		if i == 0 {
			continue
		}
		base, err := read(i-1, false)
		if err != nil {
			return nil, err
		}
		revision, err := read(i, base.ByResource)
		if err != nil {
			return nil, err
		}
		if revision.ByResource && !base.ByResource {
			if base, err = read(i-1, true); err != nil {
				return nil, err
			}
		}
		if inOrder != nil {
			if err := inOrder(base, revision); err != nil {
				return nil, err
			}
		}
		pair, err := specs.LoadDocumentPair(base, revision, opts.Pair)
		if err != nil {
			return nil, err
		}
		rel, err := documentRelease(pair, opts.Config, &evidence)
		if err != nil {
			return nil, err
		}
		releases = append(releases, rel)
	}
	return historyOf(releases, evidence, opts)
}

// UpdateDocuments adds the release of a comparison of two document sets to
// h, as Update does for two snapshot files.
func UpdateDocuments(h *History, pair *specs.DocumentPair, cfg policy.Config, detected func(policy.Detection)) (added bool, err error) {
	revision := pair.Revision.Snapshot()
	if revision.Date.IsZero() {
		return false, fmt.Errorf("%s: no date in the folder name; use --revision-date", revision.Path)
	}
	if h.Has(revision.Date.String()) {
		return false, nil
	}
	var evidence policy.SnapshotEvidence
	release, err := documentRelease(pair, cfg, &evidence)
	if err != nil {
		return false, err
	}
	if d := cfg.DetectSnapshot(evidence); d != policy.NotDetected && detected != nil {
		detected(d)
	}
	return h.Add(release.as(cfg.Snapshot))
}

// documentRelease is the release of a comparison of two document sets.
func documentRelease(pair *specs.DocumentPair, cfg policy.Config, evidence *policy.SnapshotEvidence) (pendingRelease, error) {
	defer pair.Release()
	base, revision := pair.Base.Snapshot(), pair.Revision.Snapshot()
	if revision.Date.IsZero() {
		return pendingRelease{}, fmt.Errorf("%s: no date in the folder name", revision.Path)
	}
	res, err := diff.CompareDocuments(pair, diff.Options{Levels: cfg.ChangeLevels(), Date: revision.Date})
	if err != nil {
		return pendingRelease{}, err
	}
	evidence.AddPair(res.Base, res.Revision)
	return releaseOf(base, revision, res, cfg), nil
}

// BuildDocumentFolder builds the history of one folder of version
// documents, the folder check reads as one snapshot: each date a document
// carries is a release, from the documents before it to those up to it.
// Each release reads the folder afresh, so that no comparison shares the
// loaded documents of another.
func BuildDocumentFolder(dir string, opts BuildOptions) (*History, error) {
	all, err := specs.ReadDocumentSet(dir, opts.load(0))
	if err != nil {
		return nil, err
	}
	var dates []civil.Date
	for _, d := range all.Documents {
		dates = append(dates, d.Date)
	}
	slices.SortFunc(dates, func(a, b civil.Date) int { return a.Compare(b) })
	dates = slices.Compact(dates)
	read := func(i int, _ bool) (*specs.DocumentSet, error) {
		// Every release reads the whole folder, so its layout is found once.
		set, err := specs.ReadDocumentSet(dir, opts.load(0))
		if err != nil {
			return nil, err
		}
		set.Documents = slices.DeleteFunc(set.Documents, func(d *specs.VersionDocument) bool { return d.Date.After(dates[i]) })
		set.Date = dates[i]
		return set, nil
	}
	return documentHistory(len(dates), read, nil, opts)
}
