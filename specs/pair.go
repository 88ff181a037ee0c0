package specs

import (
	"os"

	"golang.org/x/sync/errgroup"
)

// FullPipelineEnv names the environment variable that, set to 1, makes
// every comparison load both documents whole, as --full-pipeline does.
const FullPipelineEnv = "APIVER_FULL_PIPELINE"

// FullPipelineFromEnv reports whether FullPipelineEnv asks for the full
// pipeline.
func FullPipelineFromEnv() bool { return os.Getenv(FullPipelineEnv) == "1" }

// PairOptions control how the two snapshots of a comparison are loaded.
type PairOptions struct {
	// Full loads both documents whole: the full pipeline, which the reduced
	// one must match byte for byte.
	Full bool
	// Note, when set, is told in one line how the pair was loaded: what was
	// reduced, or why a document was loaded whole.
	Note func(string)
}

// LoadDiffPair reads and loads the base and revision of a comparison. The
// snapshots are for diff.Compare only: see LoadReducedPair.
func LoadDiffPair(basePath, revisionPath string, baseOpts, revisionOpts LoadOptions, opts PairOptions) (base, revision *Snapshot, err error) {
	var baseSrc, revSrc *Source
	var g errgroup.Group
	g.Go(func() (err error) { baseSrc, err = Read(basePath, baseOpts); return err })
	g.Go(func() (err error) { revSrc, err = Read(revisionPath, revisionOpts); return err })
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	return LoadReducedPair(baseSrc, revSrc, opts)
}

// LoadReducedPair loads two sources for a comparison of base with revision.
func LoadReducedPair(base, revision *Source, opts PairOptions) (b, r *Snapshot, err error) {
	var g errgroup.Group
	g.Go(func() (err error) { b, err = base.Load(); return err })
	g.Go(func() (err error) { r, err = revision.Load(); return err })
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	return b, r, nil
}
