package prune

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// loaderJSONCases are the conversions loaderJSON must reproduce or refuse,
// besides the writer's cases.
var loaderJSONCases = map[string]string{
	"integers":           "a: 10\nb: -5\nc: 0\nd: 010\ne: +1\nf: -0\ng: 0o17\nh: 9223372036854775808\n",
	"floats":             "a: 1.0\nb: 1e3\nc: .5\nd: -.5\ne: 1_0.5\nf: 1e400\ng: .inf\nh: -.Inf\ni: .NaN\nj: 2.50\nk: 1E-7\n",
	"bools and nulls":    "a: true\nb: True\nc: FALSE\nd: yes\ne: on\nf: ~\ng: Null\nh:\n",
	"status keys":        "200: ok\n'404': quoted\n4XX: range\ndefault: x\n",
	"keys that coincide": "200: a\n\"200\": b\n",
	"other keys":         "true: a\n1.5: b\n~: c\n0x10: d\n",
	"HTML and controls":  "a: \"<b> & </b>\"\nb: \"\\x01\\t\\n\"\nc: \"\u2028\"\nd: \"\xff\"\ne: \"\\x7f\"\n",
	"explicit tags":      "a: !!str 12\nb: !!int \"12\"\nc: !!binary aGk=\nd: !custom x\ne: ! 12\nf: !!float 1\n",
	"merge keys":         "b: &B {x: 1}\nm: {<<: *B, y: 2}\n",
	"aliases":            "a: &A [1, {b: 2}]\nc: *A\nd: &S 3.5\ne: *S\n",
	"sorted keys":        "b: 1\na: 2\nB: 3\n_: 4\n\"\": 5\n",
	"duplicate key":      "a: 1\na: 2\n",
	"a sequence":         "- 1\n- [a, {b: null}]\n- {}\n- []\n",
}

// TestLoaderJSONAsTheLoaderConverts holds loaderJSON to the loader's own
// YAML-to-JSON conversion: where it writes a tree, the bytes are those the
// loader's reading of the tree's text unmarshals.
func TestLoaderJSONAsTheLoaderConverts(t *testing.T) {
	t.Parallel()
	for _, cases := range []map[string]string{writerCases, loaderJSONCases} {
		for name, text := range cases {
			t.Run(name, func(t *testing.T) {
				if why := convertsAsTheLoader([]byte(text)); why != "" {
					t.Error(why)
				}
			})
		}
	}
}

// TestLoaderJSONConvertsWhatSpecsHold checks that the conversion takes the
// common spellings, so that the validator does read them as JSON.
func TestLoaderJSONConvertsWhatSpecsHold(t *testing.T) {
	t.Parallel()
	text := "responses:\n  200:\n    description: ok <b>\n    content:\n      application/json:\n        schema: {type: integer, minimum: 0.5, maximum: 10, nullable: true, enum: [1, 2, null], format: date, default: 2024-01-01}\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	c := &loaderJSON{}
	if !c.value(doc.Content[0]) {
		t.Fatal("not converted")
	}
	want := `{"responses":{"200":{"content":{"application/json":{"schema":{"default":"2024-01-01","enum":[1,2,null],"format":"date","maximum":10,"minimum":0.5,"nullable":true,"type":"integer"}}},"description":"ok \u003cb\u003e"}}}`
	if string(c.buf) != want {
		t.Errorf("got  %s\nwant %s", c.buf, want)
	}
}

func FuzzLoaderJSON(f *testing.F) {
	for _, cases := range []map[string]string{writerCases, loaderJSONCases} {
		for _, text := range cases {
			f.Add([]byte(text))
		}
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if why := convertsAsTheLoader(text); why != "" {
			t.Error(why)
		}
	})
}

