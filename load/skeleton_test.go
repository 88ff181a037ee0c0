package load_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/internal/spectest"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
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

// wholeAndReduced loads the pair a, b as the full pipeline does and as
// the fast one does.
func wholeAndReduced(t *testing.T, a, b string) (fullBase, fullRev, base, rev *specs.Snapshot) {
	t.Helper()
	fullBase, fullRev, err := load.LoadDiffPair(a, b, specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	base, rev, err = load.LoadDiffPair(a, b, specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return fullBase, fullRev, base, rev
}

// Unchanged operations are not loaded by kin-openapi but built from the
// parse tree (prune.Skeleton): every fact read of them must be what the
// whole load gives, on every pair of consecutive snapshots of the public
// API.
func TestBuiltSkeletonsReadAsLoaded(t *testing.T) {
	dir := corpus.Shared(t)
	names := corpus.Names(t)
	// A snapshot's whole load is the same in both pairs it is in: its
	// facts are read once.
	whole := map[string][]string{}
	wholeFacts := func(t *testing.T, name string) []string {
		t.Helper()
		if facts, ok := whole[name]; ok {
			return facts
		}
		s, err := load.Load(filepath.Join(dir, name), specs.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		whole[name] = operationFacts(versions.Operations(s.Doc, "atlas"))
		return whole[name]
	}
	for i := 1; i < len(names); i++ {
		t.Run(strings.TrimSuffix(names[i], ".yaml"), func(t *testing.T) {
			base, rev, err := load.LoadDiffPair(filepath.Join(dir, names[i-1]), filepath.Join(dir, names[i]), specs.LoadOptions{}, specs.LoadOptions{}, load.PairOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for j, reduced := range []*specs.Snapshot{base, rev} {
				if diff := cmp.Diff(wholeFacts(t, names[i-1+j]), operationFacts(versions.Operations(reduced.Doc, "atlas"))); diff != "" {
					t.Errorf("facts of the reduced load of %s differ from the whole load's (-whole +reduced):\n%s", names[i-1+j], diff)
				}
			}
			delete(whole, names[i-1])
		})
	}
}

// A built skeleton holds what kin-openapi reads of the skeleton's text:
// extensions of every YAML type, deprecation, media types and their
// marks, response keys written as integers, defaults; and an operation
// that cannot be built (a $ref left, a parameter list kept) stays in the
// text.
func TestBuiltSkeletonHoldsWhatTheLoadReads(t *testing.T) {
	t.Parallel()
	unchanged := `
  /widgets/{id}:
    get:
      deprecated: true
      x-sunset: 2025-01-01
      x-count: 12
      x-ratio: 0.5
      x-flags: [yes, no, ~, "on"]
      x-nested: {a: {b: [1, 2.0, -3e2]}}
      responses:
        200:
          description: OK
          content:
            application/vnd.x.2024-01-01+json:
              schema: {type: string}
              x-stability-level: beta
              deprecated: true
            application/vnd.x.2024-06-01+json:
              schema: {$ref: '#/components/schemas/W'}
              x-sunset: "2026-01-01T00:00:00Z"
        default:
          description: error
          content:
            application/json:
              schema: {type: object}
    post:
      requestBody:
        required: true
        content:
          application/vnd.x.2024-01-01+json:
            schema: {type: object}
      responses:
        "201":
          $ref: '#/components/responses/Created'
components:
  schemas:
    W: {type: string}
  responses:
    Created:
      description: created
      content:
        application/vnd.x.2024-01-01+json:
          schema: {type: string}
`
	doc := func(size string) string {
		return `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /gadgets:
    get:
      responses:
        "200":
          description: OK
          content:
            application/vnd.x.2024-01-01+json:
              schema: {type: object, properties: {size: {type: ` + size + `}}}` + unchanged
	}
	dir := t.TempDir()
	a := spectest.WriteFile(t, dir, "x-2024-01-01.yaml", doc("string"))
	b := spectest.WriteFile(t, dir, "x-2024-02-01.yaml", doc("integer"))
	fullBase, fullRev, base, rev := wholeAndReduced(t, a, b)
	if text := string(rev.Text()); strings.Contains(text, "x-nested") || !strings.Contains(text, `"post"`) {
		t.Errorf("the reduced text should leave out GET /widgets/{id} (built) and keep POST (a $ref left):\n%s", text)
	}
	for _, pair := range [][2]*specs.Snapshot{{fullBase, base}, {fullRev, rev}} {
		whole, built := pair[0].Doc.Paths.Value("/widgets/{id}").Get, pair[1].Doc.Paths.Value("/widgets/{id}").Get
		if diff := cmp.Diff(whole.Extensions, built.Extensions); diff != "" {
			t.Errorf("extensions (-whole +built):\n%s", diff)
		}
		if whole.Deprecated != built.Deprecated {
			t.Errorf("deprecated: whole %v, built %v", whole.Deprecated, built.Deprecated)
		}
		for _, status := range []string{"200", "default"} {
			w, b := whole.Responses.Value(status), built.Responses.Value(status)
			if status == "default" {
				if b != nil {
					t.Errorf("the response %s names no version: want it left out of the skeleton", status)
				}
				continue
			}
			for name, mt := range w.Value.Content {
				got := b.Value.Content[name]
				if got == nil {
					t.Errorf("%s: media type %s missing", status, name)
					continue
				}
				if diff := cmp.Diff(mt.Extensions, got.Extensions); diff != "" {
					t.Errorf("%s %s extensions (-whole +built):\n%s", status, name, diff)
				}
				if mt.Origin.Key.Line != got.Origin.Key.Line {
					t.Errorf("%s %s: line %d, built %d", status, name, mt.Origin.Key.Line, got.Origin.Key.Line)
				}
			}
		}
	}
	if diff := cmp.Diff(operationFacts(versions.Operations(fullRev.Doc, "x")), operationFacts(versions.Operations(rev.Doc, "x"))); diff != "" {
		t.Errorf("facts (-whole +reduced):\n%s", diff)
	}
}
