package specs

import (
	"fmt"
	"maps"

	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// checkStabilities finds the first object (the document, an operation or
// a media type object) whose x-stability-level and x-snyk-api-stability
// name different levels: which one holds is not for apiver to guess. It
// returns the line of the second and what is wrong, "" when nothing is.
func checkStabilities(root *yaml.Node) (line int, msg string) {
	check := func(m *yaml.Node) {
		level, snyk := field(m, versions.StabilityExtension), field(m, versions.SnykStabilityExtension)
		if msg != "" || level == nil || snyk == nil || level.Kind != yaml.ScalarNode || snyk.Kind != yaml.ScalarNode {
			return
		}
		if want, ok := versions.SnykLevel(snyk.Value); ok && want != level.Value {
			line = max(level.Line, snyk.Line)
			msg = fmt.Sprintf("%s: %s and %s: %s disagree: declare one stability", versions.StabilityExtension, level.Value, versions.SnykStabilityExtension, snyk.Value)
		}
	}
	check(root)
	eachOperationPart(root, check)
	return line, msg
}

// rootLevel is the level a document declares for itself, at its root.
func rootLevel(root *yaml.Node) string {
	scalar := func(key string) string {
		if v := field(root, key); v != nil && v.Kind == yaml.ScalarNode {
			return v.Value
		}
		return ""
	}
	return versions.DeclaredLevel(scalar(versions.StabilityExtension), scalar(versions.SnykStabilityExtension))
}

// versionStability is a version's level: its media type objects' own,
// else the operation's, else the document's (docLevel).
func versionStability(op *openapi3.Operation, product, version, docLevel string) string {
	level := ""
	visit := func(content openapi3.Content) {
		for name, mt := range content {
			if parsed, ok, _ := versions.ParseMediaType(name); ok && parsed.Product == product && parsed.Version == version && mt != nil {
				if l := versions.StabilityOf(mt.Extensions); l != "" {
					level = l
				}
			}
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		visit(op.RequestBody.Value.Content)
	}
	if op.Responses != nil {
		for _, resp := range op.Responses.Map() {
			if resp.Value != nil {
				visit(resp.Value.Content)
			}
		}
	}
	if level == "" {
		level = versions.StabilityOf(op.Extensions)
	}
	if level == "" {
		level = docLevel
	}
	return level
}

// withStability gives a version's view the version's level as its
// operation's, so that oasdiff compares the levels of two versions
// (api-stability-decreased) whichever object declared them.
func withStability(view *openapi3.Operation, level string) {
	if level == "" || versions.StabilityOf(view.Extensions) == level {
		return
	}
	view.Extensions = maps.Clone(view.Extensions)
	if view.Extensions == nil {
		view.Extensions = map[string]any{}
	}
	view.Extensions[versions.StabilityExtension] = level
}
