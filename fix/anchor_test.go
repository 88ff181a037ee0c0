package fix

import (
	"testing"

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
