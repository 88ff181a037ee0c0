// Package fix writes the revision that the versioning policy accepts: every
// existing version that a revision changed in place gets its content from
// the base back, and the revision's content moves to a new dated version of
// the operation. Schemas the old and the new version would share but that
// differ between them are split. The file is edited, not re-encoded: what
// the fix does not touch keeps its bytes (YAML) or its key order (JSON).
package fix

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	oasdiff "github.com/oasdiff/oasdiff/diff"
	"go.yaml.in/yaml/v3"
)

// Target is an operation-version changed in place: the operation as the
// revision names it ("POST /api/x") and the version.
type Target struct {
	Operation, Version string
}

// Input is what a fix works on.
type Input struct {
	Base, Revision *specs.Snapshot
	// Product is the <product> of the vendor media types.
	Product string
	// Targets are the operation-versions to restore.
	Targets []Target
	// Version is the new version's date (YYYY-MM-DD).
	Version string
	// MaxSize bounds the other files read (sizelimit.ReadFile's limit).
	MaxSize int64
	// trees is Options.Trees: the fix reads the trees its caller holds
	// (only reads them: edits render clones).
	trees func([]byte) *yaml.Node
	// baseOps and revOps are the operations of Base and Revision where the
	// check read them (Options.Checked); nil: read here.
	baseOps, revOps []*versions.Operation
}

// Added is a version the fix added, carrying the revision's content of
// version From.
type Added struct {
	Operation, Version, From string
}

// Result is the fixed revision and what was done to it.
type Result struct {
	Data []byte
	// Splices are the replacements that turned the revision into Data, in
	// order.
	Splices []Splice
	// Restored are the targets whose base content was put back.
	Restored []Target
	Added    []Added
	// Split maps each new component name to the one it was split from, as
	// "#/components/schemas/ClusterV20260301" -> "#/components/schemas/Cluster".
	Split map[string]string
	// Copied maps each $ref into another file that restored content used
	// to the local copy of the base's component it now reads.
	Copied map[string]string
	// Notes are targets that were restored without a new version, and
	// why, one line each.
	Notes []string

	// base and rev are the trees the fix read, fixed the parse of Data
	// (made once, by fixedDoc): Verify reads them instead of parsing each
	// text again.
	base, rev, fixed *doc
	trees            func([]byte) *yaml.Node
}

// fixedDoc is the parse of Data, made once.
func (r *Result) fixedDoc(path string) (*doc, error) {
	if r.fixed == nil {
		d, err := readDoc(path, r.Data, r.trees)
		if err != nil {
			return nil, err
		}
		r.fixed = d
	}
	return r.fixed, nil
}

// Fix plans and applies the edits.
func Fix(in Input) (*Result, error) {
	// Both texts at once: where the caller holds no parse trees, parsing
	// them is most of a fix's time.
	var base, rev *doc
	var baseErr, revErr error
	var wg sync.WaitGroup
	wg.Go(func() { base, baseErr = readDoc(in.Base.Path, in.Base.Data, in.trees) })
	rev, revErr = readDoc(in.Revision.Path, in.Revision.Data, in.trees)
	wg.Wait()
	if err := cmp.Or(baseErr, revErr); err != nil {
		return nil, err
	}
	newAnchorNames(base, rev)
	p := &planner{in: in, base: base, rev: rev, planned: map[string]bool{}, files: map[string]*doc{}, res: &Result{Split: map[string]string{}, base: base, rev: rev, trees: in.trees}}
	baseOps, revOps := in.baseOps, in.revOps
	if baseOps == nil {
		baseOps, revOps = versions.Operations(in.Base.Doc, in.Product), versions.Operations(in.Revision.Doc, in.Product)
	}
	byOp := map[string][]string{}
	for _, t := range in.Targets {
		byOp[t.Operation] = append(byOp[t.Operation], t.Version)
	}
	for _, name := range slices.SortedFunc(maps.Keys(byOp), versions.CompareOperationNames) {
		targets := slices.Compact(slices.Sorted(slices.Values(byOp[name])))
		revOp := find(revOps, func(o *versions.Operation) bool { return o.Name() == name })
		if revOp == nil || len(revOp.Versions) == 0 {
			continue
		}
		baseOp := find(baseOps, func(o *versions.Operation) bool { return o.Key() == revOp.Key() })
		if baseOp == nil {
			continue
		}
		if err := p.operation(baseOp, revOp, targets); err != nil {
			return nil, err
		}
	}
	untouched := p.untouched()
	rename, err := p.split()
	if err != nil {
		return nil, err
	}
	if err := p.pointAtCopies(); err != nil {
		return nil, err
	}
	for _, e := range untouched {
		if refersTo(e.value, rename) {
			p.edits = append(p.edits, edit{kind: replace, parent: e.parent, anchor: e.key, src: entry{d: p.rev, key: e.key, value: e.value}, key: e.key.Value, newShape: true})
		}
	}
	p.res.Data, p.res.Splices, err = apply(rev, p.edits, renameRef(rename))
	if err != nil {
		return nil, err
	}
	return p.res, nil
}

