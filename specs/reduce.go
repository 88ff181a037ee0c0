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

// blankedKeys are the entries of a pruned operation replaced by {}: where
// almost all the weight of an operation lies.
var blankedKeys = map[string]bool{"schema": true, "example": true, "examples": true}

var methods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true}

// docIndex is what a reduced load needs to know of one document.
type docIndex struct {
	// why is set when the document cannot be reduced safely.
	why    string
	global hashValue
	ops    map[string]*unit // "method path", as written
	comps  map[string]*unit // "kind/name"
	// roots are the components named outside operations: from path-level
	// parameters, webhooks and the rest of the document.
	roots []string
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
}

// edit replaces lines of the text. With blankKey, lines key..end become
// empty; otherwise the value becomes {}: on the key's line from byte col
// when the value starts there, else on the value's line, indented past the
// key, and the other lines to end become empty.
type edit struct {
	key, value, end int
	col             int // byte offset of the value in the key's line, -1 when it starts on a later line
	indent          int // spaces before {} on a later line
	blankKey        bool
}

type hashValue [2]uint64

var hashSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// textLines splits text into lines without their terminators and the
// terminators ("\n", "\r\n", or "" for an unterminated last line).
func textLines(text []byte) (lines, ends [][]byte) {
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			lines, ends = append(lines, text), append(ends, nil)
			break
		}
		line, end := text[:i], text[i:i+1]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line, end = line[:len(line)-1], text[i-1:i+1]
		}
		lines, ends = append(lines, line), append(ends, end)
		text = text[i+1:]
	}
	return lines, ends
}

// indexer builds a docIndex.
type indexer struct {
	lines [][]byte
	idx   *docIndex
}

// newIndex indexes a document's text; root is its parsed YAML, nil when it
// does not parse as YAML.
func newIndex(data []byte, root *yaml.Node) *docIndex {
	idx := &docIndex{ops: map[string]*unit{}, comps: map[string]*unit{}}
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
	lines, _ := textLines(data)
	ix := &indexer{lines: lines, idx: idx}
	ix.index(root, len(lines))
	return idx
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
		// of them (parameters above all); its $refs stay whole.
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
				ix.idx.roots = append(ix.idx.roots, ix.refs(e.v, nil)...)
			}
		}
		for _, e := range ops {
			u := &unit{skelOK: p.v.Style&yaml.FlowStyle == 0}
			u.hash = hashOf(0, "", "", append([]hashValue{hashNode(e.v)}, shared...))
			u.refs = ix.refs(e.v, nil)
			ix.skeleton(u, e)
			ix.idx.ops[e.k.Value+" "+p.k.Value] = u
		}
	}
}

func (ix *indexer) component(kind string, c entry) {
	u := &unit{hash: hashNode(c.v), refs: ix.refs(c.v, nil), skelOK: true}
	u.remove, u.removeOK = ix.removal(c)
	if kind == "schemas" {
		// A schema is kept whole or not at all.
		u.skelRefs, u.skelOK = u.refs, false
	} else {
		ix.skeleton(u, c)
	}
	ix.idx.comps[kind+"/"+c.k.Value] = u
}

// skeleton finds the entries of u's value to blank and the $refs left
// outside them.
func (ix *indexer) skeleton(u *unit, e entry) {
	var walk func(n *yaml.Node, end int)
	walk = func(n *yaml.Node, end int) {
		if n.Style&yaml.FlowStyle != 0 {
			// Entries inside flow style share lines: none is blanked.
			if containsKey(n, blankedKeys) {
				u.skelOK = false
			}
			u.skelRefs = append(u.skelRefs, ix.refs(n, nil)...)
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for _, c := range mappingEntries(n, end) {
				switch {
				case strings.HasPrefix(c.k.Value, "x-") || c.k.Value == "$ref" || c.k.Value == "discriminator":
					u.skelRefs = append(u.skelRefs, ix.refs(c.v, c.k)...)
				case blankedKeys[c.k.Value]:
					ed, ok := ix.replacement(c)
					u.skelOK = u.skelOK && ok
					u.blanks = append(u.blanks, ed)
				default:
					walk(c.v, c.end)
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				itemEnd := end
				if i+1 < len(n.Content) {
					itemEnd = n.Content[i+1].Line - 1
				}
				walk(c, itemEnd)
			}
		}
	}
	walk(e.v, e.end)
}

// refs lists the components a subtree names: its $refs and discriminator
// mappings. key is the subtree's own key, when it has one.
func (ix *indexer) refs(n *yaml.Node, key *yaml.Node) []string {
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
// comments and blank lines: each is blank, a comment, or indented past the
// key. Anything else (an outer sequence's dash, a document marker) means
// the entry cannot be cut out by lines.
func (ix *indexer) region(e entry) bool {
	if e.k.Kind != yaml.ScalarNode || e.end < e.k.Line || e.end > len(ix.lines) || e.v.Line < e.k.Line {
		return false
	}
	for l := e.k.Line + 1; l <= e.end; l++ {
		line := ix.lines[l-1]
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		if utf8.RuneCount(line[:len(line)-len(trimmed)]) < e.k.Column {
			return false
		}
	}
	return true
}

// replacement is the edit that turns e's value into {}.
func (ix *indexer) replacement(e entry) (edit, bool) {
	ed := edit{key: e.k.Line, value: e.v.Line, end: e.end, col: -1, indent: e.k.Column}
	if !ix.region(e) {
		return ed, false
	}
	if e.v.Line == e.k.Line {
		col, ok := byteOffset(ix.lines[e.k.Line-1], e.v.Column)
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
	line := ix.lines[e.k.Line-1]
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

func containsKey(n *yaml.Node, keys map[string]bool) bool {
	if n.Kind == yaml.MappingNode {
		for i := 0; i < len(n.Content); i += 2 {
			if keys[n.Content[i].Value] {
				return true
			}
		}
	}
	for _, c := range n.Content {
		if containsKey(c, keys) {
			return true
		}
	}
	return false
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

func hashIn(n *yaml.Node, ctx keyKind) hashValue {
	var children []hashValue
	switch {
	case n.Kind == yaml.MappingNode && ctx != data:
		children = make([]hashValue, 0, len(n.Content))
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			child := keywords
			if ctx == keywords {
				switch {
				case ignoredKeywords[k.Value]:
					continue
				case strings.HasPrefix(k.Value, "x-") || dataKeywords[k.Value] || (k.Value == "examples" && v.Kind != yaml.MappingNode):
					child = data
				case nameMaps[k.Value] && v.Kind == yaml.MappingNode:
					child = names
				}
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
