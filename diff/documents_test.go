package diff_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/getkin/kin-openapi/openapi3"
)

// document is a version document with the operations named, each GET
// returning an object whose property is typed as given.
func document(ops map[string]string) string {
	s := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n"
	for _, path := range []string{"/a", "/b", "/c"} {
		typ, ok := ops[path]
		if !ok {
			continue
		}
		s += "  " + path + ":\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  p: {type: " + typ + "}\n"
	}
	return s
}

func writeDocuments(t *testing.T, dir string, docs map[string]string) *specs.DocumentSet {
	t.Helper()
	for name, text := range docs {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set, err := specs.ReadDocumentSet(dir, specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestCompareDocuments: each operation of document V is that operation at
// version V. Base: 2023 (removed in the revision) and 2024. Revision: 2024
// changed in place, 2025 new (changes /a, drops /b, adds /c), a new beta.
func TestCompareDocuments(t *testing.T) {
	t.Parallel()
	for _, full := range []bool{false, true} {
		dir := t.TempDir()
		base := writeDocuments(t, filepath.Join(dir, "base"), map[string]string{
			"api.2023-01-01.yaml": document(map[string]string{"/a": "string"}),
			"api.2024-01-01.yaml": document(map[string]string{"/a": "string", "/b": "string"}),
		})
		revision := writeDocuments(t, filepath.Join(dir, "revision"), map[string]string{
			"api.2024-01-01.yaml":      document(map[string]string{"/a": "integer", "/b": "string"}),
			"api.2025-01-01.yaml":      document(map[string]string{"/a": "boolean", "/c": "string"}),
			"api.2025-06-01~beta.yaml": document(map[string]string{"/a": "boolean"}),
		})
		pair, err := load.LoadDocumentPair(base, revision, load.PairOptions{Full: full})
		if err != nil {
			t.Fatal(err)
		}
		res, err := diff.CompareDocuments(pair, diff.Options{})
		if err != nil {
			t.Fatal(err)
		}
		pair.Release()
		type key struct{ operation, version string }
		type want struct {
			kind        diff.Kind
			predecessor string
			pre         bool
			changed     bool
		}
		wants := map[key]want{
			{"GET /a", "2023-01-01"}:      {kind: diff.Removed},
			{"GET /a", "2024-01-01"}:      {kind: diff.Same, changed: true},
			{"GET /b", "2024-01-01"}:      {kind: diff.Same},
			{"GET /a", "2025-01-01"}:      {kind: diff.Bump, predecessor: "2024-01-01", changed: true},
			{"GET /b", "2025-01-01"}:      {kind: diff.Removed, predecessor: "2024-01-01", changed: true},
			{"GET /c", "2025-01-01"}:      {kind: diff.Added, changed: true}, // endpoint-added
			{"GET /a", "2025-06-01~beta"}: {kind: diff.Added, pre: true},
		}
		if len(res.Pairs) != len(wants) {
			t.Errorf("full %v: %d pairs, want %d", full, len(res.Pairs), len(wants))
		}
		for _, p := range res.Pairs {
			w, ok := wants[key{p.Operation, p.Version}]
			if !ok {
				t.Errorf("full %v: unexpected pair %s@%s (%s)", full, p.Operation, p.Version, p.Kind)
				continue
			}
			if p.Kind != w.kind || p.Predecessor != w.predecessor || p.PreRelease != w.pre || (len(p.Changes) > 0) != w.changed {
				t.Errorf("full %v: %s@%s: %s from %q, pre-release %v, %d changes; want %s from %q, %v, changed %v",
					full, p.Operation, p.Version, p.Kind, p.Predecessor, p.PreRelease, len(p.Changes), w.kind, w.predecessor, w.pre, w.changed)
			}
			for _, c := range p.Changes {
				if c.Version != p.Version {
					t.Errorf("full %v: %s@%s: a change of version %q", full, p.Operation, p.Version, c.Version)
				}
			}
		}
		if !res.ByDocument {
			t.Error("the result does not say it compares documents")
		}
		// The clock: each version of /a, and /b of 2024 (dropped by 2025),
		// is succeeded by the next released document.
		for _, op := range res.Revision {
			for _, v := range op.Versions {
				if v.Name == "2024-01-01" && (v.Document == nil || v.Document.Next == nil || v.Document.Next.Name != "2025-01-01") {
					t.Errorf("full %v: %s@2024-01-01: next document %+v, want 2025-01-01", full, op.Name(), v.Document)
				}
			}
		}
	}
}

// TestCompareDocumentsKnown: a pair whose documents an earlier pair read
// (load.PairOptions.Known: a check's, for its fix offer) compares as a
// pair read afresh, the documents changed in place or new included.
func TestCompareDocumentsKnown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	docs := map[string]map[string]string{
		"base": {
			"api.2023-01-01.yaml": document(map[string]string{"/a": "string"}),
			"api.2024-01-01.yaml": document(map[string]string{"/a": "string", "/b": "string"}),
		},
		"revision": {
			"api.2023-01-01.yaml": document(map[string]string{"/a": "string"}),
			"api.2024-01-01.yaml": document(map[string]string{"/a": "integer", "/b": "string"}),
			"api.2025-01-01.yaml": document(map[string]string{"/a": "boolean", "/c": "string"}),
		},
	}
	read := func() (base, revision *specs.DocumentSet) {
		return writeDocuments(t, filepath.Join(dir, "base"), docs["base"]), writeDocuments(t, filepath.Join(dir, "revision"), docs["revision"])
	}
	compare := func(known *load.DocumentPair) (*load.DocumentPair, string) {
		base, revision := read()
		pair, err := load.LoadDocumentPair(base, revision, load.PairOptions{Known: known})
		if err != nil {
			t.Fatal(err)
		}
		res, err := diff.CompareDocuments(pair, diff.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return pair, describe(res)
	}
	first, want := compare(nil)
	if _, got := compare(first); got != want {
		t.Errorf("known from an earlier pair:\n%s\nread afresh:\n%s", got, want)
	}
}

// TestCompareDocumentsReloaded: a fix's new document holds the text of the
// revision's newest, its restored one the base's: the check of the fixed
// documents takes the copies the check loaded from the same texts, and
// their diff (DocumentDiffs), and compares as a pair read afresh, its
// locations naming the fixed files.
func TestCompareDocumentsReloaded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old, changed := document(map[string]string{"/a": "string", "/b": "string"}), document(map[string]string{"/a": "integer", "/b": "string"})
	base := writeDocuments(t, filepath.Join(dir, "base"), map[string]string{"api.2024-01-01.yaml": old})
	revision := writeDocuments(t, filepath.Join(dir, "revision"), map[string]string{"api.2024-01-01.yaml": changed})
	checked, err := load.LoadDocumentPair(base, revision, load.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	diffs := &diff.DocumentDiffs{}
	if _, err := diff.CompareDocuments(checked, diff.Options{DocumentDiffs: diffs}); err != nil {
		t.Fatal(err)
	}
	var copies []*openapi3.T
	for _, c := range checked.Comparisons {
		copies = append(copies, c.BaseSnapshot.Doc, c.RevisionSnapshot.Doc)
	}
	fixedDocs := map[string]string{"api.2024-01-01.yaml": old, "api.2025-01-01.yaml": changed}
	compare := func(known *load.DocumentPair) (*load.DocumentPair, string) {
		base := writeDocuments(t, filepath.Join(dir, "base"), map[string]string{"api.2024-01-01.yaml": old})
		fixed := writeDocuments(t, filepath.Join(dir, "fixed"), fixedDocs)
		pair, err := load.LoadDocumentPair(base, fixed, load.PairOptions{Known: known})
		if err != nil {
			t.Fatal(err)
		}
		opts := diff.Options{}
		if known != nil {
			opts.DocumentDiffs = diffs
		}
		res, err := diff.CompareDocuments(pair, opts)
		if err != nil {
			t.Fatal(err)
		}
		return pair, describe(res)
	}
	_, want := compare(nil)
	pair, got := compare(checked)
	if got != want {
		t.Errorf("with the check's copies:\n%s\nloaded afresh:\n%s", got, want)
	}
	if !strings.Contains(want, "api.2025-01-01.yaml") {
		t.Fatalf("no change located in the new document: the case no longer tests the reuse\n%s", want)
	}
	reused := false
	for _, c := range pair.Comparisons {
		for _, s := range []*specs.Snapshot{c.BaseSnapshot, c.RevisionSnapshot} {
			reused = reused || s != nil && slices.Contains(copies, s.Doc)
		}
	}
	if !reused {
		t.Error("the fixed documents' comparison loaded its copies again")
	}
}

// describe is a result's pairs and changes, one pair a line, with where
// each change is.
func describe(res *diff.Result) string {
	var out strings.Builder
	for _, p := range res.Pairs {
		fmt.Fprintf(&out, "%s@%s %s from %q:", p.Operation, p.Version, p.Kind, p.Predecessor)
		for _, c := range p.Changes {
			fmt.Fprintf(&out, " %s %s %+v", c.ID, c.Version, c.Location)
		}
		out.WriteString("\n")
	}
	for _, c := range res.Document {
		fmt.Fprintf(&out, "document: %s %+v\n", c.ID, c.Location)
	}
	return out.String()
}
