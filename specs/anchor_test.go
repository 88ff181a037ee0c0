package specs

import (
	"os"
	"path/filepath"
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

// TestAnchorerFileLine: a line of a file the base $refs maps onto the file
// at its place beside the revision; the revision's own file, one outside
// its folder, or one it lacks, does not.
func TestAnchorerFileLine(t *testing.T) {
	t.Chdir(t.TempDir())
	for name, text := range map[string]string{
		"base/api.yaml":     "openapi: 3.0.3\n",
		"base/schemas.yaml": "Widget:\n  type: object\n  properties:\n    color:\n      type: string\n      enum: [RED, BLUE]\n",
		"rev/api.yaml":      "openapi: 3.0.3\n",
		"rev/schemas.yaml":  "Widget:\n  type: object\n  properties:\n    color:\n      type: string\n      maxLength: 5\n      enum: [RED]\n",
		"base/other.yaml":   "a: 1\n",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := NewAnchorer(&Snapshot{Path: "base/api.yaml"}, &Snapshot{Path: "rev/api.yaml"})
	if file, line, ok := a.FileLine("base/schemas.yaml", "", 6); !ok || file != filepath.Join("rev", "schemas.yaml") || line != 7 {
		t.Errorf("FileLine = %q, %d, %v; want rev/schemas.yaml, 7 (the enum)", file, line, ok)
	}
	if _, _, ok := a.FileLine("base/other.yaml", "", 1); ok {
		t.Errorf("a file the revision lacks anchors")
	}
	if _, _, ok := a.FileLine("rev/schemas.yaml", "", 6); ok {
		t.Errorf("a file outside the base's folder anchors")
	}
	same := NewAnchorer(&Snapshot{Path: "base/api.yaml"}, &Snapshot{Path: "base/api.yaml"})
	if _, _, ok := same.FileLine("base/schemas.yaml", "", 6); ok {
		t.Errorf("the revision's own file anchors")
	}
}
