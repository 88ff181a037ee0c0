// Package oasdiffdirect is oasdiff used directly, without apiver: the
// baseline apiver's speed is measured against.
package oasdiffdirect

import (
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"
)

// Run is what `oasdiff changelog` does: load both specs with origins, diff
// them, and run every check down to INFO.
func Run(basePath, revisionPath string) (checker.Changes, error) {
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true
	base, err := load.NewSpecInfo(loader, load.NewSource(basePath))
	if err != nil {
		return nil, err
	}
	revision, err := load.NewSpecInfo(loader, load.NewSource(revisionPath))
	if err != nil {
		return nil, err
	}
	report, sources, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(), base, revision)
	if err != nil {
		return nil, err
	}
	return checker.CheckBackwardCompatibilityUntilLevel(checker.NewConfig(checker.GetAllChecks()), report, sources, checker.INFO), nil
}

// LoadEach loads each spec once with kin-openapi, as oasdiff loads it, one
// after the other in one process: the baseline of a history build.
func LoadEach(paths []string) error {
	for _, path := range paths {
		loader := openapi3.NewLoader()
		loader.IncludeOrigin = true
		if _, err := load.NewSpecInfo(loader, load.NewSource(path)); err != nil {
			return err
		}
	}
	return nil
}
