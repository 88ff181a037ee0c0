package prune

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Changes finds, for two indexed documents, the dirty components
// (different, on one side only, or naming one that is) and the unchanged
// operations ("method path"): in both, equal, naming no dirty component.
// When what every operation reads (the OpenAPI version, servers, security)
// differs, no operation is unchanged.
func Changes(b, r *Doc) (dirty, unchanged map[string]bool) {
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
		same := b.global == r.global && ob != nil && or != nil && ob.hash == or.hash
		for _, ref := range refsOf(ob, or) {
			same = same && !dirty[ref]
		}
		unchanged[name] = same
	}
	return dirty, unchanged
}

// Components lists the names ("kind/name") of the components of b and r.
func Components(b, r *Doc) []string { return unionKeys(b.comps, r.comps) }

// Reduction is what one or more comparisons need kept of a document. The
// fast pass matches operations and components by name, so it is the same
// for both documents of a comparison; each document's cuts follow from it.
type Reduction struct {
	// pruned are the operations kept as a skeleton: without their schemas.
	pruned map[string]bool
	// skipped are, for a pruned operation, the entries its skeleton leaves
	// out (by key): those both documents of a comparison can leave out, so
	// that the diff compares two skeletons of the same entries.
	skipped map[string]map[string]bool
	// dropped are the operations left out (DecideOnly).
	dropped map[string]bool
	// cut are the path items whose own entries lose their schemas.
	cut map[string]bool
	// blanked are the media types ("operation\x00where\x00key") of kept
	// operations that lose their schemas.
	blanked map[string]bool
	// full and skel are the components kept whole or as a skeleton; the
	// others are left out.
	full, skel map[string]bool
	// Summary says what was kept, in one line.
	Summary string
}

// Decide is the reduction of a comparison of b with r.
func Decide(b, r *Doc) *Reduction { return DecideExcept(b, r, nil, EveryComponent) }

// DocumentScope tells which components ("kind/name", as Changes names
// them) a comparison diffs outside its operations: the changes that lie
// there (a schema removed, a security scheme changed) need them whole. A
// nil scope diffs none of them.
type DocumentScope func(component string) bool

// EveryComponent is the scope of a comparison that diffs all that lies
// outside its operations.
func EveryComponent(string) bool { return true }

// DecideExcept is the reduction of a comparison of b with r that diffs
// neither the operations of skip nor, outside the operations, the
// components document leaves out (another comparison diffs the same of
// them): those are reduced as if unchanged.
func DecideExcept(b, r *Doc, skip map[string]bool, document DocumentScope) *Reduction {
	return decide(b, r, skip, document, false)
}

// DecideOnly is the reduction of a comparison of b with r that diffs, of
// the operations, only those of keep, and outside them the components of
// document: the other operations, which another comparison diffs or which
// did not change, are left out of both documents, or kept as a skeleton
// where one of them cannot leave them out. Whoever reads the operations
// of its documents reads them elsewhere.
func DecideOnly(b, r *Doc, keep map[string]bool, document DocumentScope) *Reduction {
	skip := map[string]bool{}
	for _, name := range unionKeys(b.ops, r.ops) {
		skip[name] = !keep[name]
	}
	return decide(b, r, skip, document, true)
}

