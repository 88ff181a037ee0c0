package specs

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// loadByBlocks is LoadDocumentPair for documents that are plain block
// YAML (blockIndex), read without the fast pass where their text says
// enough: a comparison's changes are the blocks whose text differs; an
// operation whose blocks (with its path item's, the global ones and every
// component it reaches) differ the same way in several comparisons is
// diffed in the first (the newest) only, and so are the changes outside
// the operations; each comparison with changes of its own diffs copies of
// its two documents that keep only those, every line in its place. The
// newest document of each set is loaded without its schemas, and every
// other document takes its operations from a loaded one where their
// blocks read the same. done is false, with nothing loaded, when a
// document is not plain block YAML.
func (p *DocumentPair) loadByBlocks(opts PairOptions) (done bool, err error) {
	all := append(slices.Clone(p.Base.Documents), p.Revision.Documents...)
	indexed := make([]bool, len(all))
	parallel(all, func(i int, d *VersionDocument) { d.blocks, indexed[i] = indexBlocks(d.Source.data) })
	if slices.Contains(indexed, false) {
		for _, d := range all {
			d.blocks = nil
		}
		return false, nil
	}
	p.byBlocks = true
	for _, c := range p.Comparisons {
		c.Identical = c.Base != nil && c.Revision != nil && !c.New && bytes.Equal(c.Base.Source.data, c.Revision.Source.data)
	}
	p.coverByBlocks(opts.Note)

	// The newest document of each set holds the views the others take: a
	// comparison that diffs it loads it whole but for the schemas of what
	// did not change; else it is loaded without its schemas.
	var holders []*VersionDocument
	for _, set := range []*DocumentSet{p.Base, p.Revision} {
		holders = append(holders, set.Documents[len(set.Documents)-1])
	}
	// The comparisons with changes of their own diff copies that keep
	// them.
	for _, c := range p.Comparisons {
		if !c.Diff {
			continue
		}
		b, r := c.Base, c.Revision
		if slices.Contains(holders, b) || slices.Contains(holders, r) {
			// Sources of their own: LoadReducedPair reads a source for one
			// comparison, and a document may be in two.
			if c.BaseSnapshot, c.RevisionSnapshot, err = LoadReducedPair(b.Source.WithData(b.Source.data), r.Source.WithData(r.Source.data), opts); err != nil {
				return true, err
			}
			c.kept = nil // all of it
			for _, side := range []struct {
				d *VersionDocument
				s *Snapshot
			}{{b, c.BaseSnapshot}, {r, c.RevisionSnapshot}} {
				if slices.Contains(holders, side.d) && side.d.Snapshot == nil {
					side.d.Snapshot = side.s
				}
			}
			continue
		}
		keepB, compsB := c.keep(b)
		keepR, compsR := c.keep(r)
		c.kept = map[string]bool{}
		for _, kept := range []map[string]bool{keepB, keepR} {
			for op := range kept {
				c.kept["op:"+op] = true
			}
		}
		for _, comps := range []map[string]bool{compsB, compsR} {
			for name := range comps {
				c.kept["comp:"+name] = true
			}
		}
		bs, rs := b.Source.WithData(b.blocks.project(keepB, compsB)), r.Source.WithData(r.blocks.project(keepR, compsR))
		if c.BaseSnapshot, c.RevisionSnapshot, err = LoadReducedPair(bs, rs, opts); err != nil {
			// The whole documents report it, as the full pipeline would.
			_, _, wholeErr := LoadReducedPair(b.Source.WithData(b.Source.data), r.Source.WithData(r.Source.data), PairOptions{Full: true})
			if wholeErr != nil {
				return true, wholeErr
			}
			return true, fmt.Errorf("%s, %s: the documents cut to their changes do not load: %w", b.Path(), r.Path(), err)
		}
	}

	unloaded := slices.DeleteFunc(slices.Clone(holders), func(d *VersionDocument) bool { return d.Snapshot != nil })
	if err := loadAll(unloaded, opts, func(d *VersionDocument, o PairOptions) (*Snapshot, error) {
		return LoadForComparisons(d.Source, []*Source{d.Source}, o)
	}); err != nil {
		return true, err
	}
	views := map[uint64]*Operation{}
	addViews := func(x *blockIndex, ops []*Operation) {
		for _, op := range ops {
			if sig, ok := x.signature(strings.ToLower(op.Method) + " " + op.Path); ok {
				views[sig] = op
			}
		}
	}
	for _, d := range holders {
		d.readOperations()
		addViews(d.blocks, d.ops)
	}
	for _, c := range p.Comparisons {
		if c.Diff {
			addViews(c.Base.blocks, Operations(c.BaseSnapshot.Doc, ""))
			addViews(c.Revision.blocks, Operations(c.RevisionSnapshot.Doc, ""))
		}
	}
	var rest []*VersionDocument
	for _, d := range all {
		if !slices.Contains(holders, d) && !d.borrowBlocks(views) {
			rest = append(rest, d)
		}
	}
	if err := loadAll(rest, opts, func(d *VersionDocument, o PairOptions) (*Snapshot, error) {
		return LoadForComparisons(d.Source, []*Source{d.Source}, o)
	}); err != nil {
		return true, err
	}
	for _, d := range rest {
		d.readOperations()
	}
	return true, nil
}

