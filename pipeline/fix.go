package pipeline

import (
	"bytes"
	"fmt"
	"slices"
	"sync"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/fix"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"go.yaml.in/yaml/v3"
)

// Fix fixes the compared revision file and holds the result to the fix's
// promise (fix.Verify): what `apiver fix` writes, and what check offers.
// Its check of the fixed text loads only what differs from the base, and
// reads the rest from the comparison's diff (fix.Options.Checked). version
// names the new version; zero: NewVersion's. Version documents are fixed
// by fix.Documents, and their result checked by CheckFixed.
func (c *Comparison) Fix(report *policy.Report, version civil.Date) (*fix.Result, *policy.Report, error) {
	if c.Documents != nil {
		return nil, nil, fmt.Errorf("%s: a folder of version documents: fix it with fix.Documents", c.Revision.Path)
	}
	product, err := c.Config.ResolveProduct(c.Base, c.Revision)
	if err != nil {
		return nil, nil, err
	}
	if version.IsZero() {
		version = c.NewVersion()
	}
	opts := fix.Options{Config: c.Config, Date: c.Date, Product: product, Version: version.String(), AllowRemoteRefs: c.opts.AllowRemoteRefs}
	if c.sources != nil {
		if c.opts.Budget != nil {
			// Sized for one load, the budget would have the collector run
			// again and again while the fix's loads sit beside the
			// comparison's.
			c.opts.Budget(2 * (c.sources.base.Size() + c.sources.revision.Size()))
		}
		opts.LoadChanges, opts.Checked = c.sources.loadChanges, c.Result
		opts.LoadAgainstRevision = c.sources.againstRevision
		if !c.sources.opts.Full {
			opts.Trees = c.sources.tree
			// A revision the check let go is parsed again copying what it
			// shares with the base.
			c.sources.revision.ShareParse(c.sources.base)
		}
	}
	res, left, err := fix.Run(c.Base, c.Revision, report, opts)
	if err != nil {
		return nil, nil, err
	}
	// Nothing is written unless the result keeps the fix's promise.
	if err := fix.Verify(c.Base, c.Revision, report, left, res, opts); err != nil {
		return nil, nil, err
	}
	return res, left, nil
}

// NewVersion names a fix's new version: the revision's date from its name
// or its commit, else the policy's date, as for a work-tree file.
func (c *Comparison) NewVersion() civil.Date {
	if !c.Revision.Date.IsZero() {
		return c.Revision.Date
	}
	return c.Date
}

// FixedBy tells which of the report's findings `apiver fix` resolves, by
// running it as the check's suggestion would: the check offers the fix
// for exactly those. Nil when nothing is fixable or the fix cannot run (an
// input read from standard input cannot be read again; a fix that fails
// fixes nothing).
func (c *Comparison) FixedBy(report *policy.Report) []bool {
	if !slices.ContainsFunc(report.Findings, policy.Finding.Fixable) {
		return nil
	}
	var after *policy.Report
	if c.Documents != nil {
		res, err := fix.Documents(c.Documents, report, c.NewVersion())
		if err != nil || res.Set == nil {
			return nil
		}
		if after, err = c.CheckFixed(res.Set); err != nil {
			return nil
		}
	} else {
		if c.basePath == sizelimit.Stdin || c.revisionPath == sizelimit.Stdin {
			return nil // read once: the fix cannot read it again
		}
		var err error
		if _, after, err = c.Fix(report, civil.Date{}); err != nil {
			return nil
		}
	}
	fixed := fix.Fixed(report, after)
	if !slices.Contains(fixed, true) {
		return nil
	}
	return fixed
}

