package diff_test

import (
	"os"
	"path/filepath"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/google/go-cmp/cmp"
)

// removal is what a removed pair says, without its wording.
type removal struct {
	Operation, Version, Successor string
	IDs                           []string
	Level                         diff.Level
}

// TestRemovalScope: a removal is named by what the revision keeps of it,
// and a version removed names the version that succeeds it.
func TestRemovalScope(t *testing.T) {
	t.Parallel()
	const base = `openapi: 3.0.3
info: {title: Widgets, version: "2.0"}
paths:
  /widgets:
    get:
      responses:
        "200":
          description: OK
          content:
            application/vnd.example.2024-01-01+json: {schema: {type: string}}
            application/vnd.example.2024-03-01+json: {schema: {type: integer}}
            application/vnd.example.2024-06-01+json: {schema: {type: boolean}}
    delete:
      responses:
        "204": {description: Deleted}
  /reports:
    get:
      responses:
        "200": {description: OK}
`
	const revision = `openapi: 3.0.3
info: {title: Widgets, version: "2.0"}
paths:
  /widgets:
    get:
      responses:
        "200":
          description: OK
          content:
            application/vnd.example.2024-03-01+json: {schema: {type: integer}}
            application/vnd.example.2024-09-01+json: {schema: {type: number}}
`
	for _, latest := range []bool{false, true} {
		res := compare(t, base, revision, latest)
		var got []removal
		for _, p := range res.Pairs {
			if p.Kind != diff.Removed {
				continue
			}
			r := removal{Operation: p.Operation, Version: p.Version, Successor: p.Successor}
			for _, c := range p.Changes {
				r.IDs, r.Level = append(r.IDs, c.ID), c.Level
			}
			got = append(got, r)
		}
		// Replaced in this revision: removed without deprecation, or in a
		// latest-version series deprecated by its successor.
		replaced := removal{Operation: "GET /widgets", Version: "2024-06-01", Successor: "2024-09-01", IDs: []string{diff.VersionRemoved}, Level: diff.Error}
		if latest {
			replaced.IDs, replaced.Level = []string{diff.VersionReplaced}, diff.Info
		}
		want := []removal{
			{Operation: "GET /reports", IDs: []string{"api-path-removed-without-deprecation"}, Level: diff.Error},
			{Operation: "DELETE /widgets", IDs: []string{"api-removed-without-deprecation"}, Level: diff.Error},
			// Deprecated by 2024-03-01, which the base already had.
			{Operation: "GET /widgets", Version: "2024-01-01", Successor: "2024-03-01", IDs: []string{diff.VersionRemoved}, Level: diff.Info},
			replaced,
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("latest-version %v: removed pairs (-want +got):\n%s", latest, d)
		}
	}
}

func compare(t *testing.T, base, revision string, latestVersion bool) *diff.Result {
	t.Helper()
	dir := t.TempDir()
	load := func(name, text string) *specs.Snapshot {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := load.Load(path, specs.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	res, err := diff.Compare(load("base.yaml", base), load("revision.yaml", revision), diff.Options{Product: "example", Date: civil.Date{Year: 2025, Month: 1, Day: 1}, LatestVersion: latestVersion})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
