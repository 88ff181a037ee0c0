package fix

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// anchorNames hands out anchor names that no document of a fix uses, so
// that a copied entry never rebinds an alias: YAML binds an alias to the
// nearest anchor of its name before it, so a copy that kept its anchor
// (&s) would capture the revision's later *s.
type anchorNames struct {
	used map[string]bool
}

func newAnchorNames(docs ...*doc) *anchorNames {
	a := &anchorNames{used: map[string]bool{}}
	for _, d := range docs {
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			if n.Anchor != "" {
				a.used[n.Anchor] = true
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(d.root)
		d.anchors = a
	}
	return a
}

// fresh is name with the first numeric suffix no document uses.
func (a *anchorNames) fresh(name string) string {
	for n := 2; ; n++ {
		try := fmt.Sprintf("%s_%d", name, n)
		if !a.used[try] {
			a.used[try] = true
			return try
		}
	}
}

// token is an anchor (&name) or alias (*name) in a document's bytes and
// what replaces it.
type token struct {
	start, end int
	text       string
}

// relinked is the bytes [start, end) of an entry of d with every anchor
// defined in it renamed to a fresh name and the aliases to them renamed
// alike, and every alias to an anchor outside it replaced by the value it
// names, written inline: the copy means what the original meant, wherever
// it is put. An entry written back in place keeps its anchors, which
// aliases elsewhere may name, and its aliases but those inlineAliases
// picked (d.inline). Without a namer (text apiver made, already
// relinked) or without anchors and aliases, the bytes are returned as they
// are.
func (d *doc) relinked(nodes []*yaml.Node, start, end int, inPlace bool) (string, error) {
	text := string(d.data[start:end])
	if d.anchors == nil || inPlace && len(d.inline) == 0 {
		return text, nil
	}
	inside := map[*yaml.Node]string{}
	var anchored, aliases []*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Anchor != "" {
			anchored = append(anchored, n)
		}
		if n.Kind == yaml.AliasNode {
			aliases = append(aliases, n)
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	if len(anchored)+len(aliases) == 0 {
		return text, nil
	}
	var tokens []token
	for _, n := range anchored {
		if inPlace {
			continue
		}
		inside[n] = d.anchors.fresh(n.Anchor)
		at, err := d.tokenAt(n, '&', n.Anchor)
		if err != nil {
			return "", err
		}
		tokens = append(tokens, token{at, at + 1 + len(n.Anchor), "&" + inside[n]})
	}
	for _, n := range aliases {
		if inPlace && !d.inline[n] {
			continue
		}
		at, err := d.tokenAt(n, '*', n.Value)
		if err != nil {
			return "", err
		}
		replacement := ""
		if name, ok := inside[n.Alias]; ok {
			replacement = "*" + name
		} else if n.Alias != nil {
			replacement = flow(n.Alias)
		} else {
			return "", fmt.Errorf("%s:%d: alias *%s names no anchor", d.path, n.Line, n.Value)
		}
		tokens = append(tokens, token{at, at + 1 + len(n.Value), replacement})
	}
	sort.Slice(tokens, func(i, j int) bool { return tokens[i].start < tokens[j].start })
	var b strings.Builder
	at := start
	for _, t := range tokens {
		if t.start < at || t.end > end {
			return "", fmt.Errorf("%s: cannot place an anchor or alias of the copied entry", d.path)
		}
		b.Write(d.data[at:t.start])
		b.WriteString(t.text)
		at = t.end
	}
	b.Write(d.data[at:end])
	return b.String(), nil
}

// inlineAliases finds the revision's aliases (d's) that the edits would
// leave meaning something else, and has each written as the value it names
// in the revision: one whose anchor goes with an entry replaced or removed
// (it would name no anchor, or an earlier one of its name), and one of
// which only it or its anchor lies in an entry written back in place,
// where $refs name the split copies, when that renaming changes the value
// (an untouched version's alias of a restored version's schema would read
// the base's shape, and the other way round). It records those in entries
// written back in place for their text (d.inline, read by relinked) and
// returns the splices of the others, whole lines, the values written as in
// the revision.
func (d *doc) inlineAliases(edits []edit, rewrite func(string) string) ([]Splice, error) {
	d.inline = map[*yaml.Node]bool{}
	replaced, inPlace := map[*yaml.Node]bool{}, map[*yaml.Node]bool{}
	var mark func(n *yaml.Node, set map[*yaml.Node]bool)
	mark = func(n *yaml.Node, set map[*yaml.Node]bool) {
		set[n] = true
		for _, c := range n.Content {
			mark(c, set)
		}
	}
	for _, e := range edits {
		if e.kind == insertAfter {
			continue
		}
		set := replaced
		if e.inPlace(d) {
			set = inPlace
		}
		mark(e.anchor, set)
		mark(valueOf(e.parent, e.anchor), set)
	}
	// The aliases to write inline, in the text's order (the walk's).
	type inlined struct {
		line int
		token
	}
	var found []inlined
	var walk func(n *yaml.Node) error
	walk = func(n *yaml.Node) error {
		if replaced[n] {
			return nil
		}
		if n.Kind != yaml.AliasNode {
			for _, c := range n.Content {
				if err := walk(c); err != nil {
					return err
				}
			}
			return nil
		}
		t := n.Alias
		if t == nil || !replaced[t] && inPlace[n] == inPlace[t] {
			return nil
		}
		value := flow(t)
		if !replaced[t] && rewriteRefText(value, rewrite) == value {
			return nil // no $ref it names was split
		}
		if inPlace[n] {
			d.inline[n] = true
			return nil
		}
		at, err := d.tokenAt(n, '*', n.Value)
		if err != nil {
			return err
		}
		found = append(found, inlined{n.Line - 1, token{at, at + 1 + len(n.Value), value}})
		return nil
	}
	if err := walk(d.root); err != nil {
		return nil, err
	}
	var out []Splice
	for i := 0; i < len(found); {
		l := found[i].line
		s := Splice{Start: d.lineStart[l], End: d.lineEnd(l)}
		var b strings.Builder
		at := s.Start
		for ; i < len(found) && found[i].line == l; i++ {
			b.Write(d.data[at:found[i].start])
			b.WriteString(found[i].text)
			at = found[i].end
		}
		b.Write(d.data[at:s.End])
		s.Text = b.String()
		out = append(out, s)
	}
	return out, nil
}

// tokenAt is the byte offset of n's anchor or alias, which the parser
// places at the node.
func (d *doc) tokenAt(n *yaml.Node, mark byte, name string) (int, error) {
	at := d.offset(n)
	if at+1+len(name) > len(d.data) || d.data[at] != mark || string(d.data[at+1:at+1+len(name)]) != name {
		return 0, fmt.Errorf("%s:%d: cannot find %c%s where the parser put it: write the anchor right before its value", d.path, n.Line, mark, name)
	}
	return at, nil
}

// flow writes a node as one line of YAML flow style, its aliases expanded
// and its anchors left out, keeping each scalar's type: strings quoted,
// numbers, booleans, null and timestamps plain.
func flow(n *yaml.Node) string {
	var b strings.Builder
	writeFlow(&b, n, 0)
	return b.String()
}

func writeFlow(b *strings.Builder, n *yaml.Node, depth int) {
	if depth > maxInlineDepth {
		// The loader refuses documents this deep; a cycle would not end.
		b.WriteString("null")
		return
	}
	switch n.Kind {
	case yaml.AliasNode:
		writeFlow(b, n.Alias, depth+1)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			writeFlow(b, n.Content[i], depth+1)
			b.WriteString(": ")
			writeFlow(b, n.Content[i+1], depth+1)
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteString(", ")
			}
			writeFlow(b, c, depth+1)
		}
		b.WriteByte(']')
	default:
		switch tag := n.ShortTag(); tag {
		case "!!null":
			b.WriteString("null")
		case "!!bool", "!!int", "!!float", "!!timestamp":
			if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
				b.WriteString(n.Value)
				return
			}
			b.WriteString(tag + " " + jsonString(n.Value))
		case "!!merge":
			// Plain: a quoted "<<" is a key like any other, not a merge.
			b.WriteString("<<")
		case "!!str":
			b.WriteString(jsonString(n.Value))
		default:
			b.WriteString(tag + " " + jsonString(n.Value))
		}
	}
}

// maxInlineDepth bounds the expansion of an alias written inline.
const maxInlineDepth = 256
