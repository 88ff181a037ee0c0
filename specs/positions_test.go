package specs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/internal/fixtures"
	"github.com/apiver/apiver/specs/prune"
	"go.yaml.in/yaml/v3"
)

// positionCases are JSON texts as the reduction writes them (a node on
// its own line, lines starting with a space) and as people do, with the
// escapes, numbers and words JSON has.
var positionCases = []string{
	`{"openapi": "3.0.0", "paths": {}}`,
	"{\n \"a\": [1, -2.5e+3, 0, true, false, null, \"x\"],\n \"b\": {\"c\": {}, \"d\": []}\n}\n",
	"{\"parameters\": [\n {\"name\": \"id\", \"in\": \"path\"},\n {\"in\": \"query\", \"name\": \"q\"}\n ]}",
	`{"e": "\"\\\b\f\n\r\t\u00e9\u0000\u2028\u0085\ufeff", "": ""}`,
	"\n\n {\n\n \"a\":\n\n 1}\n\n",
	`[{"a": [[], [[]], {}]}, "s", 1]`,
	`"just a string"`,
	`12`,
	// What the scanner leaves to the parser.
	"{\"a\":\t1}",
	"{\"a\": 1}\r\n",
	"{\"é\": 1}",
	`{"a": "\ud83d\ude00"}`,
	`{"a": "\/"}`,
	"{\"a\"\n: 1}",
	`{"a": 1,}`,
	`{"a": 01}`,
	`{"a": tru}`,
	`{"a": 1} {}`,
	`{a: 1}`,
	"# comment\n{}",
	"",
	"  ",
	`{"a": -}`,
	`{"a": 1.}`,
	`{"a": 1e}`,
	`{"a": "\x"}`,
	`{"a": "\u12"}`,
	"{\"a\": \"\x7f\"}",
	`{"` + strings.Repeat("k", 1100) + `": 1}`,
	strings.Repeat("[", 1100) + strings.Repeat("]", 1100),
}

// TestPositionTreeIsTheParse: of every text the scanner reads, its tree
// is the YAML parser's in all that NodeAt and an Anchorer read of it: the
// fixtures' documents as the reduction writes them, JSON fixtures, and the
// cases above.
func TestPositionTreeIsTheParse(t *testing.T) {
	t.Parallel()
	texts := map[string][]byte{}
	for i, c := range positionCases {
		texts[fmt.Sprint("case ", i)] = []byte(c)
	}
	add := func(name string, data []byte) {
		texts[name] = data
		var root yaml.Node
		// Only documents, without aliases (hostile ones recur through them),
		// as the reading's checks let through to the index.
		if strings.HasSuffix(name, ".json") || !strings.Contains(string(data), "openapi:") || yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 || aliased(&root) {
			return
		}
		if d := prune.Index(root.Content[0], false); d.Why == "" {
			if written := d.Emptied().Text; written != nil {
				texts[name+" as written"] = written
			}
		}
	}
	for name, data := range fixtures.Texts([]string{"../testdata", "../cmd/apiver/testdata", "testdata"}, ".yaml", ".yml", ".json") {
		add(name, data)
	}
	for name, data := range corpus.Texts(t) {
		add(name, data)
	}
	scanned := 0
	for name, data := range texts {
		got, ok := scanJSONPositions(data)
		if !ok {
			continue
		}
		scanned++
		if diff := samePositions(ParseNode(data), got, "$"); diff != "" {
			t.Errorf("%s: the scanner's tree differs from the parse: %s", name, diff)
		}
	}
	if scanned < 100 {
		t.Fatalf("the scanner read %d of %d texts", scanned, len(texts))
	}
	// The cases the scanner leaves to the parser are left to it.
	for _, c := range positionCases[8:] {
		if _, ok := scanJSONPositions([]byte(c)); ok {
			t.Errorf("%q: scanned, not left to the parser", c)
		}
	}
}

// FuzzPositionTree: whatever the scanner reads, it reads as the parser.
func FuzzPositionTree(f *testing.F) {
	for _, c := range positionCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := scanJSONPositions(data)
		if !ok {
			return
		}
		if diff := samePositions(ParseNode(data), got, "$"); diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
	})
}

func aliased(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if aliased(c) {
			return true
		}
	}
	return false
}

// samePositions compares two trees in what NodeAt and an Anchorer read of
// them: kinds, values, lines, columns and children.
func samePositions(want, got *yaml.Node, at string) string {
	switch {
	case want == nil && got == nil:
		return ""
	case want == nil || got == nil:
		return fmt.Sprintf("%s: parse %v, scan %v", at, want != nil, got != nil)
	case want.Kind != got.Kind || want.Value != got.Value || want.Line != got.Line || want.Column != got.Column || len(want.Content) != len(got.Content):
		return fmt.Sprintf("%s: parse kind %v value %q at %d:%d with %d children, scan kind %v value %q at %d:%d with %d children", at,
			want.Kind, want.Value, want.Line, want.Column, len(want.Content), got.Kind, got.Value, got.Line, got.Column, len(got.Content))
	}
	for i := range want.Content {
		if diff := samePositions(want.Content[i], got.Content[i], fmt.Sprint(at, "/", i)); diff != "" {
			return diff
		}
	}
	return ""
}
