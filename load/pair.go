package load

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/specs/prune"
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
	// Read, when set, is told how many bytes the two texts hold once both
	// are read, before either is parsed.
	Read func(bytes int64)
	// Settled, when set, is told when the fast pass has reduced a pair to
	// small texts and keeps its parse trees (KeepSmall): the parse's
	// garbage is dead by then, and most of what is held from then on stays
	// to the end.
	Settled func()
	// Validator remembers the parts cut that were read as the whole load
	// reads them; a history shares one across its snapshots, a check and
	// its fix offer share one. Nil: one per load.
	Validator *prune.Validator
	// Known is a pair loaded before of the same texts (a check's, for its
	// fix offer's check): LoadDocumentPair reads a document whose text one
	// of its documents held from what the fast pass read there.
	Known *DocumentPair
	// Keep leaves the sources parsed after the load, for more pairs of the
	// same sources (a fix and its verification compare the base and the
	// revision with the fixed text): each is then parsed once. Without it
	// the parse trees are released before kin-openapi loads, to keep the
	// peak down.
	Keep bool
	// KeepSmall leaves the sources parsed where the texts kin-openapi
	// loads are small (a pull request's): the trees are then most of what
	// is held anyway, and a fix offer reads them again. Large texts (a
	// release's) load without them, to keep the peak down.
	KeepSmall bool
	// ChangesOnly loads the pair for its changes alone: operations the same
	// in both documents are left out of both where they can be, instead of
	// kept as skeletons for their versions, so the snapshots may lack them
	// (a fix's checks of its result, which read those from the comparison
	// that the fix answers).
	ChangesOnly bool
	// Answered, with ChangesOnly, is a plan of this pair's revision side
	// against the revision of a comparison with the same base that was
	// diffed before (a check's, which the check of its fix's result
	// answers): the operations it finds unchanged compare with the base as
	// they did there, and are left out too, and so are the components it
	// finds unchanged where nothing kept reaches them, for the caller to
	// read from that comparison (diff.Result.Answer).
	Answered *Plan
	// PairsOnly, with ChangesOnly, loads the pair for the changes of its
	// operations alone: what lies outside them (components nothing kept
	// reaches) is neither kept nor compared, so the comparison's document
	// changes are not all there (a fix's check that it moved only the
	// operations it meant to, which reads the pairs). When no operation is
	// left to diff, nothing is loaded: the snapshots are nil.
	PairsOnly bool
	// Diffed, when set, with ChangesOnly, is asked of each operation that
	// changed ("METHOD /path") whether the caller reads its pairs: those it
	// does not are left out as if unchanged.
	Diffed func(operation string) bool
}

func (o PairOptions) validator() *prune.Validator {
	if o.Validator != nil {
		return o.Validator
	}
	return prune.NewValidator()
}

// documentScope is which components a ChangesOnly pair diffs outside its
// operations: none for PairsOnly; with Answered, those that differ
// between the two revisions (the others compare with the base as they did
// in the comparison answered, diff.Result.Answer); else all.
func (o PairOptions) documentScope() prune.DocumentScope {
	switch {
	case o.PairsOnly:
		return nil
	case o.Answered != nil:
		return o.Answered.componentChanged
	}
	return prune.EveryComponent
}

// LoadDiffPair reads and loads the base and revision of a comparison. The
// snapshots are for diff.Compare only: see LoadReducedPair.
func LoadDiffPair(basePath, revisionPath string, baseOpts, revisionOpts specs.LoadOptions, opts PairOptions) (base, revision *specs.Snapshot, err error) {
	baseSrc, revSrc, err := ReadPair(basePath, revisionPath, baseOpts, revisionOpts, opts)
	if err != nil {
		return nil, nil, err
	}
	return LoadReducedPair(baseSrc, revSrc, opts)
}

// ReadPair reads the base and revision of a comparison, without parsing
// them, and tells opts.Read their size.
func ReadPair(basePath, revisionPath string, baseOpts, revisionOpts specs.LoadOptions, opts PairOptions) (base, revision *specs.Source, err error) {
	if err := both(func() (err error) { base, err = specs.Read(basePath, baseOpts); return err },
		func() (err error) { revision, err = specs.Read(revisionPath, revisionOpts); return err }); err != nil {
		return nil, nil, err
	}
	if opts.Read != nil {
		opts.Read(base.Size() + revision.Size())
	}
	return base, revision, nil
}

