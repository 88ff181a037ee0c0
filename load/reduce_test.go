package load_test

import (
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/spectest"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// loadRulePair writes the snapshots of a rule case and loads them as a
// comparison does, returning the notes.
func loadRulePair(t *testing.T, full bool) (base, revision *specs.Snapshot, notes []string) {
	t.Helper()
	archive, err := txtar.ParseFile("../testdata/rules/diff/reduced-pipeline.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for _, f := range archive.Files {
		if strings.HasSuffix(f.Name, ".yaml") {
			paths = append(paths, spectest.WriteFile(t, dir, f.Name, string(f.Data)))
		}
	}
	note := func(s string) { notes = append(notes, s) }
	base, revision, err = load.LoadDiffPair(paths[0], paths[1], specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{Full: full, Note: note})
	if err != nil {
		t.Fatal(err)
	}
	return base, revision, notes
}

func TestReducedLoadKeepsSkeletonsAndLines(t *testing.T) {
	t.Parallel()
	fullBase, fullRev, _ := loadRulePair(t, true)
	base, revision, notes := loadRulePair(t, false)
	if !base.Reduced || !revision.Reduced || fullBase.Reduced {
		t.Fatalf("Reduced = %v, %v (full: %v), want true, true (false); notes %q", base.Reduced, revision.Reduced, fullBase.Reduced, notes)
	}
	for _, pair := range [][2]*specs.Snapshot{{fullBase, base}, {fullRev, revision}} {
		full, reduced := versions.Operations(pair[0].Doc, "zoo"), versions.Operations(pair[1].Doc, "zoo")
		if diff := cmp.Diff(operationFacts(full), operationFacts(reduced)); diff != "" {
			t.Errorf("facts of the reduced load differ from the whole load's (-whole +reduced):\n%s", diff)
		}
		if len(full) != len(reduced) {
			t.Fatalf("%d operations reduced, %d whole", len(reduced), len(full))
		}
		for i, op := range reduced {
			if op.Name() != full[i].Name() || op.Line() != full[i].Line() || len(op.Versions) != len(full[i].Versions) || op.Op.Deprecated != full[i].Op.Deprecated {
				t.Errorf("%s line %d: reduced skeleton differs from %s line %d", op.Name(), op.Line(), full[i].Name(), full[i].Line())
			}
			for _, v := range op.Versions {
				if op.VersionLine(v.Name) != full[i].VersionLine(v.Name) || op.Sunset(v.Name) != full[i].Sunset(v.Name) {
					t.Errorf("%s %s: version line or sunset differs", op.Name(), v.Name)
				}
			}
		}
	}
	// The unchanged GET /owners/{id}, whose response names no version,
	// keeps no response, but its deprecation; the unchanged GET /pets
	// keeps its versioned media type without a schema; the changed POST
	// /pets keeps its schemas.
	owners := revision.Doc.Paths.Value("/owners/{id}").Get
	if owners.Responses.Len() != 0 || !owners.Deprecated {
		t.Errorf("GET /owners/{id} kept %d responses, deprecated %v; want none, true", owners.Responses.Len(), owners.Deprecated)
	}
	pets := revision.Doc.Paths.Value("/pets").Get
	if mt := pets.Responses.Value("200").Value.Content["application/vnd.zoo.2024-01-01+json"]; mt == nil || (mt.Schema != nil && mt.Schema.Value != nil && mt.Schema.Value.Items != nil) {
		t.Errorf("GET /pets media type %+v, want it without its schema", mt)
	}
	post := revision.Doc.Paths.Value("/pets").Post
	if s := post.RequestBody.Value.Content["application/vnd.zoo.2024-01-01+json"].Schema; s == nil || s.Value == nil || len(s.Value.Required) != 1 {
		t.Errorf("POST /pets request schema lost what changed: %+v", s)
	}
	if _, ok := revision.Doc.Components.Schemas["Unused"]; ok {
		t.Error("the unused, unchanged component Unused was kept")
	}
}

// JSON, flow style and anchors are reduced like block YAML; what the
// reduction would have to interpret itself is loaded whole, with a note.
func TestReducedLoadFallsBack(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"json":   `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}`,
		"anchor": "openapi: 3.0.3\ninfo: &i {title: t, version: '1'}\npaths: {}\nx-i: *i\n",
		"flow":   "{openapi: 3.0.3, info: {title: t, version: '1'}, paths: {}}\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a, b := spectest.WriteFile(t, dir, "a.yaml", text), spectest.WriteFile(t, dir, "b.yaml", text)
			base, _, err := load.LoadDiffPair(a, b, specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !base.Reduced {
				t.Error("not reduced")
			}
		})
	}
	tests := map[string]string{
		"external": "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          $ref: 'other.yaml#/R'\n",
		"tag":      "openapi: 3.0.3\ninfo: {title: !!str t, version: '1'}\npaths: {}\n",
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			spectest.WriteFile(t, dir, "other.yaml", "R:\n  description: r\n")
			a := spectest.WriteFile(t, dir, "a.yaml", text)
			b := spectest.WriteFile(t, dir, "b.yaml", text)
			var notes []string
			base, _, err := load.LoadDiffPair(a, b, specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{Note: func(s string) { notes = append(notes, s) }})
			if err != nil {
				t.Fatal(err)
			}
			if base.Reduced || len(notes) != 1 || !strings.Contains(notes[0], "loaded whole") {
				t.Errorf("Reduced %v, notes %q: want a whole load and a note saying why", base.Reduced, notes)
			}
		})
	}
}

// TestReducedLoadReportsWholeErrors: an input error is the whole text's,
// even where the reduced text would have hidden it.
func TestReducedLoadReportsWholeErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	doc := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Missing'\n"
	a, b := spectest.WriteFile(t, dir, "a.yaml", doc), spectest.WriteFile(t, dir, "b.yaml", doc)
	_, _, errReduced := load.LoadDiffPair(a, b, specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{})
	_, _, errFull := load.LoadDiffPair(a, b, specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{Full: true})
	if errReduced == nil || errFull == nil || errReduced.Error() != errFull.Error() {
		t.Errorf("reduced load error %v, full %v: want the same error", errReduced, errFull)
	}
}
