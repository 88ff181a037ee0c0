package specs

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"

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
}

// LoadDiffPair reads and loads the base and revision of a comparison. The
// snapshots are for diff.Compare only: see LoadReducedPair.
func LoadDiffPair(basePath, revisionPath string, baseOpts, revisionOpts LoadOptions, opts PairOptions) (base, revision *Snapshot, err error) {
	var baseSrc, revSrc *Source
	if err := both(func() (err error) { baseSrc, err = Read(basePath, baseOpts); return err },
		func() (err error) { revSrc, err = Read(revisionPath, revisionOpts); return err }); err != nil {
		return nil, nil, err
	}
	if opts.Read != nil {
		opts.Read(int64(len(baseSrc.data) + len(revSrc.data)))
	}
	return LoadReducedPair(baseSrc, revSrc, opts)
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

// LoadReducedPair loads two sources for a comparison of base with revision.
// Unless opts.Full, kin-openapi reads reduced copies of the texts: the
// schemas and examples of operations whose closure is the same in both are
// blanked, and so are the components equal in both that nothing kept
// reaches (see reduce.go). Lines keep their numbers, so locations are
// exact. The descriptions and examples the diff does not compare are
// emptied too, even where nothing else can be reduced (every operation
// changed, servers or security changed). A document that cannot be cut by
// lines (JSON, flow style at the top, YAML anchors, $refs to other files)
// is loaded whole; opts.Note says why. Input errors are those of the whole
// texts.
func LoadReducedPair(base, revision *Source, opts PairOptions) (b, r *Snapshot, err error) {
	note := func(format string, args ...any) {
		if opts.Note != nil {
			opts.Note(fmt.Sprintf(format, args...))
		}
	}
	whole := func() (*Snapshot, *Snapshot, error) {
		if err := both(func() (err error) { b, err = base.Load(); return err },
			func() (err error) { r, err = revision.Load(); return err }); err != nil {
			return nil, nil, err
		}
		return b, r, nil
	}
	if opts.Full {
		note("%s, %s: full pipeline: both documents loaded whole", base.path, revision.path)
		return whole()
	}
	_ = both(func() error { base.prepare(); return nil }, func() error { revision.prepare(); return nil })
	// The YAML trees of the fast pass are garbage now: collect them before
	// kin-openapi's loads, so that its garbage is not added on top.
	runtime.GC()
	for _, s := range []*Source{base, revision} {
		if s.structure != "" {
			return whole() // the whole load reports it
		}
	}
	var baseText, revText []byte
	var summary string
	switch {
	case base.index.why != "" || revision.index.why != "":
		// A document that cannot be cut by lines is loaded whole, and its
		// partner whole but for what the diff does not compare.
		uncut, partner := base, revision
		if uncut.index.why == "" {
			uncut, partner = revision, base
		}
		note("%s: %s; %s loaded whole too, without its descriptions and examples", uncut.path, uncut.index.why, partner.path)
		baseText, revText = base.emptied(), revision.emptied()
	default:
		var why string
		if baseText, revText, summary, why = reduce(base, revision); why != "" {
			note("%s, %s: %s: both loaded whole but for their descriptions and examples", base.path, revision.path, why)
			baseText, revText = base.emptied(), revision.emptied()
		}
	}
	// One after the other: kin-openapi's load makes several times the
	// document's size in garbage, and two at once would double the peak.
	b, err = base.loadText(baseText)
	if err == nil {
		r, err = revision.loadText(revText)
	}
	if err != nil {
		// The whole texts report an input error; if they load, the
		// reduction lost something, which the note says.
		b, r, wholeErr := whole()
		if wholeErr == nil {
			note("%s, %s: the reduced texts did not load (%v): both loaded whole", base.path, revision.path, err)
		}
		return b, r, wholeErr
	}
	b.Reduced, r.Reduced = baseText != nil, revText != nil
	if summary != "" {
		note("%s, %s: %s", base.path, revision.path, summary)
	}
	return b, r, nil
}

// prepare checks the source's structure and indexes it, once.
func (s *Source) prepare() {
	s.indexOnce.Do(func() {
		if trimmed := bytes.TrimSpace(s.data); len(trimmed) > 0 && trimmed[0] == '{' {
			s.structure = checkStructure(s.data, s.maxNodes)
			s.index = newIndex(s.data, nil)
			return
		}
		root := parseNode(s.data)
		if s.structure = checkTree(s.data, root, s.maxNodes); s.structure == "" {
			s.index = newIndex(s.data, root)
		}
	})
}

// changes finds, for two indexed documents with the same global part, the
// dirty components (different, on one side only, or reaching one that is)
// and the unchanged operations: in both, equal, naming no dirty component.
func changes(b, r *docIndex) (dirty, unchanged map[string]bool) {
	dirty = map[string]bool{}
	referrers := map[string][]string{}
	var queue []string
	for _, name := range unionKeys(b.comps, r.comps) {
		ub, ur := b.comps[name], r.comps[name]
		if ub == nil || ur == nil || ub.hash != ur.hash {
			dirty[name] = true
			queue = append(queue, name)
		}
		for _, u := range []*unit{ub, ur} {
			if u != nil {
				for _, ref := range u.refs {
					referrers[ref] = append(referrers[ref], name)
				}
			}
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		for _, from := range referrers[name] {
			if !dirty[from] {
				dirty[from] = true
				queue = append(queue, from)
			}
		}
	}
	unchanged = map[string]bool{}
	for _, name := range unionKeys(b.ops, r.ops) {
		ob, or := b.ops[name], r.ops[name]
		same := ob != nil && or != nil && ob.hash == or.hash
		for _, ref := range refsOf(ob, or) {
			same = same && !dirty[ref]
		}
		unchanged[name] = same
	}
	return dirty, unchanged
}

// Plan is, for two snapshots, what cannot produce a change between them,
// as the fast pass found it: for a comparison of documents loaded whole
// (diff.Options.Plan), so that only what changed is diffed. A nil Plan
// knows nothing: everything may have changed.
type Plan struct {
	unchanged map[string]bool // "METHOD /path"
	changed   map[string]bool // "kind/name" of components
	// Note says what the fast pass found, in one line.
	Note string
}

// PlanPair compares two sources with the fast pass; nil, with why, when a
// document cannot be read by it.
func PlanPair(base, revision *Source) (plan *Plan, why string) {
	_ = both(func() error { base.prepare(); return nil }, func() error { revision.prepare(); return nil })
	for _, s := range []*Source{base, revision} {
		switch {
		case s.structure != "":
			return nil, s.path + ": " + s.structure
		case s.index.why != "":
			return nil, s.path + ": " + s.index.why
		}
	}
	b, r := base.index, revision.index
	if b.global != r.global {
		return nil, "the OpenAPI version, servers or security changed"
	}
	dirty, unchanged := changes(b, r)
	plan = &Plan{unchanged: map[string]bool{}, changed: dirty}
	for name, same := range unchanged {
		if same {
			method, path, _ := strings.Cut(name, " ")
			plan.unchanged[strings.ToUpper(method)+" "+path] = true
		}
	}
	plan.Note = fmt.Sprintf("%s, %s: %d of %d operations and %d of %d components changed", base.path, revision.path,
		len(unchanged)-len(plan.unchanged), len(unchanged), len(dirty), len(unionKeys(b.comps, r.comps)))
	return plan, ""
}

// OperationUnchanged reports whether the operation ("METHOD /path", as
// Operation.Name gives it) is the same in both snapshots, with everything
// it reaches.
func (p *Plan) OperationUnchanged(name string) bool { return p != nil && p.unchanged[name] }

// ComponentChanged reports whether a component (kind as in components:
// "schemas", "responses"...) may differ between the snapshots.
func (p *Plan) ComponentChanged(kind, name string) bool {
	return p == nil || p.changed[kind+"/"+name]
}

// reduce decides what each document keeps and returns the reduced texts,
// or why they are not reduced.
func reduce(base, revision *Source) (baseText, revText []byte, summary, why string) {
	red, summary, why := decide(base.index, revision.index)
	if why != "" {
		return nil, nil, "", why
	}
	return red.apply(base), red.apply(revision), summary, ""
}

// reduction is what one comparison needs kept of its two documents. The
// fast pass matches operations and components by name, so it is the same
// for both; each document's edits follow from it (apply).
type reduction struct {
	// pruned are the operations kept as a skeleton; the others are kept.
	pruned map[string]bool
	// cut are the path items whose own entries (parameters) go.
	cut map[string]bool
	// blanked are the media types ("operation\x00key") of kept operations
	// that lose their schema.
	blanked map[string]bool
	// full and skel are the components kept whole or as a skeleton; the
	// others are left out.
	full, skel map[string]bool
}

// decide is the reduction of a comparison of b with r, or why they are
// not reduced.
func decide(b, r *docIndex) (red *reduction, summary, why string) {
	if b.global != r.global {
		return nil, "", "the OpenAPI version, servers or security changed"
	}
	sides := []*docIndex{b, r}
	comps := unionKeys(b.comps, r.comps)
	ops := unionKeys(b.ops, r.ops)
	dirty, unchanged := changes(b, r)
	red = &reduction{pruned: map[string]bool{}, cut: map[string]bool{}, blanked: map[string]bool{}}
	var kept []string
	for _, name := range ops {
		// An unchanged operation is pruned when both skeletons can be cut.
		if unchanged[name] && b.ops[name].skelOK && r.ops[name].skelOK {
			red.pruned[name] = true
		} else {
			kept = append(kept, name)
		}
	}
	if len(red.pruned) == 0 {
		return nil, "", fmt.Sprintf("all %d operations changed", len(ops))
	}
	// A path item's own entries (its parameters) go where all its
	// operations go; otherwise they are kept whole.
	var itemRoots []string
	for _, path := range unionKeys(b.pathItems, r.pathItems) {
		ib, ir := b.pathItems[path], r.pathItems[path]
		cut := ib != nil && ir != nil && ib.cutOK && ir.cutOK && len(ib.ops) > 0
		for _, item := range []*pathItem{ib, ir} {
			for _, op := range item.opsOrNil() {
				cut = cut && red.pruned[op]
			}
		}
		if cut {
			red.cut[path] = true
			continue
		}
		for _, item := range []*pathItem{ib, ir} {
			if item != nil {
				itemRoots = append(itemRoots, item.refs...)
			}
		}
	}

	// A kept operation whose versions stay the same loses the schemas of
	// its media types equal in both documents.
	var keptRoots []string
	for _, name := range kept {
		ob, or := b.ops[name], r.ops[name]
		if !samePayloads(ob, or, dirty) {
			keptRoots = append(keptRoots, refsOf(ob, or)...)
			continue
		}
		keptRoots = append(keptRoots, ob.outerRefs...)
		keptRoots = append(keptRoots, or.outerRefs...)
		for _, key := range slices.Sorted(maps.Keys(ob.media)) {
			mb, mr := ob.media[key], or.media[key]
			equal := mb.hash == mr.hash
			for _, ref := range append(slices.Clone(mb.refs), mr.refs...) {
				equal = equal && !dirty[ref]
			}
			if !equal {
				keptRoots = append(append(keptRoots, mb.refs...), mr.refs...)
				continue
			}
			red.blanked[mediaKey(name, key)] = true
		}
	}

	// Components are kept whole (reached from what is kept whole), as a
	// skeleton (reached only from pruned operations' skeletons) or not at
	// all. A component that cannot be cut as planned is kept whole, and
	// the plan made again.
	forced := map[string]bool{}
	for {
		roots := slices.Clone(itemRoots)
		for name := range dirty {
			roots = append(roots, name)
		}
		for name := range forced {
			roots = append(roots, name)
		}
		roots = append(roots, keptRoots...)
		for _, side := range sides {
			roots = append(roots, side.roots...)
		}
		red.full = closure(roots, nil, sides, func(u *unit) []string { return u.refs })
		roots = roots[:0]
		for _, side := range sides {
			for name := range red.pruned {
				roots = append(roots, side.ops[name].skelRefs...)
			}
		}
		red.skel = closure(roots, red.full, sides, func(u *unit) []string { return u.skelRefs })
		again := false
		for _, name := range comps {
			ub, ur := b.comps[name], r.comps[name]
			switch {
			case red.full[name]:
			case red.skel[name] && !(ub.skelOK && ur.skelOK), !red.skel[name] && !(ub.removeOK && ur.removeOK):
				forced[name], again = true, true
			}
		}
		if !again {
			break
		}
	}
	var removed int
	for _, name := range comps {
		if !red.full[name] && !red.skel[name] {
			removed++
		}
	}
	summary = fmt.Sprintf("reduced: %d of %d operations changed (the others keep only their media types, deprecation and sunsets), %d unchanged media types of theirs without schemas; of %d components, %d kept whole, %d as a skeleton, %d left out",
		len(kept), len(ops), len(red.blanked), len(comps), len(red.full), len(red.skel), removed)
	return red, summary, ""
}

func mediaKey(op, key string) string { return op + "\x00" + key }

// merge is the reduction of one document that keeps what any of reds
// keeps: an operation is pruned or a path item cut only where every one
// of them does so, and a component is kept whole where one keeps it
// whole, else as a skeleton where one does. Each reduction keeps all that
// what it keeps reaches, so the merge does too. No media type is blanked:
// a comparison blanks one only where both its documents do, and the
// other document of each comparison is merged with other neighbours.
func merge(reds []*reduction) *reduction {
	out := &reduction{pruned: map[string]bool{}, cut: map[string]bool{}, blanked: map[string]bool{}, full: map[string]bool{}, skel: map[string]bool{}}
	everywhere := func(name string, in func(*reduction) map[string]bool) bool {
		for _, red := range reds {
			if !in(red)[name] {
				return false
			}
		}
		return true
	}
	for name := range reds[0].pruned {
		if everywhere(name, func(r *reduction) map[string]bool { return r.pruned }) {
			out.pruned[name] = true
		}
	}
	for path := range reds[0].cut {
		if everywhere(path, func(r *reduction) map[string]bool { return r.cut }) {
			out.cut[path] = true
		}
	}
	for _, red := range reds {
		maps.Copy(out.full, red.full)
	}
	for _, red := range reds {
		for name := range red.skel {
			if !out.full[name] {
				out.skel[name] = true
			}
		}
	}
	return out
}

// emptied is s's text without the descriptions and examples the diff does
// not compare, line for line; nil when s cannot be cut by lines.
func (s *Source) emptied() []byte {
	if s.index.why != "" {
		return nil
	}
	return applyEdits(s.data, s.index.lines, s.index.ignored)
}

// loadReducedOrWhole loads text, a reduced copy of s's own, or s whole
// when it does not load. The whole text then reports an input error; if
// it loads, the reduction lost something, which note says.
func (s *Source) loadReducedOrWhole(text []byte, note func(string, ...any)) (*Snapshot, error) {
	snap, err := s.loadReduced(text)
	if err == nil {
		snap.Reduced = true
		return snap, nil
	}
	whole, wholeErr := s.Load()
	if wholeErr == nil {
		note("%s: the reduced text did not load (%v); loaded whole", s.path, err)
	}
	return whole, wholeErr
}

// loadText loads text in place of s's own, or s whole when text is nil.
func (s *Source) loadText(text []byte) (*Snapshot, error) {
	if text == nil {
		return s.Load()
	}
	return s.loadReduced(text)
}

// apply is s's text with the reduction's edits made, line for line.
func (red *reduction) apply(s *Source) []byte {
	side := s.index
	// The emptied descriptions and examples go first: an entry blanked
	// later takes those inside it along.
	edits := slices.Clone(side.ignored)
	for _, name := range slices.Sorted(maps.Keys(side.ops)) {
		u := side.ops[name]
		if red.pruned[name] {
			edits = append(edits, u.blanks...)
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(u.media)) {
			if red.blanked[mediaKey(name, key)] {
				edits = append(edits, u.media[key].blanks...)
			}
		}
	}
	for _, path := range slices.Sorted(maps.Keys(side.pathItems)) {
		if red.cut[path] {
			edits = append(edits, side.pathItems[path].cuts...)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(side.comps)) {
		u := side.comps[name]
		switch {
		case red.full[name]:
		case red.skel[name]:
			edits = append(edits, u.blanks...)
		default:
			edits = append(edits, u.remove)
		}
	}
	return applyEdits(s.data, side.lines, edits)
}

// samePayloads reports whether a kept operation has the same media types
// in both documents, in the same places, so that every pair of it compares
// a version with itself, and each media type can be judged on its own.
func samePayloads(b, r *unit, dirty map[string]bool) bool {
	if b == nil || r == nil || !b.mediaOK || !r.mediaOK || len(b.media) != len(r.media) || !slices.Equal(b.bodyRefs, r.bodyRefs) {
		return false
	}
	for key := range b.media {
		if r.media[key] == nil {
			return false
		}
	}
	for _, ref := range b.bodyRefs {
		if dirty[ref] {
			return false
		}
	}
	return true
}

func refsOf(units ...*unit) []string {
	var out []string
	for _, u := range units {
		if u != nil {
			out = append(out, u.refs...)
		}
	}
	return out
}

// closure is every component reachable from roots through next, in either
// document, not going into those of stop.
func closure(roots []string, stop map[string]bool, sides []*docIndex, next func(*unit) []string) map[string]bool {
	seen := map[string]bool{}
	queue := slices.Clone(roots)
	for len(queue) > 0 {
		name := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[name] || stop[name] {
			continue
		}
		seen[name] = true
		for _, side := range sides {
			if u := side.comps[name]; u != nil {
				queue = append(queue, next(u)...)
			}
		}
	}
	return seen
}

func (p *pathItem) opsOrNil() []string {
	if p == nil {
		return nil
	}
	return p.ops
}

func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// applyEdits returns a copy of text with the edits made, line for line.
func applyEdits(text []byte, lines lineIndex, edits []edit) []byte {
	blank := make([]bool, lines.count()+1)
	replaced := map[int][]byte{}
	// Entries taken out whole go last: edits inside them are void.
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b edit) int { return cmp.Compare(b2i(a.blankKey), b2i(b.blankKey)) })
	for _, e := range edits {
		from := e.key + 1
		switch {
		case e.blankKey:
			from = e.key
		case e.col >= 0:
			replaced[e.key] = append(slices.Clip(lines.line(text, e.key)[:e.col]), e.text...)
		default:
			replaced[e.value] = append(bytes.Repeat([]byte{' '}, e.indent), e.text...)
		}
		for l := from; l <= e.end; l++ {
			if e.blankKey || e.col >= 0 || l != e.value {
				blank[l] = true
				delete(replaced, l)
			}
		}
	}
	var out bytes.Buffer
	out.Grow(len(text))
	for l := 1; l <= lines.count(); l++ {
		raw := text[lines[l-1]:lines[l]]
		content := lines.line(text, l)
		switch r, ok := replaced[l]; {
		case ok:
			out.Write(r)
		case blank[l]:
		default:
			out.Write(content)
		}
		out.Write(raw[len(content):])
	}
	return out.Bytes()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// LoadForComparisons loads s for its comparisons with each of neighbours
// (in a history, the snapshots before and after it), each of them compared
// with the Plan of its pair (PlanPair): kin-openapi reads a copy of s's
// text that keeps what any of those comparisons needs, as LoadReducedPair
// keeps it for one. Every operation the plan of a pair finds changed is
// whole, and so is every component it finds changed and all they reach;
// an operation unchanged in all of them keeps its skeleton. When s cannot
// be reduced for one of the comparisons it is loaded whole but for the
// descriptions and examples no diff compares, and so is that neighbour
// (its own comparison with s fails the same way), so a pair without a
// plan compares two documents that hold all the diff reads.
func LoadForComparisons(s *Source, neighbours []*Source, opts PairOptions) (*Snapshot, error) {
	note := func(format string, args ...any) {
		if opts.Note != nil {
			opts.Note(fmt.Sprintf(format, args...))
		}
	}
	if opts.Full || len(neighbours) == 0 {
		return s.Load()
	}
	s.prepare()
	switch {
	case s.structure != "":
		return s.Load() // the whole load reports it
	case s.index.why != "":
		note("%s: %s; loaded whole", s.path, s.index.why)
		return s.Load()
	}
	var reds []*reduction
	for _, n := range neighbours {
		n.prepare()
		why := n.structure
		if why == "" {
			why = n.index.why
		}
		var red *reduction
		if why == "" {
			red, _, why = decide(s.index, n.index)
		}
		if why != "" {
			// Everything may be diffed: only what no diff compares goes.
			note("%s: with %s: %s; loaded whole but for its descriptions and examples", s.path, n.path, why)
			return s.loadReducedOrWhole(s.emptied(), note)
		}
		reds = append(reds, red)
	}
	red := merge(reds)
	// The media types a comparison blanked are whole here: so is all
	// they reach.
	var roots []string
	for name, u := range s.index.ops {
		if !red.pruned[name] {
			roots = append(roots, u.refs...)
		}
	}
	for name := range closure(roots, red.full, []*docIndex{s.index}, func(u *unit) []string { return u.refs }) {
		red.full[name] = true
		delete(red.skel, name)
	}
	snap, err := s.loadReducedOrWhole(red.apply(s), note)
	if err != nil || !snap.Reduced {
		return snap, err
	}
	var full, skel int
	for name := range s.index.comps {
		full, skel = full+b2i(red.full[name]), skel+b2i(red.skel[name])
	}
	note("%s: reduced: %d of %d operations kept whole, %d of %d components, %d as a skeleton",
		s.path, len(s.index.ops)-len(red.pruned), len(s.index.ops), full, len(s.index.comps), skel)
	return snap, nil
}