// pointAtCopies makes restored content read the local copies of what
// localize copied from other files.
func (p *planner) pointAtCopies() error {
	local, err := p.localize()
	if err != nil || len(local) == 0 {
		return err
	}
	p.res.Copied = local
	rewrite := func(ref string) string {
		if to, ok := local[ref]; ok {
			return to
		}
		return ref
	}
	for i := range p.edits {
		if p.edits[i].src.d == p.base {
			p.edits[i].rewrite = rewrite
		}
	}
	for _, s := range p.same {
		uses := false
		eachExternalRef(s.src.value, func(ref string) { _, ok := local[ref]; uses = uses || ok })
		if uses {
			p.edits = append(p.edits, edit{kind: replace, parent: s.at.parent, anchor: s.at.key, src: s.src, key: s.at.key.Value, rewrite: rewrite})
		}
	}
	return nil
}

func find(ops []*versions.Operation, match func(*versions.Operation) bool) *versions.Operation {
	if i := slices.IndexFunc(ops, match); i >= 0 {
		return ops[i]
	}
	return nil
}

type planner struct {
	in        Input
	base, rev *doc
	edits     []edit
	// planned holds the revision paths already restored or removed, so
	// that a path is edited once.
	planned map[string]bool
	// restored are the base nodes put back; kept the revision nodes whose
	// shape must stay the revision's (new versions).
	restored, kept []*yaml.Node
	// same are the revision's entries left alone because the base's are
	// equal, with those base entries.
	same []sameEntry
	// files are other files of the snapshots, read by path.
	files map[string]*doc
	res   *Result
}

type sameEntry struct {
	at  placed
	src entry
}

// operation restores the operation's target versions and, when the newest
// of them is the operation's newest version, adds the new version with
// the revision's content.
func (p *planner) operation(baseOp, revOp *versions.Operation, versions []string) error {
	baseNode := p.base.at([]string{"paths", baseOp.Path})
	_, baseNode = lookup(baseNode, baseOp.Method, true)
	revNode := p.rev.at([]string{"paths", revOp.Path})
	_, revNode = lookup(revNode, revOp.Method, true)
	if baseNode == nil || revNode == nil {
		return nil
	}
	name, newest, newV := revOp.Name(), versions[len(versions)-1], p.in.Version
	addNew := true
	switch latest := revOp.Versions[len(revOp.Versions)-1].Name; {
	case latest != newest:
		p.note("%s %s: restored; the operation already has the newer version %s, so no version was added", name, newest, latest)
		addNew = false
	case newV <= newest:
		p.note("%s %s: restored; the new version %s would not be newer, so none was added", name, newest, newV)
		addNew = false
	case revOp.Version(newV) != nil || baseOp.Version(newV) != nil:
		p.note("%s %s: restored; version %s already exists, so none was added", name, newest, newV)
		addNew = false
	}
	for _, v := range versions {
		p.res.Restored = append(p.res.Restored, Target{Operation: name, Version: v})
		add := addNew && v == newest
		if err := p.version(baseNode, revNode, revOp.Path, v, add); err != nil {
			return err
		}
		if add {
			p.res.Added = append(p.res.Added, Added{Operation: name, Version: newV, From: v})
		}
	}
	return nil
}

func (p *planner) note(format string, args ...any) {
	p.res.Notes = append(p.res.Notes, fmt.Sprintf(format, args...))
}

// mediaEntry is a media type of one version in a content map: the path of
// the content map from the operation, and the key.
type mediaEntry struct {
	content []string
	key     string
}

func (m mediaEntry) id() string { return strings.Join(append(slices.Clone(m.content), m.key), "\x00") }

// versionEntries lists the media types of version v in the operation's
// request body and responses.
func (p *planner) versionEntries(op *yaml.Node, v string) []mediaEntry {
	var out []mediaEntry
	for _, e := range mediaEntries(op) {
		mt, ok, _ := versions.ParseMediaType(e.key)
		if ok && mt.Product == p.in.Product && mt.Version == v {
			out = append(out, e)
		}
	}
	return out
}