// both runs the base's and the revision's work concurrently; when both
// fail, the base's error is the one reported, so the same input always
// gives the same message.
func both(base, revision func() error) error {
	var errs [2]error
	var g errgroup.Group
	g.Go(func() error { errs[0] = base(); return nil })
	g.Go(func() error { errs[1] = revision(); return nil })
	_ = g.Wait()
	return cmp.Or(errs[0], errs[1])
}

// LoadReducedPair loads two sources for a comparison of base with revision,
// and then releases their parse trees unless opts.Keep (or opts.KeepSmall
// and the texts loaded are small).
// Unless opts.Full, kin-openapi reads reduced copies of the documents,
// written from their parsed trees (package prune): operations whose
// closure is the same in both keep only their request bodies and responses,
// without schemas (what their versions are read from), components equal
// in both that nothing kept reaches are left out, and the descriptions and
// examples the diff does not compare are emptied; every node keeps its
// line, so locations are exact. A part cut is first read as the whole load
// would read it: one that would not load makes both documents load whole,
// which reports it. A document that cannot be reduced is loaded whole, and
// its partner whole but for its descriptions and examples; opts.Note says
// why. Input errors are those of the whole texts.
func LoadReducedPair(base, revision *specs.Source, opts PairOptions) (b, r *specs.Snapshot, err error) {
	note := func(format string, args ...any) {
		if opts.Note != nil {
			opts.Note(fmt.Sprintf(format, args...))
		}
	}
	whole := func() (*specs.Snapshot, *specs.Snapshot, error) {
		if err := both(func() (err error) { b, err = loadSource(base); return err },
			func() (err error) { r, err = loadSource(revision); return err }); err != nil {
			return nil, nil, err
		}
		return b, r, nil
	}
	if opts.Full {
		note("%s, %s: full pipeline: both documents loaded whole", base.Path(), revision.Path())
		return whole()
	}
	revision.ShareParse(base)
	_ = both(func() error { base.Index(); return nil }, func() error { revision.Index(); return nil })
	for _, s := range []*specs.Source{base, revision} {
		if s.Structure() != nil {
			return whole() // the whole load reports it
		}
	}
	var baseCopy, revCopy prune.Reduced
	var summary string
	keep := opts.Keep
	switch {
	case base.Indexed().Why != "" || revision.Indexed().Why != "":
		// A document that cannot be reduced is loaded whole, and its
		// partner whole but for what the diff does not compare.
		uncut, partner := base, revision
		if uncut.Indexed().Why == "" {
			uncut, partner = revision, base
		}
		note("%s: not reduced: %s; %s loaded whole too, without its descriptions and examples", uncut.Path(), uncut.Indexed().Why, partner.Path())
		baseCopy, revCopy = emptied(base), emptied(revision)
	default:
		var red *prune.Reduction
		if opts.ChangesOnly {
			changed := changedOperations(base.Indexed(), revision.Indexed(), opts.Answered, opts.Diffed)
			if len(changed) == 0 && opts.PairsOnly {
				return nil, nil, nil
			}
			red = prune.DecideOnly(base.Indexed(), revision.Indexed(), changed, opts.documentScope())
		} else {
			red = prune.Decide(base.Indexed(), revision.Indexed())
		}
		validator := opts.validator()
		reduced, err := red.Reduce([]*prune.Doc{base.Indexed(), revision.Indexed()}, validator, []string{originFile(base.Path()), originFile(revision.Path())})
		if err != nil {
			note("%s, %s: %v: both loaded whole", base.Path(), revision.Path(), err)
			return whole()
		}
		baseCopy, revCopy = reduced[0], reduced[1]
		small := smallCopies(len(baseCopy.Text)+len(revCopy.Text), base.Size()+revision.Size())
		keptSmall := opts.KeepSmall && small
		keep = keep || keptSmall
		summary = red.Summary
		if keptSmall && opts.Settled != nil {
			opts.Settled()
		}
	}
	if !keep {
		// The trees of the fast pass are garbage now: collect them before
		// kin-openapi's loads, so that its garbage is not added on top.
		base.Release()
		revision.Release()
		runtime.GC()
	}
	// Both at once, as the full pipeline loads them: read as JSON, the
	// reduced texts make little garbage, and two loads at once leave the
	// peak where one after the other had it.
	err = both(func() (err error) { b, err = loadText(base, baseCopy); return err },
		func() (err error) { r, err = loadText(revision, revCopy); return err })
	if err != nil {
		// The whole texts report an input error; if they load, the
		// reduction lost something, which the note says.
		b, r, wholeErr := whole()
		if wholeErr == nil {
			note("%s, %s: the reduced texts did not load (%v): both loaded whole", base.Path(), revision.Path(), err)
		}
		return b, r, wholeErr
	}
	b.Reduced, r.Reduced = baseCopy.Text != nil, revCopy.Text != nil
	if summary != "" {
		note("%s, %s: %s", base.Path(), revision.Path(), summary)
	}
	return b, r, nil
}

