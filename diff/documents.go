package diff

import (
	"maps"
	"slices"

	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/getkin/kin-openapi/openapi3"
)

// CompareDocuments compares two snapshots published as one document per
// version. Each operation of document V is that operation at version V:
//
//   - a version in both sets is compared with itself, each operation a
//     Same pair (an in-place change); a document whose bytes did not
//     change is not diffed;
//   - a released document new in the revision is compared with its
//     predecessor (the latest earlier released document, of its resource
//     in a resource tree): each operation both hold is a Bump, one new in
//     it is Added, and one it dropped is Removed at the new version with
//     the predecessor named, or in a resource tree carried forward: the
//     predecessor's version of it continues;
//   - a new pre-release document's operations are Added, and every
//     operation of a document gone from the revision is Removed at its
//     version.
//
// Changes outside the operations count for an in-place change only; those
// of a new document come with its version. The result's operation lists
// carry one version per document holding the operation, so the clock
// runs as for media types.
func CompareDocuments(pair *load.DocumentPair, opts Options) (*Result, error) {
	res := &Result{Base: pair.Base.Operations(), Revision: pair.Revision.Operations(), ByDocument: true}
	opts.Product = "" // a document's media types name no version
	diffed := map[*load.DocumentComparison]*Result{}
	for _, c := range slices.Concat(pair.Comparisons, pair.Carried) {
		if !c.Diff {
			continue
		}
		o := opts
		o.Plan, o.DocumentDiffs = c.Plan, nil
		if sub := opts.DocumentDiffs.of(c.BaseSnapshot, c.RevisionSnapshot, o); sub != nil {
			diffed[c] = sub
			continue
		}
		sub, err := Compare(c.BaseSnapshot, c.RevisionSnapshot, o)
		if err != nil {
			return nil, err
		}
		nameNodes(pair, c, sub)
		diffed[c] = sub
		opts.DocumentDiffs.remember(c.BaseSnapshot, c.RevisionSnapshot, o, sub)
	}
	for _, c := range pair.Comparisons {
		switch {
		case c.Revision == nil:
			for _, op := range c.Base.Operations() {
				res.Pairs = append(res.Pairs, &Pair{Operation: op.Name(), Version: c.Base.Version, Kind: Removed, PreRelease: c.Base.PreRelease || op.Unstable()})
			}
		case c.Base == nil:
			for _, op := range c.Revision.Operations() {
				res.Pairs = append(res.Pairs, &Pair{Operation: op.Name(), Version: c.Revision.Version, Kind: Added, PreRelease: c.Revision.PreRelease || op.Unstable()})
			}
		case c.Identical:
			for _, op := range c.Revision.Operations() {
				res.Pairs = append(res.Pairs, &Pair{Operation: op.Name(), Version: c.Revision.Version, Kind: Same, PreRelease: c.Revision.PreRelease || op.Unstable()})
			}
		default:
			addDocumentPairs(res, pair, c, diffed)
		}
	}
	addCarriedPairs(res, pair, diffed)
	res.Pairs = sortedPairs(wrap(res.Pairs))
	return res, nil
}

// addCarriedPairs puts in res, for each operation of the pair's Carried
// comparisons, its pair in place of the one that read it as added at its
// version: the same version, changed in place from the definition it
// carried forward. As for a new version, the older version's lifecycle is
// not its own.
func addCarriedPairs(res *Result, pair *load.DocumentPair, diffed map[*load.DocumentComparison]*Result) {
	if len(pair.Carried) == 0 {
		return
	}
	type at struct{ operation, version string }
	carried := map[at]bool{}
	for _, c := range pair.Carried {
		for op := range c.Carried {
			carried[at{op, c.Revision.Version}] = true
		}
	}
	res.Pairs = slices.DeleteFunc(res.Pairs, func(p *Pair) bool { return p.Kind == Added && carried[at{p.Operation, p.Version}] })
	for _, c := range pair.Carried {
		version := c.Revision.Version
		unstable := map[string]bool{}
		for _, op := range c.Revision.Operations() {
			unstable[op.Name()] = op.Unstable()
		}
		seen := map[string]bool{}
		for _, p := range diffed[c].Pairs {
			if !c.Carried[p.Operation] || p.Kind != Unversioned {
				continue
			}
			seen[p.Operation] = true
			p.Kind, p.Version, p.PreRelease = Same, version, unstable[p.Operation]
			p.Changes = withoutIDs(p.Changes, JudgedByDate)
			for i, ch := range p.Changes {
				p.Changes[i].Version = version
				// The older document is not the version's: a change is
				// where the declaration has its node, or nearest ancestor.
				if loc := ch.Location; loc != nil && loc.File == c.Base.Path() && loc.Ref == c.Base.Source.Ref() {
					moved := *loc
					moved.File, moved.Ref, moved.Line = c.Revision.Path(), c.Revision.Source.Ref(), pair.Place(c.Revision, loc.Node, loc.Line)
					p.Changes[i].Location = &moved
				}
			}
			res.Pairs = append(res.Pairs, p)
		}
		// The diff leaves out what did not change.
		for _, op := range slices.Sorted(maps.Keys(c.Carried)) {
			if !seen[op] {
				res.Pairs = append(res.Pairs, &Pair{Operation: op, Version: version, Kind: Same, PreRelease: unstable[op]})
			}
		}
	}
}

