package prune

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// writer writes a parsed tree back as text that the loader's parser (the
// same YAML parser, with the same resolution of plain scalars) reads as the
// same values: flow style, every node on its original line, so that the
// loader's origins are those of the original text. Strings are double
// quoted; every other scalar is written as it was, plain, and resolves as
// it did; anchors and aliases are kept. A JSON tree is written as JSON,
// which the loader reads without origins, as it reads the original.
type writer struct {
	buf  bytes.Buffer
	line int
	json bool
	// replace gives the text of a node that is cut: {} or "".
	replace map[*yaml.Node]string
	// remove holds the key nodes of entries left out.
	remove map[*yaml.Node]bool
	// expand writes aliases as their nodes, for a text of its own.
	expand bool
	// origins, set for a YAML tree, has it written as JSON, which the
	// loader reads without its YAML reading, and records where the nodes
	// that reading's origins name lie in the text (Origins). failed says
	// the tree holds what that JSON cannot say as the reading reads it.
	origins *Origins
	failed  bool
	// last is what the JSON of the node just written holds for origins:
	// nil for a scalar.
	last *originNode
	// lineStart is where the current line starts in buf; column is the
	// column (in characters) reached at counted.
	lineStart, counted, column int
}

// at moves to line, so that the next node starts there.
func (w *writer) at(line int) {
	if line <= w.line {
		return
	}
	for ; w.line < line; w.line++ {
		w.buf.WriteByte('\n')
	}
	w.lineStart = w.buf.Len()
	// A line that starts at column 0 could read as a document marker.
	w.buf.WriteByte(' ')
}

func (w *writer) node(n *yaml.Node) {
	if w.failed {
		return
	}
	w.last = nil
	if text, ok := w.replace[n]; ok {
		w.at(n.Line)
		w.buf.WriteString(text)
		if w.origins != nil && text == "{}" {
			w.last = &originNode{mapping: true, end: w.position()}
		}
		return
	}
	if n.Kind == yaml.AliasNode {
		switch {
		case w.origins != nil:
			// The reading gives what an alias reaches the origins of its
			// anchor: JSON has no aliases.
			w.failed = true
		case w.expand:
			w.node(n.Alias)
		default:
			w.at(n.Line)
			w.buf.WriteString("*" + n.Value)
		}
		return
	}
	w.at(n.Line)
	if n.Anchor != "" && !w.expand && w.origins == nil {
		w.buf.WriteString("&" + n.Anchor + " ")
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			w.node(c)
		}
	case yaml.MappingNode:
		w.mapping(n)
	case yaml.SequenceNode:
		w.sequence(n)
	default:
		w.scalar(n)
	}
}

func (w *writer) sequence(n *yaml.Node) {
	var seq *originNode
	if w.origins != nil {
		seq = &originNode{items: make([]originEntry, len(n.Content))}
	}
	w.buf.WriteByte('[')
	for i, c := range n.Content {
		if i > 0 {
			w.buf.WriteString(", ")
		}
		if seq != nil && (c.Kind == yaml.ScalarNode || w.replace[c] == `""`) {
			seq.items[i] = w.item(c)
		}
		w.node(c)
		if seq != nil && w.last != nil {
			seq.items[i].value = w.last
			seq.tree = seq.tree || w.last.itemTree()
		}
	}
	w.buf.WriteByte(']')
	w.last = seq
}

func (w *writer) mapping(n *yaml.Node) {
	var m *originNode
	if w.origins != nil {
		m = &originNode{mapping: true, entries: make([]originEntry, 0, len(n.Content)/2)}
	}
	w.buf.WriteByte('{')
	ref, siblings := false, false
	first := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if w.remove[k] {
			continue
		}
		if !first {
			w.buf.WriteString(", ")
		}
		first = false
		if m == nil {
			w.node(k)
			w.buf.WriteString(": ")
			w.node(v)
			continue
		}
		key, ok := loaderKey(k)
		if !ok || yamlRefusesEscape(key) {
			w.failed = true
			return
		}
		switch {
		case key == "$ref":
			ref = true
			if _, cut := w.replace[v]; cut || !componentRef(v) {
				w.failed = true
				return
			}
		case !strings.HasPrefix(key, "x-"):
			siblings = true
		}
		w.at(k.Line)
		entry := originEntry{name: key, at: w.position()}
		w.jsonString(key)
		w.buf.WriteString(": ")
		w.node(v)
		entry.value = w.last
		m.entries = append(m.entries, entry)
	}
	w.buf.WriteByte('}')
	if m != nil {
		// The loader resolves a $ref with siblings into a copy of its
		// target made before origins are set here.
		w.failed = w.failed || ref && siblings
		m.end = w.position()
	}
	w.last = m
}

// item is where a scalar item of a sequence lies and the name the reading
// gives it: the value it reads there, which must be the value written.
func (w *writer) item(c *yaml.Node) originEntry {
	w.at(c.Line)
	at := w.position()
	if _, cut := w.replace[c]; cut {
		return originEntry{at: at} // written ""
	}
	if c.Tag != "!!str" && c.Tag != "!!timestamp" {
		if text, ok := appendLoaderScalar(nil, c); !ok || string(text) != c.Value {
			w.failed = true
		}
	}
	return originEntry{name: c.Value, at: at}
}