// TestLoaderJSONOnRealSnapshot converts a real snapshot whole.
func TestLoaderJSONOnRealSnapshot(t *testing.T) {
	const name = "atlas-api-2024-12-19.yaml"
	data, err := os.ReadFile(filepath.Join(corpus.Unpack(t, name), name))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	// The whole document, and each of its paths' items.
	root := doc.Content[0]
	nodes := []*yaml.Node{root}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "paths" {
			nodes = append(nodes, root.Content[i+1].Content...)
		}
	}
	for _, n := range nodes {
		if why := convertedAsTheLoader(n); why != "" {
			t.Fatal(why)
		}
	}
	if c := (&loaderJSON{}); !c.value(root) {
		t.Error("the snapshot is not converted")
	}
}

// convertsAsTheLoader returns how loaderJSON's conversion of a node of
// text's tree differs from the loader's ("" when none does): each node, as
// a list's one element, is converted, or declined, on its own.
func convertsAsTheLoader(text []byte) string {
	var doc yaml.Node
	if yaml.Unmarshal(text, &doc) != nil || len(doc.Content) == 0 {
		return ""
	}
	var why string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if why != "" {
			return
		}
		if why = convertedAsTheLoader(n); why != "" {
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc.Content[0])
	return why
}

func convertedAsTheLoader(n *yaml.Node) string {
	list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{n}}
	c := &loaderJSON{}
	if !c.value(list) {
		return ""
	}
	var want json.RawMessage
	if err := loaderReads(list, &want); err != nil {
		return "converted, but the loader refuses the tree: " + err.Error() + "\nconverted: " + string(c.buf)
	}
	if string(want) != string(c.buf) {
		return "the loader converts\n" + string(want) + "\nloaderJSON wrote\n" + string(c.buf)
	}
	return ""
}

// TestValidatorReadsAsTheLoader holds the validator's reading of a
// document, its schemas read one by one through loaderJSON where it
// converts, to the loader's reading of the whole: the same documents
// refused. Each schema is read where kin-openapi reads a SchemaRef, and
// where it reads a BoolSchema, which refuses values a SchemaRef takes;
// nested, repeated, and reached through anchors and aliases.
func TestValidatorReadsAsTheLoader(t *testing.T) {
	t.Parallel()
	for _, text := range validatorCases {
		validatorReadsAsTheLoader(t, text, !strings.Contains(text, bigUnsigned))
	}
}

// FuzzValidatorReadsAsTheLoader: no schema the validator passes where the
// loader refuses the document.
func FuzzValidatorReadsAsTheLoader(f *testing.F) {
	for _, text := range validatorCases {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.ContainsAny(text, "\n\r") {
			return // one flow value: a line break could end the document's structure
		}
		validatorReadsAsTheLoader(t, text, false)
	})
}

const bigUnsigned = "{maxLength: 18446744073709551615}"

var validatorCases = []string{
	"{type: object, properties: {a: {type: string, maxLength: 24}}, required: [a]}",
	"{type: object, required: true}",
	"{type: object, properties: []}",
	"{type: 5}",
	"{enum: 5}",
	"{minimum: x}",
	"{minimum: 0.5, maximum: 1e3, multipleOf: .01}",
	"{nullable: yes}",
	"{nullable: True}",
	"{items: []}",
	"{additionalProperties: 5}",
	"{maxLength: 1.5}",
	"{maxLength: -1}",
	"{maxLength: 010}",
	"{x-limit: .inf}",
	"{default: 2024-01-01, example: 2024-01-01T10:00:00Z}",
	"{properties: {200: {type: string}, '201': {}}}",
	"{properties: {200: {type: string}, '200': {type: integer}}}",
	"{allOf: [{$ref: '#/components/schemas/S'}, {type: [string, 'null']}]}",
	"{discriminator: {propertyName: 5}}",
	"{readOnly: 'true'}",
	bigUnsigned,
	"{properties: {a: " + bigUnsigned + "}}",
	"{additionalProperties: " + bigUnsigned + "}",
	"{additionalProperties: {items: " + bigUnsigned + "}}",
	"{unevaluatedProperties: {properties: {a: " + bigUnsigned + "}}}",
	"{items: {items: {maxLength: x}}, not: {items: {maxLength: 1}}}",
	"{properties: {a: {items: {type: string}}, b: {items: {type: string}}, c: {items: {type: 7}}}}",
	"{properties: {a: &A " + bigUnsigned + ", b: {additionalProperties: *A}}}",
	"{properties: {a: &A {properties: {x: " + bigUnsigned + "}}, b: {additionalProperties: *A}}}",
	"{properties: {a: &A {properties: {x: " + bigUnsigned + "}}, b: *A}}",
	"{properties: {a: &A {type: string}, b: {<<: *A, maxLength: x}}}",
	"{properties: {a: {<<: {items: " + bigUnsigned + "}}, b: {additionalProperties: {<<: {items: {maxLength: x}}}}}}",
	"{properties: {a: {items: {type: string}, Items: {maxLength: x}}}}",
	"{properties: {a: {items: {maxLength: x}, items: {type: string}}}}",
	"{properties: {a: !!map {items: {maxLength: x}}, b: {items: !custom {maxLength: 1}}}}",
	"{properties: {a: {$ref: '#/components/schemas/S', x-big: " + bigUnsigned + "}}}",
	"{x-nested: {properties: {a: {maxLength: x}}}}",
}

