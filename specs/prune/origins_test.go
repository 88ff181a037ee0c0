package prune

import (
	"bytes"
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/internal/fixtures"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// originsDoc holds what the loader's YAML reading gives origins: the
// root, keys, scalar items (enum, required), mappings in sequences,
// empty mappings, a map of scalars (scopes), a header (whose parameter
// fields the reading does not enter), $refs, status codes, characters
// outside ASCII before a key on its line, and flow style.
const originsDoc = `openapi: 3.0.3
info: {title: t, version: "1", description: info text}
tags: [{name: a}, {name: é, description: d}]
paths:
  /a/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string, enum: [x, "y", 1, true, null]}}
    get:
      tags: [a, é]
      parameters:
        - $ref: '#/components/parameters/P'
        - {name: q, in: query, schema: {type: array, items: {type: integer}, minItems: 1}}
      responses:
        200:
          description: ok
          headers:
            X-Rate: {schema: {type: integer}, description: h}
          content:
            application/json:
              schema:
                allOf:
                  - $ref: '#/components/schemas/A'
                  - {}
                  - {type: object, properties: {"ü": {type: string}, b: {type: number, minimum: 1.5}}}
              examples: {one: {value: {a: [1, 2]}}}
        default: {$ref: '#/components/responses/E'}
      callbacks:
        done:
          '{$request.body#/url}':
            post:
              requestBody: {content: {application/json: {schema: {type: object}}}}
              responses: {"200": {description: ok}}
      security: [{oauth: [read, write]}]
components:
  schemas:
    A:
      type: object
      required: [id, name]
      additionalProperties: {type: string}
      properties:
        id: {type: string, pattern: '^[a-f0-9]{24}$', maxLength: 24}
        name: {type: string, x-extra: {nested: [1, {k: v}]}}
        list: {type: array, items: {$ref: '#/components/schemas/A'}}
  parameters:
    P: {name: p, in: query, schema: {type: string, default: abc}}
  responses:
    E: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}
  securitySchemes:
    oauth:
      type: oauth2
      flows:
        clientCredentials:
          tokenUrl: https://example.com/token
          scopes: {read: read it, write: write it}
x-top: {a: 1}
`

// TestOriginsAreTheReadingsOfTheJSON: a document written as JSON and
// loaded, with its origins set, is the document the loader's YAML reading
// of the same text makes, origins and all.
func TestOriginsAreTheReadingsOfTheJSON(t *testing.T) {
	t.Parallel()
	texts := map[string]string{"origins": originsDoc}
	// The fixtures' documents, in files and in archives, and (long) the
	// real snapshots.
	for name, data := range fixtures.Texts([]string{"../../testdata", "../../cmd/apiver/testdata"}, ".yaml", ".yml") {
		texts[name] = string(data)
	}
	for name, data := range corpus.Texts(t) {
		texts[name] = string(data)
	}
	written := 0
	for name, text := range texts {
		var root yaml.Node
		if !strings.Contains(text, "openapi:") || yaml.Unmarshal([]byte(text), &root) != nil || len(root.Content) == 0 || hasAlias(&root) {
			continue // aliases: TestWhatJSONCannotSayIsWrittenAsYAML
		}
		d := Index(root.Content[0], false)
		if d.Why != "" || d.json {
			continue
		}
		reduced := d.Emptied()
		if reduced.Origins == nil {
			continue
		}
		written++
		got, err := loadJSON(reduced.Text)
		if err != nil {
			continue // the whole load reports it
		}
		reduced.Origins.Apply(got, originsFile)
		want, err := loadJSON(append(bytes.Clone(reduced.Text), "# read as YAML\n"...))
		if err != nil {
			t.Errorf("%s: the YAML reading of the JSON fails: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: origins set differ from the YAML reading's (-reading +set):\n%s", name,
				cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })))
		}
	}
	if written < 100 {
		t.Fatalf("%d documents written as JSON, of %d", written, len(texts))
	}
}

const originsFile = "api.yaml"

func loadJSON(text []byte) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true
	loader.Context = context.Background()
	return loader.LoadFromDataWithPath(text, &url.URL{Path: originsFile})
}

// TestWhatJSONCannotSayIsWrittenAsYAML: a document is written as YAML, as
// before, where its JSON would read otherwise than its YAML or its
// origins could not be set after the load.
func TestWhatJSONCannotSayIsWrittenAsYAML(t *testing.T) {
	t.Parallel()
	const head = "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths: {}\n"
	for name, text := range map[string]string{
		"alias":            head + "components:\n  schemas:\n    A: &a {type: string}\n    B: *a\n",
		"explicit tag":     head + "components:\n  schemas:\n    A: {type: !!str string}\n",
		"key twice":        head + "components:\n  schemas:\n    A: {type: string, type: integer}\n",
		"status twice":     "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses: {200: {description: a}, \"200\": {description: b}}\n",
		"$ref sibling":     head + "components:\n  schemas:\n    A: {type: string}\n    B: {$ref: '#/components/schemas/A', description: b}\n",
		"path item $ref":   "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a: {$ref: '#/components/pathItems/A'}\n",
		"pointer $ref":     head + "components:\n  schemas:\n    A: {type: object, properties: {b: {type: string}}}\n    B: {$ref: '#/components/schemas/A/properties/b'}\n",
		"float item":       head + "components:\n  schemas:\n    A: {type: number, enum: [1.0]}\n",
		"bool item":        head + "components:\n  schemas:\n    A: {type: boolean, enum: [True]}\n",
		"non-decimal item": head + "components:\n  schemas:\n    A: {type: integer, enum: [0x10]}\n",
	} {
		var root yaml.Node
		if err := yaml.Unmarshal([]byte(text), &root); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		reduced := Index(root.Content[0], false).Emptied()
		if reduced.Origins != nil || !bytes.Contains(reduced.Text, []byte("# reduced by apiver")) {
			t.Errorf("%s: written as JSON:\n%s", name, reduced.Text)
		}
	}
}

// FuzzOrigins: any text this package writes as JSON loads, with its
// origins set, into the document the loader's YAML reading of the same
// JSON makes, and into the values the loader reads of the original.
func FuzzOrigins(f *testing.F) {
	f.Add([]byte(originsDoc))
	for _, text := range writerCases {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var root yaml.Node
		if yaml.Unmarshal(text, &root) != nil || len(root.Content) == 0 || hasAlias(&root) {
			return
		}
		if _, clash := KeyClash(root.Content[0]); clash != "" {
			return // refused before any reduction
		}
		d := Index(root.Content[0], false)
		if d.Why != "" {
			return
		}
		reduced := d.Emptied()
		if reduced.Origins == nil {
			return
		}
		if want, err := loaderValue(d.text(plan{})); err == nil {
			if got, err := loaderValue(reduced.Text); err != nil || !cmp.Equal(want, got) {
				t.Fatalf("the JSON reads otherwise than the YAML (%v):\n%s", err, cmp.Diff(want, got))
			}
		}
		got, err := loadJSON(reduced.Text)
		if err != nil {
			return
		}
		reduced.Origins.Apply(got, originsFile)
		want, err := loadJSON(append(bytes.Clone(reduced.Text), "# read as YAML\n"...))
		if err != nil {
			t.Fatalf("the YAML reading of the JSON fails: %v\n%s", err, reduced.Text)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("origins set differ from the YAML reading's (-reading +set):\n%s\n%s",
				cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })), reduced.Text)
		}
	})
}
