package fix

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

type editKind int

const (
	// replace puts src in place of the entry at anchor.
	replace editKind = iota
	// insertAfter puts src after the entry at anchor.
	insertAfter
	// remove deletes the entry at anchor.
	remove
)

// edit is one change to a mapping entry of the revision. Edits refer to
// the revision's nodes, so they are planned on the file as read and applied
// at once.
type edit struct {
	kind editKind
	// parent is the revision's mapping; anchor the key node in it.
	parent, anchor *yaml.Node
	src            entry
	// key names the new entry.
	key string
	// newShape marks content that must keep the revision's shape: its $refs
	// follow the components renamed by the split.
	newShape bool
	// from and to rename a version: a field of the copied media type object
	// whose whole value is the old version (x-version: 2024-01-01) names
	// the new one.
	from, to string
}

// Splice is one replacement of the revision's bytes [Start, End) by Text.
type Splice struct {
	Start, End int
	Text       string
}

// apply writes the revision with the edits: spliced into its text for
// YAML, so that untouched lines stay byte for byte (the splices are
// returned too); on the node tree for JSON, written back as JSON.
func apply(rev *doc, edits []edit, rewrite func(string) string) ([]byte, []Splice, error) {
	if rev.json {
		data, err := applyJSON(rev, edits, rewrite)
		return data, nil, err
	}
	type splice struct {
		start, end, indent, seq int
		text                    string
	}
	var splices []splice
	for i, e := range edits {
		target := entry{d: rev, key: e.anchor, value: valueOf(e.parent, e.anchor)}
		if !target.block() {
			return nil, nil, fmt.Errorf("%s:%d: cannot edit a flow-style mapping; write it in block style", rev.path, e.anchor.Line)
		}
		start, end := target.span()
		var rw func(string) string
		if e.newShape {
			rw = rewrite
		}
		s := splice{start: start, end: end, indent: target.indent(), seq: i}
		if e.kind != remove {
			text, err := e.src.text(target.indent(), e.key, rw)
			if err != nil {
				return nil, nil, err
			}
			s.text = renameVersionText(text, e.from, e.to)
		}
		if e.kind == insertAfter {
			s.start = end
		}
		if s.start > 0 && rev.data[s.start-1] != '\n' && s.text != "" {
			s.text = "\n" + s.text
		}
		splices = append(splices, s)
	}
	slices.SortStableFunc(splices, func(a, b splice) int {
		// Of two insertions at one place, the deeper one ends the entry
		// that the other follows.
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), cmp.Compare(b.indent, a.indent), cmp.Compare(a.seq, b.seq))
	})
	var out bytes.Buffer
	var done []Splice
	at := 0
	for _, s := range splices {
		if s.start < at {
			return nil, nil, fmt.Errorf("%s: two edits overlap at byte %d", rev.path, s.start)
		}
		out.Write(rev.data[at:s.start])
		out.WriteString(s.text)
		done = append(done, Splice{Start: s.start, End: s.end, Text: s.text})
		at = s.end
	}
	out.Write(rev.data[at:])
	return out.Bytes(), done, nil
}

func valueOf(m, key *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i] == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func indexOf(m, key *yaml.Node) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i] == key {
			return i
		}
	}
	return -1
}

// applyJSON edits the node tree and writes it as JSON with the file's
// indentation.
func applyJSON(rev *doc, edits []edit, rewrite func(string) string) ([]byte, error) {
	last := map[*yaml.Node]*yaml.Node{} // anchor -> the key last inserted after it
	for _, e := range edits {
		var rw func(string) string
		if e.newShape {
			rw = rewrite
		}
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.key}
		switch e.kind {
		case replace:
			i := indexOf(e.parent, e.anchor)
			e.parent.Content[i+1] = cloneNode(e.src.value, rw)
		case remove:
			i := indexOf(e.parent, e.anchor)
			e.parent.Content = slices.Delete(e.parent.Content, i, i+2)
		case insertAfter:
			after := e.anchor
			if l, ok := last[e.anchor]; ok {
				after = l
			}
			i := indexOf(e.parent, after)
			value := cloneNode(e.src.value, rw)
			for _, c := range value.Content {
				if e.from != "" && c.Kind == yaml.ScalarNode && c.Value == e.from {
					c.Value = e.to
				}
			}
			e.parent.Content = slices.Insert(e.parent.Content, i+2, key, value)
			last[e.anchor] = key
		}
	}
	indent := "  "
	if len(rev.lineStart) > 1 {
		l := rev.line(1)
		indent = l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	}
	var b bytes.Buffer
	writeJSON(&b, rev.root, indent, "", len(rev.lineStart) > 1)
	if bytes.HasSuffix(rev.data, []byte("\n")) {
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// writeJSON writes a node as JSON, keys in their order, scalars as written.
func writeJSON(b *bytes.Buffer, n *yaml.Node, indent, prefix string, pretty bool) {
	nl := func(p string) {
		if pretty {
			b.WriteString("\n" + p)
		}
	}
	inner := prefix + indent
	switch n.Kind {
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(inner)
			b.WriteString(jsonString(n.Content[i].Value))
			b.WriteByte(':')
			if pretty {
				b.WriteByte(' ')
			}
			writeJSON(b, n.Content[i+1], indent, inner, pretty)
		}
		nl(prefix)
		b.WriteByte('}')
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(inner)
			writeJSON(b, c, indent, inner, pretty)
		}
		nl(prefix)
		b.WriteByte(']')
	case yaml.AliasNode:
		writeJSON(b, n.Alias, indent, prefix, pretty)
	default:
		switch n.ShortTag() {
		case "!!int", "!!float", "!!bool":
			b.WriteString(n.Value)
		case "!!null":
			b.WriteString("null")
		default:
			b.WriteString(jsonString(n.Value))
		}
	}
}

// jsonString quotes s as JSON does (strconv.Quote's \x escapes are not JSON).
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// renameVersionText renames the version in the fields of an entry's first
// level whose whole value is the old version.
func renameVersionText(text, from, to string) string {
	if from == "" {
		return text
	}
	lines := strings.Split(text, "\n")
	child := -1
	for i, l := range lines[1:] {
		trimmed := strings.TrimLeft(l, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := len(l) - len(trimmed)
		if child < 0 {
			child = indent
		}
		if indent != child {
			continue
		}
		key, value, ok := strings.Cut(trimmed, ":")
		value, _, _ = strings.Cut(value, " #")
		if !ok || strings.ContainsAny(key, "'\"") || strings.Trim(strings.TrimSpace(value), `'"`) != from {
			continue
		}
		lines[i+1] = l[:indent] + key + ":" + strings.Replace(trimmed[len(key)+1:], from, to, 1)
	}
	return strings.Join(lines, "\n")
}
