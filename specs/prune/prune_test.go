package prune

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

func index(t *testing.T, text string) *Doc {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	d := Index(doc.Content[0], false)
	if d.Why != "" {
		t.Fatalf("not reduced: %s", d.Why)
	}
	return d
}

// keywordsDoc names properties, parameters, headers, examples and security
// schemes "description" and "example": data, where the same keys beside
// them are keywords.
const keywordsDoc = `openapi: 3.0.3
info: {title: t, version: "1", description: info text}
paths:
  /a:
    description: path item text
    get:
      description: operation text
      parameters:
        - {name: description, in: query, description: parameter text, example: 1, schema: {type: string}}
      responses:
        "200":
          description: response text
          headers:
            description: {description: header text, example: 2, schema: {type: string}}
          content:
            application/json:
              example: {description: example data}
              examples:
                description: {description: example object text, value: {description: value data}}
              schema:
                description: schema text
                example: {description: schema example}
                properties:
                  description: {type: string, description: property text}
                  example: {type: string, example: x}
                enum: [description]
                default: {description: default data}
components:
  securitySchemes:
    description: {type: http, scheme: basic, description: scheme text}
    example: {type: http, scheme: bearer}
  schemas:
    description: {type: object, description: component text, x-note: {description: extension data}}
`

// TestEmptiedOnlyInKeywordPositions: what the diff does not compare is
// emptied where the OpenAPI structure makes it a keyword, and nowhere
// else.
func TestEmptiedOnlyInKeywordPositions(t *testing.T) {
	t.Parallel()
	d := index(t, keywordsDoc)
	var got any
	if err := yaml.Unmarshal(d.Emptied().Text, &got); err != nil {
		t.Fatal(err)
	}
	var want any
	wantText := strings.NewReplacer(
		"description: info text", `description: ""`,
		"description: path item text", `description: ""`,
		"description: operation text", `description: ""`,
		"description: parameter text, example: 1", `description: "", example: ""`,
		"description: response text", `description: ""`,
		"description: header text, example: 2", `description: "", example: ""`,
		"example: {description: example data}", `example: ""`,
		"description: example object text", `description: ""`,
		"description: schema text", `description: ""`,
		"example: {description: schema example}", `example: ""`,
		"description: property text", `description: ""`,
		"example: x", `example: ""`,
		"description: scheme text", `description: ""`,
		"description: component text", `description: ""`,
	).Replace(keywordsDoc)
	if err := yaml.Unmarshal([]byte(wantText), &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("emptied (-want +got):\n%s", diff)
	}
}

// TestChangesComparesValues: an edit of what the diff compares makes the
// operation or component holding it changed, whatever its key is called;
// an edit of a keyword it does not compare does not.
func TestChangesComparesValues(t *testing.T) {
	t.Parallel()
	base := index(t, keywordsDoc)
	for _, c := range []struct {
		name, from, to string
		changed        bool
	}{
		{"operation description", "operation text", "other text", false},
		{"schema example", "schema example}", "other}", false},
		{"media type example", "example data}", "other}", false},
		{"property named description", "{type: string, description: property text}", "{type: integer, description: property text}", true},
		{"parameter named description", "name: description, in: query", "name: description, in: header", true},
		{"header named description", "header text, example: 2, schema: {type: string}", "header text, example: 2, schema: {type: integer}", true},
		{"enum value description", "enum: [description]", "enum: [other]", true},
		{"default holding description", "{description: default data}", "{description: other}", true},
		{"example value", "value: {description: value data}", "value: {description: other}", true},
		{"security scheme named description", "scheme: basic, description", "scheme: digest, description", true},
		{"security scheme named example", "scheme: bearer", "scheme: digest", true},
		{"extension holding description", "extension data", "other", true},
		{"formatting only", "{type: string, description: property text}", "\n                    type: string\n                    description: property text", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if !strings.Contains(keywordsDoc, c.from) {
				t.Fatalf("%q not in the document", c.from)
			}
			revision := index(t, strings.Replace(keywordsDoc, c.from, c.to, 1))
			dirty, unchanged := Changes(base, revision)
			if got := !unchanged["get /a"] || len(dirty) > 0; got != c.changed {
				t.Errorf("changed = %v, want %v", got, c.changed)
			}
		})
	}
}

