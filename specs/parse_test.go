package specs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"go.yaml.in/yaml/v3"
)

// splitCases are documents whose parts are read as one parse reads them,
// or refused by parseSplit (split says which).
var splitCases = []struct {
	name, text string
	split      bool
}{
	{"plain", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get: {}\ncomponents:\n  schemas:\n    A: {type: string}\n", true},
	{"CRLF", "openapi: 3.0.3\r\npaths:\r\n  /a: {}\r\ncomponents:\r\n  schemas: {}\r\n", true},
	{"comments and blank lines at the seams", "openapi: 3.0.3\n# before paths\n\npaths:   \n  /a: {}\n  # end of paths\n\n# before components\ncomponents:\n  schemas: {}\n# the end\n", true},
	{"a literal block kept to the seam", "openapi: 3.0.3\ninfo:\n  description: |+\n    text\n\n\npaths:\n  /a: {}\n", true},
	{"a folded block at the seam", "openapi: 3.0.3\nx-a: >-\n  folded\n  text\n\npaths:\n  /a: {}\n", true},
	{"a plain scalar over lines", "openapi: 3.0.3\nx-a: one\n  two\n\n  three\npaths:\n  /a: {}\n", true},
	{"an indentless sequence", "tags:\n- name: a\n- name: b\npaths:\n- x\ncomponents:\n  schemas: {}\n", true},
	{"anchors within a part", "openapi: 3.0.3\npaths:\n  /a: &A {get: {}}\n  /b: *A\ncomponents:\n  schemas:\n    A: &S {type: string}\n    B: *S\n", true},
	{"an anchor named again in a later part", "x-a: &A 1\npaths:\n  /a: &A {}\n  /b: *A\n", true},
	{"an alias of an anchor in another part", "openapi: 3.0.3\nx-a: &A {type: string}\ncomponents:\n  schemas:\n    A: *A\n", false},
	{"a merge from another part", "x-a: &A {type: string}\ncomponents:\n  schemas:\n    A: {<<: *A}\n", false},
	{"a double-quoted scalar open at the seam", "openapi: 3.0.3\nx-a: \"open\npaths:\n  still\"\ncomponents:\n  schemas: {}\n", false},
	{"a single-quoted scalar open at the seam", "x-a: 'open\npaths:\n'\n", false},
	{"a flow mapping open at the seam", "x-a: {a: 1,\npaths:\n }\n", false},
	{"a flow root", "{openapi: 3.0.3,\npaths:\n {}}\n", false},
	{"a document start", "openapi: 3.0.3\n---\npaths:\n  /a: {}\n", false},
	{"a document end", "openapi: 3.0.3\n...\npaths:\n  /a: {}\n", false},
	{"a directive", "%YAML 1.1\n---\nopenapi: 3.0.3\npaths: {}\n", false},
	{"a lone carriage return", "openapi: 3.0.3\rx: 1\npaths:\n  /a: {}\n", false},
	{"a line separator", "openapi: 3.0.3\nx: \"a\u2028b\"\npaths:\n  /a: {}\n", false},
	{"a next line", "openapi: 3.0.3\nx: \"a\u0085b\"\npaths:\n  /a: {}\n", false},
	{"a root sequence", "- a\npaths:\n- b\n", false},
	{"a key on the split line's value", "openapi: 3.0.3\npaths:\n  /a: {}\npaths: x\n", true},
	{"the key twice", "paths:\n  /a: {}\npaths:\n  /b: {}\ncomponents:\n", true},
	{"a split key indented", "x-a:\n  paths:\n    /a: {}\n", false},
	{"a tab after the key", "openapi: 3.0.3\npaths:\t\n  /a: {}\n", false},
	{"a syntax error in a part", "openapi: 3.0.3\npaths:\n  /a: [\ncomponents:\n  schemas: {}\n", false},
}

// chunkCases are documents whose entries are parsed in chunks of their
// own (with no least size), each to the tree one parse makes, or refused.
var chunkCases = []string{
	"openapi: 3.0.3\npaths:\n  /a:\n    get: {}\n  /b:\n    get: {}\n  '/c': {}\ncomponents:\n  schemas:\n    A: {type: string}\n    B:\n      type: string\n  parameters:\n    P: {name: p, in: query}\n    Q: {name: q, in: query}\nsecurity: []\n",
	"paths:\n  /a: |\n    text\n\n  /b: >-\n    folded\n  /c: plain\n    over lines\n  /d: {}\n",
	"paths:\n  /a: &A {get: {}}\n  /b: *A\n",
	"paths:\n  /a: {get: {},\n  /b: {}}\n",
	"paths:\n  /a: \"open\n  /b: still\"\n",
	"paths:\n  /a: {}\n   /b: {}\n",
	"paths:\n    /a: {}\n  /b: {}\n",
	"paths:\n  /a: {}\n  # a comment\n\n  /b: {}\n# between\nx-a: 1\n",
	"paths:\n  /a: {}\n  - b\n",
	"paths:\n  /a: {}\npaths:\n  /b: {}\n  /c: {}\n",
	"components:\n  schemas:\n    A: {}\n    B: {}\n  schemas:\n    C: {}\n    D: {}\n",
	"components:\n  schemas: {A: {}}\n  responses:\n    R: {}\n    S: {}\n",
	"components:\n  x-a: 1\n  schemas:\n    A: {}\n    B: {}\n  x-b:\n    c: 1\n    d: 2\n",
	"components:\n  schemas:\n    A: {}\n    B: {}\n  'schemas':\n    C: {}\n    D: {}\n",
	"components:\n  schemas:\n    A: &S {type: string}\n    B: *S\n    C: {<<: *S}\n",
	"components:\n  schemas:\n    A:\n      description: |\n        text\n    B: {}\n",
	"components:\n  schemas:\n    A: {}\n    ? B\n    : {}\n    C: {}\n",
	"components:\n  schemas:\n    A: {}\n    B: {}\n  parameters: &P\n    P: {}\n    Q: {}\n",
	"components:\n  schemas:\n    A: {}\n   B: {}\n",
	"webhooks:\n  a: {}\n  b: {}\npaths: {}\n",
	"components:\n  A:\n    a:\n    ? b\n    c:\n",
	"paths:\n  /a: {}\n  ? /b\n  /c: {}\n  - ? d\n",
	"components:\n  A:\n    a: 1\n    ?\n    : x\n    b: 2\n",
	"paths:\r\n  /a: {}\r\n  /b: {}\r\ncomponents:\r\n  schemas:\r\n    A: {}\r\n    B: {}\r\n",
}

// TestParseSplitReadsAsOneParse holds a document parsed in parts to the
// tree one parse makes, node by node (kind, style, tag, value, anchor,
// what an alias names, line and column), or to being refused: split at
// the root only, and in chunks of every entry.
func TestParseSplitReadsAsOneParse(t *testing.T) {
	t.Parallel()
	for _, c := range splitCases {
		t.Run(c.name, func(t *testing.T) {
			split, _, ok := parseSplit([]byte(c.text), nil, 1<<30)
			if ok != c.split {
				t.Fatalf("parsed in parts: %v, want %v", ok, c.split)
			}
			if ok {
				if diff := sameTree(parseWhole([]byte(c.text)), split); diff != "" {
					t.Error(diff)
				}
			}
		})
	}
	for _, text := range append(chunkCases, texts(splitCases)...) {
		if split, _, ok := parseSplit([]byte(text), nil, 0); ok {
			if diff := sameTree(parseWhole([]byte(text)), split); diff != "" {
				t.Errorf("%q: %s", text, diff)
			}
		}
	}
}

func texts(cases []struct {
	name, text string
	split      bool
}) []string {
	var out []string
	for _, c := range cases {
		out = append(out, c.text)
	}
	return out
}

// TestParseReusingCopiesWhatItShares: a text parsed with the chunks of
// another copies those it shares, with their lines moved, to the tree one
// parse of it makes.
func TestParseReusingCopiesWhatItShares(t *testing.T) {
	t.Parallel()
	base := "openapi: 3.0.3\npaths:\n  /a:\n    get: {}\n  /b:\n    get: &G {}\n    put: *G\ncomponents:\n  schemas:\n    A: {type: string}\n    B:\n      properties: {x: &X {type: string}, y: *X}\n"
	for _, revision := range []string{
		base,
		strings.Replace(base, "  /b:", "  /a2:\n    get: {}\n  /b:", 1),
		strings.Replace(base, "    get: {}\n", "", 1),
		strings.Replace(base, "A: {type: string}", "A: {type: integer}", 1),
		"x-first: 1\n" + base,
	} {
		_, chunks, ok := parseSplit([]byte(base), nil, 0)
		if !ok {
			t.Fatal("the base is not parsed in chunks")
		}
		got, _, ok := parseSplit([]byte(revision), chunks, 0)
		if !ok {
			t.Fatalf("%q is not parsed in chunks", revision)
		}
		if diff := sameTree(parseWhole([]byte(revision)), got); diff != "" {
			t.Errorf("%q: %s", revision, diff)
		}
	}
}

// FuzzParseSplit: a document parsed in chunks, alone and with the chunks
// of another, is the tree one parse makes.
func FuzzParseSplit(f *testing.F) {
	for _, text := range append(chunkCases, texts(splitCases)...) {
		f.Add(text, "x-a: 1\n"+text)
	}
	f.Fuzz(func(t *testing.T, text, other string) {
		split, chunks, ok := parseSplit([]byte(text), nil, 0)
		if ok {
			if diff := sameTree(parseWhole([]byte(text)), split); diff != "" {
				t.Error(diff)
			}
		}
		if split, _, ok := parseSplit([]byte(other), chunks, 0); ok {
			if diff := sameTree(parseWhole([]byte(other)), split); diff != "" {
				t.Errorf("with the chunks of the first: %s", diff)
			}
		}
	})
}

// Every real snapshot is parsed in chunks, alone and with the chunks of
// the snapshot before it, to the tree one parse makes.
func TestParseSplitRealSnapshots(t *testing.T) {
	dir := corpus.Shared(t)
	var previous *Chunks
	for _, name := range corpus.Names(t) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		whole := parseWhole(data)
		for _, from := range []*Chunks{nil, previous} {
			split, chunks, ok := parseSplit(data, from, minChunk)
			if !ok {
				t.Errorf("%s: not parsed in chunks", name)
				continue
			}
			if diff := sameTree(whole, split); diff != "" {
				t.Errorf("%s: %s", name, diff)
			}
			previous = chunks
		}
	}
}

