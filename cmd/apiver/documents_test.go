package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/load"
)

// TestDocumentPipelinesAgree splits each seed snapshot into its version
// documents and runs check, diff, versions and changelog build on
// consecutive ones through both pipelines: the fast one (documents diffed once where they
// read the same, operations borrowed) must print what the full one prints.
// The document form must also find every error the media-type form finds.
func TestDocumentPipelinesAgree(t *testing.T) {
	fastPipelineOnly(t)
	seed, err := filepath.Abs("../../testdata/seed-history")
	if err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(seed, "example-*.yaml"))
	if err != nil || len(names) < 2 {
		t.Fatalf("seed history: %v", err)
	}
	slices.Sort(names)
	work := t.TempDir()
	t.Chdir(work)
	// In YAML and in JSON, which the loader reads without lines.
	var dirs, jsonDirs []string
	for _, name := range names {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("history", dateOf(name))
		writeVersionDocuments(t, dir, "api.%s.yaml", parseDocument(t, name, text), "example")
		dirs = append(dirs, dir)
		jsonDir := filepath.Join("json", dateOf(name))
		writeVersionDocuments(t, jsonDir, "openapi-%s.json", parseDocument(t, name, text), "example")
		jsonDirs = append(jsonDirs, jsonDir)
	}
	for i := 1; i < len(dirs); i++ {
		dates := []string{"--base-date", dateOf(names[i-1]), "--revision-date", dateOf(names[i])}
		for _, verb := range []string{"check", "diff"} {
			agree(t, dirs[i], append([]string{verb, "--format", "json", dirs[i-1], dirs[i]}, dates...))
			agree(t, jsonDirs[i], append([]string{verb, "--format", "json", jsonDirs[i-1], jsonDirs[i]}, dates...))
		}
		// versions has no --full-pipeline; the environment asks for it.
		versions := []string{"versions", "--format", "json", "--date", dateOf(names[i]), dirs[i]}
		fast := runPipeline(false, versions)
		t.Setenv(load.FullPipelineEnv, "1")
		full := runPipeline(false, versions)
		t.Setenv(load.FullPipelineEnv, "")
		if fast.String() != full.String() || fast.code != exitPass {
			t.Errorf("apiver %s: the fast pipeline gives\n%s\nthe full one\n%s", strings.Join(versions, " "), fast, full)
		}
		mediaType := checkFindings(t, append([]string{"check", "--format", "json", names[i-1], names[i]}, dates...))
		documents := checkFindings(t, append([]string{"check", "--format", "json", dirs[i-1], dirs[i]}, dates...))
		found := map[string]bool{}
		for _, f := range documents {
			found[f.key()] = true
		}
		for _, f := range mediaType {
			if f.Severity == "error" && !f.Exempted && !found[f.key()] {
				t.Errorf("%s → %s: the media-type form finds the error %s; the document form does not", dateOf(names[i-1]), dateOf(names[i]), f.key())
			}
		}
	}
	agree(t, "history", []string{"changelog", "build", "history"})
}

// TestDocumentInputErrorsNotHidden: a part the loader refuses, in a
// document that did not change (whose operations the fast pass takes from
// another document), or in a component nothing reaches, fails the check as
// the whole load does, with its message.
func TestDocumentInputErrorsNotHidden(t *testing.T) {
	fastPipelineOnly(t)
	t.Chdir(t.TempDir())
	doc := func(deprecated, maxLength, unused string) []byte {
		return []byte(`openapi: 3.0.3
info: {title: x, version: "1"}
paths:
  /a:
    get:
      deprecated: ` + deprecated + `
      responses:
        "200": {description: ok}
  /b:
    post:
      requestBody:
        content:
          application/json:
            schema: {type: string` + maxLength + `}
      responses:
        "200": {description: ok}
components:
  schemas:
    Unused: {type: string` + unused + `}
`)
	}
	for _, tc := range []struct {
		name, wantFile string
		older, newest  string // what the documents of both sides hold
	}{
		{"an unchanged older document", "api.2023-01-01.yaml", `"yes"`, ""},
		{"a component nothing reaches, in the newest document", "api.2024-01-01.yaml", "false", ", nullable: 3"},
	} {
		older := doc(tc.older, "", "")
		writeCaseFile(t, filepath.Join(tc.name, "base", "api.2023-01-01.yaml"), older)
		writeCaseFile(t, filepath.Join(tc.name, "revision", "api.2023-01-01.yaml"), older)
		writeCaseFile(t, filepath.Join(tc.name, "base", "api.2024-01-01.yaml"), doc("false", "", tc.newest))
		writeCaseFile(t, filepath.Join(tc.name, "revision", "api.2024-01-01.yaml"), doc("false", ", maxLength: 10", tc.newest))
		for _, verb := range []string{"check", "diff"} {
			full, _ := agree(t, tc.name, []string{verb, filepath.Join(tc.name, "base"), filepath.Join(tc.name, "revision"), "--date", "2024-06-01"})
			if full.code != exitInput || !strings.Contains(full.stderr, tc.wantFile) {
				t.Errorf("%s: apiver %s: want exit 2 naming %s, got %s", tc.name, verb, tc.wantFile, full)
			}
		}
	}
}

