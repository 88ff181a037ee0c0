package fix

import (
	"bytes"
	"cmp"
	"encoding/json"
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
	// replaceMember puts src, key and value, in place of the entry at
	// anchor: in JSON, a removal and an insertion after the removed member.
	replaceMember
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
	// rewrite applies to the $refs of other content (restored content
	// whose $refs into other files point at local copies).
	rewrite func(string) string
	// from and to rename a version: a field of the copied media type object
	// whose whole value is the old version (x-version: 2024-01-01) names
	// the new one.
	from, to string
}

// inPlace reports whether the edit writes the revision's (rev's) own
// entry back where it stands.
func (e edit) inPlace(rev *doc) bool {
	return e.kind == replace && e.src.d == rev && e.src.key == e.anchor
}

// Splice is one replacement of the revision's bytes [Start, End) by Text.
type Splice struct {
	Start, End int
	Text       string
}

// apply writes the revision with the edits spliced into its text, so that
// what the edits do not touch stays byte for byte: whole lines in YAML,
// values and their separators in JSON. It returns the splices too.
func apply(rev *doc, edits []edit, rewrite func(string) string) ([]byte, []Splice, error) {
	type splice struct {
		Splice
		indent, seq int
	}
	if rev.json {
		edits = mergeRemovals(edits)
	}
	// New lines end as the file's do (CRLF or LF), whichever file their
	// text came from.
	eol := "\n"
	if i := bytes.IndexByte(rev.data, '\n'); i > 0 && rev.data[i-1] == '\r' {
		eol = "\r\n"
	}
	// First: an entry written back in place reads which aliases to inline.
	inlined, err := rev.inlineAliases(edits, rewrite)
	if err != nil {
		return nil, nil, err
	}
	var splices []splice
	for i, s := range inlined {
		splices = append(splices, splice{s, 0, len(edits) + i})
	}
	for i, e := range edits {
		rw := e.rewrite
		if e.newShape {
			rw = rewrite
		}
		make := yamlSplice
		if rev.json {
			make = jsonSplice
		}
		s, err := make(rev, e, rw)
		if err != nil {
			return nil, nil, err
		}
		s.Text = strings.ReplaceAll(strings.ReplaceAll(s.Text, "\r\n", "\n"), "\n", eol)
		splices = append(splices, splice{s, e.anchor.Column, i})
	}
	slices.SortStableFunc(splices, func(a, b splice) int {
		// Of two insertions at one place, the deeper one ends the entry
		// that the other follows.
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), cmp.Compare(b.indent, a.indent), cmp.Compare(a.seq, b.seq))
	})
	size := len(rev.data)
	for _, s := range splices {
		size += len(s.Text) - (s.End - s.Start)
	}
	out := bytes.NewBuffer(make([]byte, 0, max(size, 0)))
	var done []Splice
	at := 0
	for _, s := range splices {
		if s.Start < at {
			return nil, nil, fmt.Errorf("%s: two edits overlap at byte %d", rev.path, s.Start)
		}
		out.Write(rev.data[at:s.Start])
		out.WriteString(s.Text)
		done = append(done, s.Splice)
		at = s.End
	}
	out.Write(rev.data[at:])
	return out.Bytes(), done, nil
}

// mergeRemovals turns the removal of a JSON member and the first insertion
// after it into one replacement, so that separators stay right.
func mergeRemovals(edits []edit) []edit {
	removed := map[*yaml.Node]int{}
	for i, e := range edits {
		if e.kind == remove {
			removed[e.anchor] = i
		}
	}
	drop := map[int]bool{}
	out := slices.Clone(edits)
	for i, e := range out {
		if j, ok := removed[e.anchor]; ok && e.kind == insertAfter && !drop[j] {
			out[i].kind, drop[j] = replaceMember, true
		}
	}
	kept := out[:0]
	for i, e := range out {
		if !drop[i] {
			kept = append(kept, e)
		}
	}
	return kept
}