// smallCopies reports whether the reduced copies kin-openapi loads, of
// copied bytes, are small next to the two documents they are cut from (of
// documents bytes): a pull request's. What the check holds from then on
// is then mostly the fast pass's trees, kept or garbage.
func smallCopies(copied int, documents int64) bool { return 4*int64(copied) < documents }

// changedOperations are the operations whose closure differs between b
// and r, or that only one of them has, but for those answered finds
// unchanged and those diffed (when set) leaves out.
func changedOperations(b, r *prune.Doc, answered *Plan, diffed func(string) bool) map[string]bool {
	_, unchanged := prune.Changes(b, r)
	changed := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(unchanged)) {
		if !unchanged[name] && !answered.OperationUnchanged(planned(name)) && (diffed == nil || diffed(planned(name))) {
			changed[name] = true
		}
	}
	return changed
}

// planned is the plan's name of an operation of the fast pass ("method
// /path", as written): "METHOD /path", as findings name it.
func planned(name string) string {
	method, path, _ := strings.Cut(name, " ")
	return strings.ToUpper(method) + " " + path
}

// Plan is, for two snapshots, what cannot produce a change between them,
// as the fast pass found it: for a comparison of documents loaded whole
// (diff.Options.Plan), so that only what changed is diffed. A nil Plan
// knows nothing: everything may have changed.
type Plan struct {
	unchanged map[string]bool // "METHOD /path"
	changed   map[string]bool // "kind/name" of components
	// indexed are the components the fast pass read one by one: of any
	// other (a kind it does not know, a mapping of them under an anchor)
	// it knows nothing.
	indexed map[string]bool
	// Note says what the fast pass found, in one line.
	Note string
}

// PlanPair compares two sources with the fast pass; nil, with why, when a
// document cannot be read by it.
func PlanPair(base, revision *specs.Source) (plan *Plan, why string) {
	revision.ShareParse(base)
	_ = both(func() error { base.Index(); return nil }, func() error { revision.Index(); return nil })
	for _, s := range []*specs.Source{base, revision} {
		switch {
		case s.Structure() != nil:
			return nil, s.Path() + ": " + s.Structure().Msg
		case s.Indexed().Why != "":
			return nil, s.Path() + ": " + s.Indexed().Why
		}
	}
	dirty, unchanged := prune.Changes(base.Indexed(), revision.Indexed())
	components := prune.Components(base.Indexed(), revision.Indexed())
	plan = &Plan{unchanged: map[string]bool{}, changed: dirty, indexed: map[string]bool{}}
	for _, name := range components {
		plan.indexed[name] = true
	}
	for name, same := range unchanged {
		if same {
			plan.unchanged[planned(name)] = true
		}
	}
	plan.Note = fmt.Sprintf("%s, %s: %d of %d operations and %d of %d components changed", base.Path(), revision.Path(),
		len(unchanged)-len(plan.unchanged), len(unchanged), len(dirty), len(components))
	return plan, ""
}

// OperationUnchanged reports whether the operation ("METHOD /path", as
// Operation.Name gives it) is the same in both snapshots, with everything
// it reaches.
func (p *Plan) OperationUnchanged(name string) bool { return p != nil && p.unchanged[name] }

// ComponentChanged reports whether a component (kind as in components:
// "schemas", "responses"...) may differ between the snapshots: one the
// fast pass did not read one by one may.
func (p *Plan) ComponentChanged(kind, name string) bool {
	return p.componentChanged(kind + "/" + name)
}

