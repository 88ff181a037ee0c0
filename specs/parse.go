package specs

import (
	"bytes"
	"hash/maphash"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// ParseNode is the root node of the document data holds, nil when it
// does not parse. A large YAML document whose root is a block mapping is
// parsed in chunks, on every core (parseSplit); what that cannot read as
// one parse reads it is parsed whole.
func ParseNode(data []byte) *yaml.Node {
	root, _ := ParseReusing(data, nil)
	return root
}

// ParseReusing is ParseNode, but a chunk of data that from holds too (the
// same bytes, parsed from another text) is copied from from's tree, its
// lines moved, instead of parsed again: a pull request's revision shares
// all but a few chunks with its base. The chunks are returned for a text
// parsed next; nil when data was parsed whole.
func ParseReusing(data []byte, from *Chunks) (*yaml.Node, *Chunks) {
	if len(data) >= splitSize {
		if root, chunks, ok := parseSplit(data, from, minChunk); ok {
			return root, chunks
		}
	}
	return parseWhole(data), nil
}

func parseWhole(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// splitSize is the size from which a document is parsed in chunks: below
// it, the chunks' cost of starting outweighs what the cores save.
const splitSize = 256 << 10

// minChunk is the size a chunk grows to before an entry may start another:
// a parse has a cost of its own, and a chunk shared by two texts is only
// reused whole.
const minChunk = 4 << 10

// splitKeys are the root keys whose values hold most of an OpenAPI
// document; their entries, and those of each kind of components, are
// parsed in chunks.
var splitKeys = [][]byte{[]byte("paths:"), []byte("components:"), []byte("webhooks:")}

// Chunks are the chunks a text was parsed in, each with its tree as its
// own parse made it, by their bytes.
type Chunks struct {
	byHash map[uint64][]*chunk
}

var chunkSeed = maphash.MakeSeed()

// With is c and other as one: either may be nil.
func (c *Chunks) With(other *Chunks) *Chunks {
	if c == nil || other == nil {
		if c == nil {
			return other
		}
		return c
	}
	both := &Chunks{byHash: maps.Clone(c.byHash)}
	for h, ks := range other.byHash {
		both.byHash[h] = append(both.byHash[h], ks...)
	}
	return both
}

// find is the chunk of c with text's bytes, nil when there is none.
func (c *Chunks) find(text []byte) *chunk {
	if c == nil {
		return nil
	}
	for _, k := range c.byHash[maphash.Bytes(chunkSeed, text)] {
		if bytes.Equal(k.text, text) {
			return k
		}
	}
	return nil
}

// chunk is a piece of a text parsed alone: entries of the root mapping
// (path empty), or of the block mapping at path, whose keys are at indent.
type chunk struct {
	text   []byte
	line   int // line breaks before it
	path   string
	indent int
	// root is the chunk's own tree (a block mapping), never changed: the
	// document's tree joins its entries into mappings of its own.
	root *yaml.Node
}

// parseSplit parses data in chunks (splitChunks), each as a document of
// its own on one of the cores, or copied from a chunk of from with the
// same bytes, and joins their entries: the tree one parse of data makes,
// but for comments, which nothing reads. ok is false when that may not
// hold, and data must be parsed whole:
//
//   - data is not plain UTF-8 with \n or \r\n line breaks (the parser
//     counts a lone \r, NEL, LS and PS as line breaks too);
//   - a line starts a directive (%), a document (---) or ends one (...);
//   - a chunk does not parse alone: a flow collection or a quoted scalar
//     open at its end, or an alias of an anchor in another chunk (so an
//     alias in a chunk names the anchor it names in data: the last one
//     before it);
//   - a chunk's root is not a block mapping whose first key is where the
//     chunk starts, at its indent, or the mapping its entries join is not a
//     block mapping with its keys at that indent;
//   - a line in a chunk of entries is less indented than they are (alone,
//     the chunk may read it otherwise).
//
// A line at an entry's indent (or less) ends whatever block scalar or
// plain scalar the entry before it holds, as the end of the text does: so
// the chunks end where the values of data end.
func parseSplit(data []byte, from *Chunks, minSize int) (*yaml.Node, *Chunks, bool) {
	if !plainBreaks(data) {
		return nil, nil, false
	}
	chunks := splitChunks(data, minSize)
	if len(chunks) < 2 {
		return nil, nil, false
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(chunks); i = int(next.Add(1)) - 1 {
				c := chunks[i]
				if same := from.find(c.text); same != nil {
					c.root = copyTree(same.root, c.line-same.line)
				} else if c.root = parseWhole(c.text); c.root != nil {
					moveLines(c.root, c.line)
				}
			}
		})
	}
	wg.Wait()
	root, ok := join(chunks)
	if !ok {
		return nil, nil, false
	}
	parsed := &Chunks{byHash: make(map[uint64][]*chunk, len(chunks))}
	for _, c := range chunks {
		h := maphash.Bytes(chunkSeed, c.text)
		parsed.byHash[h] = append(parsed.byHash[h], c)
	}
	return root, parsed, true
}

