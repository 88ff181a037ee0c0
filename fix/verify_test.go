package fix

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/rogpeppe/go-internal/txtar"
)

// fixCase fixes the base and revision of a testdata/fix case.
func fixCase(t *testing.T, name string) (base, revision *specs.Snapshot, before, after *policy.Report, res *Result, opts Options) {
	t.Helper()
	archive, err := txtar.ParseFile("../testdata/fix/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	snap := func(file string) *specs.Snapshot {
		for _, f := range archive.Files {
			if f.Name == file {
				doc, err := load.Parse(file, f.Data, false)
				if err != nil {
					t.Fatal(err)
				}
				return &specs.Snapshot{Path: file, Data: f.Data, Doc: doc}
			}
		}
		t.Fatalf("no %s", file)
		return nil
	}
	base, revision = snap("base-2024-01-15.yaml"), snap("revision-2024-03-01.yaml")
	date := civil.Date{Year: 2024, Month: 3, Day: 1}
	opts = Options{Config: policy.DefaultConfig(), Date: date, Product: "example", Version: "2024-03-01"}
	d, err := diff.Compare(base, revision, diff.Options{Product: "example", Levels: opts.Config.ChangeLevels(), Date: date})
	if err != nil {
		t.Fatal(err)
	}
	before = policy.Check(policy.Input{Base: base, Revision: revision, Result: d, Date: date, Config: opts.Config})
	res, after, err = Run(base, revision, before, opts)
	if err != nil {
		t.Fatal(err)
	}
	return base, revision, before, after, res, opts
}

// loaders are Verify's two ways to read the fixed file against the
// revision: whole, and as a check's fix offer does, each operation that
// changed loaded only where Verify says it may have moved.
func loaders(t *testing.T, revision *specs.Snapshot) map[string]func(edited []byte, moved func(string) bool) (*specs.Snapshot, *specs.Snapshot, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), filepath.Base(revision.Path))
	if err := os.WriteFile(path, revision.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	source, err := specs.Read(path, specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]func([]byte, func(string) bool) (*specs.Snapshot, *specs.Snapshot, error){
		"whole": nil,
		"as moved": func(edited []byte, moved func(string) bool) (*specs.Snapshot, *specs.Snapshot, error) {
			opts := load.PairOptions{ChangesOnly: true, PairsOnly: true, Diffed: moved, Keep: true}
			return load.LoadReducedPair(source, source.WithData(edited), opts)
		},
	}
}

func TestVerifyPassesAGoodFix(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"comment-column-0", "anchor-reused", "shared-schema", "shared-schema-one-operation", "unversioned-media-type-versioned"} {
		base, revision, before, after, res, opts := fixCase(t, name)
		for how, load := range loaders(t, revision) {
			opts.LoadAgainstRevision = load
			if err := Verify(base, revision, before, after, res, opts); err != nil {
				t.Errorf("%s, loaded %s: %v", name, how, err)
			}
		}
	}
}

// TestVerifyRefusesWhatBreaksThePromise: a fixed file whose restored
// version lost its schema (what a comment at column 0 once caused), or
// whose alias rebinds (an anchor of the copy reused), is refused, though
// such a file may pass the check.
func TestVerifyRefusesWhatBreaksThePromise(t *testing.T) {
	t.Parallel()
	base, revision, before, after, res, opts := fixCase(t, "comment-column-0")
	// The restored version without its schema.
	lines := strings.SplitAfter(string(res.Data), "\n")
	var dropped []string
	for i, l := range lines {
		if i > 10 && i < 17 {
			continue
		}
		dropped = append(dropped, l)
	}
	res.Data = []byte(strings.Join(dropped, ""))
	err := Verify(base, revision, before, after, res, opts)
	if err == nil || !strings.Contains(err.Error(), "would not be the base's") {
		t.Errorf("restored version without its schema: %v, want a refusal", err)
	}

	base, revision, before, _, res, opts = fixCase(t, "anchor-reused")
	res.Data = []byte(strings.Replace(string(res.Data), "&s_2", "&s", 1))
	// The check of the result reads the file as written.
	doc, err := load.Parse(revision.Path, res.Data, false)
	if err != nil {
		t.Fatal(err)
	}
	fixed := &specs.Snapshot{Path: revision.Path, Data: res.Data, Doc: doc}
	againstBase, err := diff.Compare(base, fixed, diff.Options{Product: "example", Levels: opts.Config.ChangeLevels(), Date: opts.Date})
	if err != nil {
		t.Fatal(err)
	}
	after = policy.Check(policy.Input{Base: base, Revision: fixed, Result: againstBase, Date: opts.Date, Config: opts.Config})
	for how, load := range loaders(t, revision) {
		opts.LoadAgainstRevision = load
		err = Verify(base, revision, before, after, res, opts)
		if err == nil || !strings.Contains(err.Error(), "GET /beta") {
			t.Errorf("alias rebound, loaded %s: %v, want a refusal naming GET /beta", how, err)
		}
	}
}

