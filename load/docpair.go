package load

import (
	"bytes"
	"runtime"
	"slices"
	"sync"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/specs/prune"
	"github.com/apiver/apiver/versions"
	"go.yaml.in/yaml/v3"
)

// DocumentComparison is two version documents to compare.
type DocumentComparison struct {
	// Base is the base's document of the version; for a document new in
	// the revision, its predecessor in the revision (nil for the first
	// release, and for a new pre-release, which is compared with nothing).
	Base *specs.VersionDocument
	// Revision is the revision's document, nil when the version is gone.
	Revision *specs.VersionDocument
	// New says Revision is not in the base.
	New bool
	// Identical says both documents hold the same bytes and name no other
	// file: nothing changed, and the revision's snapshot stands for both.
	Identical bool
	// Diff says the two documents are diffed: some change of theirs is not
	// another comparison's (Covered, DocumentFrom). Without it, both hold
	// the same operations, and every change is another's.
	Diff bool
	// Plan is what the fast pass found unchanged between two documents
	// loaded whole (nil when it could not tell, with the full pipeline, and
	// for copies that keep only what changed).
	Plan *Plan
	// Covered are the operations ("METHOD /path") whose diff here is the
	// same as in another comparison, which diffs them: what the diff reads
	// of them (the operation, its path item, every component it reaches)
	// is the same in both, on both sides.
	Covered map[string]*DocumentComparison
	// DocumentFrom, when set, is another comparison whose changes outside
	// the operations are this one's: the same components and global parts
	// on both sides.
	DocumentFrom *DocumentComparison
	// DiffDocument says the diff of the two finds this comparison's own
	// changes outside the operations.
	DiffDocument bool
	// BaseSnapshot and RevisionSnapshot are what the diff compares, when
	// Diff is set: the documents, or copies of them that keep only what
	// the comparison diffs, every node on its line.
	BaseSnapshot, RevisionSnapshot *specs.Snapshot
	// Carried, in a comparison of DocumentPair.Carried, are the operations
	// it judges (by name in Revision).
	Carried map[string]bool
}

// DocumentPair is two document sets loaded for their comparisons.
type DocumentPair struct {
	Base, Revision *specs.DocumentSet
	Comparisons    []*DocumentComparison
	// Carried compare, in a resource tree, the operations that a released
	// version of the base carried forward from an older version of its
	// resource, and that its document declares in the revision: what its
	// clients were served is that older version's definition (Base), and
	// what they are served now is the declaration (Revision), an in-place
	// change of the version. Each is loaded as a pair of files is, once
	// the comparisons are (carriedForward).
	Carried []*DocumentComparison
	// trees are the texts loaded for comparisons, parsed for NodeAt.
	treesMu sync.Mutex
	trees   map[*specs.Snapshot]*yaml.Node
	// states are what the fast pass read of the documents.
	states states
}

// DocumentComparisons pairs the documents of two sets: a version in both
// with itself; a released version new in the revision with its
// predecessor there (the latest earlier released document, of its
// resource in a resource tree); a new pre-release and a version gone with
// nothing.
func DocumentComparisons(base, revision *specs.DocumentSet) []*DocumentComparison {
	var out []*DocumentComparison
	for _, r := range revision.Documents {
		switch b := base.DocumentOf(r.Resource, r.Version); {
		case b != nil:
			out = append(out, &DocumentComparison{Base: b, Revision: r})
		case r.PreRelease:
			out = append(out, &DocumentComparison{Revision: r, New: true})
		default:
			out = append(out, &DocumentComparison{Base: revision.Predecessor(r), Revision: r, New: true})
		}
	}
	for _, b := range base.Documents {
		if revision.DocumentOf(b.Resource, b.Version) == nil {
			out = append(out, &DocumentComparison{Base: b})
		}
	}
	return out
}

