package specs

import (
	"bytes"
	"hash/maphash"
	"net/url"
	"slices"
	"sort"
	"strings"
)

// blockIndex is a document's text cut, by indentation alone, into the
// parts a comparison matches by name: each operation, each path item's own
// entries, each component, and the document's other top-level entries.
// Version documents of one snapshot share most of their text; equal text
// is an equal value, so a document can be compared with others, and most
// of it left unparsed. Only plain block YAML is cut: JSON, flow style at
// the top levels, anchors, aliases, tags, merge keys, external $refs and
// anything unusual leave the document to the fast pass (indexBlocks says
// no), which is always right, only slower.
type blockIndex struct {
	data []byte
	// starts are the byte offsets of the lines (line n at starts[n-1]),
	// with len(data) at the end.
	starts []int
	// blocks by name: "op:get /path" (the prune package's operation names),
	// "item:/path" (the path item's own entries), "comp:schemas/Name", and
	// "top:key" for the other top-level entries.
	blocks map[string]*textBlock
	// ordered are the blocks by their first line, for blockAt.
	ordered []*textBlock
	// paths are the path items, by path, with their operations' names.
	paths map[string]*pathBlocks
	// keyLines are the lines of the keys that hold blocks: paths:,
	// components:, each path and each kind of component.
	pathsLine, componentsLine int
	kindLines                 map[string]int
}

type pathBlocks struct {
	keyLine int
	ops     []string // "method path"
	// shared are the item's own entries (parameters, servers...), each a
	// block of its own, "item:/path\x00key".
	shared []string
}

// textBlock is a run of lines, first to last (1-based, inclusive).
type textBlock struct {
	name        string
	first, last int
	hash        uint64
	// refs are the components ("kind/name") the block names.
	refs []string
}

var blockSeed = maphash.MakeSeed()

// componentKinds are the kinds of components a $ref may name.
var componentKinds = map[string]bool{"schemas": true, "responses": true, "parameters": true, "examples": true, "requestBodies": true,
	"headers": true, "securitySchemes": true, "links": true, "callbacks": true, "pathItems": true}

// componentRefs are the components a text names: in a $ref, or a
// discriminator mapping's value, anywhere.
func componentRefs(text []byte) []string {
	var out []string
	const prefix = "#/components/"
	for {
		i := bytes.Index(text, []byte(prefix))
		if i < 0 {
			return out
		}
		text = text[i+len(prefix):]
		kind := bytes.IndexByte(text, '/')
		if kind < 0 {
			return out
		}
		end := bytes.IndexAny(text[kind+1:], " \n\"'#,}]")
		if end < 0 {
			end = len(text) - kind - 1
		}
		if ref, ok := componentName(string(text[:kind]), string(text[kind+1:kind+1+end])); ok {
			out = append(out, ref)
		}
		text = text[kind+1+end:]
	}
}

// localRefs reports whether every $ref of text names a component of this
// document: one that names another file, or another part, is the fast
// pass's to follow.
func localRefs(text []byte) bool {
	for {
		i := bytes.Index(text, []byte("$ref"))
		if i < 0 {
			return true
		}
		text = text[i+4:]
		v := bytes.TrimLeft(text, "\"' ")
		if len(v) == 0 || v[0] != ':' {
			continue // "$ref" in a text
		}
		v = bytes.TrimLeft(v[1:], " \"'")
		if !bytes.HasPrefix(v, []byte("#/components/")) {
			return false
		}
	}
}

