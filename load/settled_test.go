package load_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/spectest"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
)

// manyOperations is a document of n operations whose response schemas
// require prop, in the operations from changedFrom on, and id in the others.
func manyOperations(n, changedFrom int, prop string) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n")
	for i := range n {
		required := "id"
		if i >= changedFrom {
			required = prop
		}
		fmt.Fprintf(&b, "  /things%d:\n    get:\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/vnd.zoo.2024-01-01+json:\n              schema:\n                type: object\n                required: [%s]\n                properties:\n                  id: {type: string}\n                  %s: {type: string}\n", i, required, prop)
	}
	return b.String()
}

// The collector is told once a pull request's pair is settled: parsed,
// reduced to small texts and kept for a fix offer; not for a pair whose
// texts stay large, nor for one whose trees go.
func TestSettledOnlyForSmallKeptPairs(t *testing.T) {
	t.Parallel()
	const n = 60
	for _, tc := range []struct {
		name        string
		changedFrom int
		keepSmall   bool
		want        int
	}{
		{"one operation changed, trees kept", n - 1, true, 1},
		{"every operation changed", 0, true, 0},
		{"one operation changed, trees not kept", n - 1, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			base := spectest.WriteFile(t, dir, "api-2024-01-01.yaml", manyOperations(n, n, "name"))
			revision := spectest.WriteFile(t, dir, "api-2024-02-01.yaml", manyOperations(n, tc.changedFrom, "name"))
			settled := 0
			opts := load.PairOptions{KeepSmall: tc.keepSmall, Settled: func() { settled++ }}
			if _, _, err := load.LoadDiffPair(base, revision, specs.LoadOptions{}, specs.LoadOptions{}, opts); err != nil {
				t.Fatal(err)
			}
			if settled != tc.want {
				t.Errorf("Settled called %d times, want %d", settled, tc.want)
			}
		})
	}
}
