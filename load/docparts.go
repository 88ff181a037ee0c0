package load

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/specs/prune"
	"github.com/apiver/apiver/versions"
	"go.yaml.in/yaml/v3"
	"golang.org/x/sync/errgroup"
)

// outline is what the fast pass read of a version document, kept once its
// tree goes.
type outline struct {
	// ops are its operations ("method path", as written) that the path
	// filter keeps, sorted; sigs their prune Signatures.
	ops  []string
	sigs map[string]digest
	// lines are where each operation ("METHOD /path") starts, as the
	// loader gives it (0 in JSON).
	lines map[string]int
	// document is its prune DocumentSignature, webhooks its
	// WebhooksSignature.
	document, webhooks digest
	json               bool
	// outbound says it may hold operations outside its paths (webhooks,
	// callbacks), which ops leave out: its operations are read from it.
	outbound bool
	sunset   civil.Date
	retired  bool
}

// digest is a prune Signature: 128 bits.
type digest = [2]uint64

// state is what the fast pass read of a version document: its outline,
// kept once its tree goes, and where its nodes start, for changes placed
// on it.
type state struct {
	outline *outline
	places  *specs.Positions
}

// states are the states of the documents of a pair or a set, each
// document's read and written by one goroutine at a time.
type states struct {
	mu sync.Mutex
	m  map[*specs.VersionDocument]*state
}

// of is d's state.
func (st *states) of(d *specs.VersionDocument) *state {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.m == nil {
		st.m = map[*specs.VersionDocument]*state{}
	}
	if st.m[d] == nil {
		st.m[d] = &state{}
	}
	return st.m[d]
}

// forget drops every document's state.
func (st *states) forget() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.m = nil
}

// outlineTree reads d's outline from its tree (indexed), and its places
// when placed; ok is false when d cannot be reduced.
func (st *states) outlineTree(d *specs.VersionDocument, placed bool) (ok bool) {
	s := d.Source
	if s.Structure() != nil || s.Indexed() == nil || s.Indexed().Why != "" {
		return false
	}
	doc := s.Indexed()
	o := &outline{sigs: map[string]digest{}, lines: map[string]int{}, document: doc.DocumentSignature(), webhooks: doc.WebhooksSignature(), json: doc.JSON(), outbound: doc.Outbound()}
	for _, name := range doc.OperationNames() {
		method, path, _ := strings.Cut(name, " ")
		if !s.Paths().Keep(path) {
			continue
		}
		o.ops = append(o.ops, name)
		o.sigs[name], _ = doc.Signature(name)
		o.lines[strings.ToUpper(method)+" "+path] = doc.OperationLine(name)
	}
	if info := mappingValue(doc.Root(), "info"); info != nil {
		if sunset := mappingValue(info, "x-sunset"); sunset != nil && sunset.Kind == yaml.ScalarNode {
			o.sunset = versions.SunsetOf(map[string]any{"x-sunset": sunset.Value})
		}
	}
	if lc := mappingValue(doc.Root(), versions.LifecycleExtension); lc != nil && lc.Kind == yaml.ScalarNode {
		o.retired = versions.Retired(map[string]any{versions.LifecycleExtension: lc.Value})
	}
	at := st.of(d)
	at.outline = o
	if placed {
		at.places = specs.PositionsOf(doc.Root())
	}
	return true
}

// outlineAll reads the outline of each document, one per core, and lets
// each tree go once read: what a set of large documents keeps is their
// outlines, not their trees. Each is read as the loader would read it
// (prune.Validator.CheckAll): nothing loads them. It reports whether every
// document could be reduced and read so.
func (st *states) outlineAll(docs []*specs.VersionDocument, v *prune.Validator) bool {
	ok := make([]bool, len(docs))
	parallel(docs, func(i int, d *specs.VersionDocument) {
		d.Source.Index()
		ok[i] = st.outlineTree(d, false) && v.CheckAll(d.Source.Indexed()) == nil
		d.Source.DropTree()
	})
	return !slices.Contains(ok, false)
}

