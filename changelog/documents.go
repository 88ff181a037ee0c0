package changelog

import (
	"fmt"

	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
)

// UpdateDocuments adds the release of a comparison of two document sets to
// h, as Update does for two snapshot files.
func UpdateDocuments(h *History, pair *load.DocumentPair, cfg policy.Config, detected func(policy.Detection)) (added bool, err error) {
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