// mediaEntries lists every media type written in the operation's request
// body and responses.
func mediaEntries(op *yaml.Node) []mediaEntry {
	var out []mediaEntry
	visit := func(content []string, m *yaml.Node) {
		if m == nil || m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			out = append(out, mediaEntry{content: content, key: m.Content[i].Value})
		}
	}
	_, body := lookup(op, "requestBody", false)
	_, content := lookup(body, "content", false)
	visit([]string{"requestBody", "content"}, content)
	_, responses := lookup(op, "responses", false)
	if responses != nil && responses.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(responses.Content); i += 2 {
			status := responses.Content[i].Value
			_, content := lookup(responses.Content[i+1], "content", false)
			visit([]string{"responses", status, "content"}, content)
		}
	}
	return out
}

// version restores version v of the operation: each media type it has in
// the base comes back as the base wrote it, each it has only in the
// revision goes, or reads the base's unversioned media type that v's view
// pairs it with; with add, the revision's media types of v are copied to
// the new version, next to the old ones.
func (p *planner) version(baseOp, revOp *yaml.Node, revPath, v string, add bool) error {
	opPath := []string{"paths", revPath, keyOf(p.rev.at([]string{"paths", revPath}), revOp)}
	baseEntries, revEntries := p.versionEntries(baseOp, v), p.versionEntries(revOp, v)
	inBase := map[string]bool{}
	for _, e := range baseEntries {
		inBase[e.id()] = true
		src := entryAt(p.base, baseOp, append(slices.Clone(e.content), e.key))
		if err := p.restore(baseOp, opPath, append(slices.Clone(e.content), e.key), src); err != nil {
			return err
		}
	}
	for _, e := range revEntries {
		parent := nodeAt(revOp, e.content)
		key, value := lookup(parent, e.key, false)
		if add {
			p.kept = append(p.kept, value)
			anchor := lastOfVersion(parent, p.in.Product, v)
			p.edits = append(p.edits, edit{kind: insertAfter, parent: parent, anchor: anchor,
				src: entry{d: p.rev, key: key, value: value}, key: strings.Replace(e.key, "."+v, "."+p.in.Version, 1), newShape: true, from: v, to: p.in.Version})
		}
		if inBase[e.id()] {
			continue
		}
		if u, ok := pairedUnversioned(nodeAt(baseOp, e.content), parent, p.in.Product, v)[e.key]; ok {
			// v's view reads it as the base's unversioned media type: that
			// one's content comes back under the revision's name, which
			// only v reads (the unversioned one would be every version's).
			rel := append(slices.Clone(e.content), e.key)
			src := entryAt(p.base, baseOp, append(slices.Clone(e.content), u))
			if err := p.restore(baseOp, opPath, rel, src); err != nil {
				return err
			}
			continue
		}
		id := strings.Join(opPath, "\x00") + "\x00" + e.id()
		if !p.planned[id] {
			p.planned[id] = true
			p.edits = append(p.edits, edit{kind: remove, parent: parent, anchor: key})
		}
	}
	return nil
}

// pairedUnversioned maps each media type of version v that the content map
// other writes and base does not to the unversioned one of base that v's
// view reads it as: the check pairs the views (where
// application/vnd.x.2024-01-01+json reads as application/vnd.x+json) as
// oasdiff pairs content maps, by name and then by a name that refines the
// other, in sorted order. So an unversioned application/json that a
// revision turned into v's own media type is still v's body or response.
func pairedUnversioned(base, other *yaml.Node, product, v string) map[string]string {
	type written struct {
		key       string
		versioned bool
	}
	// view is what v's view keeps (versions.ViewName), by that name.
	view := func(m *yaml.Node) map[string]written {
		names := map[string]written{}
		if m == nil || m.Kind != yaml.MappingNode {
			return names
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			key := m.Content[i].Value
			if name, own, ok := versions.ViewName(product, v, key); ok {
				names[name] = written{key, own}
			}
		}
		return names
	}
	baseNames, otherNames := view(base), view(other)
	var deleted []string
	for _, name := range slices.Sorted(maps.Keys(baseNames)) {
		if _, ok := otherNames[name]; !ok {
			deleted = append(deleted, name)
		}
	}
	paired := map[string]bool{}
	out := map[string]string{}
	for _, added := range slices.Sorted(maps.Keys(otherNames)) {
		if _, ok := baseNames[added]; ok {
			continue
		}
		for _, d := range deleted {
			if paired[d] || !oasdiff.IsMediaTypeNameContained(added, d) && !oasdiff.IsMediaTypeNameContained(d, added) {
				continue
			}
			paired[d] = true
			if otherNames[added].versioned && !baseNames[d].versioned {
				out[otherNames[added].key] = baseNames[d].key
			}
			break
		}
	}
	return out
}

