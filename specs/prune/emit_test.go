package prune

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	oasyaml "github.com/oasdiff/yaml"
	yaml3 "github.com/oasdiff/yaml3"
	"go.yaml.in/yaml/v3"
)

// writerCases are texts whose parsed values the writer must reproduce: the
// constructs a line-based reduction once got wrong, and YAML's other ways
// of spelling one value.
var writerCases = map[string]string{
	"lone CR in a comment":     "a: 1\n# one\rtwo\nb: x\n",
	"CRLF":                     "a: 1\r\nb:\r\n  c: x\r\n",
	"U+2028 in a comment":      "a: 1\n# one\u2028two\nb: x\n",
	"U+2029 in a comment":      "a: 1\n# one\u2029two\nb: x\n",
	"NEL in a comment":         "a: 1\n# one\u0085two\nb: x\n",
	"U+2028 in a string":       "a: \"one\u2028two\"\nb: 'x\u2028y'\n",
	"BOM":                      "\ufeffa: 1\nb: x\n",
	"tabs":                     "a:\t1\nb: \"x\ty\"\n",
	"anchors and aliases":      "a: &A {x: 1, y: [1, 2]}\nb: *A\nc: &S str\nd: *S\n",
	"merge keys":               "base: &B {x: 1, y: 2}\nmore:\n  <<: *B\n  y: 3\n",
	"quoted keys":              "\"a b\": 1\n'c: d': 2\n\"\": 3\n\"1\": int key as string\n",
	"flow style":               "{a: [1, {b: c}], d: {e: f}}\n",
	"block scalars":            "a: |\n  one\n  two\nb: >-\n  folded\n  text\nc: |+\n  keep\n\nd: x\n",
	"plain multi-line":         "a: one\n  two\n  three\nb: x\n",
	"timestamps stay strings":  "a: 2023-01-01\nb: 2023-01-01T10:00:00Z\n",
	"numbers and bools":        "a: 0x1F\nb: 1e3\nc: .inf\nd: -.NaN\ne: true\nf: off\ng: 012\nh: 1_000\n",
	"nulls":                    "a: null\nb: ~\nc:\nd: Null\n",
	"strings that look typed":  "a: \"1\"\nb: 'true'\nc: \"null\"\nd: '2023-01-01'\n",
	"escapes":                  "a: \"\\x07\\u00e9\\U0001F600\\0\\e\\N\\_\\L\\P\"\nb: \"\\\\ \\\" /\"\n",
	"indicators in strings":    "a: 'x, y'\nb: '[z]'\nc: '{w}'\nd: '- e'\ne: '#f'\nf: '&g'\ng: '*h'\nh: '! i'\n",
	"document marker in value": "a: |\n  ---\n  ...\nb: x\n",
	"empty collections":        "a: {}\nb: []\nc: ''\n",
	"document start":           "%YAML 1.1\n---\na: 1\n...\n",
	"long string":              "a: " + strings.Repeat("word ", 400) + "\n",
	"non-BMP":                  "a: \"\U0001F600 \U000E0001\"\n",
	"key after blank lines":    "a: 1\n\n\n\nb:\n\n  c: 2\n",
}

// TestWriterKeepsValuesAndLines writes each case's tree with nothing cut
// and reads the text back as the loader does: the same values, and every
// node on the line the loader's own parser gives it in the original.
func TestWriterKeepsValuesAndLines(t *testing.T) {
	t.Parallel()
	for name, text := range writerCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if why := roundTrip([]byte(text), false); why != "" {
				t.Error(why)
			}
		})
	}
}

func TestWriterKeepsJSON(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"compact":                `{"a":1,"b":{"c":[true,null,"x"]}}`,
		"numbers as written":     "{\"a\": 1.50, \"b\": -0, \"c\": 1E400, \"d\": 123456789012345678901234567890}",
		"escapes":                `{"a": "\u2028\u0085\ufeff\t\u0000", "b": "\ud83d\ude00", "c": "\/"}`,
		"lines":                  "{\n\"a\": 1,\n\n\"b\": {\n  \"c\": \"d\"\n}\n}\n",
		"keys that YAML retypes": `{"true": 1, "null": 2, "1": 3, "~": 4}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if why := roundTrip([]byte(text), true); why != "" {
				t.Error(why)
			}
		})
	}
}

// FuzzWriter checks the writer on any text yaml.v3 reads as a mapping this
// package would reduce.
func FuzzWriter(f *testing.F) {
	for _, text := range writerCases {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if why := roundTrip(text, false); why != "" {
			t.Error(why)
		}
	})
}

// roundTrip returns what differs between text and its written tree ("" when
// nothing does, or when the package would not write text).
func roundTrip(text []byte, isJSON bool) string {
	var root *yaml.Node
	if isJSON {
		root = JSONTree(text)
	} else {
		var doc yaml.Node
		if yaml.Unmarshal(text, &doc) != nil || len(doc.Content) == 0 {
			return ""
		}
		root = doc.Content[0]
	}
	if root == nil {
		return "not read as JSON"
	}
	if _, clash := KeyClash(root); clash != "" {
		return "" // refused before any reduction
	}
	d := Index(root, isJSON)
	if d.Why != "" {
		if isJSON {
			return "not reduced: " + d.Why
		}
		return ""
	}
	d.emptied = nil
	written := d.text(plan{})

	want, wantErr := loaderValue(text)
	got, gotErr := loaderValue(written)
	switch {
	case wantErr != nil && gotErr == nil:
		return fmt.Sprintf("the loader refuses the original (%v), not the written text:\n%s", wantErr, written)
	case wantErr != nil:
		return ""
	case gotErr != nil:
		return fmt.Sprintf("the loader refuses the written text: %v\n%s", gotErr, written)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		return fmt.Sprintf("values differ (-original +written):\n%s\nwritten:\n%s", diff, written)
	}
	if isJSON {
		return "" // the loader reads JSON without origins
	}
	var a, b yaml3.Node
	if err := yaml3.Unmarshal(text, &a); err != nil {
		return ""
	}
	if err := yaml3.Unmarshal(written, &b); err != nil {
		return fmt.Sprintf("the loader's parser refuses the written text: %v", err)
	}
	// The document node starts at a directive or marker; its content is
	// what has lines that count.
	return sameLines(a.Content[0], b.Content[0], "")
}

// loaderValue decodes text as kin-openapi's loader does: as JSON, and
// failing that as YAML.
func loaderValue(text []byte) (any, error) {
	var v any
	if json.Unmarshal(text, &v) == nil {
		return v, nil
	}
	_, err := oasyaml.Unmarshal(text, &v, oasyaml.DecodeOpts{DisableTimestamps: true})
	return v, err
}

// sameLines compares the lines of the nodes of two trees, pairwise.
func sameLines(a, b *yaml3.Node, path string) string {
	if a.Kind != b.Kind || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: shapes differ", path)
	}
	if a.Line != b.Line {
		return fmt.Sprintf("%s: line %d, written at %d", path, a.Line, b.Line)
	}
	for i := range a.Content {
		if why := sameLines(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); why != "" {
			return why
		}
	}
	return ""
}
