package diff

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
)

// canonicalSharedNames names each shared schema after the component that
// defines it. oasdiff names a schema after whichever components.schemas
// entry its map iteration saw last among those resolving to it, so a
// component that is only a $ref to another (Alias: {$ref: Shared}) made the
// name vary from run to run, and with which components a plan leaves in
// the diff. The definition at the end of the $ref chain is one name for
// all of them.
func canonicalSharedNames(found checker.Changes, base, revision *openapi3.T) {
	for i, c := range found {
		change, ok := c.(checker.ApiChange)
		if !ok {
			continue
		}
		shared := change.GetSharedSchema()
		if shared == nil || shared.Name == "" {
			continue
		}
		name := definingComponent(revision, shared.Name)
		if name == shared.Name {
			name = definingComponent(base, shared.Name)
		}
		if name != shared.Name {
			renamed := *shared
			renamed.Name = name
			found[i] = change.WithSharedSchema(&renamed)
		}
	}
}

// definingComponent follows name's $ref chain among doc's component
// schemas to the entry that is not a $ref to another.
func definingComponent(doc *openapi3.T, name string) string {
	if doc == nil || doc.Components == nil {
		return name
	}
	seen := map[string]bool{}
	for !seen[name] {
		seen[name] = true
		ref := doc.Components.Schemas[name]
		if ref == nil {
			return name
		}
		target, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/")
		if !ok || strings.Contains(target, "/") || doc.Components.Schemas[target] == nil {
			return name
		}
		name = target
	}
	return name
}