// addDocumentPairs adds the pairs of a comparison diffed, as versions of
// its revision's document, to res: the changes of a covered operation, and
// outside the operations, are those another comparison found, placed in
// this one's documents.
func addDocumentPairs(res *Result, pair *load.DocumentPair, c *load.DocumentComparison, diffed map[*load.DocumentComparison]*Result) {
	version, pre := c.Revision.Version, c.Revision.PreRelease
	sub := diffed[c]
	if sub == nil {
		sub = &Result{}
	}
	// The operations of both documents that the diff did not see (its
	// documents may keep only what changed) did not change here, or
	// changed as in another comparison.
	seen := map[string]bool{}
	for _, p := range sub.Pairs {
		seen[p.Operation] = true
	}
	inRevision := map[string]bool{}
	for _, op := range c.Revision.Operations() {
		inRevision[op.Name()] = true
	}
	pairs := sub.Pairs
	for _, op := range c.Base.Operations() {
		if !seen[op.Name()] && inRevision[op.Name()] {
			pairs = append(pairs, &Pair{Operation: op.Name(), Kind: Unversioned, PreRelease: op.Unstable()})
		}
	}
	for _, p := range pairs {
		if from := c.Covered[p.Operation]; from != nil {
			p.Changes = placed(pair, from, c, pairOf(diffed[from], p.Operation).Changes)
		}
		p.Version, p.PreRelease = version, pre || p.PreRelease
		switch {
		case p.Kind == Unversioned && c.New:
			p.Kind, p.Predecessor = Bump, c.Base.Version
			// As between media types: a new version is no deprecation of
			// itself, and its predecessor's clock is not its own.
			p.Changes = withoutIDs(p.Changes, JudgedByDate)
		case p.Kind == Unversioned:
			p.Kind = Same
		case p.Kind == Removed && c.New && pair.Revision.ByResource:
			// A resource version declares the operations it changes: one
			// it does not declare carries forward from its predecessor,
			// which is compared with itself.
			continue
		case p.Kind == Removed && c.New:
			// Dropped from the new document: removed in that version, while
			// the predecessor still holds it.
			p.Predecessor = c.Base.Version
		}
		for i := range p.Changes {
			p.Changes[i].Version = p.Version
		}
		res.Pairs = append(res.Pairs, p)
	}
	if c.New || pre {
		return
	}
	var document []Change
	switch {
	case c.DiffDocument:
		document = sub.Document
	case c.DocumentFrom != nil:
		document = placed(pair, c.DocumentFrom, c, diffed[c.DocumentFrom].Document)
	}
	for _, ch := range document {
		ch.Version = version
		res.Document = append(res.Document, ch)
	}
}

// pairOf is the pair of an operation in a comparison's result.
func pairOf(res *Result, operation string) *Pair {
	for _, p := range res.Pairs {
		if p.Operation == operation {
			return p
		}
	}
	return &Pair{}
}

// nameNodes names the node of each location of a comparison's changes, in
// the copies it diffed, so that the location moves to another document.
func nameNodes(pair *load.DocumentPair, c *load.DocumentComparison, res *Result) {
	name := func(changes []Change) {
		for i, ch := range changes {
			loc := ch.Location
			if loc == nil || loc.Line == 0 {
				continue
			}
			for _, d := range []*specs.VersionDocument{c.Base, c.Revision} {
				if loc.File == d.Path() && loc.Ref == d.Source.Ref() {
					named := *loc
					named.Node = pair.NodeAt(c, d, loc.Line, loc.Column)
					changes[i].Location = &named
					break
				}
			}
		}
	}
	for _, p := range res.Pairs {
		name(p.Changes)
	}
	name(res.Document)
}

// placed are changes another comparison found, with their locations moved
// from its documents to the same nodes of this one's.
func placed(pair *load.DocumentPair, from, to *load.DocumentComparison, changes []Change) []Change {
	out := make([]Change, len(changes))
	for i, ch := range changes {
		out[i] = ch
		loc := ch.Location
		if loc == nil {
			continue
		}
		moved := *loc
		switch {
		case loc.File == from.Base.Path() && loc.Ref == from.Base.Source.Ref():
			moved.File, moved.Ref, moved.Line = to.Base.Path(), to.Base.Source.Ref(), pair.Place(to.Base, loc.Node, loc.Line)
		case loc.File == from.Revision.Path() && loc.Ref == from.Revision.Source.Ref():
			moved.File, moved.Ref, moved.Line = to.Revision.Path(), to.Revision.Source.Ref(), pair.Place(to.Revision, loc.Node, loc.Line)
		}
		out[i].Location = &moved
	}
	return out
}

