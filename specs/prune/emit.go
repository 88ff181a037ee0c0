package prune

import (
	"bytes"
	"encoding/json"
	"strconv"
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
}

// at moves to line, so that the next node starts there.
func (w *writer) at(line int) {
	if line <= w.line {
		return
	}
	for ; w.line < line; w.line++ {
		w.buf.WriteByte('\n')
	}
	// A line that starts at column 0 could read as a document marker.
	w.buf.WriteByte(' ')
}

func (w *writer) node(n *yaml.Node) {
	if text, ok := w.replace[n]; ok {
		w.at(n.Line)
		w.buf.WriteString(text)
		return
	}
	if n.Kind == yaml.AliasNode {
		if w.expand {
			w.node(n.Alias)
			return
		}
		w.at(n.Line)
		w.buf.WriteString("*" + n.Value)
		return
	}
	w.at(n.Line)
	if n.Anchor != "" && !w.expand {
		w.buf.WriteString("&" + n.Anchor + " ")
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			w.node(c)
		}
	case yaml.MappingNode:
		w.buf.WriteByte('{')
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
			w.node(k)
			w.buf.WriteString(": ")
			w.node(v)
		}
		w.buf.WriteByte('}')
	case yaml.SequenceNode:
		w.buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				w.buf.WriteString(", ")
			}
			w.node(c)
		}
		w.buf.WriteByte(']')
	default:
		w.scalar(n)
	}
}

func (w *writer) scalar(n *yaml.Node) {
	switch {
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

// text writes n with the cuts of p, and the emptied values.
func (d *Doc) text(p plan) []byte {
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
	w.node(d.root)
	if !d.json {
		// Not JSON, which the loader would read without origins.
		w.buf.WriteString("\n# reduced by apiver\n")
	} else {
		w.buf.WriteByte('\n')
	}
	return w.buf.Bytes()
}