// addViews indexes ops, views of d's operations, by their Signatures in d.
func (st *states) addViews(d *specs.VersionDocument, views map[digest]*versions.Operation, ops []*versions.Operation) {
	o := st.of(d).outline
	for _, op := range ops {
		if sig, ok := o.sigs[strings.ToLower(op.Method)+" "+op.Path]; ok {
			views[sig] = op
		}
	}
}

// borrow gives d its operations from views of documents loaded, where they
// read the same (the same Signature), at d's own lines; it reports whether
// every operation found one.
func (st *states) borrow(d *specs.VersionDocument, views map[digest]*versions.Operation) bool {
	o := st.of(d).outline
	if o.outbound {
		return false
	}
	// Named once: a name is made anew at each call, and a sort compares
	// each many times.
	type named struct {
		name string
		op   *versions.Operation
	}
	var byName []named
	for _, name := range o.ops {
		op := views[o.sigs[name]]
		if op == nil {
			return false
		}
		byName = append(byName, named{op.Name(), op})
	}
	slices.SortFunc(byName, func(a, b named) int { return versions.CompareOperationNames(a.name, b.name) })
	ops := make([]*versions.Operation, len(byName))
	for i, n := range byName {
		ops[i] = n.op
	}
	d.SetOperations(ops, o.lines, o.sunset, o.retired)
	return true
}

