package diff

import (
	"slices"
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
// all of them. With allOf merged, a property of a base schema is also one
// of each subtype that extends it, and oasdiff may name the subtype: the
// base, whose lines hold the change, is named.
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
		if hasAllOf(revision, name) || hasAllOf(base, name) {
			if at, ok := componentAt(change, base, revision); ok && at != name && (extends(revision, name, at) || extends(base, name, at)) {
				name = at
			}
		}
		if name != shared.Name {
			renamed := *shared
			renamed.Name = name
			found[i] = change.WithSharedSchema(&renamed)
		}
	}
}

// componentAt is the innermost component schema of the document the
// change is located in whose lines hold its location.
func componentAt(change checker.ApiChange, base, revision *openapi3.T) (string, bool) {
	for _, side := range []struct {
		source *checker.Source
		doc    *openapi3.T
	}{{change.GetRevisionSource(), revision}, {change.GetBaseSource(), base}} {
		if side.source == nil || side.source.Line == 0 || side.doc == nil || side.doc.Components == nil {
			continue
		}
		name, span := "", 0
		for candidate, ref := range side.doc.Components.Schemas {
			if ref == nil || ref.Ref != "" || ref.Value == nil || ref.Value.Origin == nil || ref.Value.Origin.Key == nil {
				continue
			}
			key := ref.Value.Origin.Key
			if key.File != side.source.File || side.source.Line < key.Line || side.source.Line > key.EndLine {
				continue
			}
			if length := key.EndLine - key.Line; name == "" || length < span || length == span && candidate < name {
				name, span = candidate, length
			}
		}
		if name != "" {
			return name, true
		}
	}
	return "", false
}

// hasAllOf tells a component schema of doc with an allOf.
func hasAllOf(doc *openapi3.T, name string) bool {
	if doc == nil || doc.Components == nil {
		return false
	}
	ref := doc.Components.Schemas[name]
	return ref != nil && ref.Value != nil && len(ref.Value.AllOf) > 0
}

// extends tells whether component from is an allOf of to, or of one that
// is, by $ref.
func extends(doc *openapi3.T, from, to string) bool {
	if doc == nil || doc.Components == nil {
		return false
	}
	seen := map[string]bool{}
	var walk func(name string) bool
	walk = func(name string) bool {
		if seen[name] {
			return false
		}
		seen[name] = true
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil {
			return false
		}
		for _, member := range ref.Value.AllOf {
			if member == nil {
				continue
			}
			target, ok := strings.CutPrefix(member.Ref, "#/components/schemas/")
			if ok && (target == to || walk(target)) {
				return true
			}
		}
		return false
	}
	return walk(from)
}

// preferPlainPaths reports a change in a schema several properties reach
// at the one of them through the fewest oneOf and anyOf branches, listing
// the others after it. With allOf merged, a property of a base schema is
// also a property of each subtype that extends it; oasdiff reports it at
// the first it meets, often a subtype's, which would read as the subtype's
// own.
func preferPlainPaths(found checker.Changes) {
	for i, c := range found {
		change, ok := c.(checker.ApiChange)
		if !ok {
			continue
		}
		shared := change.GetSharedSchema()
		if shared == nil || len(shared.Properties) < 2 {
			continue
		}
		best := 0
		for j, p := range shared.Properties {
			if branchSteps(p) < branchSteps(shared.Properties[best]) {
				best = j
			}
		}
		if best == 0 {
			continue
		}
		primary, preferred := shared.Properties[0], shared.Properties[best]
		args := slices.Clone(change.Args)
		replaced := false
		for k, arg := range args {
			if text, ok := arg.(string); ok && text == primary {
				args[k], replaced = preferred, true
			}
		}
		if !replaced {
			continue
		}
		reordered := *shared
		reordered.Properties = append([]string{preferred}, slices.Delete(slices.Clone(shared.Properties), best, best+1)...)
		change.Args = args
		found[i] = change.WithSharedSchema(&reordered)
	}
}

func branchSteps(path string) int {
	return strings.Count(path, "oneOf[") + strings.Count(path, "anyOf[")
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