// yamlSplice is an edit as whole lines of a block mapping.
func yamlSplice(rev *doc, e edit, rewrite func(string) string) (Splice, error) {
	target := entry{d: rev, key: e.anchor, value: valueOf(e.parent, e.anchor)}
	if !target.block() {
		return Splice{}, fmt.Errorf("%s:%d: cannot edit a flow-style mapping; write it in block style", rev.path, e.anchor.Line)
	}
	start, end := target.span()
	s := Splice{Start: start, End: end}
	if e.kind != remove {
		src := e.src
		// The revision's own entry rewritten where it stands.
		src.inPlace = e.inPlace(rev)
		text, err := src.text(target.indent(), e.key, rewrite)
		if err != nil {
			return Splice{}, err
		}
		s.Text = renameVersionText(text, e.from, e.to)
	}
	if e.kind == insertAfter {
		s.Start = end
	}
	if s.Start > 0 && rev.data[s.Start-1] != '\n' && s.Text != "" {
		s.Text = "\n" + s.Text
	}
	return s, nil
}

// jsonSplice is an edit of a JSON object's member: its value replaced, a
// member added after it, or it removed with its separator.
func jsonSplice(rev *doc, e edit, rewrite func(string) string) (Splice, error) {
	value := valueOf(e.parent, e.anchor)
	start, end, err := rev.jsonSpan(value)
	if err != nil {
		return Splice{}, err
	}
	pretty := len(rev.lineStart) > 1
	line := rev.line(e.anchor.Line - 1)
	prefix := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	render := func() string {
		v := cloneNode(e.src.value, rewrite)
		for _, c := range v.Content {
			if e.from != "" && c.Kind == yaml.ScalarNode && c.Value == e.from {
				c.Value = e.to
			}
		}
		var b bytes.Buffer
		writeJSON(&b, v, rev.jsonIndent(), prefix, pretty)
		return b.String()
	}
	sep, colon := ",", ":"
	if pretty {
		sep, colon = ",\n"+prefix, ": "
	}
	switch e.kind {
	case replace:
		return Splice{Start: start, End: end, Text: render()}, nil
	case insertAfter:
		return Splice{Start: end, End: end, Text: sep + jsonString(e.key) + colon + render()}, nil
	case replaceMember:
		return Splice{Start: rev.offset(e.anchor), End: end, Text: jsonString(e.key) + colon + render()}, nil
	}
	i := indexOf(e.parent, e.anchor)
	switch {
	case i > 0:
		_, prevEnd, err := rev.jsonSpan(e.parent.Content[i-1])
		return Splice{Start: prevEnd, End: end}, err
	case i+2 < len(e.parent.Content):
		return Splice{Start: rev.offset(e.anchor), End: rev.offset(e.parent.Content[i+2])}, nil
	}
	return Splice{Start: rev.offset(e.anchor), End: end}, nil
}

// offset is the byte offset of a node's first character.
func (d *doc) offset(n *yaml.Node) int {
	line, col := d.line(n.Line-1), 0
	for i := range line {
		if col == n.Column-1 {
			return d.lineStart[n.Line-1] + i
		}
		col++
	}
	return d.lineStart[n.Line-1] + len(line)
}

// jsonSpan is the byte range of a JSON value.
func (d *doc) jsonSpan(n *yaml.Node) (start, end int, err error) {
	start = d.offset(n)
	dec := json.NewDecoder(bytes.NewReader(d.data[start:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return 0, 0, fmt.Errorf("%s:%d: %w", d.path, n.Line, err)
	}
	return start, start + int(dec.InputOffset()), nil
}

// jsonIndent is the file's indentation step: the first indented line's.
func (d *doc) jsonIndent() string {
	for l := 1; l < len(d.lineStart); l++ {
		line := d.line(l)
		if ws := line[:len(line)-len(strings.TrimLeft(line, " \t"))]; ws != "" {
			return ws
		}
	}
	return "  "
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
