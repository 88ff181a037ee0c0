package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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

// TestDocumentWebhooksAndCallbacks: the operations of a version document
// outside its paths (webhooks, and callbacks under its operations) are
// judged and listed at every version as those under paths are, by both
// pipelines alike: a webhook's in-place change fails the check, in the
// newest document or an older one, and so do a change of a component only
// a webhook reads (the same in two documents) and a webhook dropped from a
// released document.
func TestDocumentWebhooksAndCallbacks(t *testing.T) {
	fastPipelineOnly(t)
	const webhook = `openapi: 3.1.0
info: {title: Items, version: "1.0"}
paths: {}
components:
  schemas:
    Item:
      type: object
      properties:
        size: {type: integer}
webhooks:
  itemCreated:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                id: {type: string}
                item: {$ref: '#/components/schemas/Item'}
      responses:
        '200': {description: OK}
`
	const callback = `openapi: 3.1.0
info: {title: Items, version: "1.0"}
paths:
  /items:
    post:
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {callbackUrl: {type: string}}}
      responses:
        '202': {description: Accepted}
      callbacks:
        itemReady:
          '{$request.body#/callbackUrl}':
            post:
              requestBody:
                content:
                  application/json:
                    schema: {type: object, properties: {id: {type: string}}}
              responses:
                '200': {description: Received}
`
	const older, newer = "api.2024-01-01.yaml", "api.2024-02-01.yaml"
	replace := func(text, old, new string) string {
		if !strings.Contains(text, old) {
			t.Fatalf("%q is not in the document", old)
		}
		return strings.Replace(text, old, new, 1)
	}
	cases := []struct {
		name      string
		base      string
		revision  map[string]string // the revision's documents, the base's both when absent
		operation string            // the operation the error is at, "" for a pass
		rule      string
	}{
		{"webhook changed in the newest document", webhook, map[string]string{newer: replace(webhook, "id: {type: string}", "id: {type: integer}")}, "POST webhook:itemCreated", "breaking-change-without-new-version"},
		{"webhook changed in an older document", webhook, map[string]string{older: replace(webhook, "id: {type: string}", "id: {type: integer}")}, "POST webhook:itemCreated", "breaking-change-without-new-version"},
		{"component only a webhook reads, changed in both", webhook, map[string]string{
			older: replace(webhook, "size: {type: integer}", "size: {type: string}"),
			newer: replace(webhook, "size: {type: integer}", "size: {type: string}")}, "POST webhook:itemCreated", "breaking-change-without-new-version"},
		{"webhook dropped from a released document", webhook, map[string]string{newer: webhook[:strings.Index(webhook, "webhooks:")]}, "POST webhook:itemCreated", "version-removed-before-sunset"},
		{"callback changed in the newest document", callback, map[string]string{newer: replace(callback, "id: {type: string}", "id: {type: integer}")}, "POST /items callback itemReady {$request.body#/callbackUrl} POST", "breaking-change-without-new-version"},
		{"callback unchanged", callback, nil, "", ""},
	}
	t.Chdir(t.TempDir())
	write := func(dir string, docs map[string]string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range docs {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, c := range cases {
		base, revision := filepath.Join(fmt.Sprint(i), "base"), filepath.Join(fmt.Sprint(i), "revision")
		write(base, map[string]string{older: c.base, newer: c.base})
		write(revision, map[string]string{older: c.base, newer: c.base})
		write(revision, c.revision)
		for _, verb := range []string{"check", "diff"} {
			agree(t, c.name, []string{verb, "--format", "json", "--revision-date", "2024-03-01", base, revision})
		}
		var errs []string
		for _, f := range checkFindings(t, []string{"check", "--format", "json", "--revision-date", "2024-03-01", base, revision}) {
			if f.Severity == "error" {
				errs = append(errs, f.Operation+" "+f.Rule)
			}
		}
		var want []string
		if c.operation != "" {
			want = []string{c.operation + " " + c.rule}
		}
		if !slices.Equal(slices.Compact(slices.Sorted(slices.Values(errs))), want) {
			t.Errorf("%s: errors %q, want %q", c.name, errs, want)
		}
		// Every document holds the operations, at its version.
		versions := []string{"versions", "--format", "json", "--date", "2024-03-01", base}
		fast := runPipeline(false, versions)
		t.Setenv(load.FullPipelineEnv, "1")
		full := runPipeline(false, versions)
		t.Setenv(load.FullPipelineEnv, "")
		if fast.String() != full.String() || fast.code != exitPass {
			t.Errorf("%s: apiver %s: the fast pipeline gives\n%s\nthe full one\n%s", c.name, strings.Join(versions, " "), fast, full)
		}
		var listed struct {
			Versions []struct {
				Operation, Version string
			}
		}
		if err := json.Unmarshal([]byte(fast.stdout), &listed); err != nil {
			t.Fatal(err)
		}
		at := map[string]int{}
		for _, v := range listed.Versions {
			at[v.Operation]++
		}
		for op, n := range at {
			if n != 2 {
				t.Errorf("%s: %s is listed at %d versions, want 2 (one a document)", c.name, op, n)
			}
		}
	}
}

// TestDocumentRootStability: a beta document says so at its root. Its
// operations' stability is its own, never the stable document's that they
// are read alongside: the stable version removed before its sunset is an
// error in both pipelines, and both list the same versions.
func TestDocumentRootStability(t *testing.T) {
	fastPipelineOnly(t)
	const stable = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: {type: string}
`
	beta := strings.Replace(stable, "paths:", "x-stability-level: beta\npaths:", 1)
	t.Chdir(t.TempDir())
	writeFiles(t, ".", map[string]string{
		"base/2024-01-01/spec.yaml":          stable,
		"base/2024-02-01~beta/spec.yaml":     beta,
		"revision/2024-02-01~beta/spec.yaml": beta,
	})
	args := []string{"check", "--format", "json", "--revision-date", "2024-03-01", "base", "revision"}
	agree(t, "stable version removed", args)
	var errs []string
	for _, f := range checkFindings(t, args) {
		if f.Severity == "error" {
			errs = append(errs, f.Operation+" "+f.Rule)
		}
	}
	if want := []string{"GET /a version-removed-before-sunset"}; !slices.Equal(errs, want) {
		t.Errorf("errors %q, want %q", errs, want)
	}
	versions := []string{"versions", "--format", "json", "--date", "2024-03-01", "base"}
	fast := runPipeline(false, versions)
	t.Setenv(load.FullPipelineEnv, "1")
	full := runPipeline(false, versions)
	if fast.String() != full.String() {
		t.Errorf("apiver %s: the fast pipeline gives\n%s\nthe full one\n%s", strings.Join(versions, " "), fast, full)
	}
}

// TestDocumentJSONCompactAndIndented: a version document in JSON, compact
// on one side and indented on the other; a removal is annotated on the
// same revision line by both pipelines.
func TestDocumentJSONCompactAndIndented(t *testing.T) {
	fastPipelineOnly(t)
	const compact = `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/targets": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"name": {"type": "string", "enum": ["a"]}, "id": {"type": "string"}}, "required": ["name"]}}}}}}}}}`
	var doc any
	if err := json.Unmarshal([]byte(compact), &doc); err != nil {
		t.Fatal(err)
	}
	schema := doc.(map[string]any)["paths"].(map[string]any)["/targets"].(map[string]any)["get"].(map[string]any)["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
	delete(schema["properties"].(map[string]any)["name"].(map[string]any), "enum")
	schema["required"] = []any{}
	indented, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for path, text := range map[string]string{"b/api.2024-03-01.json": compact, "r/api.2024-03-01.json": string(indented)} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"json", "githubactions"} {
		agree(t, "compact base, indented revision", []string{"check", "--format", format, "--base-date", "2024-05-15", "--revision-date", "2024-09-15", "b", "r"})
		agree(t, "indented base, compact revision", []string{"check", "--format", format, "--base-date", "2024-05-15", "--revision-date", "2024-09-15", "r", "b"})
	}
}

// TestRetiringIsRemoving: marking a served version no longer served
// (x-snyk-api-lifecycle: sunset) before its sunset is judged as its
// removal would be, in both pipelines; once its sunset has come, it is
// allowed.
func TestRetiringIsRemoving(t *testing.T) {
	fastPipelineOnly(t)
	spec := func(root string) string {
		return `openapi: 3.0.3
` + root + `info: {title: projects, version: "3"}
paths:
  /orgs/{org_id}/projects:
    get:
      parameters:
        - {name: org_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/vnd.api+json:
              schema: {type: object, properties: {id: {type: string}}}
`
	}
	t.Chdir(t.TempDir())
	writeFiles(t, ".", map[string]string{
		"base/projects/2024-01-10/spec.yaml":     spec(""),
		"base/projects/2024-05-01/spec.yaml":     spec(""),
		"revision/projects/2024-01-10/spec.yaml": spec("x-snyk-api-lifecycle: sunset\n"),
		"revision/projects/2024-05-01/spec.yaml": spec(""),
	})
	for date, want := range map[string][]string{
		"2024-06-01": {"GET /orgs/{org_id}/projects version-removed-before-sunset"},
		"2025-06-01": nil,
	} {
		args := []string{"check", "--format", "json", "--base-date", "2024-05-01", "--revision-date", date, "base", "revision"}
		agree(t, "retired on "+date, args)
		var errs []string
		for _, f := range checkFindings(t, args) {
			if f.Severity == "error" {
				errs = append(errs, f.Operation+" "+f.Rule)
			}
		}
		if !slices.Equal(errs, want) {
			t.Errorf("retired on %s: errors %q, want %q", date, errs, want)
		}
	}
	// A retired version serves no client: a change inside it breaks none.
	writeFiles(t, ".", map[string]string{
		"changed/projects/2024-01-10/spec.yaml": strings.Replace(spec("x-snyk-api-lifecycle: sunset\n"), "id: {type: string}", "id: {type: integer}", 1),
		"changed/projects/2024-05-01/spec.yaml": spec(""),
	})
	args := []string{"check", "--format", "json", "--base-date", "2024-06-01", "--revision-date", "2024-06-02", "revision", "changed"}
	if full, _ := agree(t, "retired version changed", args); full.code != exitPass {
		t.Errorf("a change inside a retired version: exit %d, want a pass:\n%s", full.code, full.stdout)
	}
}

// TestFixDocumentsIntoFolderRefusesSharedFiles: -o FOLDER writes the
// documents only, so documents that $ref another file are refused there,
// with nothing written, instead of a set that does not load.
func TestFixDocumentsIntoFolderRefusesSharedFiles(t *testing.T) {
	fastPipelineOnly(t)
	doc := func(enum string) string {
		return `openapi: 3.0.3
info: {title: t, version: "2024-01-01"}
paths:
  /w:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                c: {type: string, enum: [` + enum + `]}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: 'common/schemas.yaml#/components/schemas/E'
`
	}
	const schemas = "components:\n  schemas:\n    E: {type: object, properties: {m: {type: string}}}\n"
	t.Chdir(t.TempDir())
	writeFiles(t, ".", map[string]string{
		"base/api.2024-01-01.yaml": doc("R, G, B"), "base/common/schemas.yaml": schemas,
		"rev/api.2024-01-01.yaml": doc("R, G"), "rev/common/schemas.yaml": schemas,
	})
	code, _, stderr := runArgs(t, "fix", "base", "rev", "--version", "2024-03-01", "-o", "out")
	if code != exitInput || !strings.Contains(stderr, `$ref "common/schemas.yaml#/components/schemas/E" names a file that -o out would not hold`) {
		t.Errorf("fix -o out: exit %d, %s; want exit 2 naming the $ref", code, stderr)
	}
	if _, err := os.Stat("out"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("out was made: %v", err)
	}
}

// TestFixDocumentsChangedThroughASharedFile: a change made only in a file
// the documents $ref is not fixable by copying documents back: nothing is
// written, nothing claimed restored, and the errors are listed.
func TestFixDocumentsChangedThroughASharedFile(t *testing.T) {
	fastPipelineOnly(t)
	const doc = `openapi: 3.0.3
info: {title: t, version: "2024-01-01"}
paths:
  /w:
    post:
      requestBody:
        content:
          application/json:
            schema:
              $ref: 'common/schemas.yaml#/components/schemas/E'
      responses:
        "200": {description: ok}
`
	schemas := func(enum string) string {
		return "components:\n  schemas:\n    E: {type: object, properties: {c: {type: string, enum: [" + enum + "]}}}\n"
	}
	t.Chdir(t.TempDir())
	writeFiles(t, ".", map[string]string{
		"base/api.2024-01-01.yaml": doc, "base/common/schemas.yaml": schemas("R, G, B"),
		"rev/api.2024-01-01.yaml": doc, "rev/common/schemas.yaml": schemas("R, G"),
	})
	code, _, stderr := runArgs(t, "fix", "base", "rev", "--version", "2024-03-01")
	if code != exitPolicy || strings.Contains(stderr, "restored") || !strings.Contains(stderr, "not fixable: POST /w 2024-01-01") {
		t.Errorf("fix: exit %d, %s; want exit 1 listing the error as not fixable, nothing restored", code, stderr)
	}
	if entries, _ := os.ReadDir("rev"); len(entries) != 2 {
		t.Errorf("rev holds %d entries, want its 2 as they were", len(entries))
	}
	if got, _ := os.ReadFile("rev/api.2024-01-01.yaml"); string(got) != doc {
		t.Error("the revision's document changed")
	}
}
