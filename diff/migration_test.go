package diff_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/corpus"
	"go.yaml.in/yaml/v3"
)

// TestOpenAPI31MigrationIsNoChange moves the newest real snapshot from
// OpenAPI 3.0 to 3.1 as the upgrade guide writes it (nullable: true as null
// in the type list, a nullable $ref as oneOf [the $ref, {type: "null"}], a
// one-value enum as a const, format: byte and binary as contentEncoding and
// contentMediaType) and requires the diff of the two to be empty: the
// contract is the same.
func TestOpenAPI31MigrationIsNoChange(t *testing.T) {
	names := corpus.Names(t)
	newest := names[len(names)-1]
	dir := corpus.Unpack(t, newest)
	basePath := filepath.Join(dir, newest)
	data, err := os.ReadFile(basePath)
	if err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	moveTo31(root.Content[0])
	moved, err := yaml.Marshal(&root)
	if err != nil {
		t.Fatal(err)
	}
	revisionPath := filepath.Join(t.TempDir(), newest)
	if err := os.WriteFile(revisionPath, moved, 0o644); err != nil {
		t.Fatal(err)
	}
	base, revision := loadBoth(t, basePath, revisionPath)
	if revision.Doc.OpenAPI != "3.1.0" {
		t.Fatalf("the moved snapshot is OpenAPI %s", revision.Doc.OpenAPI)
	}
	result, err := diff.Compare(base, revision, diff.Options{Product: "atlas", Date: revision.Date})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range result.Changes() {
		t.Errorf("%s %s %s: %s", c.Operation, c.Version, c.ID, c.Message)
	}
}

// moveTo31 rewrites a mapping and everything in it in OpenAPI 3.1's forms.
func moveTo31(n *yaml.Node) {
	for _, c := range n.Content {
		moveTo31(c)
	}
	if n.Kind != yaml.MappingNode {
		return
	}
	if v := valueOf(n, "openapi"); v != nil && v.Kind == yaml.ScalarNode {
		v.Value = "3.1.0"
	}
	if v := valueOf(n, "nullable"); v != nil && v.Value == "true" {
		typ, allOf := valueOf(n, "type"), valueOf(n, "allOf")
		switch {
		case typ != nil && typ.Kind == yaml.ScalarNode:
			*typ = yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{str(typ.Value), str("null")}}
			if enum := valueOf(n, "enum"); enum != nil {
				enum.Content = append(enum.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"})
			}
			remove(n, "nullable")
		case typ == nil && allOf != nil && len(allOf.Content) == 1:
			remove(n, "nullable")
			remove(n, "allOf")
			null := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("type"), str("null")}}
			n.Content = append(n.Content, str("oneOf"), &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{allOf.Content[0], null}})
		}
	}
	if enum := valueOf(n, "enum"); enum != nil && enum.Kind == yaml.SequenceNode && len(enum.Content) == 1 {
		remove(n, "enum")
		n.Content = append(n.Content, str("const"), enum.Content[0])
	}
	if f := valueOf(n, "format"); f != nil && (f.Value == "byte" || f.Value == "binary") {
		remove(n, "format")
		if f.Value == "byte" {
			n.Content = append(n.Content, str("contentEncoding"), str("base64"))
		} else {
			n.Content = append(n.Content, str("contentMediaType"), str("application/octet-stream"))
		}
	}
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func remove(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func str(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
