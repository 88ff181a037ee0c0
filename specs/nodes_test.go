package specs

import (
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
