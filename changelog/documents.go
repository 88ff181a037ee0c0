package changelog

import (
	"fmt"

	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
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
// it, as Build does for snapshot files (pipeline.DocumentSeries).
func BuildDocuments(dirs []string, opts BuildOptions) (*History, error) {
	return build(opts, func(each func(pipeline.Step) error) error { return pipeline.DocumentSeries(dirs, opts.Options, each) })
}

// UpdateDocuments adds the release of a comparison of two document sets to
// h, as Update does for two snapshot files.
func UpdateDocuments(h *History, pair *specs.DocumentPair, cfg policy.Config, detected func(policy.Detection)) (added bool, err error) {
	defer pair.Release()
	revision := pair.Revision.Snapshot()
	if revision.Date.IsZero() {
		return false, fmt.Errorf("%s: no date in the folder name; use --revision-date", revision.Path)
	}
	if h.Has(revision.Date.String()) {
		return false, nil
	}
	step, err := pipeline.DocumentStep(pair, cfg)
	if err != nil {
		return false, err
	}
	return addStep(h, step, cfg, detected)
}

// BuildDocumentFolder builds the history of one folder of version
// documents, the folder check reads as one snapshot: each date a document
// carries is a release (pipeline.DocumentFolderSeries).
func BuildDocumentFolder(dir string, opts BuildOptions) (*History, error) {
	return build(opts, func(each func(pipeline.Step) error) error {
		return pipeline.DocumentFolderSeries(dir, opts.Options, each)
	})
}