// indexBlocks cuts data into blocks; ok is false when it is not plain
// block YAML as described on blockIndex.
func indexBlocks(data []byte) (*blockIndex, bool) {
	if bytes.IndexByte(data, '\r') >= 0 || bytes.IndexByte(data, '\t') >= 0 {
		return nil, false
	}
	x := &blockIndex{data: data, blocks: map[string]*textBlock{}, paths: map[string]*pathBlocks{}, kindLines: map[string]int{}}
	for i := 0; i < len(data); {
		x.starts = append(x.starts, i)
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	x.starts = append(x.starts, len(data))
	n := len(x.starts) - 1
	if !x.plain(n) {
		return nil, false
	}
	top, ok := x.entries(1, n, 0)
	if !ok {
		return nil, false
	}
	for _, e := range top {
		switch e.key {
		case "paths":
			if !x.indexPaths(e) {
				return nil, false
			}
		case "components":
			if !x.indexComponents(e) {
				return nil, false
			}
		default:
			x.add("top:"+e.key, e.line, e.last)
		}
	}
	if !localRefs(data) {
		return nil, false
	}
	slices.SortFunc(x.ordered, func(a, b *textBlock) int { return a.first - b.first })
	return x, true
}

// line is line n's text without its line break.
func (x *blockIndex) line(n int) []byte {
	return bytes.TrimSuffix(x.data[x.starts[n-1]:x.starts[n]], []byte("\n"))
}

// plain reports whether the text uses none of what the cut cannot follow:
// document markers, anchors, aliases, tags, merge keys. The lines that
// continue a scalar (a block scalar's, or a plain or quoted one written
// over several lines) are text, not checked: a false alarm in text costs
// speed only.
func (x *blockIndex) plain(n int) bool {
	scalarIndent := -1 // the lines indented more continue a scalar
	for i := 1; i <= n; i++ {
		line := x.line(i)
		trimmed := bytes.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		if scalarIndent >= 0 && indent > scalarIndent {
			continue
		}
		scalarIndent = -1
		if indent == 0 && (bytes.HasPrefix(trimmed, []byte("---")) || bytes.HasPrefix(trimmed, []byte("..."))) {
			return false
		}
		rest, column := trimmed, indent
		for bytes.HasPrefix(rest, []byte("- ")) {
			after := bytes.TrimLeft(rest[2:], " ")
			column += len(rest) - len(after)
			rest = after
		}
		if len(rest) > 0 && strings.IndexByte("&*!", rest[0]) >= 0 || bytes.HasPrefix(rest, []byte("<<:")) {
			return false
		}
		if _, value, ok := splitKey(rest); ok {
			v := bytes.TrimLeft(value, " ")
			switch {
			case len(v) > 0 && strings.IndexByte("&*!", v[0]) >= 0:
				return false
			case len(v) > 0 && v[0] != '#':
				scalarIndent = column // a scalar, block or flow, may go on
			}
		} else if len(rest) < len(trimmed) {
			scalarIndent = indent // a sequence item's scalar
		}
	}
	return true
}

// keyEntry is a key of a mapping with its value's lines: line is the key's,
// last the value's last.
type keyEntry struct {
	key        string
	line, last int
	inline     []byte // the value written on the key's line
}

// entries are the keys at indent between lines first and last: each runs
// to the line before the next. Lines of a value are more indented, or a
// sequence's items at the key's own indentation. ok is false for anything
// else.
func (x *blockIndex) entries(first, last, indent int) ([]keyEntry, bool) {
	var out []keyEntry
	for i := first; i <= last; i++ {
		line := x.line(i)
		trimmed := bytes.TrimLeft(line, " ")
		at := len(line) - len(trimmed)
		if len(trimmed) == 0 || trimmed[0] == '#' || at > indent {
			continue
		}
		if at < indent {
			return nil, false
		}
		if bytes.HasPrefix(trimmed, []byte("- ")) || bytes.Equal(trimmed, []byte("-")) {
			if len(out) == 0 {
				return nil, false
			}
			continue
		}
		key, value, ok := splitKey(trimmed)
		if !ok {
			return nil, false
		}
		for _, e := range out {
			if e.key == key {
				return nil, false // a duplicate key: the fast pass reports it
			}
		}
		if len(out) > 0 {
			out[len(out)-1].last = i - 1
		}
		out = append(out, keyEntry{key: key, line: i, last: last, inline: bytes.TrimSpace(value)})
	}
	return out, true
}

// indentOf is line n's indentation.
func (x *blockIndex) indentOf(n int) int {
	line := x.line(n)
	return len(line) - len(bytes.TrimLeft(line, " "))
}

// childIndent is the indentation of the first line with content after an
// keyEntry's key, -1 when it has none.
func (x *blockIndex) childIndent(e keyEntry) int {
	for i := e.line + 1; i <= e.last; i++ {
		line := x.line(i)
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		return len(line) - len(trimmed)
	}
	return -1
}

// children are the entries of a mapping value that starts on the line
// after e's key; ok is false when e holds anything else but nothing or {}.
func (x *blockIndex) children(e keyEntry, parentIndent int) ([]keyEntry, bool) {
	if len(e.inline) > 0 && !bytes.HasPrefix(e.inline, []byte("#")) {
		return nil, bytes.Equal(e.inline, []byte("{}")) && x.childIndent(e) < 0
	}
	indent := x.childIndent(e)
	if indent < 0 {
		return nil, true
	}
	if indent <= parentIndent {
		return nil, false
	}
	return x.entries(e.line+1, e.last, indent)
}

func (x *blockIndex) indexPaths(e keyEntry) bool {
	x.pathsLine = e.line
	paths, ok := x.children(e, 0)
	if !ok {
		return false
	}
	for _, p := range paths {
		item, ok := x.children(p, x.indentOf(p.line))
		if !ok {
			return false
		}
		pb := &pathBlocks{keyLine: p.line}
		for _, m := range item {
			if httpMethods[m.key] {
				name := m.key + " " + p.key
				x.add("op:"+name, m.line, m.last)
				pb.ops = append(pb.ops, name)
				continue
			}
			name := "item:" + p.key + "\x00" + m.key
			x.add(name, m.line, m.last)
			pb.shared = append(pb.shared, name)
		}
		x.paths[p.key] = pb
	}
	return true
}

func (x *blockIndex) indexComponents(e keyEntry) bool {
	x.componentsLine = e.line
	kinds, ok := x.children(e, 0)
	if !ok {
		return false
	}
	for _, k := range kinds {
		names, ok := x.children(k, x.indentOf(k.line))
		if !ok || !componentKinds[k.key] {
			return false
		}
		x.kindLines[k.key] = k.line
		for _, c := range names {
			x.add("comp:"+k.key+"/"+c.key, c.line, c.last)
		}
	}
	return true
}

// add records a block, its hash and the components it names.
func (x *blockIndex) add(name string, first, last int) {
	// Trailing blank and comment lines belong to no block.
	for last > first {
		t := bytes.TrimSpace(x.line(last))
		if len(t) > 0 && t[0] != '#' {
			break
		}
		last--
	}
	text := x.data[x.starts[first-1]:x.starts[last]]
	b := &textBlock{name: name, first: first, last: last, hash: maphash.Bytes(blockSeed, text)}
	b.refs = componentRefs(text)
	x.blocks[name] = b
	x.ordered = append(x.ordered, b)
}

// componentName decodes a component's name from a $ref as the loader
// does: percent-encoding, then JSON pointer escapes.
func componentName(kind, name string) (string, bool) {
	if !componentKinds[kind] {
		return "", false
	}
	if strings.Contains(name, "%") {
		var err error
		if name, err = url.PathUnescape(name); err != nil {
			return "", false
		}
	}
	return kind + "/" + strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~"), true
}

// splitKey splits a mapping line into its key and the rest after the
// colon; ok is false when the line is no plain or quoted key.
func splitKey(line []byte) (key string, value []byte, ok bool) {
	switch {
	case len(line) == 0:
		return "", nil, false
	case line[0] == '"':
		end := bytes.IndexByte(line[1:], '"')
		if end < 0 || bytes.IndexByte(line[1:end+1], '\\') >= 0 {
			return "", nil, false
		}
		key, line = string(line[1:end+1]), line[end+2:]
	case line[0] == '\'':
		i := 1
		var b strings.Builder
		for {
			if i >= len(line) {
				return "", nil, false
			}
			if line[i] == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					b.WriteByte('\'')
					i += 2
					continue
				}
				break
			}
			b.WriteByte(line[i])
			i++
		}
		key, line = b.String(), line[i+1:]
	default:
		if strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", line[0]) >= 0 {
			return "", nil, false
		}
		i := bytes.Index(line, []byte(": "))
		if i < 0 {
			if !bytes.HasSuffix(line, []byte(":")) {
				return "", nil, false
			}
			i = len(line) - 1
		}
		key = strings.TrimRight(string(line[:i]), " ")
		if strings.ContainsAny(key, "#") {
			return "", nil, false
		}
		return key, line[i+1:], true
	}
	if len(line) == 0 || line[0] != ':' || (len(line) > 1 && line[1] != ' ') {
		return "", nil, false
	}
	return key, line[1:], true
}

