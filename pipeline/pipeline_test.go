package pipeline_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

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

func TestCompareFolderWithFile(t *testing.T) {
	_, err := pipeline.Compare(seed, filepath.Join(seed, "example-2026-02-09.yaml"), pipeline.Options{Config: policy.DefaultConfig()})
	var usage *pipeline.UsageError
	if !errors.As(err, &usage) {
		t.Fatalf("a folder compared with a file: got %v, want a UsageError", err)
	}
}
