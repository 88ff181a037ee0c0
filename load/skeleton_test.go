package load_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
)

// operationFacts is what the version model, the policy and the lifecycle
// rules read of an operation, one line each: its name and line, its
// versions with their dates, levels, lines, sunsets and deprecations,
// its invalid versions, and where its deprecated and x-sunset fields are.
func operationFacts(ops []*versions.Operation) []string {
	var out []string
	for _, op := range ops {
		line := fmt.Sprintf("%s line %d level %q unversioned %v invalid %v", op.Name(), op.Line(), op.Level(), op.Unversioned != nil, op.Invalid)
		if op.Op.Origin != nil {
			for _, field := range []string{"deprecated", "x-sunset"} {
				if l, ok := op.Op.Origin.Fields.Lookup(field); ok {
					line += fmt.Sprintf(" %s at %d", field, l.Line)
				}
			}
		}
		for _, v := range append(append([]versions.Version{}, op.Versions...), op.PreRelease...) {
			line += fmt.Sprintf("; %s %v pre %v %q retired %v line %d sunset %v deprecated %v", v.Name, v.Date, v.PreRelease, v.Stability, v.Retired, op.VersionLine(v.Name), op.Sunset(v.Name), op.Deprecated(v.Name))
		}
		out = append(out, line)
	}
	return out
}

// Unchanged operations are not loaded by kin-openapi but built from the
// parse tree (prune.Skeleton): every fact read of them must be what the
// whole load gives, on every pair of consecutive snapshots of the public
// API.
func TestBuiltSkeletonsReadAsLoaded(t *testing.T) {
	dir := corpus.Shared(t)
	names := corpus.Names(t)
	for i := 1; i < len(names); i++ {
		t.Run(strings.TrimSuffix(names[i], ".yaml"), func(t *testing.T) {
			a, b := filepath.Join(dir, names[i-1]), filepath.Join(dir, names[i])
			fullBase, fullRev, err := load.LoadDiffPair(a, b, specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{Full: true})
			if err != nil {
				t.Fatal(err)
			}
			base, rev, err := load.LoadDiffPair(a, b, specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, pair := range [][2]*openapi3.T{{fullBase.Doc, base.Doc}, {fullRev.Doc, rev.Doc}} {
				if diff := cmp.Diff(operationFacts(versions.Operations(pair[0], "atlas")), operationFacts(versions.Operations(pair[1], "atlas"))); diff != "" {
					t.Errorf("facts of the reduced load differ from the whole load's (-whole +reduced):\n%s", diff)
				}
			}
		})
	}
}