// loadByParts is LoadDocumentPair's fast path. It reads every document by
// the fast pass (package prune), a few ahead on every core (readAhead),
// plans one comparison at a time, newest version first, and lets a tree go
// once its comparisons are planned, keeping the document's outline. Then:
//
//   - a document whose bytes did not change between base and revision is
//     read once, for both, and not diffed;
//   - an operation that reads the same (with all it reaches) in several
//     comparisons, on each side, is diffed in the first (the newest) only,
//     and so are the changes outside the operations (Covered,
//     DocumentFrom); a comparison left with nothing of its own is not
//     diffed at all; documents with YAML aliases diff their own;
//   - a comparison that diffs the newest document of a set keeps every
//     operation of its copies, the unchanged ones without their schemas,
//     so that they hold the views of the operations; another comparison's
//     copies keep only its own changes (prune.DecideOnly);
//   - every other document takes its operations from a copy loaded where
//     they read the same, else is loaded without its schemas;
//   - every part of every document is read as the loader would read it:
//     in a copy loaded, cut from one and read by the validator, or read by
//     it alone (prune.Validator.CheckAll).
//
// done is false when a document cannot be reduced; whole says a part of
// one would not load, and the whole documents must report it.
func (p *DocumentPair) loadByParts(opts PairOptions) (done, whole bool, err error) {
	holders := []*specs.VersionDocument{p.Base.Documents[len(p.Base.Documents)-1], p.Revision.Documents[len(p.Revision.Documents)-1]}
	// A tree goes once its comparisons are planned, but the newest
	// revision document's only once a copy holds its operations: else it
	// is loaded at the end.
	uses := map[*specs.VersionDocument]int{}
	copiedDocs := map[*specs.VersionDocument]bool{}
	// Changes are placed (Place) only on the documents of comparisons of
	// two documents that differ: where changes another comparison found
	// are moved to, removals anchored and aliases looked for.
	placed := map[*specs.VersionDocument]bool{}
	for _, c := range p.Comparisons {
		for _, d := range c.documents() {
			uses[d]++
		}
		if c.Base != nil && c.Revision != nil {
			c.Identical = !c.New && bytes.Equal(c.Base.Source.Data(), c.Revision.Source.Data())
			if c.Identical {
				c.Base.Source.ShareData(c.Revision.Source)
			} else {
				placed[c.Base], placed[c.Revision] = true, true
			}
		}
	}
	known := p.knownStates(opts.Known, placed)
	r := p.readAhead(known, placed)
	defer r.stop()
	type sides struct {
		base, revision digest
		// A change is placed only in the kind of text (JSON or YAML) it
		// was found in, whose nodes the places name alike.
		baseJSON, revisionJSON bool
	}
	ops := map[sides]*DocumentComparison{}
	documents := map[sides]*DocumentComparison{}
	texts := map[*DocumentComparison][]prune.Reduced{}
	validated := map[*specs.VersionDocument]bool{}
	for d := range known {
		validated[d] = true // as it was in the pair that read it
	}
	for i := len(p.Comparisons) - 1; i >= 0; i-- {
		c := p.Comparisons[i]
		docs := c.documents()
		for _, d := range docs {
			if !r.wait(d) {
				return false, false, nil
			}
		}
		if c.Identical && p.states.of(c.Base).outline == nil {
			base, revision := p.states.of(c.Base), p.states.of(c.Revision)
			base.outline, base.places = revision.outline, revision.places
			validated[c.Base] = true // as the revision's is
		}
		// own are the operations ("method path") this comparison diffs.
		own := map[string]bool{}
		if c.Base != nil && c.Revision != nil && !c.Identical {
			bs, rs := p.states.of(c.Base), p.states.of(c.Revision)
			b, r := bs.outline, rs.outline
			c.Covered = map[string]*DocumentComparison{}
			// A change found through an alias is located at its anchor,
			// which names no one node: such documents diff their own.
			alone := bs.places.Aliased() || rs.places.Aliased()
			for _, name := range slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(b.ops), r.ops...)))) {
				bs, inBase := b.sigs[name]
				rs, inRevision := r.sigs[name]
				switch {
				case inBase && inRevision && bs == rs:
					continue
				case !inBase || !inRevision || alone:
					own[name] = true // added or removed here, or alone
					continue
				}
				key := sides{bs, rs, b.json, r.json}
				if first := ops[key]; first != nil {
					method, path, _ := strings.Cut(name, " ")
					c.Covered[strings.ToUpper(method)+" "+path] = first
					continue
				}
				ops[key] = c
				own[name] = true
			}
			if key := (sides{b.document, r.document, b.json, r.json}); key.base != key.revision {
				if first := documents[key]; first != nil && !alone {
					c.DocumentFrom = first
				} else {
					if !alone {
						documents[key] = c
					}
					c.DiffDocument = true
				}
			}
			// Webhooks are no operations of the outline: where they may
			// differ, the comparison diffs its own (its copies hold them).
			c.Diff = len(own) > 0 || c.DiffDocument || b.webhooks != r.webhooks
			if opts.Note != nil {
				opts.Note(fmt.Sprintf("%s, %s: %d operations changed, %d of them diffed in another comparison", c.Base.Path(), c.Revision.Path(), len(own)+len(c.Covered), len(c.Covered)))
			}
		}
		// In a resource tree most operations are in one document a side:
		// every comparison of two documents holds the views of their
		// operations in its copies (those it does not diff as skeletons),
		// so that no document is loaded on its own for them.
		copied := c.Diff || (p.Revision.ByResource && c.Base != nil && c.Revision != nil && !c.Identical)
		// Every part of every document is read as the loader reads it: in
		// a copy loaded or cut from it (Texts reads what it cuts), or here.
		holding := copied && (p.Revision.ByResource || slices.Contains(holders, c.Base) || slices.Contains(holders, c.Revision))
		if !holding {
			for _, d := range docs {
				if !validated[d] {
					validated[d] = true
					if err := opts.Validator.CheckAll(d.Source.Indexed()); err != nil {
						return false, true, nil
					}
				}
			}
		}
		if copied {
			// A copy is cut from the trees: documents known from another
			// pair are parsed for it.
			ok := make([]bool, len(docs))
			parallel(docs, func(i int, d *specs.VersionDocument) { ok[i] = !known[d] || reducible(d) })
			if slices.Contains(ok, false) {
				return false, false, nil
			}
			bd, rd := c.Base.Source.Indexed(), c.Revision.Source.Indexed()
			var document prune.DocumentScope
			if c.DiffDocument {
				document = prune.EveryComponent
			}
			red := prune.DecideOnly(bd, rd, own, document)
			if holding {
				// All operations, the others as skeletons.
				skip := map[string]bool{}
				for _, name := range append(bd.OperationNames(), rd.OperationNames()...) {
					skip[name] = !own[name]
				}
				red = prune.DecideExcept(bd, rd, skip, document)
			}
			cut, err := red.Reduce([]*prune.Doc{bd, rd}, opts.Validator, nil)
			if err != nil {
				return false, true, nil
			}
			texts[c] = cut
			if holding {
				// Their copies hold all they do not cut: what the other
				// documents share with them is read once, by the load.
				for _, d := range docs {
					if !validated[d] {
						validated[d] = true
						opts.Validator.Loads(d.Source.Indexed())
					}
				}
			}
		}
		for _, d := range docs {
			copiedDocs[d] = copiedDocs[d] || copied
			if uses[d]--; uses[d] == 0 && (d != holders[1] || copiedDocs[d]) {
				r.done(d)
			}
		}
	}

	// The copies, loaded.
	var diffed []*DocumentComparison
	var copied int
	for _, c := range p.Comparisons {
		if texts[c] != nil {
			diffed = append(diffed, c)
			copied += len(texts[c][0].Text) + len(texts[c][1].Text)
		}
	}
	if smallCopies(copied, p.largestPair()) {
		// A pull request's copies are small next to the trees the plan
		// read, which are garbage now: collected here, they are not the
		// floor of the peak that the loads and the diff add to. (Larger
		// copies' loads run the collector at the budget's limit anyway,
		// and one more collection there only costs time.)
		runtime.GC()
	}
	// A copy the known pair loaded from the same text is not loaded
	// again (a fix's new document holds the text of the revision's newest,
	// its restored documents the base's).
	var loadedBefore []*specs.Snapshot
	if opts.Known != nil {
		for _, c := range opts.Known.Comparisons {
			loadedBefore = append(loadedBefore, c.BaseSnapshot, c.RevisionSnapshot)
		}
	}
	// Each copy on its own core: a pull request diffs one comparison.
	loaded := make([][2]*specs.Snapshot, len(diffed))
	errs := make([][2]error, len(diffed))
	parallelDo(2*len(diffed), func(k int) {
		i, j := k/2, k%2
		c := diffed[i]
		d := []*specs.VersionDocument{c.Base, c.Revision}[j]
		for _, snap := range loadedBefore {
			if loaded[i][j] = specs.Reloaded(snap, texts[c][j].Text, d.Source); loaded[i][j] != nil {
				return
			}
		}
		if loaded[i][j], errs[i][j] = loadReduced(d.Source, texts[c][j]); errs[i][j] == nil {
			loaded[i][j].Reduced = true
		}
	})
	for i, c := range diffed {
		if errs[i][0] != nil || errs[i][1] != nil {
			// A copy that does not load: the whole documents report it,
			// as the full pipeline would.
			return false, true, nil
		}
		c.BaseSnapshot, c.RevisionSnapshot = loaded[i][0], loaded[i][1]
	}

	// The views of the operations: every copy's, and the newest
	// revision document's when no copy holds all of its own.
	views := map[digest]*versions.Operation{}
	for _, c := range diffed {
		p.states.addViews(c.Base, views, versions.Operations(c.BaseSnapshot.Doc, ""))
		p.states.addViews(c.Revision, views, versions.Operations(c.RevisionSnapshot.Doc, ""))
	}
	if d := holders[1]; !copiedDocs[d] {
		if err := loadAll([]*specs.VersionDocument{d}, opts, func(d *specs.VersionDocument, o PairOptions) (*specs.Snapshot, error) {
			return LoadForComparisons(d.Source, []*specs.Source{d.Source}, o)
		}); err != nil {
			return true, false, err
		}
		d.ReadOperations()
		p.states.addViews(d, views, d.Operations())
		r.done(d)
	}
	// The revision's documents first: a base document whose operations
	// read as those of a revision document loaded here (of its own
	// version, unchanged) borrows them.
	var loadErr error
	for _, set := range []*specs.DocumentSet{p.Revision, p.Base} {
		var rest []*specs.VersionDocument
		for _, d := range set.Documents {
			if d.Operations() == nil && !p.states.borrow(d, views) {
				rest = append(rest, d)
			}
		}
		for _, d := range rest {
			d.Source = d.Source.WithData(d.Source.Data()) // its tree went with its outline
		}
		if err := loadAll(rest, opts, func(d *specs.VersionDocument, o PairOptions) (*specs.Snapshot, error) {
			return LoadForComparisons(d.Source, []*specs.Source{d.Source}, o)
		}); err != nil {
			if loadErr == nil || set == p.Base {
				loadErr = err // the base's is the first in order
			}
			continue
		}
		for _, d := range rest {
			d.ReadOperations()
			p.states.addViews(d, views, d.Operations())
		}
	}
	return true, false, loadErr
}

