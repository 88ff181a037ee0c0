package specs

import (
	"strings"
	"testing"
)

// TestAnchorer maps lines of a base onto the nearest line of a revision
// that still has the node, or its nearest ancestor.
func TestAnchorer(t *testing.T) {
	t.Parallel()
	base := `openapi: 3.0.3
paths:
  /widgets:
    post:
      parameters:
        - {name: a, in: query, schema: {type: string}}
        - {name: b, in: query, schema: {type: string}}
      requestBody:
        content:
          application/vnd.x.2023-01-01+json: {}
          application/vnd.x.2024-01-01+json: {}
  /gone:
    get: {}
components:
  schemas:
    Color:
      enum:
        - RED
        - GREEN
        - BLUE
`
	revision := `openapi: 3.0.3
paths:
  /widgets:
    post:
      parameters:
        - {name: b, in: query, schema: {type: string}}
      requestBody:
        content:
          application/vnd.x.2024-01-01+json: {}
components:
  schemas:
    Color:
      enum:
        - GREEN
        - BLUE
`
	a := NewAnchorer(&Snapshot{Data: []byte(base)}, &Snapshot{Data: []byte(revision)})
	line := func(doc, s string) int {
		for i, l := range strings.Split(doc, "\n") {
			if strings.Contains(l, s) {
				return i + 1
			}
		}
		t.Fatalf("no line holds %q", s)
		return 0
	}
	for _, c := range []struct {
		what, inBase, inRevision string
	}{
		{"a value still there moved up", "- BLUE", "- BLUE"},
		{"a removed enum value: the enum", "- RED", "enum:"},
		{"a removed version's media type: the content map", "2023-01-01+json", "content:"},
		{"a kept version", "2024-01-01+json", "2024-01-01+json"},
		{"a removed parameter: the parameter list", "name: a,", "parameters:"},
		{"a kept parameter, found by name", "name: b,", "name: b,"},
		{"a removed path: the paths", "/gone:", "paths:"},
	} {
		got, ok := a.Line(line(base, c.inBase))
		if want := line(revision, c.inRevision); !ok || got != want {
			t.Errorf("%s: base line %d maps to %d (%v), want %d", c.what, line(base, c.inBase), got, ok, want)
		}
	}
	if _, ok := NewAnchorer(&Snapshot{Data: []byte("a: [")}, &Snapshot{Data: []byte(revision)}).Line(1); ok {
		t.Errorf("a base that does not parse anchored a line")
	}
}
