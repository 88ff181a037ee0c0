package specs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A reduced load hands kin-openapi a copy of each document's text in which
// what cannot produce a change is blanked: the schemas and examples of the
// operations whose closure (the operation, its path's parameters, every
// component it reaches, transitively, and the document's servers and
// security) is the same in both documents, and the components equal in both
// that nothing kept reaches. Blanked lines stay as empty lines, so every
// line kept keeps its number and every location stays exact. Operations
// keep their skeleton (methods, media type keys, parameters, deprecated,
// x-sunset), so pairing and the rules that look at the whole document still
// see every operation.

var methods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true}

// docIndex is what a reduced load needs to know of one document.
type docIndex struct {
	// why is set when the document cannot be reduced safely.
	why    string
	lines  lineIndex
	global hashValue
	ops    map[string]*unit // "method path", as written
	// pathItems are keyed by path.
	pathItems map[string]*pathItem
	comps     map[string]*unit // "kind/name"
	// roots are the components named outside operations: from path-level
	// parameters, webhooks and the rest of the document.
	roots []string
	// ignored empty the descriptions and examples, which the diff does
	// not compare, wherever that can be done by lines.
	ignored []edit
}

// pathItem is what a path item holds besides its operations.
type pathItem struct {
	ops  []string
	refs []string
	// cuts take out every entry but the operations; cutOK reports that
	// they can.
	cuts  []edit
	cutOK bool
}

// unit is an operation or a component.
type unit struct {
	hash hashValue
	// refs are the components the unit names; skelRefs those it still
	// names once its blanked entries are gone.
	refs, skelRefs []string
	// blanks are the entries replaced by {} when only the skeleton is kept;
	// skelOK reports that each of them can be.
	blanks []edit
	skelOK bool
	// remove takes out a whole component entry; removeOK reports that it
	// can.
	remove   edit
	removeOK bool
	// media are an operation's inline media types, for an operation kept
	// whose versions stay the same: one equal in both documents loses its
	// schema. mediaOK reports that each can; outerRefs are the operation's
	// refs outside them, bodyRefs the response and request body components
	// it names.
	media               map[string]*mediaUnit
	mediaOK             bool
	outerRefs, bodyRefs []string
	// responses are an operation's responses, while it is indexed.
	responses []responseCut
	// versioned is set on a response or request body component that names a
	// versioned media type.
	versioned bool
}

// mediaUnit is a media type object of an operation.
type mediaUnit struct {
	hash   hashValue
	refs   []string
	blanks []edit
}

// responseCut is a response of an operation, and how to cut it out.
type responseCut struct {
	remove    edit
	ok        bool
	ref       string // the component it names, if it is a $ref
	versioned bool
}

// edit replaces lines of the text. With blankKey, lines key..end become
// empty; otherwise the value becomes text ({} or ""): on the key's line
// from byte col when the value starts there, else on the value's line,
// indented past the key, and the other lines to end become empty.
type edit struct {
	text            string
	key, value, end int
	col             int // byte offset of the value in the key's line, -1 when it starts on a later line
	indent          int // spaces before {} on a later line
	blankKey        bool
}

type hashValue [2]uint64

var hashSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// lineIndex is where each line of a text starts: line l (1-based) is
// text[starts[l-1]:starts[l]], with its terminator.
type lineIndex []int

func newLineIndex(text []byte) lineIndex {
	starts := make(lineIndex, 1, bytes.Count(text, []byte{'\n'})+2)
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	if starts[len(starts)-1] != len(text) {
		starts = append(starts, len(text))
	}
	return starts
}

func (li lineIndex) count() int { return len(li) - 1 }

// line is line l without its terminator.
func (li lineIndex) line(text []byte, l int) []byte {
	line := text[li[l-1]:li[l]]
	line = bytes.TrimSuffix(line, []byte{'\n'})
	return bytes.TrimSuffix(line, []byte{'\r'})
}

// indexer builds a docIndex.
type indexer struct {
	text  []byte
	lines lineIndex
	idx   *docIndex
}

// newIndex indexes a document's text; root is its parsed YAML, nil when it
// does not parse as YAML.
func newIndex(data []byte, root *yaml.Node) *docIndex {
	idx := &docIndex{ops: map[string]*unit{}, comps: map[string]*unit{}, pathItems: map[string]*pathItem{}}
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
		idx.why = "JSON (flow style) is loaded whole"
		return idx
	case root == nil || root.Kind != yaml.MappingNode:
		idx.why = "not a YAML mapping: loaded whole"
		return idx
	}
	if why := unsupported(root); why != "" {
		idx.why = why
		return idx
	}
	ix := &indexer{text: data, lines: newLineIndex(data), idx: idx}
	idx.lines = ix.lines
	ix.index(root, ix.lines.count())
	ix.ignoredValues(root, ix.lines.count(), keywords)
	return idx
}