func decide(b, r *Doc, skip map[string]bool, document DocumentScope, drop bool) *Reduction {
	sides := []*Doc{b, r}
	comps := unionKeys(b.comps, r.comps)
	ops := unionKeys(b.ops, r.ops)
	dirty, unchanged := Changes(b, r)
	red := &Reduction{pruned: map[string]bool{}, skipped: map[string]map[string]bool{}, dropped: map[string]bool{}, cut: map[string]bool{}, blanked: map[string]bool{}}
	// An operation added or removed keeps the others of its path item: the
	// diff tells an operation removed from a path from a path removed.
	pinned := map[string]bool{}
	for _, name := range ops {
		if b.ops[name] == nil || r.ops[name] == nil {
			_, path, _ := strings.Cut(name, " ")
			pinned[path] = true
		}
	}
	var kept []string
	for _, name := range ops {
		ob, or := b.ops[name], r.ops[name]
		_, path, _ := strings.Cut(name, " ")
		switch {
		case !unchanged[name] && !(skip[name] && ob != nil && or != nil) || ob.keepsSchemas || or.keepsSchemas:
			kept = append(kept, name)
		case drop && ob.removable && or.removable && !pinned[path]:
			red.dropped[name] = true
		default:
			red.pruned[name] = true
			red.skipped[name] = bothSkip(ob, or)
		}
	}
	// A path item's own entries lose their schemas where all its
	// operations are pruned; otherwise they are kept whole.
	var itemRoots, skelRoots []string
	for _, path := range unionKeys(b.items, r.items) {
		ib, ir := b.items[path], r.items[path]
		cut := ib != nil && ir != nil && ib.shared.hash == ir.shared.hash && !ib.shared.keepsSchemas && !ir.shared.keepsSchemas
		for _, item := range []*pathItem{ib, ir} {
			if item == nil {
				continue
			}
			for _, op := range item.ops {
				cut = cut && (red.pruned[op] || red.dropped[op])
			}
		}
		for _, item := range []*pathItem{ib, ir} {
			switch {
			case item == nil:
			case cut:
				skelRoots = append(skelRoots, item.shared.skelRefs...)
			default:
				itemRoots = append(itemRoots, item.shared.refs...)
			}
		}
		if cut {
			red.cut[path] = true
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
		keptRoots = append(append(keptRoots, ob.outerRefs...), or.outerRefs...)
		for _, key := range slices.Sorted(maps.Keys(ob.media)) {
			mb, mr := ob.media[key], or.media[key]
			equal := mb.hash == mr.hash && !mb.keepsSchemas && !mr.keepsSchemas
			for _, ref := range append(slices.Clone(mb.refs), mr.refs...) {
				equal = equal && !dirty[ref]
			}
			if !equal {
				keptRoots = append(append(keptRoots, mb.refs...), mr.refs...)
				continue
			}
			red.blanked[name+"\x00"+key] = true
		}
	}
	for _, side := range sides {
		for name := range red.pruned {
			if u := side.ops[name]; u != nil {
				skelRoots = append(skelRoots, u.skeletonRefs(red.skipped[name])...)
			}
		}
	}

	// Components are kept whole (reached from what is kept whole), as a
	// skeleton (reached only from skeletons) or not at all. One that cannot
	// be left out is kept whole, and the plan made again.
	forced := map[string]bool{}
	for {
		roots := slices.Clone(itemRoots)
		for name := range dirty {
			if document != nil && document(name) {
				roots = append(roots, name)
			}
		}
		for name := range forced {
			roots = append(roots, name)
		}
		roots = append(roots, keptRoots...)
		for _, side := range sides {
			roots = append(roots, side.roots...)
		}
		red.full = closure(roots, nil, sides, func(u *unit) []string { return u.refs })
		red.skel = closure(skelRoots, red.full, sides, func(u *unit) []string { return u.skelRefs })
		again := false
		for _, name := range comps {
			ub, ur := b.comps[name], r.comps[name]
			switch {
			case red.full[name]:
			case red.skel[name]:
				if keepsSchemas(ub) || keepsSchemas(ur) {
					forced[name], again = true, true
				}
			case ub != nil && !ub.removable || ur != nil && !ur.removable:
				// (A component on one side only is dirty, and kept whole
				// unless another comparison diffs the document.)
				forced[name], again = true, true
			}
		}
		if !again {
			break
		}
	}
	removed := 0
	for _, name := range comps {
		if !red.full[name] && !red.skel[name] {
			removed++
		}
	}
	red.Summary = fmt.Sprintf("reduced: %d of %d operations changed (the others as skeletons: their request bodies and responses without schemas), %d unchanged media types of theirs without schemas; of %d components, %d kept whole, %d as a skeleton, %d left out",
		len(kept), len(ops), len(red.blanked), len(comps), len(red.full), len(red.skel), removed)
	if drop {
		red.Summary = fmt.Sprintf("reduced: %d of %d operations diffed here, %d left out, %d as a skeleton; of %d components, %d kept whole, %d as a skeleton, %d left out",
			len(kept), len(ops), len(red.dropped), len(red.pruned), len(comps), len(red.full), len(red.skel), removed)
	}
	return red
}

// Signature is a hash (of 128 bits, as the package's value hashes) of
// what a diff of operation op ("method path", as written) reads of d: the
// operation with its path item's shared part, what every operation reads
// (the OpenAPI version, servers, security), and every component it
// reaches, by name and value. Two comparisons whose documents give the
// same signatures for an operation find the same changes in it. ok is
// false when d does not have the operation.
func (d *Doc) Signature(op string) (sig [2]uint64, ok bool) {
	u := d.ops[op]
	if u == nil {
		return sig, false
	}
	reached := closure(u.refs, nil, []*Doc{d}, func(c *unit) []string { return c.refs })
	return hashOf(0, "operation", op, d.named(slices.Sorted(maps.Keys(reached)), u.hash, d.global)), true
}

// DocumentSignature is a hash of what lies outside d's operations, which a
// comparison diffs apart: what every operation reads and every component,
// by name and value.
func (d *Doc) DocumentSignature() [2]uint64 {
	return hashOf(0, "document", "", d.named(sortedKeys(d.comps), d.global))
}

// Outbound reports whether d may hold operations outside its paths
// (OperationNames): a mapping of it has a callbacks or webhooks key, read
// as the loader reads it or not.
func (d *Doc) Outbound() bool { return d.outbound }

// WebhooksSignature is a hash of d's webhooks with all they may reach (the
// document's components and what every operation reads, by name and
// value); zero when d has none. The operations of a document are those of
// its paths: a comparison of two documents whose webhooks may differ diffs
// them itself.
func (d *Doc) WebhooksSignature() [2]uint64 {
	webhooks := mapValue(d.root, "webhooks")
	if webhooks == nil {
		return [2]uint64{}
	}
	return hashOf(0, "webhooks", "", d.named(sortedKeys(d.comps), d.global, d.hash(webhooks, documentShape.child("webhooks"))))
}

// named are the hashes of first, then of each component of names with its
// name (a zero hash for one d does not have).
func (d *Doc) named(names []string, first ...hashValue) []hashValue {
	out := append(make([]hashValue, 0, len(first)+2*len(names)), first...)
	for _, name := range names {
		var h hashValue
		if c := d.comps[name]; c != nil {
			h = c.hash
		}
		out = append(out, hashOf(yaml.ScalarNode, "", name, nil), h)
	}
	return out
}

// OperationNames are the document's operations ("method path", as
// written), sorted.
func (d *Doc) OperationNames() []string { return slices.Sorted(maps.Keys(d.ops)) }

// OperationLine is the line of an operation's method key, as the loader
// gives it: 0 when d does not have the operation.
func (d *Doc) OperationLine(op string) int {
	if u := d.ops[op]; u != nil && u.key != nil {
		return u.key.Line
	}
	return 0
}

// JSON says the text was JSON, which the loader reads without origins:
// nothing in it has a line.
func (d *Doc) JSON() bool { return d.json }

// Root is the document's parsed tree.
func (d *Doc) Root() *yaml.Node { return d.root }

// Merge is the reduction of one document d that keeps what any of reds
// keeps: an operation is pruned or a path item cut only where every one
// of them does so, a component is kept whole where one keeps it whole,
// else as a skeleton where one does. No media type is blanked: a
// comparison blanks one only where both its documents do, and the other
// document of each comparison is merged with other neighbours. All that
// d keeps whole reaches is whole too.
func Merge(d *Doc, reds []*Reduction) *Reduction {
	out := &Reduction{pruned: map[string]bool{}, skipped: map[string]map[string]bool{}, cut: map[string]bool{}, blanked: map[string]bool{}, full: map[string]bool{}, skel: map[string]bool{}}
	everywhere := func(name string, in func(*Reduction) map[string]bool) bool {
		for _, red := range reds {
			if !in(red)[name] {
				return false
			}
		}
		return true
	}
	for name := range reds[0].pruned {
		if everywhere(name, func(r *Reduction) map[string]bool { return r.pruned }) {
			out.pruned[name] = true
			// (Its neighbours may leave out fewer: their comparisons'
			// plans do not diff an unchanged operation.)
			out.skipped[name] = maps.Clone(reds[0].skipped[name])
			for _, red := range reds[1:] {
				maps.DeleteFunc(out.skipped[name], func(key string, _ bool) bool { return !red.skipped[name][key] })
			}
		}
	}
	for path := range reds[0].cut {
		if everywhere(path, func(r *Reduction) map[string]bool { return r.cut }) {
			out.cut[path] = true
		}
	}
	for _, red := range reds {
		maps.Copy(out.full, red.full)
	}
	var roots []string
	for name, u := range d.ops {
		if !out.pruned[name] {
			roots = append(roots, u.refs...)
		}
	}
	for path, item := range d.items {
		if !out.cut[path] {
			roots = append(roots, item.shared.refs...)
		}
	}
	maps.Copy(out.full, closure(roots, out.full, []*Doc{d}, func(u *unit) []string { return u.refs }))
	for _, red := range reds {
		for name := range red.skel {
			if !out.full[name] {
				out.skel[name] = true
			}
		}
	}
	var full, skel int
	for name := range d.comps {
		full, skel = full+b2i(out.full[name]), skel+b2i(out.skel[name])
	}
	out.Summary = fmt.Sprintf("reduced: %d of %d operations kept whole, %d of %d components, %d as a skeleton",
		len(d.ops)-len(out.pruned), len(d.ops), full, len(d.comps), skel)
	return out
}

// Plan is what to cut from one document: the nodes replaced and the
// component entries left out.
type plan struct {
	replace []cut // by {}
	remove  []*unit
	// skip are entries of operations left out.
	skip []entry
}

func (red *Reduction) planFor(d *Doc, built map[string]bool) plan {
	var p plan
	for _, name := range sortedKeys(d.ops) {
		u := d.ops[name]
		if red.dropped[name] || built[name] {
			p.remove = append(p.remove, u)
			continue
		}
		if red.pruned[name] {
			// The schemas of an entry left out go with it.
			from := 0
			for _, e := range u.skip {
				if red.skipped[name][e.name] {
					p.skip = append(p.skip, e)
					if e.schemas[1] > e.schemas[0] {
						p.replace = append(p.replace, u.schemas[from:e.schemas[0]]...)
						from = e.schemas[1]
					}
				}
			}
			p.replace = append(p.replace, u.schemas[from:]...)
			continue
		}
		for _, key := range sortedKeys(u.media) {
			if red.blanked[name+"\x00"+key] {
				p.replace = append(p.replace, u.media[key].schemas...)
			}
		}
	}
	for _, path := range sortedKeys(d.items) {
		if red.cut[path] {
			p.replace = append(p.replace, d.items[path].shared.schemas...)
		}
	}
	for _, name := range sortedKeys(d.comps) {
		u := d.comps[name]
		switch {
		case red.full[name]:
		case red.skel[name]:
			p.replace = append(p.replace, u.schemas...)
		default:
			p.remove = append(p.remove, u)
		}
	}
	return p
}

// bothSkip are the entries (by key) that the skeletons of both b and r can
// leave out.
func bothSkip(b, r *unit) map[string]bool {
	inBase := map[string]bool{}
	for _, e := range b.skip {
		inBase[e.name] = true
	}
	both := map[string]bool{}
	for _, e := range r.skip {
		if inBase[e.name] {
			both[e.name] = true
		}
	}
	return both
}

// skeletonRefs are the components u's skeleton names when it leaves out
// the entries of skipped.
func (u *unit) skeletonRefs(skipped map[string]bool) []string {
	refs := u.skelRefs
	for _, e := range u.skip {
		if !skipped[e.name] && len(e.skelRefs) > 0 {
			refs = append(slices.Clip(refs), e.skelRefs...)
		}
	}
	return refs
}

func keepsSchemas(u *unit) bool { return u != nil && u.keepsSchemas }

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

// closure is every component reachable from roots through next, in any of
// sides, not going into those of stop.
func closure(roots []string, stop map[string]bool, sides []*Doc, next func(*unit) []string) map[string]bool {
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Text is d's text reduced by red, for the loader: the same values but
// for what red cuts, every node on its line. An error says a part cut
// would not load: d must be loaded whole, to report it.
func (red *Reduction) Text(d *Doc, v *Validator) (Reduced, error) {
	reduced, err := red.Reduce([]*Doc{d}, v, nil)
	if err != nil {
		return Reduced{}, err
	}
	return reduced[0], nil
}

// Reduced is a document's reduced text, and the skeletons it leaves out
// for the caller to put back once the text is loaded.
type Reduced struct {
	Text      []byte
	Skeletons []Skeleton
	// Origins, when set, are the origins of Text, written as JSON, for the
	// caller to set once it is loaded (Origins.Apply).
	Origins *Origins
}

// Reduce is Text of each of docs, what they cut read once and their texts
// written concurrently; but where files are given (each document's name as the
// loader records it in origins), the skeletons that every one of docs can
// build from its tree (Doc.builds) are left out of the texts and built:
// kin-openapi then loads only what may have changed. An operation left
// out is read whole as the loader reads one, so that an input error in it
// is still found.
func (red *Reduction) Reduce(docs []*Doc, v *Validator, files []string) ([]Reduced, error) {
	built := map[string]bool{}
	if files != nil {
		for name := range red.pruned {
			built[name] = true
			for _, d := range docs {
				if u := d.ops[name]; u != nil && !d.builds(u, red.skipped[name]) {
					built[name] = false
				}
			}
		}
	}
	plans := make([]plan, len(docs))
	for i, d := range docs {
		plans[i] = red.planFor(d, built)
	}
	if err := v.check(docs, plans); err != nil {
		return nil, err
	}
	reduced := make([]Reduced, len(docs))
	errs := make([]error, len(docs))
	reads := newReadings()
	var wg sync.WaitGroup
	for i, d := range docs {
		wg.Go(func() { text := d.loaderText(plans[i]); reduced[i].Text, reduced[i].Origins = text.Text, text.Origins })
		if files == nil {
			continue
		}
		wg.Go(func() { reduced[i].Skeletons, errs[i] = d.skeletons(red, built, files[i], reads) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return reduced, nil
}

// skeletons builds the skeletons of d's operations of built.
func (d *Doc) skeletons(red *Reduction, built map[string]bool, file string, reads *readings) ([]Skeleton, error) {
	emptied := d.emptiedSet()
	var out []Skeleton
	for _, name := range sortedKeys(built) {
		u := d.ops[name]
		if !built[name] || u == nil {
			continue
		}
		op, err := d.skeleton(u, red.skipped[name], emptied, file, reads)
		if err != nil {
			return nil, err
		}
		_, path, _ := strings.Cut(name, " ")
		out = append(out, Skeleton{Path: path, Method: builtMethods[u.key.Value], Op: op})
	}
	return out, nil
}

// Emptied is d's text without the descriptions and examples the diff does
// not compare, and nothing else cut.
func (d *Doc) Emptied() Reduced { return d.loaderText(plan{}) }

// Operations is how many operations d has, for notes.
func (d *Doc) Operations() int { return len(d.ops) }