// LoadDocumentPair loads the documents of two sets for their comparisons
// (DocumentComparisons), so that the cost follows what changed: see
// loadByParts. With opts.Full, or when a document cannot be reduced, every
// document is loaded, and every comparison diffed, as LoadForComparisons
// loads a history's snapshots (loadWhole). Release lets the fast pass's
// trees go once the pair's changes are placed.
func LoadDocumentPair(base, revision *specs.DocumentSet, opts PairOptions) (*DocumentPair, error) {
	pair := &DocumentPair{Base: base, Revision: revision, Comparisons: DocumentComparisons(base, revision)}
	if opts.Read != nil {
		// What is held at once, as large as the largest: the trees read
		// ahead (one per core), the two of the comparison planned, and
		// the copies a comparison loads, which kin-openapi reads as JSON,
		// with little garbage: one document's worth for the two. (The
		// newest documents' trees go once planned: loadByParts.) On the
		// public API's pair as 8 documents a side, one more document's
		// worth took the peak from about 355 to 405 MB at the same speed.
		var sizes []int64
		for _, set := range []*specs.DocumentSet{base, revision} {
			for _, d := range set.Documents {
				sizes = append(sizes, d.Source.Size())
			}
		}
		slices.Sort(sizes)
		held := sizes[max(0, len(sizes)-runtime.GOMAXPROCS(0)-3):]
		if revision.ByResource {
			// A resource tree's comparisons each load copies, all held
			// until the diff: as large as the documents at most.
			held = sizes
		}
		var total int64
		for _, n := range held {
			total += n
		}
		opts.Read(total)
	}
	if opts.Validator == nil {
		// The documents of a set share most of what they cut: each part
		// is read once.
		opts.Validator = prune.NewValidator()
	}
	if !opts.Full {
		parts := opts
		parts.Validator = opts.Validator.Fork()
		done, whole, err := pair.loadByParts(parts)
		switch {
		case err != nil:
			return nil, err
		case done:
			parts.Validator.Commit()
			return pair, pair.carriedForward(opts)
		}
		pair.reset()
		// A part the loader would refuse: the whole documents report it,
		// as the full pipeline does.
		opts.Full = whole
	}
	if err := pair.loadWhole(opts); err != nil {
		return nil, err
	}
	return pair, pair.carriedForward(opts)
}

// carriedForward finds and loads the pair's Carried comparisons, from the
// operations its documents were read to have.
func (pair *DocumentPair) carriedForward(opts PairOptions) error {
	if !pair.Revision.ByResource {
		return nil
	}
	type documents struct{ from, to *specs.VersionDocument }
	found := map[documents]map[string]bool{}
	var order []documents
	for _, c := range pair.Comparisons {
		if c.Base == nil || c.Revision == nil || c.New || c.Revision.PreRelease || c.Base.Retired {
			continue // a retired version serves no client
		}
		declared := map[string]bool{}
		for _, op := range c.Base.Operations() {
			declared[op.Key()] = true
		}
		for _, op := range c.Revision.Operations() {
			if declared[op.Key()] {
				continue
			}
			from := carrier(pair.Base, c.Base, op.Key())
			if from == nil {
				continue
			}
			k := documents{from, c.Revision}
			if found[k] == nil {
				found[k] = map[string]bool{}
				order = append(order, k)
			}
			found[k][op.Name()] = true
		}
	}
	for _, k := range order {
		// Fresh sources: the comparisons' may have let their trees go.
		base, revision := k.from.Source.WithData(k.from.Source.Data()), k.to.Source.WithData(k.to.Source.Data())
		o := PairOptions{Full: opts.Full}
		var plan *Plan
		if !o.Full {
			plan, _ = PlanPair(base, revision)
		}
		b, r, err := LoadReducedPair(base, revision, o)
		if err != nil {
			return err
		}
		pair.Carried = append(pair.Carried, &DocumentComparison{Base: k.from, Revision: k.to, Diff: true, Plan: plan, BaseSnapshot: b, RevisionSnapshot: r, Carried: found[k]})
	}
	return nil
}

// carrier is the document of set that served the operation (by Key) at
// the version of d, d not declaring it: the latest released document of
// d's resource before it that declares it, unless that one retires it
// there. Nil when none does: the operation is new at that version.
func carrier(set *specs.DocumentSet, d *specs.VersionDocument, key string) *specs.VersionDocument {
	var from *specs.VersionDocument
	var retired bool
	for _, o := range set.Documents {
		if o.PreRelease || o.Resource != d.Resource || !o.Date.Before(d.Date) {
			continue
		}
		for _, op := range o.Operations() {
			if op.Key() == key {
				from, retired = o, o.Retired || versions.Retired(op.Op.Extensions)
			}
		}
	}
	if retired {
		return nil
	}
	return from
}

// reset forgets what a fast pass that gave up read, for loadWhole.
func (p *DocumentPair) reset() {
	for _, set := range []*specs.DocumentSet{p.Base, p.Revision} {
		for _, d := range set.Documents {
			d.Source = d.Source.WithData(d.Source.Data())
			d.Snapshot = nil
			d.SetOperations(nil, nil, civil.Date{}, false)
		}
	}
	p.Comparisons = DocumentComparisons(p.Base, p.Revision)
	p.trees = nil
	p.states.forget()
}