// reader reads the documents of a pair's comparisons by the fast pass,
// in the order loadByParts plans them, a few ahead, so that every core
// reads while a comparison is planned; a tree is held until done lets it
// go. How far it reads ahead is counted from the document the planner
// last waited for, never in slots that trees still held could fill: the
// document waited for is always read, whatever GOMAXPROCS is.
type reader struct {
	reads map[*specs.VersionDocument]*reading
	ahead int
	mu    sync.Mutex
	moved *sync.Cond // asked grew, or stop was called
	asked int        // how many documents of the order the planner reached
	quit  bool
	wg    sync.WaitGroup
}

type reading struct {
	at      int // its place in the order
	done    chan struct{}
	reduced bool
}

// readAhead starts reading, newest comparison first, each document once,
// its places only when placed: not the base's document of an Identical
// comparison, whose outline is the revision's, nor a document known from
// another pair, which is read already (a tree parsed for it later goes
// with done).
func (p *DocumentPair) readAhead(known, placed map[*specs.VersionDocument]bool) *reader {
	r := &reader{reads: map[*specs.VersionDocument]*reading{}, ahead: runtime.GOMAXPROCS(0)}
	r.moved = sync.NewCond(&r.mu)
	read := make(chan struct{})
	close(read)
	for d := range known {
		r.reads[d] = &reading{at: -1, done: read, reduced: true}
	}
	var order []*specs.VersionDocument
	for i := len(p.Comparisons) - 1; i >= 0; i-- {
		c := p.Comparisons[i]
		for _, d := range c.documents() {
			if r.reads[d] == nil && !(c.Identical && d == c.Base) {
				r.reads[d] = &reading{at: len(order), done: make(chan struct{})}
				order = append(order, d)
			}
		}
	}
	// A document shares most of its text with the next version's of its
	// side (an earlier version's document holds mostly what the next one
	// does), else with the base's of its version: its parse copies what
	// they share, from that one's tree (read before it, and while it is
	// still held).
	inBase := map[*specs.VersionDocument]bool{}
	for _, d := range p.Base.Documents {
		inBase[d] = true
	}
	sameVersion := map[*specs.VersionDocument]*specs.VersionDocument{}
	for _, c := range p.Comparisons {
		if c.Base != nil && c.Revision != nil && !c.New {
			sameVersion[c.Revision] = c.Base
		}
	}
	var last [2]*specs.VersionDocument // the base's and the revision's read last
	for _, d := range order {
		side := 1
		if inBase[d] {
			side = 0
		}
		partner := last[side]
		if b := sameVersion[d]; partner == nil && b != nil && r.reads[b] != nil && r.reads[b].at >= 0 && r.reads[b].at < r.reads[d].at {
			partner = b
		}
		if partner != nil {
			d.Source.ShareParse(partner.Source)
		}
		last[side] = d
	}
	r.wg.Go(func() {
		for i, d := range order {
			r.mu.Lock()
			for !r.quit && i >= r.asked+r.ahead {
				r.moved.Wait()
			}
			quit := r.quit
			r.mu.Unlock()
			if quit {
				return
			}
			rd := r.reads[d]
			r.wg.Go(func() {
				defer close(rd.done)
				d.Source.Index()
				rd.reduced = p.states.outlineTree(d, placed[d])
			})
		}
	})
	return r
}