// CheckFixed checks the base against a fixed revision set of version
// documents, as check would once the fix is written.
func (c *Comparison) CheckFixed(fixed *specs.DocumentSet) (*policy.Report, error) {
	baseOpts, _ := loadOptions(c.opts)
	// The fixed set is the revision's, in its layout.
	baseOpts.Layout = specs.LayoutDocuments
	if fixed.ByResource {
		baseOpts.Layout = specs.LayoutResources
	}
	base, err := specs.ReadDocumentSet(c.basePath, baseOpts)
	if err != nil {
		return nil, err
	}
	quiet := c.opts
	quiet.Note = nil
	opts := pairOptions(quiet)
	// Most of the fixed documents, and the base's, are the texts the check
	// read: they are not parsed again.
	opts.Known = c.Documents
	pair, err := load.LoadDocumentPair(base, fixed, opts)
	if err != nil {
		return nil, fmt.Errorf("the fixed documents do not load: %w", err)
	}
	defer pair.Release()
	// The new version's comparison compares the copies the check loaded
	// from the same texts: its diff is the check's.
	result, err := diff.CompareDocuments(pair, diff.Options{Levels: c.Config.ChangeLevels(), Date: c.Date, DocumentDiffs: c.documentDiffs})
	if err != nil {
		return nil, err
	}
	return policy.Check(policy.Input{Base: pair.Base.Snapshot(), Revision: pair.Revision.Snapshot(), Result: result, Date: c.Date, Config: c.Config}), nil
}

// pairSources are a comparison's two files, parsed once for every pair
// that a fix loads from them.
type pairSources struct {
	base, revision *specs.Source
	opts           load.PairOptions
	mu             sync.Mutex // the fix asks for two trees at once
	// edited is the last text a loader was given, as a source of the
	// revision's name: a fix loads it against the base and against the
	// revision, and parses it once.
	edited     *specs.Source
	editedText []byte
}

// againstRevision loads the revision against edited bytes in place of the
// revision's (apiver fix's result, checked before it is written), for the
// changes of the operations that differ, and that moved may have moved,
// alone (load.PairOptions.PairsOnly): the fix reads the pairs of that
// comparison, to see what it moved. The full pipeline loads both whole.
func (p *pairSources) againstRevision(edited []byte, moved func(operation string) bool) (*specs.Snapshot, *specs.Snapshot, error) {
	opts := p.opts
	opts.ChangesOnly, opts.PairsOnly, opts.Diffed = true, true, moved
	return load.LoadReducedPair(p.revision, p.editedSource(edited), opts)
}

// loadChanges loads the base against edited bytes (apiver fix's result)
// for the operations that differ in both the base and the revision from
// the edited text (load.PairOptions.Answered): the fix reads the others
// from the comparison, whose diff of the base with the revision is that of
// the base with the edited text where the revision and the edited text are
// the same. The plan is nil in the full pipeline, which loads both whole.
func (p *pairSources) loadChanges(edited []byte) (*specs.Snapshot, *specs.Snapshot, *load.Plan, error) {
	fixed := p.editedSource(edited)
	opts := p.opts
	opts.ChangesOnly = true
	if !opts.Full {
		opts.Answered, _ = load.PlanPair(p.revision, fixed)
	}
	base, fixedSnap, err := load.LoadReducedPair(p.base, fixed, opts)
	return base, fixedSnap, opts.Answered, err
}

// editedSource is the source of edited bytes, the same for the same bytes.
func (p *pairSources) editedSource(edited []byte) *specs.Source {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.edited == nil || !bytes.Equal(p.editedText, edited) {
		p.edited, p.editedText = p.revision.WithData(edited), edited
		// The fix's edits are a few operations of the revision's text,
		// and what it restores is the base's.
		p.edited.ShareParse(p.revision)
		p.edited.ShareParse(p.base)
	}
	return p.edited
}

// tree is the parse tree of data, the base's, the revision's or an edit's,
// from the source the loads parse it in: the fix reads the tree that its
// loads read.
func (p *pairSources) tree(data []byte) *yaml.Node {
	for _, s := range []*specs.Source{p.base, p.revision} {
		if bytes.Equal(s.Data(), data) {
			return s.Tree()
		}
	}
	return p.editedSource(data).Tree()
}