// position is where the next character written lies: its line, and its
// column in characters, as the YAML parser counts them.
func (w *writer) position() textPosition {
	if w.counted < w.lineStart {
		w.counted, w.column = w.lineStart, 0
	}
	w.column += utf8.RuneCount(w.buf.Bytes()[w.counted:])
	w.counted = w.buf.Len()
	return textPosition{line: int32(w.line), column: int32(w.column + 1)}
}

func (w *writer) scalar(n *yaml.Node) {
	switch {
	case w.origins != nil && (n.Tag == "!!str" || n.Tag == "!!timestamp"):
		w.failed = w.failed || yamlRefusesEscape(n.Value)
		w.jsonString(n.Value)
	case w.origins != nil:
		text, ok := appendLoaderScalar(w.buf.AvailableBuffer(), n)
		w.buf.Write(text)
		w.failed = w.failed || !ok
	case w.json && n.Tag == "!!str":
		w.jsonString(n.Value)
	case w.json:
		w.buf.WriteString(n.Value)
	case n.Tag == "!!str" || n.Tag == "!!timestamp":
		// The loader reads timestamps as strings (DisableTimestamps).
		w.buf.WriteString(strconv.Quote(n.Value))
	case n.Tag == "!!null":
		w.buf.WriteString("null")
	default:
		// !!int, !!float, !!bool, !!merge: plain, as written, resolves as it
		// did; none of them holds a flow indicator or a space.
		w.buf.WriteString(n.Value)
	}
}

// jsonString writes s as a JSON string that a YAML parser reads the same:
// characters YAML does not allow unescaped are escaped too.
func (w *writer) jsonString(s string) {
	if plainASCII(s) {
		w.buf.WriteByte('"')
		w.buf.WriteString(s)
		w.buf.WriteByte('"')
		return
	}
	quoted, _ := json.Marshal(s)
	for len(quoted) > 0 {
		r, size := utf8.DecodeRune(quoted)
		if r >= 0x7f && (!unicode.IsPrint(r) || r == 0xfeff) {
			if r > 0xffff {
				r1, r2 := utf16Pair(r)
				w.buf.WriteString(`\u` + hex4(r1) + `\u` + hex4(r2))
			} else {
				w.buf.WriteString(`\u` + hex4(r))
			}
		} else {
			w.buf.Write(quoted[:size])
		}
		quoted = quoted[size:]
	}
}

// plainASCII reports whether s is written in quotes as it is: printable
// ASCII that json.Marshal does not escape.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b >= 0x7f || b == '"' || b == '\\' || b == '<' || b == '>' || b == '&' {
			return false
		}
	}
	return true
}

// yamlRefusesEscape reports whether s holds a character that jsonString
// escapes as a UTF-16 pair, which the YAML parser refuses: the text could
// not be read as YAML, as the origins and the anchoring of findings read it.
func yamlRefusesEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xf0 {
			for _, r := range s[i:] {
				if r > 0xffff && !unicode.IsPrint(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

func hex4(r rune) string {
	s := strconv.FormatInt(int64(r), 16)
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// writer writes d with the cuts of p, and the emptied values.
func (d *Doc) writer(p plan) *writer {
	w := &writer{json: d.json, replace: make(map[*yaml.Node]string, len(d.emptied)+len(p.replace)), remove: map[*yaml.Node]bool{}}
	for _, n := range d.emptied {
		w.replace[n] = `""`
	}
	for _, c := range p.replace {
		w.replace[c.n] = "{}"
	}
	for _, u := range p.remove {
		w.remove[u.key] = true
	}
	for _, e := range p.skip {
		w.remove[e.k] = true
	}
	w.line = 1
	return w
}

// text writes d with the cuts of p, and the emptied values.
func (d *Doc) text(p plan) []byte {
	w := d.writer(p)
	w.node(d.root)
	if !d.json {
		// Not JSON, which the loader would read without origins.
		w.buf.WriteString("\n# reduced by apiver\n")
	} else {
		w.buf.WriteByte('\n')
	}
	return w.buf.Bytes()
}

// loaderText is d's text with the cuts of p, for the loader. A YAML
// document is written as JSON where it can be, with the origins the
// loader's YAML reading of that text would give (Origins.Apply): the
// loader reads JSON in less than half the time, and the same values.
// Only a document this package reduces is: its check (Doc.check) has
// refused explicit tags and a key twice (two keys the loader reads as
// one are written alike, as loaderKey takes them), which the JSON would
// not tell.
func (d *Doc) loaderText(p plan) Reduced {
	if d.json || d.Why != "" {
		return Reduced{Text: d.text(p)}
	}
	w := d.writer(p)
	w.origins = &Origins{}
	w.node(d.root)
	if w.failed || w.last == nil || !w.last.mapping {
		return Reduced{Text: d.text(p)}
	}
	w.origins.root = w.last
	w.buf.WriteByte('\n')
	return Reduced{Text: w.buf.Bytes(), Origins: w.origins}
}
