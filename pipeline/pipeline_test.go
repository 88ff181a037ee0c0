package pipeline_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
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
	_, err = pipeline.ReadHistory(cfg, []string{files[0] + "@2023-13-01"})
	var usage *pipeline.UsageError
	if !errors.As(err, &usage) {
		t.Errorf("a date that is not one: got %v, want a UsageError", err)
	}
}
