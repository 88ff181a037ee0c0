package pipeline_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/spectest"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
)

// versionedOperations is a document of n operations, each taking and
// returning a thing in version 2024-01-01; the request of the first
// requires the properties given.
func versionedOperations(n int, required string) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n")
	for i := range n {
		req := "[id]"
		if i == 0 {
			req = required
		}
		fmt.Fprintf(&b, "  /things%d:\n    post:\n      requestBody:\n        content:\n          application/vnd.zoo.2024-01-01+json:\n            schema:\n              type: object\n              required: %s\n              properties:\n                id: {type: string}\n                name: {type: string}\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/vnd.zoo.2024-01-01+json:\n              schema: {type: object, properties: {id: {type: string}}}\n", i, req)
	}
	return b.String()
}

// The collector's policy is settled once, by the check's own plan of a
// pull request: the fix offer's loads run at the budget it sets.
func TestSettledOnceForTheCheck(t *testing.T) {
	dir := t.TempDir()
	base := spectest.WriteFile(t, dir, "api-2024-03-01.yaml", versionedOperations(60, "[id]"))
	revision := spectest.WriteFile(t, dir, "api-2024-04-01.yaml", versionedOperations(60, "[id, name]"))
	settled := 0
	c, err := pipeline.Compare(base, revision, pipeline.Options{Config: policy.DefaultConfig(), Reuse: pipeline.Reloadable, Settled: func() { settled++ }})
	if err != nil {
		t.Fatal(err)
	}
	if settled != 1 {
		t.Errorf("settled %d times by the check, want 1", settled)
	}
	report := c.Check()
	if !slices.Contains(c.FixedBy(report), true) {
		t.Fatal("no finding fixed: the pair no longer runs the fix offer")
	}
	if settled != 1 {
		t.Errorf("settled %d times after the fix offer, want 1", settled)
	}
}