// join joins the chunks' entries into one tree, in mappings of its own (the
// root's, and those of paths, webhooks, components and each kind of
// components), so that each chunk's tree stays as its parse made it.
func join(chunks []*chunk) (*yaml.Node, bool) {
	for i, c := range chunks {
		r := c.root
		if r == nil || r.Kind != yaml.MappingNode || r.Style != 0 || len(r.Content) < 2 {
			return nil, false
		}
		if i > 0 && (r.Content[0].Line != c.line+1 || r.Content[0].Column != c.indent+1) {
			return nil, false
		}
	}
	first := chunks[0].root
	if first.Column != 1 {
		return nil, false
	}
	root := &yaml.Node{}
	*root = *first
	root.Content = nil
	mappings := map[string]*yaml.Node{"": root}
	for _, c := range chunks {
		m := mappings[c.path]
		if m == nil || c.path != "" && (len(m.Content) < 2 || m.Content[0].Column != c.indent+1) {
			return nil, false
		}
		at := len(m.Content)
		m.Content = append(m.Content, c.root.Content...)
		switch c.path {
		case "":
			for i := at; i+1 < len(m.Content); i += 2 {
				if k := m.Content[i]; k.Value == "paths" || k.Value == "webhooks" || k.Value == "components" {
					if own := ownMapping(m, i, mappings, k.Value); own != nil && k.Value == "components" {
						for j := 0; j+1 < len(own.Content); j += 2 {
							ownMapping(own, j, mappings, "components/"+own.Content[j].Value)
						}
					}
				}
			}
		case "components":
			for i := at; i+1 < len(m.Content); i += 2 {
				ownMapping(m, i, mappings, "components/"+m.Content[i].Value)
			}
		}
	}
	return root, true
}

// ownMapping gives the entry at i of the mapping m (its own node) a value
// of its own, when it is a block mapping under a plain key, for later
// chunks to join at path; nil when it is not, and then later chunks find
// none at path: they would join an earlier entry of that key.
func ownMapping(m *yaml.Node, i int, mappings map[string]*yaml.Node, path string) *yaml.Node {
	k, v := m.Content[i], m.Content[i+1]
	if k.Kind != yaml.ScalarNode || k.Style != 0 || k.Tag != "!!str" || v.Kind != yaml.MappingNode || v.Style != 0 {
		delete(mappings, path)
		return nil
	}
	own := &yaml.Node{}
	*own = *v
	own.Content = slices.Clone(v.Content)
	m.Content[i+1] = own
	mappings[path] = own
	return own
}