// loadWhole is LoadDocumentPair with every document loaded, whole but for
// what no diff of it compares.
func (pair *DocumentPair) loadWhole(opts PairOptions) error {
	base, revision := pair.Base, pair.Revision
	all := append(slices.Clone(base.Documents), revision.Documents...)
	parallel(all, func(_ int, d *specs.VersionDocument) { d.Source.Index() })

	alias := map[*specs.VersionDocument]*specs.VersionDocument{} // base document -> the revision's, the same bytes
	for _, c := range pair.Comparisons {
		if c.Base == nil || c.Revision == nil {
			continue
		}
		if !c.New && identical(c.Base.Source, c.Revision.Source) {
			c.Identical = true
			alias[c.Base] = c.Revision
			continue
		}
		c.Diff = true
	}

	// The documents diffed, each for all its comparisons.
	neighbours := map[*specs.VersionDocument][]*specs.Source{}
	var diffed, others []*specs.VersionDocument
	for _, c := range pair.Comparisons {
		if !c.Diff {
			continue
		}
		for _, d := range []*specs.VersionDocument{c.Base, c.Revision} {
			if len(neighbours[d]) == 0 {
				diffed = append(diffed, d)
			}
		}
		neighbours[c.Base] = append(neighbours[c.Base], c.Revision.Source)
		neighbours[c.Revision] = append(neighbours[c.Revision], c.Base.Source)
	}
	for _, d := range all {
		if alias[d] == nil && len(neighbours[d]) == 0 {
			others = append(others, d)
		}
	}
	if err := loadAll(diffed, opts, func(d *specs.VersionDocument, o PairOptions) (*specs.Snapshot, error) {
		return LoadForComparisons(d.Source, neighbours[d], o)
	}); err != nil {
		return err
	}
	if err := loadAll(others, opts, func(d *specs.VersionDocument, o PairOptions) (*specs.Snapshot, error) {
		return LoadForComparisons(d.Source, []*specs.Source{d.Source}, o)
	}); err != nil {
		return err
	}
	for _, d := range append(diffed, others...) {
		d.ReadOperations()
	}
	for b, r := range alias {
		if r.Snapshot != nil {
			b.Snapshot = r.Snapshot.Renamed(b.Source.Path(), b.Source.Ref())
		}
		b.ShareOperations(r)
	}
	for _, c := range pair.Comparisons {
		if !c.Diff {
			continue
		}
		c.BaseSnapshot, c.RevisionSnapshot, c.DiffDocument = c.Base.Snapshot, c.Revision.Snapshot, true
		if opts.Full {
			continue
		}
		plan, why := PlanPair(c.Base.Source, c.Revision.Source)
		if opts.Note != nil {
			if plan == nil {
				opts.Note(why + ": everything diffed")
			} else {
				opts.Note(plan.Note)
			}
		}
		c.Plan = plan
	}
	return nil
}

// parallel calls fn on every document, one per core.
func parallel(docs []*specs.VersionDocument, fn func(int, *specs.VersionDocument)) {
	parallelDo(len(docs), func(i int) { fn(i, docs[i]) })
}

// loadAll loads documents in parallel with load; their notes are told in
// order, and the error is the first document's in order, so that the same
// input gives the same output.
func loadAll(docs []*specs.VersionDocument, opts PairOptions, load func(*specs.VersionDocument, PairOptions) (*specs.Snapshot, error)) error {
	notes := make([][]string, len(docs))
	errs := make([]error, len(docs))
	parallel(docs, func(i int, d *specs.VersionDocument) {
		o := opts
		if opts.Note != nil {
			o.Note = func(note string) { notes[i] = append(notes[i], note) }
		}
		d.Snapshot, errs[i] = load(d, o)
	})
	for i, err := range errs {
		if err != nil {
			return err
		}
		for _, note := range notes[i] {
			opts.Note(note)
		}
	}
	return nil
}