// TestCheckRefusesNonObjects: null, a scalar or a list where OpenAPI
// requires an object is found at its line, wherever it is reached from.
func TestCheckRefusesNonObjects(t *testing.T) {
	t.Parallel()
	const head = "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get:\n"
	for _, c := range []struct {
		name, text string
		line       int
		says       string
	}{
		{"media type null", head + "      responses:\n        \"200\":\n          description: ok\n          content:\n            application/vnd.x.2023-01-01+json:\n", 10, "null"},
		{"response null", head + "      responses:\n        \"200\":\n", 7, "null"},
		{"operation scalar", "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get: nothing\n", 5, `"nothing"`},
		{"schema scalar", head + "      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n              schema: string\n", 11, `"string"`},
		{"parameter null in a list", head + "      parameters:\n        - null\n      responses: {}\n", 7, "null"},
		{"parameter list instead of object", head + "      parameters:\n        - [a]\n      responses: {}\n", 7, "a list"},
		{"component schema null", "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    A:\n", 6, "null"},
		{"property null", "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    A:\n      properties:\n        b: ~\n", 8, "null"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(c.text), &doc); err != nil {
				t.Fatal(err)
			}
			line, msg := Check(doc.Content[0])
			if line != c.line || !strings.Contains(msg, c.says) {
				t.Errorf("Check = %d, %q; want line %d saying %s", line, msg, c.line, c.says)
			}
		})
	}
	for _, text := range []string{
		head + "      responses:\n        \"200\": {description: ok}\n",
		"openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    A: true\n    B: {properties: {c: false}}\n",
		"openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths: {}\nx-data: {schema: null}\n",
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatal(err)
		}
		if line, msg := Check(doc.Content[0]); msg != "" {
			t.Errorf("Check(%q) = %d, %q; want nothing wrong", text, line, msg)
		}
	}
}

func TestKeyClash(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]int{
		"a: 1\nb: 2\n":                             0,
		"r:\n  200: a\n  \"200\": b\n":             3,
		"r:\n  0: a\n  0.0: b\n":                   3,
		"r:\n  true: a\n  \"true\": b\n":           3,
		"m: &M {0: a}\nr:\n  <<: *M\n  \"0\": b\n": 4,
		"m: &M {x: a}\nr:\n  <<: *M\n  x: b\n":     0, // the explicit key wins, as YAML says
		"r: {2023-01-01: a, \"2023-01-01\": b}\n":  0, // the loader reads timestamps as strings
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatal(err)
		}
		if line, msg := KeyClash(doc.Content[0]); line != want {
			t.Errorf("KeyClash(%q) = %d, %q; want line %d", text, line, msg, want)
		}
	}
}

// TestSkeletonLeavesOutWhatNoOneReads: an unchanged operation's skeleton
// keeps its responses' media types and its marks, and leaves out its
// descriptive entries and its parameters, unless two of them (a $ref
// followed) share a location and name, which the load must then refuse.
func TestSkeletonLeavesOutWhatNoOneReads(t *testing.T) {
	t.Parallel()
	const text = `openapi: 3.0.3
paths:
  /a:
    get:
      summary: kept out
      operationId: getA
      tags: [a]
      x-sunset: "2025-01-01"
      parameters:
        - {name: q, in: query, schema: {type: string}}
        - $ref: '#/components/parameters/P'
      responses:
        "200":
          description: ok
          content:
            application/vnd.x.2024-01-01+json: {schema: {type: string}}
  /b:
    get:
      parameters:
        - {name: p, in: query}
        - $ref: '#/components/parameters/P'
      responses:
        "200": {description: ok}
components:
  parameters:
    P: {name: p, in: query, schema: {type: integer}}
`
	b, r := index(t, text), index(t, text)
	texts, err := Decide(b, r).Reduce([]*Doc{b, r}, NewValidator(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var reduced yaml.Node
	if err := yaml.Unmarshal(texts[0].Text, &reduced); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Paths map[string]map[string]map[string]any
	}
	if err := reduced.Decode(&got); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	if diff := cmp.Diff([]string{"responses", "x-sunset"}, keys(got.Paths["/a"]["get"])); diff != "" {
		t.Errorf("GET /a's skeleton (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"parameters", "responses"}, keys(got.Paths["/b"]["get"])); diff != "" {
		t.Errorf("GET /b, which names p twice (-want +got):\n%s", diff)
	}
}