// withoutIDs drops the changes whose id drop reports.
func withoutIDs(changes []Change, drop func(string) bool) []Change {
	var out []Change
	for _, c := range changes {
		if !drop(c.ID) {
			out = append(out, c)
		}
	}
	return out
}

// wrap turns pairs into pairings without sides, for sortedPairs.
func wrap(pairs []*Pair) []pairing {
	out := make([]pairing, len(pairs))
	for i, p := range pairs {
		out[i] = pairing{Pair: p}
	}
	return out
}

// CompareDocumentVersions diffs two version documents of one snapshot,
// version from against version to of every operation both hold: what a
// client meets when it migrates, as CompareVersions for media types.
func CompareDocumentVersions(from, to *specs.VersionDocument, opts Options) (*Result, error) {
	opts.Product, opts.Plan = "", nil
	res, err := Compare(from.Snapshot, to.Snapshot, opts)
	if err != nil {
		return nil, err
	}
	var pairs []*Pair
	for _, p := range res.Pairs {
		if p.Kind != Unversioned {
			continue
		}
		p.Kind, p.Version, p.Predecessor = Bump, to.Version, from.Version
		for i := range p.Changes {
			p.Changes[i].Version = to.Version
		}
		pairs = append(pairs, p)
	}
	res.Pairs, res.Document, res.ByDocument = pairs, nil, true
	return res, nil
}

// DocumentDiffs are the diffs CompareDocuments made of its comparisons'
// copies, for a later pair whose comparisons compare the same copies
// (specs.Reloaded: a fix's check of its fixed documents, whose new
// document holds the text of the revision's newest and whose restored
// ones the base's): the diff of two copies is a function of them and the
// options alone, but for the files its locations name, which move to the
// later pair's. One CompareDocuments at a time reads and records them.
type DocumentDiffs struct {
	diffs map[[2]*openapi3.T]documentDiff
}

type documentDiff struct {
	base, revision *specs.Snapshot
	opts           Options
	res            *Result
}

// kept reports whether the diff of two copies is one DocumentDiffs keeps:
// of copies without a plan, whose two files can be told apart.
func (d *DocumentDiffs) kept(base, revision *specs.Snapshot, opts Options) bool {
	return d != nil && opts.Plan == nil && (base.Path != revision.Path || base.Ref != revision.Ref)
}

// remember records the diff of two copies (a copy of it: the pairs of a
// comparison's result are relabelled in place).
func (d *DocumentDiffs) remember(base, revision *specs.Snapshot, opts Options, res *Result) {
	if !d.kept(base, revision, opts) {
		return
	}
	if d.diffs == nil {
		d.diffs = map[[2]*openapi3.T]documentDiff{}
	}
	d.diffs[[2]*openapi3.T{base.Doc, revision.Doc}] = documentDiff{base, revision, opts, res.clone(func(*Location) {})}
}

// of is the diff of two copies that one remembered holds, its locations
// moved to their files; nil when none is.
func (d *DocumentDiffs) of(base, revision *specs.Snapshot, opts Options) *Result {
	if !d.kept(base, revision, opts) {
		return nil
	}
	known, ok := d.diffs[[2]*openapi3.T{base.Doc, revision.Doc}]
	if !ok || !sameOptions(known.opts, opts) {
		return nil
	}
	return known.res.clone(func(loc *Location) {
		switch {
		case loc.File == known.base.Path && loc.Ref == known.base.Ref:
			loc.File, loc.Ref = base.Path, base.Ref
		case loc.File == known.revision.Path && loc.Ref == known.revision.Ref:
			loc.File, loc.Ref = revision.Path, revision.Ref
		}
	})
}

// clone copies r's pairs and changes, each location passed through move.
func (r *Result) clone(move func(*Location)) *Result {
	copied := func(changes []Change) []Change {
		out := slices.Clone(changes)
		for i, c := range out {
			if c.Location != nil {
				loc := *c.Location
				move(&loc)
				out[i].Location = &loc
			}
		}
		return out
	}
	res := *r
	res.Pairs = make([]*Pair, len(r.Pairs))
	for i, p := range r.Pairs {
		c := *p
		c.Changes = copied(p.Changes)
		res.Pairs[i] = &c
	}
	res.Document = copied(r.Document)
	return &res
}

func sameOptions(a, b Options) bool {
	return a.Product == b.Product && maps.Equal(a.Levels, b.Levels) && a.Date == b.Date && a.Literal == b.Literal &&
		a.LatestVersion == b.LatestVersion
}