// TestVerifyRefusesAPairedMediaTypeNotTheBases: a restored version whose
// own media type stands where the base shared an unversioned one must read
// as that one: PUT's body left as the revision wrote it is refused.
func TestVerifyRefusesAPairedMediaTypeNotTheBases(t *testing.T) {
	t.Parallel()
	base, revision, before, after, res, opts := fixCase(t, "unversioned-media-type-versioned")
	restored := "name: {type: string, maxLength: 20}"
	if !strings.Contains(string(res.Data), restored) {
		t.Fatalf("PUT's 2024-01-01 body is not the base's:\n%s", res.Data)
	}
	res.Data = []byte(strings.Replace(string(res.Data), restored, "name: {type: string, maxLength: 10}", 1))
	err := Verify(base, revision, before, after, res, opts)
	if err == nil || !strings.Contains(err.Error(), "PUT /widgets/{id} 2024-01-01") {
		t.Errorf("PUT's body left as the revision's: %v, want a refusal naming PUT /widgets/{id} 2024-01-01", err)
	}
}

// TestFixChangesOnlyWhatItNames: Widget is shared by GET and POST; only
// POST's version breaks. The fixed file differs from the revision in POST's
// versions alone: GET keeps the revision's Widget.
func TestFixChangesOnlyWhatItNames(t *testing.T) {
	t.Parallel()
	_, revision, _, _, res, opts := fixCase(t, "shared-schema-one-operation")
	want := []Target{{Operation: "POST /widgets", Version: "2024-01-01"}}
	if !slices.Equal(res.Restored, want) {
		t.Fatalf("restored %v, want %v", res.Restored, want)
	}
	named := map[[2]string]bool{{"POST /widgets", "2024-01-01"}: true, {"POST /widgets", "2024-03-01"}: true}
	doc, err := load.Parse(revision.Path, res.Data, false)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := diff.Compare(revision, &specs.Snapshot{Path: revision.Path, Data: res.Data, Doc: doc}, diff.Options{Product: "example", Levels: opts.Config.ChangeLevels(), Date: opts.Date})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range moves.Changes() {
		if !named[[2]string{c.Operation, c.Version}] {
			t.Errorf("the fix changed %s %s (%s), which it does not name", c.Operation, c.Version, c.ID)
		}
	}
}

// TestVerifyRefusesAChangeToAnUnnamedVersion: the old planner's fix, GET
// reading the restored Widget again, changes GET /widgets 2024-01-01,
// which the fix does not name: refused, however harmless for GET.
func TestVerifyRefusesAChangeToAnUnnamedVersion(t *testing.T) {
	t.Parallel()
	base, revision, before, after, res, opts := fixCase(t, "shared-schema-one-operation")
	get := "items: {$ref: '#/components/schemas/WidgetV20240301'}"
	if !strings.Contains(string(res.Data), get) {
		t.Fatalf("GET does not use the copy:\n%s", res.Data)
	}
	res.Data = []byte(strings.Replace(string(res.Data), get, "items: {$ref: '#/components/schemas/Widget'}", 1))
	for how, load := range loaders(t, revision) {
		opts.LoadAgainstRevision = load
		err := Verify(base, revision, before, after, res, opts)
		if err == nil || !strings.Contains(err.Error(), "GET /widgets 2024-01-01") {
			t.Errorf("GET reading the base's Widget, loaded %s: %v, want a refusal naming GET /widgets 2024-01-01", how, err)
		}
	}
}

// mayMove diffs an operation unless every change the diff could show of it
// is of a version that passes: where the trees cannot tell which versions
// kin-openapi reads, it diffs.
func TestMayMove(t *testing.T) {
	t.Parallel()
	const v1 = "application/vnd.example.2024-01-01+json"
	op := func(body string) string {
		return "openapi: 3.0.3\npaths:\n  /a:\n    get:\n" + body
	}
	versioned := "      responses:\n        '200':\n          content:\n            " + v1 + ": {schema: {type: string}}\n"
	for _, c := range []struct {
		name, rev, fixed string
		passes, want     bool
	}{
		{"every written version passes", op(versioned), op(versioned), true, false},
		{"a written version does not pass", op(versioned), op(versioned), false, true},
		{"missing from the fixed file", op(versioned), "openapi: 3.0.3\npaths: {}\n", true, true},
		{"unversioned", op("      responses:\n        '200':\n          content:\n            application/json: {}\n"), op(versioned), true, true},
		{"versions only behind a $ref", op("      responses:\n        '200': {$ref: '#/components/responses/R'}\n"), op(versioned), true, true},
		{"content beside a $ref", op("      responses:\n        '200':\n          $ref: '#/components/responses/R'\n          content:\n            " + v1 + ": {}\n"), op(versioned), true, true},
		{"callbacks", op(versioned + "      callbacks: {}\n"), op(versioned), true, true},
		{"a merge key", op(versioned + "      <<: {callbacks: {}}\n"), op(versioned), true, true},
		{"a path item $ref", "openapi: 3.0.3\npaths:\n  /a:\n    $ref: 'other.yaml#/a'\n    get:\n" + versioned, op(versioned), true, true},
	} {
		rev, err := parseDoc("rev.yaml", []byte(c.rev))
		if err != nil {
			t.Fatal(err)
		}
		fixed, err := parseDoc("rev.yaml", []byte(c.fixed))
		if err != nil {
			t.Fatal(err)
		}
		if got := mayMove(rev, fixed, "example", "GET /a", func(string) bool { return c.passes }); got != c.want {
			t.Errorf("%s: mayMove %v, want %v", c.name, got, c.want)
		}
	}
}
