package fix

import (
	"reflect"
	"testing"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"go.yaml.in/yaml/v3"
)

// TestCopyRelinksAnchors: a copied entry's own anchors get fresh names
// (its aliases to them follow), and an alias to an anchor outside it is
// replaced by the value it names, so the copy binds to nothing around it.
func TestCopyRelinksAnchors(t *testing.T) {
	t.Parallel()
	src := `top: &n
  type: integer
a:
  b: &s
    type: object
    properties:
      count: *n
      when: &d 2024-01-01
      again: *d
      tags: [*n, "x"]
  c: *s
`
	d, err := parseDoc("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	newAnchorNames(d)
	k, v := lookup(d.root, "a", false)
	got, err := entry{d: d, key: k, value: v}.text(0, "a", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `a:
  b: &s_2
    type: object
    properties:
      count: {"type": "integer"}
      when: &d_2 2024-01-01
      again: *d_2
      tags: [{"type": "integer"}, "x"]
  c: *s_2
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// The copy means what the original meant.
	var orig, copied yaml.Node
	if err := yaml.Unmarshal([]byte(src), &orig); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(got), &copied); err != nil {
		t.Fatal(err)
	}
	_, a := lookup(orig.Content[0], "a", false)
	_, b := lookup(copied.Content[0], "a", false)
	if !sameValue(a, b) {
		t.Error("the relinked copy reads differently")
	}
}

// TestFlowKeepsMergeKeys: a value written inline merges what its merge key
// names, as the original does (a quoted "<<" would be a key of its own).
func TestFlowKeepsMergeKeys(t *testing.T) {
	t.Parallel()
	src := "base: &b {type: object}\nsized: &m\n  <<: *b\n  description: sized\nagain: *m\n"
	d, err := parseDoc("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, again := lookup(d.root, "again", false)
	var inline yaml.Node
	if err := yaml.Unmarshal([]byte(flow(again)), &inline); err != nil {
		t.Fatal(err)
	}
	if !sameValue(again, inline.Content[0]) {
		t.Errorf("%s reads differently from the merged original", flow(again))
	}
}

// TestFixKeepsAliasesBound: where the fix replaces or removes the entry
// that holds an anchor the revision aliases elsewhere, or makes an alias and
// its anchor read different shapes (one restored, one the revision's), the
// fixed file still parses and passes the check, no operation-version the
// fix does not name changes, what lies outside paths and components reads
// as in the revision (the split copies' names mapped back), and Verify
// accepts it.
func TestFixKeepsAliasesBound(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"anchor-dropped", "anchor-dropped-component", "anchor-crossing"} {
		base, revision, before, after, res, opts := fixCase(t, name)
		for i, fixed := range Fixed(before, after) {
			if f := before.Findings[i]; f.Fixable() && !fixed {
				t.Errorf("%s: %s %s (%s) not fixed", name, f.Operation, f.Version, f.Change)
			}
		}
		if len(res.Added) == 0 {
			t.Errorf("%s: no version added", name)
		}
		doc, err := load.Parse(revision.Path, res.Data, false)
		if err != nil {
			t.Fatalf("%s: the fixed file does not load: %v", name, err)
		}
		named := map[[2]string]bool{}
		for _, r := range res.Restored {
			named[[2]string{r.Operation, r.Version}] = true
		}
		for _, a := range res.Added {
			named[[2]string{a.Operation, a.Version}] = true
		}
		moves, err := diff.Compare(revision, &specs.Snapshot{Path: revision.Path, Data: res.Data, Doc: doc}, diff.Options{Product: "example", Levels: opts.Config.ChangeLevels(), Date: opts.Date})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range moves.Changes() {
			if !named[[2]string{c.Operation, c.Version}] {
				t.Errorf("%s: the fix changed %s %s (%s), which it does not name", name, c.Operation, c.Version, c.ID)
			}
		}
		var was, is map[string]any
		if err := yaml.Unmarshal(revision.Data, &was); err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(res.Data, &is); err != nil {
			t.Fatal(err)
		}
		for key, value := range was {
			if key != "paths" && key != "components" && !reflect.DeepEqual(value, mapStrings(is[key], res.Split)) {
				t.Errorf("%s: %s reads %v, was %v", name, key, is[key], value)
			}
		}
		for how, load := range loaders(t, revision) {
			opts.LoadAgainstRevision = load
			if err := Verify(base, revision, before, after, res, opts); err != nil {
				t.Errorf("%s, loaded %s: %v", name, how, err)
			}
		}
	}
}
