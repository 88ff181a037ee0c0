package load_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
)

// A snapshot of a history loads once for its comparisons with both
// neighbours: every operation either plan finds changed is whole, as the
// whole load has it but for the descriptions and examples no diff
// compares, and the text is reduced all the same.
func TestLoadForComparisonsKeepsWhatEitherPairChanged(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("../testdata/seed-history/example-*.yaml")
	if err != nil || len(paths) < 3 {
		t.Fatalf("seed history: %v", err)
	}
	sources := make([]*specs.Source, len(paths))
	for i, path := range paths {
		if sources[i], err = specs.Read(path, specs.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i+1 < len(paths); i++ {
		var notes []string
		reduced, err := load.LoadForComparisons(sources[i], []*specs.Source{sources[i-1], sources[i+1]},
			load.PairOptions{Note: func(note string) { notes = append(notes, note) }})
		if err != nil {
			t.Fatal(err)
		}
		whole, err := load.Load(paths[i], specs.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !reduced.Reduced {
			t.Errorf("%s: loaded whole: %q", paths[i], notes)
		}
		before, _ := load.PlanPair(sources[i-1], sources[i])
		after, _ := load.PlanPair(sources[i], sources[i+1])
		changed := 0
		for path, item := range whole.Doc.Paths.Map() {
			for method, op := range item.Operations() {
				name := strings.ToUpper(method) + " " + path
				if before.OperationUnchanged(name) && after.OperationUnchanged(name) {
					continue
				}
				changed++
				if got, want := marshal(t, reduced.Doc.Paths.Value(path).GetOperation(method)), marshal(t, op); got != want {
					t.Errorf("%s %s: changed next to a neighbour, but not whole:\n%s\nwant\n%s", paths[i], name, got, want)
				}
			}
		}
		if changed == 0 {
			t.Errorf("%s: no operation changed next to a neighbour; the case tests nothing", paths[i])
		}
	}
}

// marshal is v's JSON without descriptions and examples.
func marshal(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var tree any
	if err := json.Unmarshal(data, &tree); err != nil {
		t.Fatal(err)
	}
	var strip func(any)
	strip = func(n any) {
		switch n := n.(type) {
		case map[string]any:
			delete(n, "description")
			delete(n, "example")
			for _, c := range n {
				strip(c)
			}
		case []any:
			for _, c := range n {
				strip(c)
			}
		}
	}
	strip(tree)
	if data, err = json.Marshal(tree); err != nil {
		t.Fatal(err)
	}
	return string(data)
}
