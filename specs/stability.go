package specs

import (
	"maps"

	"github.com/getkin/kin-openapi/openapi3"
)

// StabilityExtension is oasdiff's extension for how stable an operation
// is: draft, alpha, beta or stable (the default). apiver reads it on an
// operation, for all its versions, and on a version's media type objects,
// for that version.
const StabilityExtension = "x-stability-level"

// Unstable reports whether a stability level marks something not yet
// stable: listed like a pre-release version and never gated.
func Unstable(level string) bool {
	return level == "draft" || level == "alpha" || level == "beta"
}

// stabilityOf reads the extension's value, "" when absent or not a string.
func stabilityOf(extensions map[string]any) string {
	level, _ := extensions[StabilityExtension].(string)
	return level
}

// versionStability is a version's level: its media type objects' own,
// else the operation's.
func versionStability(op *openapi3.Operation, product, version string) string {
	level := ""
	visit := func(content openapi3.Content) {
		for name, mt := range content {
			if parsed, ok, _ := ParseMediaType(name); ok && parsed.Product == product && parsed.Version == version && mt != nil {
				if l := stabilityOf(mt.Extensions); l != "" {
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
		level = stabilityOf(op.Extensions)
	}
	return level
}

// withStability gives a version's view the version's level as its
// operation's, so that oasdiff compares the levels of two versions
// (api-stability-decreased) whichever object declared them.
func withStability(view *openapi3.Operation, level string) {
	if level == "" || stabilityOf(view.Extensions) == level {
		return
	}
	view.Extensions = maps.Clone(view.Extensions)
	if view.Extensions == nil {
		view.Extensions = map[string]any{}
	}
	view.Extensions[StabilityExtension] = level
}
