package fix

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apiver/apiver/specs"
	"go.yaml.in/yaml/v3"
)

// doc is one spec file: its bytes, where each line starts, and its node
// tree, whose positions say which bytes an entry occupies.
type doc struct {
	path      string
	data      []byte
	root      *yaml.Node
	json      bool
	lineStart []int
	// anchors names the anchors of copies; nil for text apiver made.
	anchors *anchorNames
	// inline are the revision's aliases in entries written back in place
	// that are written as the values they name (inlineAliases).
	inline map[*yaml.Node]bool
}

func parseDoc(path string, data []byte) (*doc, error) { return readDoc(path, data, nil) }

// readDoc is parseDoc taking the tree from parsed, when set and it holds
// one for data (what yaml.Unmarshal makes of it, only read here).
func readDoc(path string, data []byte, parsed func([]byte) *yaml.Node) (*doc, error) {
	var root *yaml.Node
	if parsed != nil {
		root = parsed(data)
	}
	if root == nil {
		var top yaml.Node
		err := yaml.Unmarshal(data, &top)
		if err != nil && json.Valid(data) {
			// JSON's escaped solidus (\/, PHP's default) is no YAML escape:
			// the text is read, and written, with a plain /.
			if plain := unescapeSolidus(data); !bytes.Equal(plain, data) {
				data, top = plain, yaml.Node{}
				err = yaml.Unmarshal(data, &top)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(top.Content) > 0 {
			root = top.Content[0]
		}
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not a mapping at the top", path)
	}
	d := &doc{path: path, data: data, root: root, lineStart: make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))}
	text := bytes.TrimPrefix(data, []byte(specs.ByteOrderMark))
	// The parser's first column follows the byte order mark.
	d.lineStart[0] = len(data) - len(text)
	// Flow-style YAML may look like JSON ({ first) without being JSON.
	d.json = root.Style&yaml.FlowStyle != 0 && bytes.HasPrefix(bytes.TrimSpace(text), []byte("{")) && json.Valid(text)
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			d.lineStart = append(d.lineStart, i+1)
		}
	}
	return d, nil
}

// unescapeSolidus is JSON text with each \/ escape inside a string written
// as the / it stands for.
func unescapeSolidus(data []byte) []byte {
	out := make([]byte, 0, len(data))
	inString, escaped := false, false
	for _, c := range data {
		switch {
		case escaped:
			escaped = false
			if c == '/' {
				out = out[:len(out)-1] // the backslash
			}
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		}
		out = append(out, c)
	}
	return out
}

// lookup is the key and value nodes of key in mapping m; with fold the key
// is matched without regard to case (HTTP methods).
func lookup(m *yaml.Node, key string, fold bool) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if c := m.Content[i]; c.Value == key || (fold && strings.EqualFold(c.Value, key)) {
			return c, m.Content[i+1]
		}
	}
	return nil, nil
}

// at follows a path of mapping keys from the root; nil when a part is
// missing.
func (d *doc) at(path []string) *yaml.Node {
	n := d.root
	for _, p := range path {
		if _, n = lookup(n, p, false); n == nil {
			return nil
		}
	}
	return n
}

// entry is one key and its value in a mapping of a doc.
type entry struct {
	d          *doc
	key, value *yaml.Node
	// inPlace says the entry is written back where it is: its anchors keep
	// their names, which aliases elsewhere may name (text).
	inPlace bool
}

// line is line l (0-based) without its line break.
func (d *doc) line(l int) string {
	end := len(d.data)
	if l+1 < len(d.lineStart) {
		end = d.lineStart[l+1]
	}
	return strings.TrimRight(string(d.data[d.lineStart[l]:end]), "\r\n")
}

// lineEnd is the offset just after line l's line break.
func (d *doc) lineEnd(l int) int {
	if l+1 < len(d.lineStart) {
		return d.lineStart[l+1]
	}
	return len(d.data)
}

