package specs

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const blockDoc = `openapi: 3.0.3
info:
  title: t
  version: "1"
paths:
  /orders/{id}:
    parameters:
    - name: id
      in: path
      required: true
      schema: {type: string}
    get:
      description: >
        A folded scalar
        * with a bullet
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Order"
  '/users':
    get:
      responses:
        "200": {description: ok}
components:
  schemas:
    Order:
      type: object
      properties:
        line:
          $ref: '#/components/schemas/Line'
    Line:
      type: string
    Unused:
      type: integer
`

// TestIndexBlocks: operations, path items' own entries and components are
// found by indentation, with the components each reaches.
func TestIndexBlocks(t *testing.T) {
	x, ok := indexBlocks([]byte(blockDoc))
	if !ok {
		t.Fatal("a plain block document is not indexed")
	}
	if got := strings.Join(x.operations(), ", "); got != "get /orders/{id}, get /users" {
		t.Errorf("operations: %s", got)
	}
	if got := strings.Join(x.closure(x.opRefs("get /orders/{id}")), ", "); got != "schemas/Line, schemas/Order" {
		t.Errorf("the components get /orders/{id} reaches: %s", got)
	}
	if b := x.blocks["op:get /orders/{id}"]; b == nil || b.first != 12 || b.last != 22 {
		t.Errorf("the block of get /orders/{id}: %+v, want lines 12 to 22", b)
	}
	if b := x.blockAt(35); b == nil || b.name != "comp:schemas/Line" {
		t.Errorf("line 35 is in %+v, want the Line schema", b)
	}
	// An edit of a component the operation reaches changes its signature,
	// one of a component it does not reach leaves it.
	before, _ := x.signature("get /orders/{id}")
	y, _ := indexBlocks([]byte(strings.Replace(blockDoc, "Line:\n      type: string", "Line:\n      type: number", 1)))
	if after, _ := y.signature("get /orders/{id}"); after == before {
		t.Error("a schema the operation reaches changed, its signature did not")
	}
	z, _ := indexBlocks([]byte(strings.Replace(blockDoc, "Unused:\n      type: integer", "Unused:\n      type: number", 1)))
	if after, _ := z.signature("get /orders/{id}"); after != before {
		t.Error("a schema the operation does not reach changed its signature")
	}
	if x.document() == z.document() {
		t.Error("a component changed, the document's signature did not")
	}
	// A projection keeps lines in place and parses as the same values.
	text := x.project(map[string]bool{"get /orders/{id}": true}, map[string]bool{"schemas/Order": true, "schemas/Line": true})
	if strings.Count(string(text), "\n") != strings.Count(blockDoc, "\n") {
		t.Errorf("the projection has %d lines, want %d", strings.Count(string(text), "\n"), strings.Count(blockDoc, "\n"))
	}
	var doc struct {
		Paths      map[string]map[string]any
		Components struct{ Schemas map[string]any }
	}
	if err := yaml.Unmarshal(text, &doc); err != nil {
		t.Fatalf("the projection does not parse: %v\n%s", err, text)
	}
	if len(doc.Paths) != 1 || doc.Paths["/orders/{id}"]["parameters"] == nil || len(doc.Components.Schemas) != 2 {
		t.Errorf("the projection keeps %v and the schemas %v", doc.Paths, doc.Components.Schemas)
	}
	if lines := strings.Split(string(text), "\n"); lines[28] != "    Order:" {
		t.Errorf("line 29 of the projection is %q, want the Order schema where it was", lines[29])
	}
}

// TestIndexBlocksRefuses: what the cut cannot follow leaves the document
// to the fast pass.
func TestIndexBlocksRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"JSON":          `{"openapi": "3.0.3", "paths": {}}`,
		"an anchor":     strings.Replace(blockDoc, "    Line:\n", "    Line: &line\n", 1),
		"an alias":      strings.Replace(blockDoc, "$ref: '#/components/schemas/Line'", "*line", 1),
		"a tag":         strings.Replace(blockDoc, "type: integer", "type: !!str integer", 1),
		"a merge key":   strings.Replace(blockDoc, "      type: object\n", "      <<: {a: 1}\n      type: object\n", 1),
		"another file":  strings.Replace(blockDoc, "'#/components/schemas/Line'", "'line.yaml'", 1),
		"a second doc":  blockDoc + "---\nopenapi: 3.0.3\n",
		"a tab":         strings.Replace(blockDoc, "  title: t", "\ttitle: t", 1),
		"duplicate key": strings.Replace(blockDoc, "  '/users':", "  /orders/{id}:", 1),
	} {
		if _, ok := indexBlocks([]byte(text)); ok {
			t.Errorf("%s: indexed, want it left to the fast pass", name)
		}
	}
}
