package prune

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const onlyBase = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      responses: {"200": {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}}
    post:
      responses: {"200": {description: ok}}
  /b:
    get:
      responses: {"200": {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/B'}}}}}
    put:
      responses: {"200": {description: ok}}
components:
  schemas:
    A: {type: string}
    B: {type: integer}
`

// DecideOnly keeps the operations it is given, with what they reach, and
// leaves out the others, but for the operations beside one added or
// removed: the diff tells an operation removed from a path from a path
// removed.
func TestDecideOnlyLeavesOutOtherOperations(t *testing.T) {
	t.Parallel()
	b := index(t, onlyBase)
	revision := strings.Replace(onlyBase, "A: {type: string}", "A: {type: string, maxLength: 3}", 1)
	revision = strings.Replace(revision, "    put:\n      responses: {\"200\": {description: ok}}\n", "", 1)
	r := index(t, revision)
	red := DecideOnly(b, r, map[string]bool{"get /a": true, "put /b": true}, nil)
	texts, err := red.Reduce([]*Doc{b, r}, NewValidator(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, reduced := range texts {
		text := reduced.Text
		var doc yaml.Node
		if err := yaml.Unmarshal(text, &doc); err != nil {
			t.Fatalf("copy %d does not parse: %v\n%s", i, err, text)
		}
		paths := mapValue(doc.Content[0], "paths")
		a, bItem := mapValue(paths, "/a"), mapValue(paths, "/b")
		if mapValue(a, "get") == nil || mapValue(a, "post") != nil {
			t.Errorf("copy %d: /a keeps get only, a changed operation:\n%s", i, text)
		}
		if mapValue(bItem, "get") == nil {
			t.Errorf("copy %d: /b keeps get, beside put added or removed:\n%s", i, text)
		}
		schemas := mapValue(mapValue(doc.Content[0], "components"), "schemas")
		if mapValue(schemas, "A") == nil {
			t.Errorf("copy %d: keeps A, which get /a reaches:\n%s", i, text)
		}
	}
}

// CheckAll reads every operation and component of a document as the
// loader does: a value it refuses is an error, wherever it is.
func TestCheckAllReadsEveryPart(t *testing.T) {
	t.Parallel()
	v := NewValidator()
	if err := v.CheckAll(index(t, onlyBase)); err != nil {
		t.Fatalf("a document the loader reads: %v", err)
	}
	for _, bad := range []struct{ name, from, to string }{
		{"an operation", "    post:\n", "    post:\n      deprecated: \"yes\"\n"},
		{"a component", "B: {type: integer}", "B: {type: integer, nullable: 3}"},
		{"the document around them", "info: {title: t, version: \"1\"}", "info: {title: [t], version: \"1\"}"},
	} {
		if err := NewValidator().CheckAll(index(t, strings.Replace(onlyBase, bad.from, bad.to, 1))); err == nil {
			t.Errorf("%s the loader refuses: no error", bad.name)
		}
	}
}

// What a fork of a Validator is told counts for its parent only once
// committed: a load that gives up must not vouch for another.
func TestValidatorForkCommits(t *testing.T) {
	t.Parallel()
	bad := index(t, strings.Replace(onlyBase, "B: {type: integer}", "B: {type: integer, nullable: 3}", 1))
	parent := NewValidator()
	fork := parent.Fork()
	fork.Loads(bad)
	if err := fork.CheckAll(bad); err != nil {
		t.Fatalf("the fork was told bad is loaded, and trusts it: %v", err)
	}
	if err := parent.CheckAll(bad); err == nil {
		t.Error("the parent, before Commit, reads bad itself and refuses it: no error")
	}
	fork.Commit()
	if err := parent.CheckAll(bad); err != nil {
		t.Errorf("after Commit the parent trusts what the fork was told: %v", err)
	}
}