// wait waits for d to be read, and reports whether it could be reduced; a
// document not read (an Identical base) waits for nothing.
func (r *reader) wait(d *specs.VersionDocument) bool {
	rd := r.reads[d]
	if rd == nil {
		return true
	}
	r.mu.Lock()
	if rd.at >= r.asked {
		r.asked = rd.at + 1
		r.moved.Broadcast()
	}
	r.mu.Unlock()
	<-rd.done
	return rd.reduced
}

// done lets d's tree go.
func (r *reader) done(d *specs.VersionDocument) {
	if r.reads[d] != nil {
		d.Source.DropTree()
	}
}

// stop ends the reading and waits for what is being read.
func (r *reader) stop() {
	r.mu.Lock()
	r.quit = true
	r.moved.Broadcast()
	r.mu.Unlock()
	r.wg.Wait()
}

// knownStates gives each document of the pair whose text, version and
// limits a document of earlier had, read there by the fast pass, that
// document's outline and places (when it has those this pair needs): its
// parts were read as the loader reads them there too. It returns the
// documents so known.
func (p *DocumentPair) knownStates(earlier *DocumentPair, placed map[*specs.VersionDocument]bool) map[*specs.VersionDocument]bool {
	known := map[*specs.VersionDocument]bool{}
	if earlier == nil {
		return known
	}
	bySize := map[int64][]*specs.VersionDocument{}
	for _, set := range []*specs.DocumentSet{earlier.Base, earlier.Revision} {
		for _, e := range set.Documents {
			bySize[e.Source.Size()] = append(bySize[e.Source.Size()], e)
		}
	}
	for _, c := range p.Comparisons {
		for _, d := range c.documents() {
			if c.Identical && d == c.Base {
				continue // its outline is the revision's
			}
			for _, e := range bySize[d.Source.Size()] {
				at := earlier.states.known(e, placed[d])
				if at == nil || !sameReading(d.Source, e.Source) {
					continue
				}
				st := p.states.of(d)
				st.outline, st.places = at.outline, at.places
				known[d] = true
				break
			}
		}
	}
	return known
}

