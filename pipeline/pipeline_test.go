package pipeline_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/google/go-cmp/cmp"
)

var seed = filepath.Join("..", "testdata", "seed-history")

func Example() {
	report, err := pipeline.Check(filepath.Join(seed, "example-2026-02-08.yaml"), filepath.Join(seed, "example-2026-02-09.yaml"),
		pipeline.Options{Config: policy.DefaultConfig()})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fails:", report.Failed(policy.Error))
	// Output: fails: true
}

// The fix offer names the breaking changes that `apiver fix` resolves:
// on the example service's release, every fixable one, through either
// pipeline.
func TestFixedBy(t *testing.T) {
	for _, full := range []bool{false, true} {
		opts := pipeline.Options{Config: policy.DefaultConfig(), Reuse: pipeline.Reloadable, Full: full}
		c, err := pipeline.Compare(filepath.Join(seed, "example-2026-02-08.yaml"), filepath.Join(seed, "example-2026-02-09.yaml"), opts)
		if err != nil {
			t.Fatal(err)
		}
		report := c.Check()
		fixed := c.FixedBy(report)
		var want []bool
		for _, f := range report.Findings {
			want = append(want, f.Fixable())
		}
		if !slices.Contains(want, true) {
			t.Fatal("no fixable finding: the pair no longer tests the offer")
		}
		if diff := cmp.Diff(want, fixed); diff != "" {
			t.Errorf("full pipeline %v: FixedBy differs from the fixable findings (-want +got):\n%s", full, diff)
		}
	}
}

// Version documents are fixed by fix.Documents: Fix says so rather than
// read a folder as one file.
func TestFixRefusesDocuments(t *testing.T) {
	tree := filepath.Join("..", "testdata", "resource-tree")
	c, err := pipeline.Compare(filepath.Join(tree, "base"), filepath.Join(tree, "revision"), pipeline.Options{Config: policy.DefaultConfig(), Reuse: pipeline.KeptParsed})
	if err != nil {
		t.Fatal(err)
	}
	if c.Documents == nil {
		t.Fatal("a resource tree compared as files")
	}
	if _, _, err := c.Fix(c.Check(), civil.Date{}); err == nil {
		t.Error("Fix of version documents: got no error")
	}
}

func TestCompareFolderWithFile(t *testing.T) {
	_, err := pipeline.Compare(seed, filepath.Join(seed, "example-2026-02-09.yaml"), pipeline.Options{Config: policy.DefaultConfig()})
	var usage *pipeline.UsageError
	if !errors.As(err, &usage) {
		t.Fatalf("a folder compared with a file: got %v, want a UsageError", err)
	}
}

func TestReadHistory(t *testing.T) {
	cfg := policy.DefaultConfig()
	h, err := pipeline.ReadHistory(cfg, []string{seed})
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(seed, "example-*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(pipeline.History{Paths: files}, h); diff != "" {
		t.Errorf("a folder of dated snapshot files (-want +got):\n%s", diff)
	}
	named := []string{files[0], files[1] + "@2023-02-02"}
	h, err = pipeline.ReadHistory(cfg, named)
	if err != nil {
		t.Fatal(err)
	}
	want := pipeline.History{Paths: files[:2], Dates: []civil.Date{{}, {Year: 2023, Month: 2, Day: 2}}}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Errorf("snapshots named one by one (-want +got):\n%s", diff)
	}
	// A snapshot whose name holds no real date is refused, not left out.
	dir := t.TempDir()
	for i, name := range []string{"example-2026-02-08.yaml", "example-2026-02-30.yaml"} {
		data, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pipeline.ReadHistory(cfg, []string{dir}); err == nil || !strings.Contains(err.Error(), "example-2026-02-30.yaml: file name holds \"2026-02-30\", which is not a real date") {
		t.Errorf("a folder with a snapshot named 2026-02-30: got %v, want its refusal", err)
	}
	_, err = pipeline.ReadHistory(cfg, []string{files[0] + "@2023-13-01"})
	var usage *pipeline.UsageError
	if !errors.As(err, &usage) {
		t.Errorf("a date that is not one: got %v, want a UsageError", err)
	}
}

// The check of a fix's result reads what lies outside the operations as
// the whole comparison would: a schema the revision removed and the fix
// leaves out is still removed (its change read from the check), and one
// the fix restores is not (read again), through either pipeline.
func TestFixLeavesWhatLiesOutsideOperations(t *testing.T) {
	dir := t.TempDir()
	base := `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /things:
    post:
      requestBody:
        content:
          application/vnd.example.2024-01-01+json:
            schema: {$ref: '#/components/schemas/Thing'}
      responses:
        '200':
          description: OK
          content:
            application/vnd.example.2024-01-01+json:
              schema: {$ref: '#/components/schemas/Other'}
  /others:
    get:
      responses:
        '200':
          description: OK
          content:
            application/vnd.example.2024-01-01+json:
              schema: {$ref: '#/components/schemas/Other'}
components:
  schemas:
    Thing:
      type: object
      properties:
        kind: {type: string, enum: [a, b]}
        detail: {$ref: '#/components/schemas/Detail'}
    Detail: {type: string, maxLength: 5}
    Other: {type: object, properties: {name: {type: string}}}
    Kept: {type: integer}
`
	// The revision removes the request's enum value b (fixable), Detail
	// with the property that used it (restored by the fix) and Kept (not
	// fixable).
	revision := strings.NewReplacer("enum: [a, b]", "enum: [a]",
		"        detail: {$ref: '#/components/schemas/Detail'}\n", "",
		"    Detail: {type: string, maxLength: 5}\n", "",
		"    Kept: {type: integer}\n", "").Replace(base)
	basePath, revisionPath := filepath.Join(dir, "x-2024-01-01.yaml"), filepath.Join(dir, "x-2024-02-01.yaml")
	for path, text := range map[string]string{basePath: base, revisionPath: revision} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := policy.ParseConfig("apiver.yaml", []byte("severity:\n  api-schema-removed: error\n"))
	if err != nil {
		t.Fatal(err)
	}
	type finding struct{ Rule, Operation, Version, Change string }
	want := []finding{{"breaking-change-without-new-version", "", "", "api-schema-removed"}}
	for _, full := range []bool{false, true} {
		c, err := pipeline.Compare(basePath, revisionPath, pipeline.Options{Config: cfg, Reuse: pipeline.Reloadable, Full: full})
		if err != nil {
			t.Fatal(err)
		}
		report := c.Check()
		failed := 0
		for _, f := range report.Findings {
			if f.Severity == policy.Error {
				failed++
			}
		}
		if failed != 3 {
			t.Fatalf("full pipeline %v: the check finds %d errors, want 3 (the enum value and two schemas): the pair no longer tests the fix", full, failed)
		}
		_, left, err := c.Fix(report, civil.Date{})
		if err != nil {
			t.Fatal(err)
		}
		var got []finding
		for _, f := range left.Findings {
			if f.Severity == policy.Error {
				got = append(got, finding{f.Rule, f.Operation, f.Version, f.Change})
				if f.Location == nil || f.Location.Line != 33 {
					t.Errorf("full pipeline %v: %s at %+v, want line 33 of the base (Kept)", full, f.Change, f.Location)
				}
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("full pipeline %v: the errors the fix leaves (-want +got):\n%s", full, diff)
		}
	}
}
