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
// exact. A document that cannot be reduced safely (JSON, flow style at the
// top, YAML anchors, $refs to other files) is loaded whole, and so is its
// partner; opts.Note says why. Input errors are those of the whole texts.
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
		switch {
		case s.structure != "":
			return whole() // the whole load reports it
		case s.index.why != "":
			note("%s: %s; %s loaded whole too", s.path, s.index.why, other(s, base, revision).path)
			return whole()
		}
	}
	baseText, revText, summary, why := reduce(base, revision)
	if why != "" {
		note("%s, %s: %s: both loaded whole", base.path, revision.path, why)
		return whole()
	}
	// One after the other: kin-openapi's load makes several times the
	// document's size in garbage, and two at once would double the peak.
	b, err = base.load(baseText, true)
	if err == nil {
		r, err = revision.load(revText, true)
	}
	if err != nil {
		note("%s, %s: the reduced texts did not load (%v): both loaded whole", base.path, revision.path, err)
		return whole()
	}
	b.Reduced, r.Reduced = true, true
	note("%s, %s: %s", base.path, revision.path, summary)
	return b, r, nil
}

func other(s, a, b *Source) *Source {
	if s == a {
		return b
	}
	return a
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
	b, r := base.index, revision.index
	if b.global != r.global {
		return nil, nil, "", "the OpenAPI version, servers or security changed"
	}
	sides := []*docIndex{b, r}
	comps := unionKeys(b.comps, r.comps)
	ops := unionKeys(b.ops, r.ops)
	dirty, unchanged := changes(b, r)
	var kept, pruned []string
	for _, name := range ops {
		// An unchanged operation is pruned when both skeletons can be cut.
		if unchanged[name] && b.ops[name].skelOK && r.ops[name].skelOK {
			pruned = append(pruned, name)
		} else {
			kept = append(kept, name)
		}
	}
	if len(pruned) == 0 {
		return nil, nil, "", fmt.Sprintf("all %d operations changed", len(ops))
	}
	isPruned := map[string]bool{}
	for _, name := range pruned {
		isPruned[name] = true
	}
	// A path item's own entries (its parameters) go where all its
	// operations go; otherwise they are kept whole.
	var cutItems, itemRoots []string
	for _, path := range unionKeys(b.pathItems, r.pathItems) {
		ib, ir := b.pathItems[path], r.pathItems[path]
		cut := ib != nil && ir != nil && ib.cutOK && ir.cutOK && len(ib.ops) > 0
		for _, item := range []*pathItem{ib, ir} {
			for _, op := range item.opsOrNil() {
				cut = cut && isPruned[op]
			}
		}
		if cut {
			cutItems = append(cutItems, path)
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
	mediaEdits := make([][]edit, 2)
	var mediaBlanked int
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
			mediaEdits[0] = append(mediaEdits[0], mb.blanks...)
			mediaEdits[1] = append(mediaEdits[1], mr.blanks...)
			mediaBlanked++
		}
	}

	// Components are kept whole (reached from what is kept whole), as a
	// skeleton (reached only from pruned operations' skeletons) or not at
	// all. A component that cannot be cut as planned is kept whole, and
	// the plan made again.
	forced := map[string]bool{}
	var full, skel map[string]bool
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
		full = closure(roots, nil, sides, func(u *unit) []string { return u.refs })
		roots = roots[:0]
		for _, side := range sides {
			for _, name := range pruned {
				roots = append(roots, side.ops[name].skelRefs...)
			}
		}
		skel = closure(roots, full, sides, func(u *unit) []string { return u.skelRefs })
		again := false
		for _, name := range comps {
			ub, ur := b.comps[name], r.comps[name]
			switch {
			case full[name]:
			case skel[name] && !(ub.skelOK && ur.skelOK), !skel[name] && !(ub.removeOK && ur.removeOK):
				forced[name], again = true, true
			}
		}
		if !again {
			break
		}
	}

	var removed int
	edits := mediaEdits
	for i, side := range sides {
		for _, name := range pruned {
			edits[i] = append(edits[i], side.ops[name].blanks...)
		}
		for _, path := range cutItems {
			edits[i] = append(edits[i], side.pathItems[path].cuts...)
		}
		for _, name := range comps {
			u := side.comps[name]
			switch {
			case full[name]:
			case skel[name]:
				edits[i] = append(edits[i], u.blanks...)
			default:
				edits[i] = append(edits[i], u.remove)
				if i == 0 {
					removed++
				}
			}
		}
	}
	summary = fmt.Sprintf("reduced: %d of %d operations changed (the others keep only their media types, deprecation and sunsets), %d unchanged media types of theirs without schemas; of %d components, %d kept whole, %d as a skeleton, %d left out",
		len(kept), len(ops), mediaBlanked, len(comps), len(full), len(skel), removed)
	return applyEdits(base.data, b.lines, edits[0]), applyEdits(revision.data, r.lines, edits[1]), summary, ""
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
			}
		}
		if e.blankKey {
			for l := e.key; l <= e.end; l++ {
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