// known is d's state when its outline, and its places when placed, were
// read, else nil.
func (st *states) known(d *specs.VersionDocument, placed bool) *state {
	st.mu.Lock()
	defer st.mu.Unlock()
	if at := st.m[d]; at != nil && at.outline != nil && (at.places != nil || !placed) {
		return at
	}
	return nil
}

// sameReading reports whether the fast pass reads a and b alike: the same
// text, version name (which the stability it declares must agree with),
// node limit and path filter.
func sameReading(a, b *specs.Source) bool {
	pa, pb := a.Paths(), b.Paths()
	return a.Version() == b.Version() && a.MaxNodes() == b.MaxNodes() &&
		slices.Equal(pa.Match, pb.Match) && slices.Equal(pa.Exclude, pb.Exclude) &&
		bytes.Equal(a.Data(), b.Data())
}

// reducible parses d, when it was not, and reports whether the fast pass
// can reduce it.
func reducible(d *specs.VersionDocument) bool {
	s := d.Source
	s.Index()
	return s.Structure() == nil && s.Indexed() != nil && s.Indexed().Why == ""
}

// largestPair is the size of the largest document of each set together:
// as large as a comparison of two documents gets.
func (p *DocumentPair) largestPair() int64 {
	var total int64
	for _, set := range []*specs.DocumentSet{p.Base, p.Revision} {
		var largest int64
		for _, d := range set.Documents {
			largest = max(largest, d.Source.Size())
		}
		total += largest
	}
	return total
}

// documents are the comparison's documents, base first.
func (c *DocumentComparison) documents() []*specs.VersionDocument {
	var out []*specs.VersionDocument
	for _, d := range []*specs.VersionDocument{c.Base, c.Revision} {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

// parallelDo calls fn for 0 to n-1, one per core.
func parallelDo(n int, fn func(int)) {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range n {
		g.Go(func() error { fn(i); return nil })
	}
	_ = g.Wait()
}