func keyOf(m, value *yaml.Node) string {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i+1] == value {
			return m.Content[i].Value
		}
	}
	return ""
}

// lastOfVersion is the key of v's last media type in a content map.
func lastOfVersion(m *yaml.Node, product, v string) *yaml.Node {
	var last *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if mt, ok, _ := versions.ParseMediaType(m.Content[i].Value); ok && mt.Product == product && mt.Version == v {
			last = m.Content[i]
		}
	}
	return last
}

func nodeAt(n *yaml.Node, path []string) *yaml.Node {
	for _, part := range path {
		if _, n = lookup(n, part, false); n == nil {
			return nil
		}
	}
	return n
}

// entryAt is the entry at path under n in d.
func entryAt(d *doc, n *yaml.Node, path []string) entry {
	parent := nodeAt(n, path[:len(path)-1])
	k, v := lookup(parent, path[len(path)-1], false)
	return entry{d: d, key: k, value: v}
}

// restore puts the base's entry src at rel under the revision's node at
// abs, named as rel names it (src may be another media type that the
// entry pairs with): in place of the revision's entry, after the mapping's
// last entry when the revision has none, or with the enclosing entry when
// the revision lacks the mapping too.
func (p *planner) restore(baseNode *yaml.Node, abs, rel []string, src entry) error {
	full := append(slices.Clone(abs), rel...)
	for i := range full {
		if p.planned[strings.Join(full[:i+1], "\x00")] {
			return nil // an enclosing entry is restored whole
		}
	}
	parent := p.rev.at(full[:len(full)-1])
	if parent == nil {
		if len(rel) == 1 {
			return fmt.Errorf("%s: %s is missing", p.rev.path, strings.Join(full[:len(full)-1], "/"))
		}
		up := rel[:len(rel)-1]
		return p.restore(baseNode, abs, up, entryAt(p.base, baseNode, up))
	}
	p.planned[strings.Join(full, "\x00")] = true
	p.restored = append(p.restored, src.value)
	name := rel[len(rel)-1]
	key, value := lookup(parent, name, false)
	if key != nil && sameValue(src.value, value) {
		// Equal already: the revision's own lines stay, unless they refer
		// to another file that changed (localize).
		p.same = append(p.same, sameEntry{placed{parent, key, value}, src})
		return nil
	}
	if key != nil {
		p.edits = append(p.edits, edit{kind: replace, parent: parent, anchor: key, src: src, key: name})
		return nil
	}
	if parent.Kind != yaml.MappingNode || len(parent.Content) == 0 {
		return fmt.Errorf("%s:%d: cannot add %s to an empty or flow-style mapping", p.rev.path, parent.Line, name)
	}
	p.edits = append(p.edits, edit{kind: insertAfter, parent: parent, anchor: p.before(parent, baseNode, rel), src: src, key: name})
	return nil
}

// before is the revision's key after which an entry missing from it goes:
// the nearest key that precedes the entry in the base, else the last.
func (p *planner) before(parent, baseNode *yaml.Node, rel []string) *yaml.Node {
	if baseParent := nodeAt(baseNode, rel[:len(rel)-1]); baseParent != nil {
		var found *yaml.Node
		for i := 0; i+1 < len(baseParent.Content); i += 2 {
			name := baseParent.Content[i].Value
			if name == rel[len(rel)-1] {
				break
			}
			if k, _ := lookup(parent, name, false); k != nil {
				found = k
			}
		}
		if found != nil {
			return found
		}
	}
	return parent.Content[len(parent.Content)-2]
}

// placed is an entry of the revision with the mapping that holds it.
type placed struct {
	parent, key, value *yaml.Node
}