// ignoredValues finds the descriptions and examples under n (whose keys
// are ctx) that can be emptied by lines: the diff does not compare them,
// and they are nearly half of a large spec's text. A description that is
// not a string stays, so that the load still reports it.
func (ix *indexer) ignoredValues(n *yaml.Node, end int, ctx keyKind) {
	switch {
	case ctx == data || n.Style&yaml.FlowStyle != 0:
	case n.Kind == yaml.MappingNode:
		for _, e := range mappingEntries(n, end) {
			child, ignored := valueKind(ctx, e.k, e.v)
			if !ignored {
				ix.ignoredValues(e.v, e.end, child)
				continue
			}
			if e.k.Value == "description" && (e.v.Kind != yaml.ScalarNode || e.v.Tag != "!!str") {
				continue
			}
			if ed, ok := ix.replacement(e, `""`); ok {
				ix.idx.ignored = append(ix.idx.ignored, ed)
			}
		}
	case n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			itemEnd := end
			if i+1 < len(n.Content) {
				itemEnd = n.Content[i+1].Line - 1
			}
			ix.ignoredValues(item, itemEnd, ctx)
		}
	}
}

// unsupported says why a document's YAML cannot be reduced by lines:
// anchors and aliases share nodes between places, explicit tags and flow
// style at the top put several entries on one line.
func unsupported(root *yaml.Node) string {
	if root.Style&yaml.FlowStyle != 0 {
		return "flow style at the top level is loaded whole"
	}
	why := ""
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch {
		case why != "":
		case n.Kind == yaml.AliasNode || n.Anchor != "":
			why = fmt.Sprintf("YAML anchors and aliases (line %d) are loaded whole", n.Line)
		case n.Style&yaml.TaggedStyle != 0:
			why = fmt.Sprintf("an explicit YAML tag (line %d) is loaded whole", n.Line)
		default:
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	walk(root)
	return why
}

func (ix *indexer) index(root *yaml.Node, end int) {
	idx := ix.idx
	var global []hashValue
	for _, e := range mappingEntries(root, end) {
		switch key := e.k.Value; key {
		case "paths":
			ix.paths(e.v, e.end)
		case "components":
			if e.v.Kind != yaml.MappingNode {
				continue
			}
			for _, kind := range mappingEntries(e.v, e.end) {
				if kind.k.Value == "securitySchemes" {
					global = append(global, hashNode(kind.k), hashNode(kind.v))
				}
				if kind.v.Kind != yaml.MappingNode || strings.HasPrefix(kind.k.Value, "x-") {
					idx.roots = append(idx.roots, ix.refs(kind.v, nil)...)
					continue
				}
				for _, c := range mappingEntries(kind.v, kind.end) {
					ix.component(kind.k.Value, c)
				}
			}
		case "openapi", "jsonSchemaDialect", "security", "servers":
			// What every operation's diff may read.
			global = append(global, hashNode(e.k), hashNode(e.v))
			idx.roots = append(idx.roots, ix.refs(e.v, nil)...)
		default:
			idx.roots = append(idx.roots, ix.refs(e.v, nil)...)
		}
	}
	idx.global = hashOf(0, "", "", global)
	if idx.why == "" {
		idx.why = ix.checkRefs()
	}
	ix.cutUnversionedResponses()
}

func (ix *indexer) paths(paths *yaml.Node, end int) {
	if paths.Kind != yaml.MappingNode {
		return
	}
	if paths.Style&yaml.FlowStyle != 0 {
		ix.idx.why = "flow style in paths is loaded whole"
		return
	}
	for _, p := range mappingEntries(paths, end) {
		if p.v.Kind != yaml.MappingNode {
			ix.idx.roots = append(ix.idx.roots, ix.refs(p.v, nil)...)
			continue
		}
		// What the path item holds besides its operations belongs to each
		// of them (parameters above all): it is part of their closures, and
		// is cut out only when all of them are pruned.
		item := &pathItem{cutOK: p.v.Style&yaml.FlowStyle == 0}
		var shared []hashValue
		var ops []entry
		for _, e := range mappingEntries(p.v, p.end) {
			switch {
			case e.k.Value == "$ref":
				ix.idx.why = fmt.Sprintf("a path item $ref (line %d) is loaded whole", e.k.Line)
			case methods[e.k.Value]:
				ops = append(ops, e)
			default:
				shared = append(shared, hashNode(e.k), hashNode(e.v))
				item.refs = append(item.refs, ix.refs(e.v, nil)...)
				ed, ok := ix.removal(e)
				item.cuts, item.cutOK = append(item.cuts, ed), item.cutOK && ok
			}
		}
		for _, e := range ops {
			u := &unit{skelOK: p.v.Style&yaml.FlowStyle == 0}
			u.hash = hashOf(0, "", "", append([]hashValue{hashNode(e.v)}, shared...))
			u.refs = append(ix.refs(e.v, nil), item.refs...)
			ix.skeleton(u, e, operationShape)
			ix.mediaTypes(u, e)
			name := e.k.Value + " " + p.k.Value
			ix.idx.ops[name] = u
			item.ops = append(item.ops, name)
		}
		ix.idx.pathItems[p.k.Value] = item
	}
}

func (ix *indexer) component(kind string, c entry) {
	u := &unit{hash: hashNode(c.v), refs: ix.refs(c.v, nil), skelOK: true, versioned: versionedContent(c.v)}
	u.remove, u.removeOK = ix.removal(c)
	switch kind {
	case "responses":
		ix.skeleton(u, c, bodyShape)
	case "requestBodies":
		ix.skeleton(u, c, bodyShape)
	default:
		// Only what a skeleton names is cut to a skeleton.
		u.skelRefs, u.skelOK = u.refs, false
	}
	ix.idx.comps[kind+"/"+c.k.Value] = u
}

// skeletonShape is what a skeleton keeps of a mapping: the entries named in
// keep (with the shape of their own value, nil for a scalar kept as it is),
// or, for a mapping keyed by names, every entry with the shape names.
type skeletonShape struct {
	keep  map[string]*skeletonShape
	names *skeletonShape
}

// The skeleton of an operation is what apiver reads of an operation whose
// diff is empty: its deprecation, its x-sunset and the media type keys that
// carry its versions, with their x-sunset and their lines.
var (
	mediaTypeShape = &skeletonShape{keep: map[string]*skeletonShape{"x-sunset": nil}}
	contentShape   = &skeletonShape{names: mediaTypeShape}
	bodyShape      = &skeletonShape{keep: map[string]*skeletonShape{"$ref": nil, "content": contentShape}}
	responsesShape = &skeletonShape{names: bodyShape}
	operationShape = &skeletonShape{keep: map[string]*skeletonShape{"deprecated": nil, "x-sunset": nil, "requestBody": bodyShape, "responses": responsesShape}}
)

// skeleton plans the edits that cut u's value e down to sh, and finds the
// $refs left. A mapping left with nothing becomes {}: kin-openapi keeps an
// empty object, where null would leave a nil.
func (ix *indexer) skeleton(u *unit, e entry, sh *skeletonShape) {
	var walk func(e entry, sh *skeletonShape)
	walk = func(e entry, sh *skeletonShape) {
		n := e.v
		if n.Kind != yaml.MappingNode {
			u.skelRefs = append(u.skelRefs, ix.refs(n, e.k)...)
			return
		}
		entries := mappingEntries(n, e.end)
		var cut []entry
		for _, c := range entries {
			if sh.names == nil {
				if _, ok := sh.keep[c.k.Value]; !ok {
					cut = append(cut, c)
				}
			}
		}
		switch {
		case len(cut) > 0 && n.Style&yaml.FlowStyle != 0:
			u.skelOK = false // entries on one line cannot be cut apart
			return
		case len(cut) > 0 && len(cut) == len(entries):
			ed, ok := ix.replacement(e, "{}")
			u.skelOK = u.skelOK && ok
			u.blanks = append(u.blanks, ed)
			return
		}
		for _, c := range cut {
			ed, ok := ix.removal(c)
			u.skelOK = u.skelOK && ok
			u.blanks = append(u.blanks, ed)
		}
		for _, c := range entries {
			sub := sh.names
			if sub == nil {
				var kept bool
				if sub, kept = sh.keep[c.k.Value]; !kept {
					continue
				}
			}
			if sub == nil {
				u.skelRefs = append(u.skelRefs, ix.refs(c.v, c.k)...)
				continue
			}
			if sh == responsesShape {
				ix.response(u, c)
			}
			walk(c, sub)
		}
	}
	walk(e, sh)
}

// mediaTypes indexes the inline media types of an operation: its request
// body's and its responses', keyed by where they are.
func (ix *indexer) mediaTypes(u *unit, op entry) {
	u.media, u.mediaOK = map[string]*mediaUnit{}, true
	inner := map[*yaml.Node]bool{}
	content := func(where string, holder *yaml.Node, end int) {
		if holder == nil || holder.Kind != yaml.MappingNode {
			return
		}
		if ref := child(holder, "$ref"); ref != nil {
			if name, ok := componentOf(ref.Value); ok {
				u.bodyRefs = append(u.bodyRefs, name)
			}
			return
		}
		for _, c := range mappingEntries(holder, end) {
			if c.k.Value != "content" || c.v.Kind != yaml.MappingNode {
				continue
			}
			if c.v.Style&yaml.FlowStyle != 0 {
				u.mediaOK = false
				return
			}
			for _, mt := range mappingEntries(c.v, c.end) {
				m := &mediaUnit{hash: hashNode(mt.v)}
				if mt.v.Kind != yaml.MappingNode || mt.v.Style&yaml.FlowStyle != 0 {
					u.mediaOK = false
					continue
				}
				for _, f := range mappingEntries(mt.v, mt.end) {
					if f.k.Value != "schema" && f.k.Value != "example" && f.k.Value != "examples" {
						continue
					}
					ed, ok := ix.replacement(f, "{}")
					u.mediaOK = u.mediaOK && ok
					m.blanks = append(m.blanks, ed)
					m.refs = append(m.refs, ix.refs(f.v, f.k)...)
					inner[f.v] = true
				}
				u.media[where+"\x00"+mt.k.Value] = m
			}
		}
	}
	if op.v.Kind != yaml.MappingNode {
		u.mediaOK = false
		return
	}
	for _, e := range mappingEntries(op.v, op.end) {
		switch e.k.Value {
		case "requestBody":
			content("requestBody", e.v, e.end)
		case "responses":
			if e.v.Kind == yaml.MappingNode {
				for _, r := range mappingEntries(e.v, e.end) {
					content("responses\x00"+r.k.Value, r.v, r.end)
				}
			}
		}
	}
	u.outerRefs = ix.refsExcept(op.v, inner)
}

// response notes a response of a pruned operation: one that carries no
// version (an error response, most often) is taken out of the skeleton once
// the components it names are known.
func (ix *indexer) response(u *unit, c entry) {
	r := responseCut{versioned: versionedContent(c.v)}
	r.remove, r.ok = ix.removal(c)
	if ref := child(c.v, "$ref"); ref != nil && ref.Kind == yaml.ScalarNode {
		r.ref, _ = componentOf(ref.Value)
	}
	u.responses = append(u.responses, r)
}

// versionedContent reports whether a response or request body names a
// media type that carries a version, valid or not.
func versionedContent(n *yaml.Node) bool {
	content := child(n, "content")
	if content == nil || content.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i < len(content.Content); i += 2 {
		if _, ok, err := ParseMediaType(content.Content[i].Value); ok || err != nil {
			return true
		}
	}
	return false
}

// cutUnversionedResponses takes the responses that carry no version out
// of each operation's skeleton: nothing apiver reads of an unchanged
// operation is in them. An operation whose response cannot be cut out is
// not pruned, so that both documents keep the same skeleton.
func (ix *indexer) cutUnversionedResponses() {
	for _, u := range ix.idx.ops {
		for _, r := range u.responses {
			if r.versioned || (r.ref != "" && ix.idx.comps[r.ref] != nil && ix.idx.comps[r.ref].versioned) {
				continue
			}
			if !r.ok {
				u.skelOK = false
				continue
			}
			u.blanks = append(u.blanks, r.remove)
			if i := slices.Index(u.skelRefs, r.ref); r.ref != "" && i >= 0 {
				u.skelRefs = slices.Delete(u.skelRefs, i, i+1)
			}
		}
		u.responses = nil
	}
}

// refs lists the components a subtree names: its $refs and discriminator
// mappings. key is the subtree's own key, when it has one.
func (ix *indexer) refs(n *yaml.Node, key *yaml.Node) []string {
	return ix.refsSkipping(n, key, nil)
}

// refsExcept is refs without the subtrees of skip.
func (ix *indexer) refsExcept(n *yaml.Node, skip map[*yaml.Node]bool) []string {
	return ix.refsSkipping(n, nil, skip)
}

func (ix *indexer) refsSkipping(n *yaml.Node, key *yaml.Node, skip map[*yaml.Node]bool) []string {
	var out []string
	add := func(ref string, line int) {
		name, ok := componentOf(ref)
		if !ok {
			if ix.idx.why == "" {
				ix.idx.why = fmt.Sprintf("the $ref %q (line %d) does not name a component of this document: loaded whole", ref, line)
			}
			return
		}
		out = append(out, name)
	}
	var walk func(n *yaml.Node, key string)
	walk = func(n *yaml.Node, key string) {
		if skip[n] {
			return
		}
		switch n.Kind {
		case yaml.ScalarNode:
			if key == "$ref" {
				add(n.Value, n.Line)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Value == "mapping" && key == "discriminator" && v.Kind == yaml.MappingNode {
					for j := 1; j < len(v.Content); j += 2 {
						target := v.Content[j].Value
						if !strings.Contains(target, "#") && !strings.Contains(target, "/") {
							target = "#/components/schemas/" + target
						}
						add(target, v.Content[j].Line)
					}
					continue
				}
				walk(v, k.Value)
			}
		default:
			for _, c := range n.Content {
				walk(c, "")
			}
		}
	}
	k := ""
	if key != nil {
		k = key.Value
	}
	walk(n, k)
	return out
}

// componentOf is the component "kind/name" a local $ref points into.
func componentOf(ref string) (string, bool) {
	rest, ok := strings.CutPrefix(ref, "#/components/")
	if !ok {
		return "", false
	}
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) < 2 || parts[1] == "" {
		return "", false
	}
	name := strings.ReplaceAll(strings.ReplaceAll(parts[1], "~1", "/"), "~0", "~")
	if strings.Contains(name, "%") {
		unescaped, err := url.PathUnescape(name)
		if err != nil {
			return "", false
		}
		name = unescaped
	}
	return parts[0] + "/" + name, true
}