// splitChunks cuts data, at the start of lines, into chunks: at each line
// that holds one of splitKeys and nothing else but spaces, at each other
// line in column 1 after a chunk of entries, and, once a chunk holds
// minSize bytes, at the next entry of paths, webhooks or a kind of
// components (the first entry stays with its key, so that the chunk that
// holds the key makes its mapping). Comments and blank lines stay with
// the chunk before them. It is nil when a line in a chunk of entries is
// less indented than they are, or a line starts an explicit key.
func splitChunks(data []byte, minSize int) []*chunk {
	chunks := []*chunk{{}}
	cur, lo, line := chunks[0], 0, 0
	section, kind := "", ""
	sawEntry, sawKindEntry := false, false
	cut := func(at, line int, path string, indent int) {
		cur.text = data[lo:at]
		cur = &chunk{line: line, path: path, indent: indent}
		chunks = append(chunks, cur)
		lo = at
	}
	for at := 0; at < len(data); line++ {
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data) - at
		}
		text := bytes.TrimRight(data[at:at+end], " \r")
		body := bytes.TrimLeft(text, " ")
		indent := len(text) - len(body)
		// An entry starts with its key: not an indicator, a comment or a tab.
		entry := len(body) > 0 && !bytes.ContainsAny(body[:1], "-?:#,[]{}&*!|>%@`\t")
		if explicitKey(body) {
			// Its value, when it has none, is placed where the next token
			// starts: alone, a chunk would place it at its end.
			return nil
		}
		big := at-lo >= minSize
		switch {
		case len(body) == 0 || body[0] == '#':
		case indent == 0:
			split := at > 0 && slices.ContainsFunc(splitKeys, func(k []byte) bool { return bytes.Equal(text, k) })
			if split || cur.path != "" {
				cut(at, line, "", 0)
			}
			section, kind = "", ""
			if split {
				section, sawEntry = string(text[:len(text)-1]), false
			}
		case section == "components" && indent == 2:
			if cur.path != "" && cur.path != "components" {
				cut(at, line, "components", 2)
			}
			kind, sawKindEntry = "", false
			if entry && text[len(text)-1] == ':' && !bytes.ContainsAny(text[2:len(text)-1], " :#'\"{}[],&*!|>%@`") {
				kind = string(text[2 : len(text)-1])
			}
		case section == "components" && indent == 4 && kind != "" && entry:
			if sawKindEntry && big {
				cut(at, line, "components/"+kind, 4)
			}
			sawKindEntry = true
		case (section == "paths" || section == "webhooks") && indent == 2 && entry:
			if sawEntry && big {
				cut(at, line, section, 2)
			}
			sawEntry = true
		}
		if len(body) > 0 && body[0] != '#' && indent < cur.indent {
			// Less indented than the entries of its chunk: alone, the
			// chunk may read it otherwise.
			return nil
		}
		at += end + 1
	}
	cur.text = data[lo:]
	return chunks
}

// explicitKey reports whether a line, without its indent, starts an
// explicit key ("? "), after any sequence entries ("- ") that come first.
func explicitKey(body []byte) bool {
	for len(body) > 1 && body[0] == '-' && (body[1] == ' ' || body[1] == '\t') {
		body = bytes.TrimLeft(body[1:], " \t")
	}
	return len(body) > 0 && body[0] == '?' && (len(body) == 1 || body[1] == ' ' || body[1] == '\t')
}

// moveLines adds lines to the line of every node of the tree n.
func moveLines(n *yaml.Node, lines int) {
	n.Line += lines
	for _, c := range n.Content {
		moveLines(c, lines)
	}
}

// copyTree copies the tree n, lines added to its nodes' lines, and each
// alias naming the copy of its anchor (in the tree: a chunk parses alone).
func copyTree(n *yaml.Node, lines int) *yaml.Node {
	// The copy's nodes and their content slices are cut from two blocks
	// sized by a first walk: one allocation each instead of one a node,
	// less work for the allocator and the collector. The tree is kept or
	// let go whole.
	nodes, slots := 0, 0
	var count func(n *yaml.Node)
	count = func(n *yaml.Node) {
		nodes, slots = nodes+1, slots+len(n.Content)
		for _, c := range n.Content {
			count(c)
		}
	}
	count(n)
	block, content := make([]yaml.Node, nodes), make([]*yaml.Node, slots)
	var anchors map[*yaml.Node]*yaml.Node
	var walk func(n *yaml.Node) *yaml.Node
	walk = func(n *yaml.Node) *yaml.Node {
		c := &block[0]
		block = block[1:]
		*c = *n
		c.Line += lines
		if n.Anchor != "" {
			if anchors == nil {
				anchors = map[*yaml.Node]*yaml.Node{}
			}
			anchors[n] = c
		}
		if n.Alias != nil {
			c.Alias = anchors[n.Alias]
		}
		if k := len(n.Content); k > 0 {
			c.Content, content = content[:k:k], content[k:]
			for i, child := range n.Content {
				c.Content[i] = walk(child)
			}
		}
		return c
	}
	return walk(n)
}

// plainBreaks reports whether data is UTF-8 whose only line breaks are
// \n and \r\n, with no line that starts a directive or a document, or
// ends one.
func plainBreaks(data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	for _, seq := range [][]byte{{0xc2, 0x85}, {0xe2, 0x80, 0xa8}, {0xe2, 0x80, 0xa9}} {
		if bytes.Contains(data, seq) {
			return false
		}
	}
	if bytes.Count(data, []byte{'\r'}) != bytes.Count(data, []byte("\r\n")) {
		return false
	}
	for at := 0; at < len(data); {
		rest := data[at:]
		if bytes.HasPrefix(rest, []byte("---")) || bytes.HasPrefix(rest, []byte("...")) || bytes.HasPrefix(rest, []byte("%")) {
			return false
		}
		next := bytes.IndexByte(rest, '\n')
		if next < 0 {
			break
		}
		at += next + 1
	}
	return true
}