// sameTree says where two trees differ, "" when they do not; comments are
// not compared.
func sameTree(want, got *yaml.Node) string {
	if want == nil || got == nil {
		if want != got {
			return fmt.Sprintf("one parse gives %v, the parts %v", want, got)
		}
		return ""
	}
	type at struct{ line, column int }
	var walk func(a, b *yaml.Node, path string) string
	walk = func(a, b *yaml.Node, path string) string {
		if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
			a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) {
			return fmt.Sprintf("%s: one parse gives %+v, the parts %+v", path, *a, *b)
		}
		if (a.Alias == nil) != (b.Alias == nil) || a.Alias != nil && (at{a.Alias.Line, a.Alias.Column} != at{b.Alias.Line, b.Alias.Column}) {
			return fmt.Sprintf("%s: the aliases name different nodes", path)
		}
		for i := range a.Content {
			if diff := walk(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); diff != "" {
				return diff
			}
		}
		return ""
	}
	return walk(want, got, strings.TrimSpace(""))
}

// A fixed text shares chunks with the revision and the base: its parse
// copies each chunk that either holds, the base's too, and is the tree one
// parse makes.
func TestParseSharesWithEveryPartner(t *testing.T) {
	t.Parallel()
	var doc strings.Builder
	doc.WriteString("openapi: 3.0.3\npaths: {}\ncomponents:\n  schemas:\n")
	for i := range 4000 {
		fmt.Fprintf(&doc, "    S%04d:\n      type: object\n      properties: {a: {type: string}, b: {type: integer}}\n", i)
	}
	base := doc.String()
	revision := strings.Replace(base, "S0010:\n      type: object\n      properties: {a: {type: string}", "S0010:\n      type: object\n      properties: {a: {type: number}", 1)
	fixed := strings.Replace(base, "S3000:\n      type: object\n      properties: {a: {type: string}", "S3000:\n      type: object\n      properties: {a: {type: number}", 1)
	read := func(text string) *Source { return (&Source{path: "a.yaml"}).WithData([]byte(text)) }
	b, r, f := read(base), read(revision), read(fixed)
	b.parse()
	r.parse()
	f.ShareParse(r)
	f.ShareParse(b)
	from := r.chunks.Load().With(b.chunks.Load())
	shared := 0
	for _, c := range splitChunks(f.data, minChunk) {
		if from.find(c.text) != nil && r.chunks.Load().find(c.text) == nil {
			shared++
		}
	}
	if shared == 0 {
		t.Fatal("no chunk of the fixed text is the base's alone: the case does not test sharing with it")
	}
	f.parse()
	if diff := sameTree(parseWhole([]byte(fixed)), f.root); diff != "" {
		t.Error(diff)
	}
}

// A source parsed already keeps no partner: a history asks each snapshot
// to share the parse of the one before it, and a partner kept would hold
// every snapshot before it, trees and all.
func TestParsedSourceKeepsNoPartner(t *testing.T) {
	t.Parallel()
	text := []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n")
	base := (&Source{path: "a.yaml"}).WithData(text)
	revision := base.WithData(append([]byte(nil), text...))
	revision.ShareParse(base)
	revision.Index()
	if revision.partners != nil {
		t.Fatal("the partner is kept after the parse")
	}
	revision.ShareParse(base)
	if revision.partners != nil {
		t.Fatal("a parsed source takes a partner")
	}
}