// untouched lists the coarsest entries of the revision, outside its
// components, that hold no restored version, and keeps their shape: every
// operation-version the fix does not name (the new versions the revision
// added itself, the other versions and operations) reads the revision's
// content, so components restored to the base shape are split for them
// too.
func (p *planner) untouched() []placed {
	// A restored version's media types are edited, or left alone because
	// they already read as in the base: either way not the revision's.
	edited := map[*yaml.Node]bool{}
	for _, e := range p.edits {
		if e.kind != insertAfter {
			edited[e.anchor] = true
		}
	}
	for _, s := range p.same {
		edited[s.at.key] = true
	}
	holds := map[*yaml.Node]bool{}
	var mark func(n *yaml.Node) bool
	mark = func(n *yaml.Node) bool {
		found := false
		for _, c := range n.Content {
			found = mark(c) || found
		}
		found = found || edited[n]
		holds[n] = found
		return found
	}
	mark(p.rev.root)
	var out []placed
	var walk func(m *yaml.Node)
	walk = func(m *yaml.Node) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			key, value := m.Content[i], m.Content[i+1]
			switch {
			case edited[key]:
			case !holds[key] && !holds[value]:
				p.kept = append(p.kept, value)
				out = append(out, placed{m, key, value})
			case value.Kind == yaml.MappingNode:
				walk(value)
			}
		}
	}
	for i := 0; i+1 < len(p.rev.root.Content); i += 2 {
		if key, value := p.rev.root.Content[i], p.rev.root.Content[i+1]; key.Value != "components" && value.Kind == yaml.MappingNode {
			walk(value)
		}
	}
	return out
}

// refersTo reports whether n has a $ref into a renamed component.
func refersTo(n *yaml.Node, renamed map[component]string) bool {
	found := false
	eachRef(n, func(ref string) {
		if c, ok := componentOf(ref); ok {
			_, r := renamed[c]
			found = found || r
		}
	})
	return found
}

// split restores, under their names, the components the restored content
// uses in their base shape, and copies under a new name each component the
// kept content uses that was restored or leads to one that was. It returns
// the renaming.
func (p *planner) split() (map[component]string, error) {
	var old []component
	restoredUses := p.base.closure(p.restored)
	for c := range restoredUses {
		if !sameValue(p.base.component(c), p.rev.component(c)) {
			old = append(old, c)
		}
	}
	slices.SortFunc(old, compareComponents)
	for _, c := range old {
		path := []string{"components", c.kind, c.name}
		if err := p.restore(p.base.root, nil, path, entryAt(p.base, p.base.root, path)); err != nil {
			return nil, err
		}
	}
	isOld := map[component]bool{}
	for _, c := range old {
		isOld[c] = true
	}
	// A component is copied when it was restored or refers to a copy.
	deps := map[component][]component{}
	for c := range p.rev.closure(p.kept) {
		if n := p.rev.component(c); n != nil {
			deps[c] = nil
			eachRef(n, func(ref string) {
				if d, ok := componentOf(ref); ok {
					deps[c] = append(deps[c], d)
				}
			})
		}
	}
	// One that refers to a copy but that no restored content uses is
	// rewritten in place instead: its $refs name the copies.
	copied, inPlace := map[component]bool{}, map[component]bool{}
	for changed := true; changed; {
		changed = false
		for c, ds := range deps {
			if copied[c] || inPlace[c] || !isOld[c] && !slices.ContainsFunc(ds, func(d component) bool { return copied[d] }) {
				continue
			}
			if isOld[c] || restoredUses[c] {
				copied[c] = true
			} else {
				inPlace[c] = true
			}
			changed = true
		}
	}
	for _, c := range slices.SortedFunc(maps.Keys(inPlace), compareComponents) {
		parent := p.rev.at([]string{"components", c.kind})
		key, value := lookup(parent, c.name, false)
		p.edits = append(p.edits, edit{kind: replace, parent: parent, anchor: key, src: entry{d: p.rev, key: key, value: value}, key: c.name, newShape: true})
	}
	rename := map[component]string{}
	suffix := "V" + strings.ReplaceAll(p.in.Version, "-", "")
	for _, c := range slices.SortedFunc(maps.Keys(copied), compareComponents) {
		name := c.name + suffix
		for n := 2; p.rev.component(component{c.kind, name}) != nil || p.base.component(component{c.kind, name}) != nil; n++ {
			name = fmt.Sprintf("%s%s_%d", c.name, suffix, n)
		}
		rename[c] = name
		p.res.Split[component{c.kind, name}.pointer()] = c.pointer()
		parent := p.rev.at([]string{"components", c.kind})
		key, value := lookup(parent, c.name, false)
		p.edits = append(p.edits, edit{kind: insertAfter, parent: parent, anchor: key, src: entry{d: p.rev, key: key, value: value}, key: name, newShape: true})
	}
	return rename, nil
}

func compareComponents(a, b component) int {
	return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.name, b.name))
}