// checkRefs makes sure every $ref names a component that exists: a broken
// one is left to the full load to report.
func (ix *indexer) checkRefs() string {
	check := func(refs []string) string {
		for _, r := range refs {
			if _, ok := ix.idx.comps[r]; !ok {
				return fmt.Sprintf("the $ref to %s points to nothing: loaded whole", r)
			}
		}
		return ""
	}
	if why := check(ix.idx.roots); why != "" {
		return why
	}
	for _, units := range []map[string]*unit{ix.idx.ops, ix.idx.comps} {
		for _, name := range slices.Sorted(maps.Keys(units)) {
			if why := check(units[name].refs); why != "" {
				return why
			}
		}
	}
	return ""
}

// entry is a key and value of a block mapping with the last line of its
// region: the line before the next key, or the end of the mapping's own
// region.
type entry struct {
	k, v *yaml.Node
	end  int
}

func mappingEntries(m *yaml.Node, end int) []entry {
	var out []entry
	for i := 0; i+1 < len(m.Content); i += 2 {
		e := entry{k: m.Content[i], v: m.Content[i+1], end: end}
		if i+2 < len(m.Content) {
			e.end = m.Content[i+2].Line - 1
		}
		out = append(out, e)
	}
	return out
}

// region checks that lines key+1..end hold nothing but the entry's value,
// comments and blank lines: each is blank, a comment, indented past the
// key, or an item of a sequence value written at the key's indentation. Anything else (an outer sequence's dash, a document marker) means
// the entry cannot be cut out by lines.
func (ix *indexer) region(e entry) bool {
	if e.k.Kind != yaml.ScalarNode || e.end < e.k.Line || e.end > ix.lines.count() || e.v.Line < e.k.Line {
		return false
	}
	for l := e.k.Line + 1; l <= e.end; l++ {
		line := ix.lines.line(ix.text, l)
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		indent := utf8.RuneCount(line[:len(line)-len(trimmed)])
		// A block sequence may sit at its key's indentation.
		compact := indent == e.k.Column-1 && e.v.Kind == yaml.SequenceNode && (len(trimmed) == 1 || trimmed[1] == ' ') && trimmed[0] == '-'
		if indent < e.k.Column && !compact {
			return false
		}
	}
	return true
}