// mappingValue is the value of key in the mapping n, nil when none.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// NodeAt names the node at a position (line and column, the column 0 when
// unknown) of what comparison c loaded of d: a copy that keeps only what
// it diffs, every node on its line, or d whole.
func (p *DocumentPair) NodeAt(c *DocumentComparison, d *specs.VersionDocument, line, column int) specs.NodePath {
	s := c.BaseSnapshot
	if d == c.Revision {
		s = c.RevisionSnapshot
	}
	if s == nil {
		return nil
	}
	// A JSON document's index tree has lines but no columns, so it cannot
	// tell apart the nodes of one line (a compact document has one): the
	// position tree of the text loaded names them as a copy's does.
	if doc := d.Source.Indexed(); doc != nil && doc.Root() != nil && doc.Root().Column > 0 && bytes.Equal(s.Text(), d.Source.Data()) {
		return specs.NodeAt(doc.Root(), line, column)
	}
	p.treesMu.Lock()
	defer p.treesMu.Unlock()
	tree, ok := p.trees[s]
	if !ok {
		tree = specs.PositionTree(s.Text())
		if p.trees == nil {
			p.trees = map[*specs.Snapshot]*yaml.Node{}
		}
		p.trees[s] = tree
	}
	if tree == nil {
		return nil
	}
	return specs.NodeAt(tree, line, column)
}

// Place is the line of d that holds node, or its nearest ancestor there;
// line itself when d has none of it, or its places are gone.
func (p *DocumentPair) Place(d *specs.VersionDocument, node specs.NodePath, line int) int {
	if places := p.states.positions(d); places != nil {
		if at, ok := places.Find(node); ok {
			return at
		}
	}
	return line
}

// positions are d's places: read with the outline, or from the tree of
// the whole load.
func (st *states) positions(d *specs.VersionDocument) *specs.Positions {
	o := st.of(d)
	if doc := d.Source.Indexed(); o.places == nil && doc != nil && doc.Root() != nil {
		o.places = specs.PositionsOf(doc.Root())
	}
	return o.places
}

// Anchor places a node of a base document (at line) on the nearest line of
// the revision's document of the same version, where an annotation of a
// removal goes: the line of the same node when the revision still has it,
// else of its nearest ancestor there. ok is false when the file is no base
// document, or the revision no longer has the document.
func (p *DocumentPair) Anchor(file, ref string, line int, node specs.NodePath) (toFile, toRef string, toLine int, ok bool) {
	for _, c := range p.Comparisons {
		if c.Base == nil || c.Revision == nil || c.New || c.Base.Path() != file || c.Base.Source.Ref() != ref {
			continue
		}
		toFile, toRef = c.Revision.Path(), c.Revision.Source.Ref()
		if c.Identical {
			return toFile, toRef, line, true
		}
		return toFile, toRef, p.Place(c.Revision, node, line), true
	}
	return "", "", 0, false
}

// Release lets the fast pass's trees and places go.
func (p *DocumentPair) Release() {
	for _, set := range []*specs.DocumentSet{p.Base, p.Revision} {
		for _, d := range set.Documents {
			d.Source.DropTree()
			p.states.of(d).places = nil
		}
	}
	p.trees = nil
}

// identical reports whether two sources hold the same document: the same
// bytes, naming no other file (whose bytes could differ).
func identical(a, b *specs.Source) bool {
	return bytes.Equal(a.Data(), b.Data()) && a.Structure() == nil && a.Indexed() != nil && a.Indexed().Why == ""
}

// LoadDocumentSet loads the documents of one set for commands that read
// their operations and lifecycles, not their schemas: the newest is loaded
// without its schemas, and the others take their operations from it where
// they read the same (by their outlines), or are loaded so too.
func LoadDocumentSet(set *specs.DocumentSet, opts PairOptions) error {
	if opts.Validator == nil {
		opts.Validator = prune.NewValidator()
	}
	self := func(d *specs.VersionDocument, o PairOptions) (*specs.Snapshot, error) {
		return LoadForComparisons(d.Source, []*specs.Source{d.Source}, o)
	}
	var st states
	defer func() {
		for _, d := range set.Documents {
			d.Source.DropTree()
		}
	}()
	newest := set.Documents[len(set.Documents)-1:]
	older := set.Documents[:len(set.Documents)-1]
	if err := loadAll(newest, opts, self); err != nil {
		return err
	}
	newest[0].ReadOperations()
	rest := older
	if !opts.Full && st.outlineAll(older, opts.Validator) {
		if st.outlineTree(newest[0], false) {
			views := map[digest]*versions.Operation{}
			st.addViews(newest[0], views, newest[0].Operations())
			rest = nil
			for _, d := range older {
				if !st.borrow(d, views) {
					rest = append(rest, d)
				}
			}
		}
	}
	rest = slices.Clone(rest)
	for _, d := range rest {
		d.Source = d.Source.WithData(d.Source.Data()) // its tree went with its outline
	}
	if err := loadAll(rest, opts, self); err != nil {
		return err
	}
	for _, d := range rest {
		d.ReadOperations()
	}
	return nil
}
