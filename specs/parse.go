package specs

import (
	"bytes"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// ParseNode is the root node of the document data holds, nil when it
// does not parse. A large YAML document whose root is a block mapping is
// parsed in parts, each on a core of its own (parseSplit); what that
// cannot read as one parse reads it is parsed whole.
func ParseNode(data []byte) *yaml.Node {
	if len(data) >= splitSize {
		if root, ok := parseSplit(data); ok {
			return root
		}
	}
	return parseWhole(data)
}

func parseWhole(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// splitSize is the size from which a document is parsed in parts: below
// it, the parts' cost of starting outweighs what the cores save.
const splitSize = 256 << 10

// splitKeys are the root keys a document is parsed apart at: those that
// hold most of an OpenAPI document.
var splitKeys = [][]byte{[]byte("paths:"), []byte("components:"), []byte("webhooks:")}

// parseSplit parses data in parts, at the lines that hold nothing but one
// of splitKeys (and spaces), and joins the parts' root mappings into one:
// the tree one parse of data makes, but for comments, which nothing
// reads. Each part is parsed as a document of its own, after as many line
// breaks as come before it, so its nodes have their lines. ok is false
// when that may not hold, and data must be parsed whole:
//
//   - data is not plain UTF-8 with \n or \r\n line breaks (the parser
//     counts a lone \r, NEL, LS and PS as line breaks too);
//   - a line starts a directive (%), a document (---) or ends one (...);
//   - a part does not parse alone: a flow collection or a quoted scalar
//     open at its end, or an alias of an anchor in another part (so an
//     alias in a part names the anchor it names in data: the last one
//     before it);
//   - a part's root is not a block mapping in column 1, or a later
//     part's first key is not the key it starts with, at its line.
//
// A line in column 1 ends whatever block scalar or plain scalar the root
// mapping's last value holds, as the end of the text does: so the parts
// end where the values of data end.
func parseSplit(data []byte) (*yaml.Node, bool) {
	starts := splitLines(data)
	if len(starts) == 0 || !plainBreaks(data) {
		return nil, false
	}
	bounds := append(append([]int{0}, starts...), len(data))
	parts := make([]*yaml.Node, len(bounds)-1)
	lines := make([]int, len(parts))
	var wg sync.WaitGroup
	for i := range parts {
		lo, hi := bounds[i], bounds[i+1]
		lines[i] = bytes.Count(data[:lo], []byte{'\n'})
		wg.Go(func() {
			text := data[lo:hi]
			if lines[i] > 0 {
				text = append(bytes.Repeat([]byte{'\n'}, lines[i]), text...)
			}
			parts[i] = parseWhole(text)
		})
	}
	wg.Wait()
	root := parts[0]
	if root == nil || root.Kind != yaml.MappingNode || root.Style != 0 || root.Column != 1 {
		return nil, false
	}
	for i, p := range parts[1:] {
		if p == nil || p.Kind != yaml.MappingNode || p.Style != 0 || len(p.Content) < 2 ||
			p.Content[0].Line != lines[i+1]+1 || p.Content[0].Column != 1 {
			return nil, false
		}
	}
	for _, p := range parts[1:] {
		root.Content = append(root.Content, p.Content...)
	}
	return root, true
}

// splitLines are the offsets of the lines of data that hold one of
// splitKeys and nothing else but spaces.
func splitLines(data []byte) []int {
	var starts []int
	for at := 0; at < len(data); {
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data) - at
		}
		line := bytes.TrimRight(data[at:at+end], " \r")
		for _, key := range splitKeys {
			if at > 0 && bytes.Equal(line, key) {
				starts = append(starts, at)
			}
		}
		at += end + 1
	}
	return starts
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
