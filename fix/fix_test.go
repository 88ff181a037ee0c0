package fix

import (
	"maps"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestEntrySpan(t *testing.T) {
	t.Parallel()
	src := `a:
  b:
    c: 1

    # a comment inside b
    d: [1, 2]
  e:
  - x
  - y

  f: "wrapped \
    string"
g: 1
`
	d, err := parseDoc("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, a := lookup(d.root, "a", false)
	cases := map[string]string{
		"b": "  b:\n    c: 1\n\n    # a comment inside b\n    d: [1, 2]\n",
		"e": "  e:\n  - x\n  - y\n",
		"f": "  f: \"wrapped \\\n    string\"\n",
	}
	for key, want := range cases {
		k, v := lookup(a, key, false)
		e := entry{d: d, key: k, value: v}
		if !e.block() {
			t.Fatalf("%s: not a block entry", key)
		}
		start, end := e.span()
		if got := src[start:end]; got != want {
			t.Errorf("span of %s = %q, want %q", key, got, want)
		}
	}
}

func TestEntryTextReindents(t *testing.T) {
	t.Parallel()
	src := "components:\n  schemas:\n    Cluster: # the cluster\n      $ref: '#/components/schemas/Base'\n      description: |\n        two\n          lines\n"
	d, err := parseDoc("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k, v := lookup(d.at([]string{"components", "schemas"}), "Cluster", false)
	rename := renameRef(map[component]string{{"schemas", "Base"}: "BaseV20240301"})
	got, err := entry{d: d, key: k, value: v}.text(2, "ClusterV20240301", rename)
	if err != nil {
		t.Fatal(err)
	}
	want := "  ClusterV20240301: # the cluster\n    $ref: '#/components/schemas/BaseV20240301'\n    description: |\n      two\n        lines\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRenameVersionText(t *testing.T) {
	t.Parallel()
	in := "application/vnd.x.2024-01-01+json:\n  schema:\n    x-version: 2024-01-01\n  x-version: 2024-01-01 # named\n  x-other: \"2024-01-01\"\n  x-note: since 2024-01-01\n"
	want := "application/vnd.x.2024-01-01+json:\n  schema:\n    x-version: 2024-01-01\n  x-version: 2024-03-01 # named\n  x-other: \"2024-03-01\"\n  x-note: since 2024-01-01\n"
	if got := renameVersionText(in, "2024-01-01", "2024-03-01"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestComponentPointers(t *testing.T) {
	t.Parallel()
	c, ok := componentOf("#/components/schemas/a~1b~0c/properties/x")
	if !ok || c != (component{"schemas", "a/b~c"}) {
		t.Fatalf("componentOf = %v %v", c, ok)
	}
	if got := renameRef(map[component]string{c: "a/b~cV1"})("#/components/schemas/a~1b~0c/properties/x"); got != "#/components/schemas/a~1b~0cV1/properties/x" {
		t.Errorf("renamed = %s", got)
	}
	for _, ref := range []string{"other.yaml#/components/schemas/X", "#/paths/~1x", "#/components/schemas"} {
		if _, ok := componentOf(ref); ok {
			t.Errorf("%s read as a component", ref)
		}
	}
	if got := rewriteRefText(`      $ref: "other.yaml#/components/schemas/X"`, renameRef(map[component]string{{"schemas", "X"}: "Y"})); strings.Contains(got, "Y") {
		t.Errorf("a $ref into another file was renamed: %s", got)
	}
}

func TestSameValue(t *testing.T) {
	t.Parallel()
	var a, b yaml.Node
	if err := yaml.Unmarshal([]byte("{type: string, enum: [A, B]}"), &a); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte("type: string # comment\nenum:\n  - A\n  - B\n"), &b); err != nil {
		t.Fatal(err)
	}
	if !sameValue(&a, &b) {
		t.Error("the same data written two ways differs")
	}
}

// pairedUnversioned pairs a version's own media type with the unversioned
// one of the base that the version's view reads it as, as the check does.
func TestPairedUnversioned(t *testing.T) {
	t.Parallel()
	const v = "application/vnd.example.2024-01-01"
	for _, c := range []struct {
		name, base, other string
		want              map[string]string
	}{
		{"versioned in place", "{application/json: {}}", "{" + v + "+json: {}}", map[string]string{v + "+json": "application/json"}},
		{"each by its suffix", "{application/json: {}, application/xml: {}}", "{" + v + "+xml: {}, " + v + "+json: {}}",
			map[string]string{v + "+json": "application/json", v + "+xml": "application/xml"}},
		{"the unversioned one still written", "{application/json: {}}", "{application/json: {}, " + v + "+json: {}}", map[string]string{}},
		{"the version's own in the base", "{application/json: {}, " + v + "+json: {}}", "{" + v + "+json: {}}", map[string]string{}},
		{"another version's", "{application/json: {}}", "{application/vnd.example.2023-01-01+json: {}}", map[string]string{}},
		{"no refinement", "{text/csv: {}}", "{" + v + "+csv: {}}", map[string]string{}},
	} {
		var base, other yaml.Node
		if err := yaml.Unmarshal([]byte(c.base), &base); err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal([]byte(c.other), &other); err != nil {
			t.Fatal(err)
		}
		if got := pairedUnversioned(base.Content[0], other.Content[0], "example", "2024-01-01"); !maps.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
