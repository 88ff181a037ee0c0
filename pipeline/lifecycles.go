package pipeline

import (
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
)

// Lifecycles loads one snapshot (a file, a folder of version documents or
// a resource tree, or REF:PATH; dated by opts.BaseDate, else its name)
// and computes the clock of every version of its operations on
// opts.Date: zero, the snapshot's date, else Today.
func Lifecycles(path string, opts Options) (policy.Clock, []policy.Lifecycle, error) {
	cfg := opts.Config
	loadOpts, _ := loadOptions(opts)
	if docs, err := ByDocument(cfg, path); err != nil || docs {
		if err != nil {
			return policy.Clock{}, nil, err
		}
		return documentLifecycles(path, loadOpts, opts)
	}
	s, err := load.Load(path, loadOpts)
	if err != nil {
		return policy.Clock{}, nil, err
	}
	product, err := cfg.ResolveProduct(s)
	if err != nil {
		return policy.Clock{}, nil, err
	}
	clock := policy.Clock{Periods: cfg.Periods(), Today: policyDate(opts.Date, s.Date)}
	return clock, clock.Lifecycles(s, versions.Operations(s.Doc, product)), nil
}

// documentLifecycles is Lifecycles for a document set.
func documentLifecycles(path string, loadOpts specs.LoadOptions, opts Options) (policy.Clock, []policy.Lifecycle, error) {
	set, err := specs.ReadDocumentSet(path, loadOpts)
	if err != nil {
		return policy.Clock{}, nil, err
	}
	if err := load.LoadDocumentSet(set, load.PairOptions{Full: opts.Full || load.FullPipelineFromEnv()}); err != nil {
		return policy.Clock{}, nil, err
	}
	s := set.Snapshot()
	clock := policy.Clock{Periods: opts.Config.Periods(), Today: policyDate(opts.Date, s.Date)}
	return clock, clock.Lifecycles(s, set.Operations()), nil
}