// blockAt is the block that holds line, nil when none does.
func (x *blockIndex) blockAt(line int) *textBlock {
	i := sort.Search(len(x.ordered), func(i int) bool { return x.ordered[i].first > line }) - 1
	if i < 0 || x.ordered[i].last < line {
		return nil
	}
	return x.ordered[i]
}

// lineIn maps a line of x onto y: the same line of the same block when
// its text is the same in both, else the block's first line in y; ok is
// false when y has no such block.
func (x *blockIndex) lineIn(y *blockIndex, line int) (int, bool) {
	b := x.blockAt(line)
	if b == nil {
		return 0, false
	}
	o := y.blocks[b.name]
	switch {
	case o == nil:
		return 0, false
	case o.hash == b.hash:
		return o.first + line - b.first, true
	}
	return o.first, true
}

// global hashes what every operation's diff reads besides its own
// blocks: the OpenAPI version, the document's security and servers, and
// the security schemes, as the fast pass takes them.
func (x *blockIndex) global() uint64 {
	var h maphash.Hash
	h.SetSeed(blockSeed)
	for _, name := range []string{"top:openapi", "top:jsonSchemaDialect", "top:security", "top:servers"} {
		writeBlock(&h, x.blocks[name])
	}
	for _, name := range x.sortedNames("comp:securitySchemes/") {
		writeBlock(&h, x.blocks[name])
	}
	return h.Sum64()
}