// replacement is the edit that turns e's value into text.
func (ix *indexer) replacement(e entry, text string) (edit, bool) {
	ed := edit{key: e.k.Line, value: e.v.Line, end: e.end, col: -1, indent: e.k.Column, text: text}
	if !ix.region(e) {
		return ed, false
	}
	if e.v.Line == e.k.Line {
		col, ok := byteOffset(ix.lines.line(ix.text, e.k.Line), e.v.Column)
		ed.col = col
		return ed, ok
	}
	// A value on a later line is a block collection, indented past the key.
	return ed, e.v.Kind == yaml.MappingNode || e.v.Kind == yaml.SequenceNode
}

// removal is the edit that takes out the whole entry e.
func (ix *indexer) removal(e entry) (edit, bool) {
	ed := edit{key: e.k.Line, value: e.v.Line, end: e.end, blankKey: true}
	if !ix.region(e) {
		return ed, false
	}
	line := ix.lines.line(ix.text, e.k.Line)
	col, ok := byteOffset(line, e.k.Column)
	return ed, ok && len(bytes.TrimLeft(line[:col], " ")) == 0
}

// byteOffset is the byte offset of the 1-based rune column in line.
func byteOffset(line []byte, column int) (int, bool) {
	off := 0
	for i := 1; i < column; i++ {
		if off >= len(line) {
			return 0, false
		}
		_, size := utf8.DecodeRune(line[off:])
		off += size
	}
	return off, off <= len(line)
}