func (p *Plan) componentChanged(component string) bool {
	return p == nil || p.changed[component] || !p.indexed[component]
}

// emptied is s's text without the descriptions and examples the diff does
// not compare; none when s cannot be reduced.
func emptied(s *specs.Source) prune.Reduced {
	if s.Indexed().Why != "" {
		return prune.Reduced{}
	}
	return s.Indexed().Emptied()
}

// loadReducedOrWhole loads text, a reduced copy of s's own, or s whole
// when it does not load. The whole text then reports an input error; if
// it loads, the reduction lost something, which note says.
func loadReducedOrWhole(s *specs.Source, text prune.Reduced, note func(string, ...any)) (*specs.Snapshot, error) {
	snap, err := loadReduced(s, text)
	if err == nil {
		snap.Reduced = true
		return snap, nil
	}
	whole, wholeErr := loadSource(s)
	if wholeErr == nil {
		note("%s: the reduced text did not load (%v); loaded whole", s.Path(), err)
	}
	return whole, wholeErr
}

// loadText loads a reduced text, with the skeletons it leaves out, in
// place of s's own, or s whole when there is none.
func loadText(s *specs.Source, reduced prune.Reduced) (*specs.Snapshot, error) {
	if reduced.Text == nil {
		return loadSource(s)
	}
	return loadReduced(s, reduced)
}

// LoadForComparisons loads s for its comparisons with each of neighbours
// (in a history, the snapshots before and after it), each of them compared
// with the Plan of its pair (PlanPair): kin-openapi reads a copy of s that
// keeps what any of those comparisons needs, as LoadReducedPair keeps it
// for one. Every operation the plan of a pair finds changed is whole, and
// so is every component it finds changed and all they reach; an operation
// unchanged in all of them is a skeleton (as in LoadReducedPair). When s cannot be
// reduced for one of the comparisons it is loaded whole but for the
// descriptions and examples no diff compares, and so is that neighbour
// (its own comparison with s fails the same way), so a pair without a plan
// compares two documents that hold all the diff reads.
func LoadForComparisons(s *specs.Source, neighbours []*specs.Source, opts PairOptions) (*specs.Snapshot, error) {
	note := func(format string, args ...any) {
		if opts.Note != nil {
			opts.Note(fmt.Sprintf(format, args...))
		}
	}
	if opts.Full || len(neighbours) == 0 {
		return loadSource(s)
	}
	s.Index()
	switch {
	case s.Structure() != nil:
		return loadSource(s) // the whole load reports it
	case s.Indexed().Why != "":
		note("%s: not reduced: %s; loaded whole", s.Path(), s.Indexed().Why)
		return loadSource(s)
	}
	var reds []*prune.Reduction
	for _, n := range neighbours {
		n.Index()
		switch {
		case n.Structure() != nil:
			note("%s: with %s: %s; loaded whole but for its descriptions and examples", s.Path(), n.Path(), n.Structure().Msg)
			return loadReducedOrWhole(s, emptied(s), note)
		case n.Indexed().Why != "":
			note("%s: with %s: %s; loaded whole but for its descriptions and examples", s.Path(), n.Path(), n.Indexed().Why)
			return loadReducedOrWhole(s, emptied(s), note)
		}
		reds = append(reds, prune.Decide(s.Indexed(), n.Indexed()))
	}
	return loadReductions(s, reds, opts)
}

// loadReductions loads s, indexed and reducible, keeping what any of reds
// (its comparisons' reductions) keeps.
func loadReductions(s *specs.Source, reds []*prune.Reduction, opts PairOptions) (*specs.Snapshot, error) {
	note := func(format string, args ...any) {
		if opts.Note != nil {
			opts.Note(fmt.Sprintf(format, args...))
		}
	}
	red := prune.Merge(s.Indexed(), reds)
	text, err := red.Text(s.Indexed(), opts.validator())
	if err != nil {
		note("%s: %v: loaded whole", s.Path(), err)
		return loadSource(s)
	}
	snap, err := loadReducedOrWhole(s, text, note)
	if err != nil || !snap.Reduced {
		return snap, err
	}
	note("%s: %s", s.Path(), red.Summary)
	return snap, nil
}