// TestResourcePipelinesAgree splits each seed snapshot into a resource tree
// (splitResourceTree: a resource version declares only the operations with
// that version, the others carry forward) and runs check, diff, versions
// and changelog build on consecutive ones through both pipelines, which
// must print the same; and the tree must find the errors the media-type
// form finds, no more (an operation carried forward is no removal) and no
// fewer. The example tree of docs/documents.md goes through both
// pipelines too.
func TestResourcePipelinesAgree(t *testing.T) {
	fastPipelineOnly(t)
	seed, err := filepath.Abs("../../testdata/seed-history")
	if err != nil {
		t.Fatal(err)
	}
	example, err := filepath.Abs("../../testdata/resource-tree")
	if err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(seed, "example-*.yaml"))
	if err != nil || len(names) < 2 {
		t.Fatalf("seed history: %v", err)
	}
	slices.Sort(names)
	t.Chdir(t.TempDir())
	if err := os.WriteFile("resource.yaml", []byte("versioning:\n  by: resource\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, name := range names {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("trees", dateOf(name))
		writeResourceTree(t, dir, text, "example")
		dirs = append(dirs, dir)
	}
	for i := 1; i < len(dirs); i++ {
		dates := []string{"--base-date", dateOf(names[i-1]), "--revision-date", dateOf(names[i]), "--config", "resource.yaml"}
		for _, verb := range []string{"check", "diff"} {
			agree(t, dirs[i], append([]string{verb, "--format", "json", dirs[i-1], dirs[i]}, dates...))
		}
		versions := []string{"versions", "--format", "json", "--config", "resource.yaml", "--date", dateOf(names[i]), dirs[i]}
		fast := runPipeline(false, versions)
		t.Setenv(load.FullPipelineEnv, "1")
		full := runPipeline(false, versions)
		t.Setenv(load.FullPipelineEnv, "")
		if fast.String() != full.String() || fast.code != exitPass {
			t.Errorf("apiver %s: the fast pipeline gives\n%s\nthe full one\n%s", strings.Join(versions, " "), fast, full)
		}
		mediaType := checkFindings(t, append([]string{"check", "--format", "json", names[i-1], names[i]}, dates[:4]...))
		tree := checkFindings(t, append([]string{"check", "--format", "json", dirs[i-1], dirs[i]}, dates...))
		errors := func(findings []checkFinding) map[string]bool {
			out := map[string]bool{}
			for _, f := range findings {
				if f.Severity == "error" && !f.Exempted {
					out[f.key()] = true
				}
			}
			return out
		}
		inTree, inMediaType := errors(tree), errors(mediaType)
		for _, k := range slices.Sorted(maps.Keys(inMediaType)) {
			if !inTree[k] {
				t.Errorf("%s → %s: the media-type form finds the error %s; the resource tree does not", dateOf(names[i-1]), dateOf(names[i]), k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(inTree)) {
			if !inMediaType[k] {
				t.Errorf("%s → %s: the resource tree finds the error %s; the media-type form does not", dateOf(names[i-1]), dateOf(names[i]), k)
			}
		}
	}
	agree(t, "tree history", []string{"changelog", "build", "--config", "resource.yaml", dirs[0], dirs[1], dirs[2]})
	base, revision := filepath.Join(example, "base"), filepath.Join(example, "revision")
	for _, verb := range []string{"check", "diff"} {
		agree(t, "example tree", []string{verb, "--format", "json", "--date", "2024-06-01", base, revision})
	}
	agree(t, "example tree history", []string{"changelog", "build", revision})
}