// block reports whether the entry's key begins its line in block style, so
// that the entry is a run of whole lines.
func (e entry) block() bool {
	if e.d.json || e.key.Line < 1 || e.key.Line > len(e.d.lineStart) {
		return false
	}
	return strings.TrimSpace(e.d.line(e.key.Line - 1)[:min(e.key.Column-1, len(e.d.line(e.key.Line-1)))]) == ""
}

func (e entry) indent() int { return e.key.Column - 1 }

// span is the byte range of a block entry: from its key's line to the last
// line indented deeper than the key (or, for a sequence written at the
// key's indentation, its items). A comment is not content: one at any
// column, even 0, between lines of the entry belongs to it. Blank and
// comment lines at its end belong to what follows.
func (e entry) span() (start, end int) {
	d, indent := e.d, e.indent()
	last := e.key.Line - 1
	seq := e.value.Kind == yaml.SequenceNode && e.value.Style&yaml.FlowStyle == 0
	for l := e.key.Line; l < len(d.lineStart); l++ {
		text := d.line(l)
		trimmed := strings.TrimLeft(text, " \t")
		if trimmed == "" {
			continue
		}
		if strings.HasPrefix(trimmed, "#") && len(text)-len(trimmed) <= indent {
			// Not deeper than the key, so not a line of a block scalar:
			// a comment, which neither ends the entry nor extends it.
			continue
		}
		ind := len(text) - len(trimmed)
		if ind > indent || (seq && ind == indent && strings.HasPrefix(trimmed, "-")) {
			last = l
			continue
		}
		break
	}
	return d.lineStart[e.key.Line-1], d.lineEnd(last)
}

// text is the entry as YAML lines at the given indentation, named newKey,
// with rewrite applied to its $refs: the source's own lines when it is a
// block entry of a YAML file (comments and formatting kept), else encoded.
func (e entry) text(indent int, newKey string, rewrite func(string) string) (string, error) {
	var lines []string
	if e.block() {
		start, end := e.span()
		text, err := e.d.relinked([]*yaml.Node{e.key, e.value}, start, end, e.inPlace)
		if err != nil {
			return "", err
		}
		body := strings.TrimSuffix(text, "\n")
		lines = strings.Split(body, "\n")
		lines[0] = lines[0][:e.indent()] + strings.Replace(lines[0][e.indent():], e.key.Value, newKey, 1)
		lines = shift(lines, indent-e.indent())
		for i := range lines {
			lines[i] = rewriteRefText(lines[i], rewrite)
		}
	} else {
		value := cloneNode(e.value, rewrite)
		value.Style &^= yaml.FlowStyle
		m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: newKey}, value}}
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(m); err != nil {
			return "", fmt.Errorf("%s: %w", e.d.path, err)
		}
		lines = shift(strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"), indent)
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// shift indents non-blank lines by delta columns (outdents when negative).
func shift(lines []string, delta int) []string {
	pad := strings.Repeat(" ", max(delta, 0))
	for i, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
		case delta > 0:
			lines[i] = pad + l
		case delta < 0:
			lines[i] = l[min(-delta, len(l)-len(strings.TrimLeft(l, " "))):]
		}
	}
	return lines
}

// cloneNode copies a node tree with rewrite applied to the strings that
// point at a component (as eachRef finds them).
// Aliases are expanded and anchors left out, so the copy binds to nothing
// around it.
func cloneNode(n *yaml.Node, rewrite func(string) string) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	c := *n
	c.Anchor = ""
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, child := range n.Content {
		c.Content[i] = cloneNode(child, rewrite)
	}
	if c.Kind == yaml.ScalarNode && rewrite != nil && strings.HasPrefix(c.Value, "#/components/") {
		c.Value = rewrite(c.Value)
	}
	if c.Kind == yaml.MappingNode && rewrite != nil {
		for i := 0; i+1 < len(c.Content); i += 2 {
			if v := c.Content[i+1]; c.Content[i].Value == "$ref" && v.Kind == yaml.ScalarNode && !strings.HasPrefix(v.Value, "#") {
				v.Value = rewrite(v.Value)
			}
		}
	}
	return &c
}
