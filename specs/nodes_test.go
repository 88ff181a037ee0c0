package specs

import (
	"fmt"
	"strings"
	"testing"
)

// A node of a document written in flow style, where one line holds many
// nodes, is found by its line and column, and placed on the same node of
// the same document written in block style, or on its nearest ancestor
// there.
func TestNodePathsPlaceNodesOfOneLine(t *testing.T) {
	t.Parallel()
	// The same values: a parameter's items in another order, each item's
	// keys in the same (a value hash tells key orders apart).
	flow := `{paths: {/a: {get: {parameters: [{name: limit, in: query}, {name: id, in: path}], responses: {"200": {description: ok}}}}}}`
	block := `paths:
  /a:
    get:
      parameters:
        - name: id
          in: path
        - name: limit
          in: query
      responses:
        "200":
          description: ok
`
	flowRoot, blockRoot := ParseNode([]byte(flow)), ParseNode([]byte(block))
	places := PositionsOf(blockRoot)
	column := func(text, at string) int { return strings.Index(text, at) + 1 }
	for _, tc := range []struct {
		at       string // where the node starts in the flow text
		wantLine int    // its line in the block text
	}{
		{"name: id", 5},     // a parameter's origin is its first key
		{"in: query", 8},    // a field, by the item's name and in, not its index
		{"description", 11}, // deep in the responses
		{"responses", 9},
	} {
		path := NodeAt(flowRoot, 1, column(flow, tc.at))
		if line, ok := places.Find(path); !ok || line != tc.wantLine {
			t.Errorf("%s: placed on line %d (found %v), want %d", tc.at, line, ok, tc.wantLine)
		}
	}
	// A node the block text does not have: its nearest ancestor there.
	other := `{paths: {/a: {get: {summary: gone}}}}`
	path := NodeAt(ParseNode([]byte(other)), 1, column(other, "summary"))
	if line, ok := places.Find(path); !ok || line != 3 {
		t.Errorf("a node the document lacks: placed on line %d (found %v), want 3, the operation's", line, ok)
	}
}

// Of nodes with equal paths (items of one name, equal values), the first
// in the document holds the path; every path of a large document is found.
func TestPlacesAreTheFirstOfEqualPaths(t *testing.T) {
	t.Parallel()
	text := `enum: [b, a, b]
parameters:
  - {name: id, in: path}
  - name: id
    in: path
  - {name: id, in: query}
list: [{x: 1}, {x: 1}]
`
	root := ParseNode([]byte(text))
	places := PositionsOf(root)
	for _, tc := range []struct {
		line, column, want int
	}{
		{1, 14, 1}, // the second b: the first b's line
		{4, 5, 3},  // the second id in path: the first's
		{6, 5, 6},  // in query: its own
	} {
		path := NodeAt(root, tc.line, tc.column)
		if line, ok := places.Find(path); !ok || line != tc.want {
			t.Errorf("node at %d:%d placed on line %d (found %v), want %d", tc.line, tc.column, line, ok, tc.want)
		}
	}

	var large strings.Builder
	large.WriteString("paths:\n")
	for i := range 3000 {
		fmt.Fprintf(&large, "  /p%d:\n    get:\n      parameters: [{name: a, in: query}, {name: a, in: query}]\n", i)
	}
	root = ParseNode([]byte(large.String()))
	places = PositionsOf(root)
	for i := range 3000 {
		line := 2 + 3*i
		if got, ok := places.Find(NodeAt(root, line+2, 41)); !ok || got != line+2 {
			t.Fatalf("/p%d's second parameter placed on line %d (found %v), want %d", i, got, ok, line+2)
		}
		if got, ok := places.Find(NodeAt(root, line, 3)); !ok || got != line {
			t.Fatalf("/p%d placed on line %d (found %v), want %d", i, got, ok, line)
		}
	}
}

// BenchmarkPositionsOf reads the places of a document of 5000 paths, each
// with a few nested nodes: 60 000 places.
func BenchmarkPositionsOf(b *testing.B) {
	var text strings.Builder
	text.WriteString("paths:\n")
	for i := range 5000 {
		fmt.Fprintf(&text, "  /p%d:\n    get:\n      parameters:\n        - {name: id, in: path}\n        - {name: q%d, in: query}\n      responses:\n        \"200\": {description: ok}\n", i, i)
	}
	root := ParseNode([]byte(text.String()))
	for b.Loop() {
		PositionsOf(root)
	}
}