// hashNode hashes a subtree's content as oasdiff compares it: kinds,
// resolved tags and values in order, without the descriptions and examples
// apiver's diff excludes. Layout, quoting and comments do not count.
func hashNode(n *yaml.Node) hashValue { return hashIn(n, keywords) }

// keyKind says what the keys of a mapping are.
type keyKind int

const (
	keywords keyKind = iota // OpenAPI and JSON Schema keywords
	names                   // names: properties, status codes, media types...
	data                    // values as written: defaults, enums, extensions
)

// ignoredKeywords are the keywords oasdiff does not compare when apiver
// runs it (descriptions and examples are excluded).
var ignoredKeywords = map[string]bool{"description": true, "example": true}

// nameMaps are the keywords whose mapping value is keyed by names.
var nameMaps = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true,
	"responses": true, "content": true, "headers": true, "links": true, "callbacks": true, "encoding": true,
	"mapping": true, "variables": true, "examples": true, "schemas": true, "parameters": true, "requestBodies": true,
	"securitySchemes": true, "pathItems": true, "webhooks": true, "paths": true, "scopes": true,
}

// dataKeywords hold values as written.
var dataKeywords = map[string]bool{"default": true, "enum": true, "const": true, "value": true}

// valueKind says what the keys of v are, the value of key k in a mapping
// whose keys are ctx (not data); ignored says that oasdiff does not
// compare v at all.
func valueKind(ctx keyKind, k, v *yaml.Node) (kind keyKind, ignored bool) {
	if ctx != keywords {
		return keywords, false
	}
	switch {
	case ignoredKeywords[k.Value]:
		return data, true
	case strings.HasPrefix(k.Value, "x-") || dataKeywords[k.Value] || (k.Value == "examples" && v.Kind != yaml.MappingNode):
		return data, false
	case nameMaps[k.Value] && v.Kind == yaml.MappingNode:
		return names, false
	}
	return keywords, false
}

func hashIn(n *yaml.Node, ctx keyKind) hashValue {
	var children []hashValue
	switch {
	case n.Kind == yaml.MappingNode && ctx != data:
		children = make([]hashValue, 0, len(n.Content))
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			child, ignored := valueKind(ctx, k, v)
			if ignored {
				continue
			}
			children = append(children, hashIn(k, data), hashIn(v, child))
		}
	default:
		children = make([]hashValue, len(n.Content))
		for i, c := range n.Content {
			children[i] = hashIn(c, ctx)
		}
	}
	return hashOf(n.Kind, n.Tag, n.Value, children)
}

func hashOf(kind yaml.Kind, tag, value string, children []hashValue) hashValue {
	buf := make([]byte, 0, 32+len(tag)+len(value)+16*len(children))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(kind))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(tag)))
	buf = append(buf, tag...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(value)))
	buf = append(buf, value...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(children)))
	for _, c := range children {
		buf = binary.LittleEndian.AppendUint64(buf, c[0])
		buf = binary.LittleEndian.AppendUint64(buf, c[1])
	}
	return hashValue{maphash.Bytes(hashSeeds[0], buf), maphash.Bytes(hashSeeds[1], buf)}
}