// signature identifies what a diff of operation op ("method path") reads
// of the document: its block, its path item's own blocks, the global
// blocks and every component it reaches, by text. ok is false when the
// document does not have the operation.
func (x *blockIndex) signature(op string) (uint64, bool) {
	b := x.blocks["op:"+op]
	if b == nil {
		return 0, false
	}
	var h maphash.Hash
	h.SetSeed(blockSeed)
	h.WriteString(op)
	writeBlock(&h, b)
	_, path, _ := strings.Cut(op, " ")
	for _, s := range x.paths[path].shared {
		writeBlock(&h, x.blocks[s])
	}
	var g [8]byte
	putUint64(g[:], x.global())
	h.Write(g[:])
	for _, name := range x.closure(x.opRefs(op)) {
		h.WriteString(name)
		writeBlock(&h, x.blocks["comp:"+name])
	}
	return h.Sum64(), true
}

// document identifies what a comparison diffs outside the operations:
// every top-level block and component, by text.
func (x *blockIndex) document() uint64 {
	var h maphash.Hash
	h.SetSeed(blockSeed)
	for _, name := range x.sortedNames("top:") {
		h.WriteString(name)
		writeBlock(&h, x.blocks[name])
	}
	for _, name := range x.sortedNames("comp:") {
		h.WriteString(name)
		writeBlock(&h, x.blocks[name])
	}
	return h.Sum64()
}

// opRefs are the components an operation names, with its path item's.
func (x *blockIndex) opRefs(op string) []string {
	refs := slices.Clone(x.blocks["op:"+op].refs)
	_, path, _ := strings.Cut(op, " ")
	for _, s := range x.paths[path].shared {
		refs = append(refs, x.blocks[s].refs...)
	}
	return refs
}

// closure is every component reachable from refs, sorted.
func (x *blockIndex) closure(refs []string) []string {
	seen := map[string]bool{}
	queue := slices.Clone(refs)
	for len(queue) > 0 {
		name := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[name] {
			continue
		}
		seen[name] = true
		if b := x.blocks["comp:"+name]; b != nil {
			queue = append(queue, b.refs...)
		}
	}
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func (x *blockIndex) sortedNames(prefix string) []string {
	var out []string
	for name := range x.blocks {
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// operations are the document's operations ("method path"), sorted.
func (x *blockIndex) operations() []string {
	var out []string
	for _, p := range x.paths {
		out = append(out, p.ops...)
	}
	slices.Sort(out)
	return out
}

func writeBlock(h *maphash.Hash, b *textBlock) {
	var buf [8]byte
	if b != nil {
		putUint64(buf[:], b.hash)
	}
	h.Write(buf[:])
}

func putUint64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

// project is the document's text with only some blocks: the operations of
// ops (with their path items' own entries), the components of comps (and
// every security scheme), and every other top-level keyEntry; the rest is
// blank lines, so that every line kept is where it was.
func (x *blockIndex) project(ops map[string]bool, comps map[string]bool) []byte {
	n := len(x.starts) - 1
	keep := make([]bool, n+2)
	mark := func(first, last int) {
		for i := first; i <= last; i++ {
			keep[i] = true
		}
	}
	for name, b := range x.blocks {
		if strings.HasPrefix(name, "top:") {
			mark(b.first, b.last)
		}
	}
	anyPath := false
	for _, pb := range x.paths {
		kept := false
		for _, op := range pb.ops {
			if ops[op] {
				b := x.blocks["op:"+op]
				mark(b.first, b.last)
				kept = true
			}
		}
		if kept {
			anyPath = true
			mark(pb.keyLine, pb.keyLine)
			for _, s := range pb.shared {
				mark(x.blocks[s].first, x.blocks[s].last)
			}
		}
	}
	if anyPath {
		mark(x.pathsLine, x.pathsLine)
	}
	anyKind := false
	for kind, line := range x.kindLines {
		kept := false
		for _, name := range x.sortedNames("comp:" + kind + "/") {
			if comps[strings.TrimPrefix(name, "comp:")] || kind == "securitySchemes" {
				b := x.blocks[name]
				mark(b.first, b.last)
				kept = true
			}
		}
		if kept {
			anyKind = true
			mark(line, line)
		}
	}
	if anyKind {
		mark(x.componentsLine, x.componentsLine)
	}
	var out bytes.Buffer
	out.Grow(len(x.data) / 4)
	for i := 1; i <= n; i++ {
		switch {
		case keep[i]:
			out.Write(x.data[x.starts[i-1]:x.starts[i]])
			continue
		case i == x.pathsLine && !anyPath:
			out.WriteString("paths: {}")
		}
		if x.starts[i] > x.starts[i-1] && x.data[x.starts[i]-1] == '\n' {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}