// coverByBlocks finds, newest version first, each comparison's changes:
// the operations whose blocks differ, and those outside the operations;
// those another comparison diffs already are Covered (DocumentFrom), the
// others make the comparison Diff.
func (p *DocumentPair) coverByBlocks(note func(string)) {
	type sides struct{ base, revision uint64 }
	ops := map[sides]*DocumentComparison{}
	documents := map[sides]*DocumentComparison{}
	for i := len(p.Comparisons) - 1; i >= 0; i-- {
		c := p.Comparisons[i]
		if c.Base == nil || c.Revision == nil || c.Identical {
			continue
		}
		b, r := c.Base.blocks, c.Revision.blocks
		c.Covered = map[string]*DocumentComparison{}
		names := append(c.Base.operationNames(), c.Revision.operationNames()...)
		slices.Sort(names)
		changed, own := 0, false
		for _, name := range slices.Compact(names) {
			bs, inBase := b.signature(name)
			rs, inRevision := r.signature(name)
			switch {
			case inBase && inRevision && bs == rs:
				continue
			case !inBase || !inRevision:
				own = true // added or removed here
				changed++
				continue
			}
			changed++
			method, path, _ := strings.Cut(name, " ")
			if first := ops[sides{bs, rs}]; first != nil {
				c.Covered[strings.ToUpper(method)+" "+path] = first
				continue
			}
			ops[sides{bs, rs}] = c
			own = true
		}
		if key := (sides{b.document(), r.document()}); key.base != key.revision {
			if first := documents[key]; first != nil {
				c.DocumentFrom = first
			} else {
				documents[key] = c
				c.DiffDocument, own = true, true
			}
		}
		c.Diff = own
		if note != nil {
			note(fmt.Sprintf("%s, %s: %d operations changed, %d of them diffed in another comparison", c.Base.Path(), c.Revision.Path(), changed, len(c.Covered)))
		}
	}
}

// operationNames are the document's operations as its blocks name them
// ("method path"), those the path filter keeps.
func (d *VersionDocument) operationNames() []string {
	var out []string
	for _, name := range d.blocks.operations() {
		if _, path, _ := strings.Cut(name, " "); d.Source.paths.Keep(path) {
			out = append(out, name)
		}
	}
	return out
}

// keep is what a comparison's copy of d keeps: its own changed operations
// ("method path") and the components they reach, and every component
// when the comparison diffs what lies outside the operations.
func (c *DocumentComparison) keep(d *VersionDocument) (ops, comps map[string]bool) {
	ops, comps = map[string]bool{}, map[string]bool{}
	other := c.Revision
	if d == c.Revision {
		other = c.Base
	}
	for _, name := range d.operationNames() {
		method, path, _ := strings.Cut(name, " ")
		if c.Covered[strings.ToUpper(method)+" "+path] != nil {
			continue
		}
		mine, _ := d.blocks.signature(name)
		theirs, in := other.blocks.signature(name)
		if in && mine == theirs {
			continue
		}
		ops[name] = true
		for _, comp := range d.blocks.closure(d.blocks.opRefs(name)) {
			comps[comp] = true
		}
	}
	if c.DiffDocument {
		for _, name := range d.blocks.sortedNames("comp:") {
			comps[strings.TrimPrefix(name, "comp:")] = true
		}
	}
	return ops, comps
}

// borrowBlocks gives d, not loaded, its operations from views of loaded
// documents (by blockIndex.signature), at d's own lines; it reports
// whether every operation found one.
func (d *VersionDocument) borrowBlocks(views map[uint64]*Operation) bool {
	var ops []*Operation
	lines := map[string]int{}
	for _, name := range d.operationNames() {
		sig, _ := d.blocks.signature(name)
		op := views[sig]
		if op == nil {
			return false
		}
		ops = append(ops, op)
		lines[op.Name()] = d.blocks.blocks["op:"+name].first
	}
	slices.SortFunc(ops, func(a, b *Operation) int { return CompareOperationNames(a.Name(), b.Name()) })
	d.ops, d.lines = ops, lines
	if info := d.blocks.blocks["top:info"]; info != nil {
		var v struct {
			Info struct {
				Sunset any `yaml:"x-sunset"`
			} `yaml:"info"`
		}
		text := d.blocks.data[d.blocks.starts[info.first-1]:d.blocks.starts[info.last]]
		if yaml.Unmarshal(text, &v) == nil {
			d.sunset = sunsetOf(map[string]any{"x-sunset": fmt.Sprint(v.Info.Sunset)})
		}
	}
	return true
}

// anchorByBlocks places a line of a base document (of comparison c) on the
// nearest line of the revision's document: through c's own copies when
// they keep the line's block, else through the comparison that diffed the
// block, whose lines are the same.
func (p *DocumentPair) anchorByBlocks(c *DocumentComparison, line int) int {
	b := c.Base.blocks.blockAt(line)
	if b == nil {
		return 0
	}
	if c.Diff && c.keeps(b.name) {
		return c.anchorLine(line)
	}
	for _, o := range p.Comparisons {
		if !o.Diff || !o.keeps(b.name) || o.Base == nil || o.New {
			continue
		}
		if ob := o.Base.blocks.blocks[b.name]; ob != nil && ob.hash == b.hash {
			at, ok := c.Base.blocks.lineIn(o.Base.blocks, line)
			if !ok {
				continue
			}
			anchored := o.anchorLine(at)
			if anchored == 0 {
				return 0
			}
			if mapped, ok := o.Revision.blocks.lineIn(c.Revision.blocks, anchored); ok {
				return mapped
			}
		}
	}
	return 0
}

// keeps reports whether the comparison's copies keep a block (kept nil:
// whole documents).
func (c *DocumentComparison) keeps(block string) bool {
	return c.kept == nil || c.kept[block] || strings.HasPrefix(block, "top:")
}

// anchorLine is the revision's line nearest to line of the base, in the
// comparison's copies.
func (c *DocumentComparison) anchorLine(line int) int {
	if c.anchor == nil {
		c.anchor = NewAnchorer(c.BaseSnapshot, c.RevisionSnapshot)
	}
	if mapped, ok := c.anchor.Line(line); ok {
		return mapped
	}
	return 0
}