var validatorDocuments = map[string]string{
	"response": `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      responses: {"200": {description: ok, content: {application/json: {schema: %[1]s}}}}
components:
  schemas:
    S: %[1]s
    T: {properties: {t: %[1]s}}
`,
	// Below paths, not below responses: the operation is read as the
	// paths read it.
	"request body": `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    post:
      parameters: [{name: p, in: query, schema: %[1]s}]
      requestBody: {content: {application/json: {schema: %[1]s}}}
      responses: {"200": {description: ok}}
components:
  schemas:
    S: {type: string}
`,
	"component": `openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    S: %[1]s
  requestBodies:
    R: {content: {application/json: {schema: %[1]s}}}
`,
}

// validatorReadsAsTheLoader checks the validator against the loader on the
// schema text in each of validatorDocuments: it must refuse what the
// loader refuses, and, when exact, nothing else. (A part refused that the
// loader takes only costs a whole load: read both ways, an unsigned
// maximum is refused where the loader may take it.)
func validatorReadsAsTheLoader(t *testing.T, text string, exact bool) {
	for place, document := range validatorDocuments {
		t.Run(place+": "+text, func(t *testing.T) {
			var root yaml.Node
			var values any
			input := fmt.Appendf(nil, document, text)
			// What YAML refuses (an anchor that holds itself is refused
			// before the index: specs.CheckText), and a document that is
			// not reduced, are not read by the validator.
			if err := yaml.Unmarshal(input, &root); err != nil || len(root.Content) == 0 {
				return
			}
			if err := yaml.Unmarshal(input, &values); err != nil {
				return
			}
			d := Index(root.Content[0], false)
			if d.Why != "" {
				return
			}
			got := NewValidator().CheckAll(d)
			want := loaderReads(root.Content[0], new(openapi3.T))
			if want != nil && got == nil {
				t.Errorf("the loader refuses the document (%v), the validator passes it", want)
			}
			if want == nil && got != nil && exact {
				t.Errorf("the loader reads the document, the validator refuses it: %v", got)
			}
		})
	}
}

// Only a number of more than 15 digits makes the validator read a text the
// second way: digits in strings do not count.
func TestLongDigits(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		`{"maxLength":1234567890123456}`:         true,
		`[123456789012345]`:                      false,
		`{"id":"12345678901234567890"}`:          false,
		`{"a":"x\"12345678901234567890"}`:        false,
		`{"a":"x\\","b":12345678901234567890}`:   true,
		`{"a":1.2345678901234567e3}`:             true,
		`{"1234567890123456":"key, not number"}`: false,
	} {
		if got := longDigits([]byte(text)); got != want {
			t.Errorf("longDigits(%s) = %v, want %v", text, got, want)
		}
	}
}
