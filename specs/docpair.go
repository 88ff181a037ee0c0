package specs

import (
	"bytes"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/apiver/apiver/specs/prune"
	"go.yaml.in/yaml/v3"
	"golang.org/x/sync/errgroup"
)

// DocumentComparison is two version documents to compare.
type DocumentComparison struct {
	// Base is the base's document of the version; for a document new in
	// the revision, its predecessor in the revision (nil for the first
	// release, and for a new pre-release, which is compared with nothing).
	Base *VersionDocument
	// Revision is the revision's document, nil when the version is gone.
	Revision *VersionDocument
	// New says Revision is not in the base.
	New bool
	// Identical says both documents hold the same bytes and name no other
	// file: nothing changed, and the revision's snapshot stands for both.
	Identical bool
	// Diff says the two documents are diffed: some change of theirs is not
	// another comparison's (Covered, DocumentFrom). Without it, both hold
	// the same operations, and every change is another's.
	Diff bool
	// Plan is what the fast pass found unchanged between the two (nil when
	// it could not tell, or with the full pipeline). The operations of
	// Covered and, with DocumentFrom set, what lies outside the operations
	// count as unchanged in it: they are not diffed here.
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
	// the comparison diffs, every line in its place.
	BaseSnapshot, RevisionSnapshot *Snapshot
	// kept are, for a comparison read by blocks, the blocks its copies
	// keep (on either side), and anchor places its base's lines on its
	// revision's.
	kept   map[string]bool
	anchor *Anchorer
}

// DocumentPair is two document sets loaded for their comparisons.
type DocumentPair struct {
	Base, Revision *DocumentSet
	Comparisons    []*DocumentComparison
	// byBlocks says the documents were read by blocks (blockIndex), not by
	// the fast pass.
	byBlocks bool
	// trees are the texts loaded for comparisons, parsed for Unreduce.
	treesMu sync.Mutex
	trees   map[*Snapshot]*yaml.Node
}

// DocumentComparisons pairs the documents of two sets: a version in both
// with itself; a released version new in the revision with its
// predecessor there (the latest earlier released document); a new
// pre-release and a version gone with nothing.
func DocumentComparisons(base, revision *DocumentSet) []*DocumentComparison {
	var out []*DocumentComparison
	for _, r := range revision.Documents {
		switch b := base.Document(r.Version); {
		case b != nil:
			out = append(out, &DocumentComparison{Base: b, Revision: r})
		case r.PreRelease:
			out = append(out, &DocumentComparison{Revision: r, New: true})
		default:
			out = append(out, &DocumentComparison{Base: revision.Predecessor(r), Revision: r, New: true})
		}
	}
	for _, b := range base.Documents {
		if revision.Document(b.Version) == nil {
			out = append(out, &DocumentComparison{Base: b})
		}
	}
	return out
}

// LoadDocumentPair loads the documents of two sets for their comparisons
// (DocumentComparisons), so that the cost follows what changed:
//
//   - the fast pass reads every document once (in parallel, one per core)
//     and finds, for each comparison, the operations that changed;
//   - a document the same in both sets is not diffed, nor loaded for the
//     base;
//   - an operation that reads the same (with all it reaches) in several
//     comparisons, on both sides, is diffed in one of them only (the newest
//     version's), and so are the changes outside the operations (Covered,
//     DocumentFrom); a comparison left with nothing of its own is not
//     diffed at all;
//   - a document that is diffed is loaded once, keeping what its
//     comparisons need; one that is not takes its operations from a loaded
//     document where they read the same, else it is loaded without its
//     schemas, which only the diff reads.
//
// With opts.Full, or when a document cannot be reduced, every document is
// loaded, and every comparison diffed, as LoadForComparisons loads a
// history's snapshots. Release lets the fast pass's trees go once the
// pair's changes are placed.
func LoadDocumentPair(base, revision *DocumentSet, opts PairOptions) (*DocumentPair, error) {
	pair := &DocumentPair{Base: base, Revision: revision, Comparisons: DocumentComparisons(base, revision)}
	if opts.Validator == nil {
		// The documents of a set share most of what they cut: each part
		// is read once.
		opts.Validator = prune.NewValidator()
	}
	if !opts.Full {
		if done, err := pair.loadByBlocks(opts); done || err != nil {
			return pair, err
		}
	}
	if err := pair.loadByFastPass(opts); err != nil {
		return nil, err
	}
	for _, c := range pair.Comparisons {
		if c.Diff {
			c.BaseSnapshot, c.RevisionSnapshot = c.Base.Snapshot, c.Revision.Snapshot
			c.DiffDocument = c.DocumentFrom == nil
		}
	}
	return pair, nil
}

// loadByFastPass is LoadDocumentPair with every document read by the fast
// pass.
func (pair *DocumentPair) loadByFastPass(opts PairOptions) error {
	base, revision := pair.Base, pair.Revision
	all := append(slices.Clone(base.Documents), revision.Documents...)
	parallel(all, func(_ int, d *VersionDocument) { d.Source.prepare() })

	reducible := !opts.Full
	for _, d := range all {
		reducible = reducible && d.Source.structure == nil && d.Source.doc.Why == ""
	}
	alias := map[*VersionDocument]*VersionDocument{} // base document -> the revision's, the same bytes
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
	if reducible {
		pair.cover(opts.Note)
	}

	// The documents diffed, each for all its comparisons.
	neighbours := map[*VersionDocument][]*Source{}
	reductions := map[*VersionDocument][]*prune.Reduction{}
	var diffed, others []*VersionDocument
	for _, c := range pair.Comparisons {
		if !c.Diff {
			continue
		}
		for _, d := range []*VersionDocument{c.Base, c.Revision} {
			if len(neighbours[d]) == 0 {
				diffed = append(diffed, d)
			}
		}
		neighbours[c.Base] = append(neighbours[c.Base], c.Revision.Source)
		neighbours[c.Revision] = append(neighbours[c.Revision], c.Base.Source)
		if reducible {
			skip := map[string]bool{}
			for name := range c.Covered {
				method, path, _ := strings.Cut(name, " ")
				skip[strings.ToLower(method)+" "+path] = true
			}
			red := prune.DecideExcept(c.Base.Source.doc, c.Revision.Source.doc, skip, c.DocumentFrom == nil)
			reductions[c.Base] = append(reductions[c.Base], red)
			reductions[c.Revision] = append(reductions[c.Revision], red)
		}
	}
	for _, d := range all {
		if alias[d] == nil && len(neighbours[d]) == 0 {
			others = append(others, d)
		}
	}
	if err := loadAll(diffed, opts, func(d *VersionDocument, o PairOptions) (*Snapshot, error) {
		if reducible {
			return d.Source.loadReductions(reductions[d], o)
		}
		return LoadForComparisons(d.Source, neighbours[d], o)
	}); err != nil {
		return err
	}
	for _, d := range diffed {
		d.readOperations()
	}
	// The others take their operations from the documents loaded, where
	// they read the same, or are loaded without their schemas.
	if reducible {
		index := signatures(diffed)
		others = slices.DeleteFunc(others, func(d *VersionDocument) bool { return d.borrow(index) })
	}
	if err := loadAll(others, opts, func(d *VersionDocument, o PairOptions) (*Snapshot, error) {
		return LoadForComparisons(d.Source, []*Source{d.Source}, o)
	}); err != nil {
		return err
	}
	for _, d := range others {
		d.readOperations()
	}
	for b, r := range alias {
		if r.Snapshot != nil {
			s := *r.Snapshot
			s.Path, s.Ref = b.Source.path, b.Source.ref
			b.Snapshot = &s
		}
		b.ops, b.lines, b.sunset = r.ops, r.lines, r.sunset
	}
	if !reducible && !opts.Full {
		for _, c := range pair.Comparisons {
			if !c.Diff {
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
	}
	return nil
}

// cover plans every comparison with the fast pass and finds the
// operations and document parts whose diff another comparison makes
// (Covered, DocumentFrom): the newest versions' comparisons come first.
func (p *DocumentPair) cover(note func(string)) {
	// A change found in JSON has no line, and one placed in JSON none
	// either: the covering comparison reads the same kinds of text.
	type sides struct {
		base, revision         string
		baseJSON, revisionJSON bool
	}
	ops := map[sides]*DocumentComparison{}
	documents := map[sides]*DocumentComparison{}
	for i := len(p.Comparisons) - 1; i >= 0; i-- {
		c := p.Comparisons[i]
		if !c.Diff {
			continue
		}
		b, r := c.Base.Source.doc, c.Revision.Source.doc
		c.Plan, _ = PlanPair(c.Base.Source, c.Revision.Source)
		c.Covered = map[string]*DocumentComparison{}
		_, unchanged := prune.Changes(b, r)
		own := false
		for _, name := range slices.Sorted(maps.Keys(unchanged)) {
			if unchanged[name] {
				continue
			}
			bs, inBase := b.Signature(name)
			rs, inRevision := r.Signature(name)
			if !inBase || !inRevision {
				own = true // added or removed here
				continue
			}
			method, path, _ := strings.Cut(name, " ")
			key := sides{bs, rs, b.JSON(), r.JSON()}
			if first := ops[key]; first != nil {
				c.Covered[strings.ToUpper(method)+" "+path] = first
				c.Plan.unchanged[strings.ToUpper(method)+" "+path] = true
				continue
			}
			ops[key] = c
			own = true
		}
		key := sides{b.DocumentSignature(), r.DocumentSignature(), b.JSON(), r.JSON()}
		switch first := documents[key]; {
		case first != nil:
			c.DocumentFrom = first
			c.Plan.changed = map[string]bool{}
		case key.base != key.revision:
			documents[key] = c
			own = true
		}
		c.Diff = own
		if note != nil {
			note(fmt.Sprintf("%s; %d of them diffed in another comparison", c.Plan.Note, len(c.Covered)))
		}
	}
}

// parallel calls fn on every document, one per core.
func parallel(docs []*VersionDocument, fn func(int, *VersionDocument)) {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, d := range docs {
		g.Go(func() error { fn(i, d); return nil })
	}
	_ = g.Wait()
}

// loadAll loads documents in parallel with load; their notes are told in
// order, and the error is the first document's in order, so that the same
// input gives the same output.
func loadAll(docs []*VersionDocument, opts PairOptions, load func(*VersionDocument, PairOptions) (*Snapshot, error)) error {
	notes := make([][]string, len(docs))
	errs := make([]error, len(docs))
	parallel(docs, func(i int, d *VersionDocument) {
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

// readOperations lists a loaded document's operations.
func (d *VersionDocument) readOperations() {
	d.ops = Operations(d.Snapshot.Doc, "")
	d.lines = map[string]int{}
	for _, op := range d.ops {
		d.lines[op.Name()] = op.Line()
	}
	if d.Snapshot.Doc.Info != nil {
		d.sunset = sunsetOf(d.Snapshot.Doc.Info.Extensions)
	}
}

// signatures indexes the operations of loaded documents by Signature.
func signatures(loaded []*VersionDocument) map[string]*Operation {
	index := map[string]*Operation{}
	for _, l := range loaded {
		for _, op := range l.ops {
			if sig, ok := l.Source.doc.Signature(strings.ToLower(op.Method) + " " + op.Path); ok {
				index[sig] = op
			}
		}
	}
	return index
}

// borrow gives d, not loaded, its operations from loaded documents where
// they read the same (the same Signature), at d's own lines; it reports
// whether every operation found one.
func (d *VersionDocument) borrow(index map[string]*Operation) bool {
	doc := d.Source.doc
	var ops []*Operation
	lines := map[string]int{}
	for _, name := range doc.OperationNames() {
		method, path, _ := strings.Cut(name, " ")
		if !d.Source.paths.Keep(path) {
			continue
		}
		sig, _ := doc.Signature(name)
		op := index[sig]
		if op == nil {
			return false
		}
		ops = append(ops, op)
		lines[strings.ToUpper(method)+" "+path] = doc.OperationLine(name)
	}
	slices.SortFunc(ops, func(a, b *Operation) int { return CompareOperationNames(a.Name(), b.Name()) })
	d.ops, d.lines = ops, lines
	if info := mappingValue(doc.Root(), "info"); info != nil {
		if s := mappingValue(info, "x-sunset"); s != nil && s.Kind == yaml.ScalarNode {
			d.sunset = sunsetOf(map[string]any{"x-sunset": s.Value})
		}
	}
	return true
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

// Operations are the document's operations, each with its view
// (Unversioned), sorted by path and method.
func (d *VersionDocument) Operations() []*Operation { return d.ops }

// Place moves a position (line and column) of from's document onto to's,
// both documents of this pair as read: the position of the same node when
// to has it, else of its nearest ancestor there; the position itself once
// released. Positions name nodes, not lines: in flow style and JSON one
// line holds many.
func (p *DocumentPair) Place(from, to *VersionDocument, line, column int) (int, int) {
	if from.blocks != nil && to.blocks != nil {
		if mapped, ok := from.blocks.lineIn(to.blocks, line); ok {
			return mapped, column
		}
		return line, column
	}
	a, b := from.Source.doc, to.Source.doc
	if a == nil || b == nil || a.Root() == nil || b.Root() == nil {
		return line, column
	}
	path := pathTo(a.Root(), line, column)
	if column == 0 {
		path = pathAt(a.Root(), line) // a location with a line only
	}
	if mapped, col := followTo(b.Root(), path); mapped > 0 {
		return mapped, col
	}
	return line, column
}

// Unreduce moves a position of what the comparison loaded of d (a copy
// that keeps only what it diffs, every node on its line but not in its
// column) onto d's document as read, where Place and Anchor take it.
func (p *DocumentPair) Unreduce(c *DocumentComparison, d *VersionDocument, line, column int) (int, int) {
	s := c.BaseSnapshot
	if d == c.Revision {
		s = c.RevisionSnapshot
	}
	if column == 0 || p.byBlocks || s == nil || d.Source.doc == nil || d.Source.doc.Root() == nil || bytes.Equal(s.text(), d.Source.data) {
		return line, column // lines are in place; copies by blocks keep them whole
	}
	p.treesMu.Lock()
	tree, ok := p.trees[s]
	if !ok {
		tree = parseNode(s.text())
		if p.trees == nil {
			p.trees = map[*Snapshot]*yaml.Node{}
		}
		p.trees[s] = tree
	}
	p.treesMu.Unlock()
	if tree == nil {
		return line, column
	}
	return followTo(d.Source.doc.Root(), pathTo(tree, line, column))
}

// Anchor places a position of a base document on the nearest line of the
// revision's document of the same version, where an annotation of a
// removal goes: the line of the same node when the revision still has it,
// else of its nearest ancestor there. ok is false when the line is no base
// document's, or the revision no longer has the document.
func (p *DocumentPair) Anchor(file, ref string, line, column int) (toFile, toRef string, toLine int, ok bool) {
	for _, c := range p.Comparisons {
		if c.Base == nil || c.Revision == nil || c.New || c.Base.Path() != file || c.Base.Source.ref != ref {
			continue
		}
		toFile, toRef = c.Revision.Path(), c.Revision.Source.ref
		switch {
		case c.Identical:
			return toFile, toRef, line, true
		case !p.byBlocks:
			toLine, _ = p.Place(c.Base, c.Revision, line, column)
			return toFile, toRef, toLine, true
		}
		if at := p.anchorByBlocks(c, line); at > 0 {
			return toFile, toRef, at, true
		}
		// The operation's line, as NewAnchor falls back to it.
		if b := c.Base.blocks.blockAt(line); b != nil && strings.HasPrefix(b.name, "op:") {
			if o := c.Revision.blocks.blocks[b.name]; o != nil {
				return toFile, toRef, o.first, true
			}
		}
		return "", "", 0, false
	}
	return "", "", 0, false
}

// Release lets the fast pass's trees, and the documents' blocks, go.
func (p *DocumentPair) Release() {
	for _, set := range []*DocumentSet{p.Base, p.Revision} {
		for _, d := range set.Documents {
			d.Source.doc, d.blocks = nil, nil
		}
	}
	for _, c := range p.Comparisons {
		c.anchor = nil
	}
	p.trees = nil
}

// identical reports whether two sources hold the same document: the same
// bytes, naming no other file (whose bytes could differ).
func identical(a, b *Source) bool {
	return bytes.Equal(a.data, b.data) && a.structure == nil && a.doc != nil && a.doc.Why == ""
}

// LoadDocumentSet loads the documents of one set for commands that read
// their operations and lifecycles, not their schemas: the newest is loaded
// without its schemas, and the others take their operations from it where
// they read the same (by their blocks, else by the fast pass), or are
// loaded so too.
func LoadDocumentSet(set *DocumentSet, opts PairOptions) error {
	if opts.Validator == nil {
		opts.Validator = prune.NewValidator()
	}
	self := func(d *VersionDocument, o PairOptions) (*Snapshot, error) {
		return LoadForComparisons(d.Source, []*Source{d.Source}, o)
	}
	defer func() {
		for _, d := range set.Documents {
			d.Source.doc, d.blocks = nil, nil
		}
	}()
	newest := set.Documents[len(set.Documents)-1:]
	older := set.Documents[:len(set.Documents)-1]
	indexed := make([]bool, len(set.Documents))
	if !opts.Full {
		parallel(set.Documents, func(i int, d *VersionDocument) { d.blocks, indexed[i] = indexBlocks(d.Source.data) })
	}
	byBlocks := !slices.Contains(indexed, false)
	if !byBlocks {
		parallel(set.Documents, func(_ int, d *VersionDocument) { d.Source.prepare() })
	}
	if err := loadAll(newest, opts, self); err != nil {
		return err
	}
	newest[0].readOperations()
	var rest []*VersionDocument
	switch {
	case opts.Full:
		rest = older
	case byBlocks:
		views := map[uint64]*Operation{}
		for _, op := range newest[0].ops {
			if sig, ok := newest[0].blocks.signature(strings.ToLower(op.Method) + " " + op.Path); ok {
				views[sig] = op
			}
		}
		for _, d := range older {
			if !d.borrowBlocks(views) {
				rest = append(rest, d)
			}
		}
	default:
		reducible := newest[0].Source.doc != nil && newest[0].Source.doc.Why == ""
		var index map[string]*Operation
		if reducible {
			index = signatures(newest)
		}
		for _, d := range older {
			if !reducible || d.Source.doc == nil || d.Source.doc.Why != "" || !d.borrow(index) {
				rest = append(rest, d)
			}
		}
	}
	if err := loadAll(rest, opts, self); err != nil {
		return err
	}
	for _, d := range rest {
		d.readOperations()
	}
	return nil
}
