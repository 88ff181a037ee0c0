package versions

import (
	"fmt"
	"maps"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// StabilityExtension is oasdiff's extension for how stable an operation
// is: draft, alpha, beta or stable (the default). apiver reads it on an
// operation, for all its versions, and on a version's media type objects,
// for that version.
const StabilityExtension = "x-stability-level"

// SnykStabilityExtension is vervet's extension for the same: wip,
// experimental, beta or ga. apiver reads it where it reads
// x-stability-level, as the oasdiff level it corresponds to (snykLevels).
const SnykStabilityExtension = "x-snyk-api-stability"

// LifecycleExtension is vervet's marker of where a version is in its life;
// apiver reads its value sunset, on a document's root or an operation: the
// version (of every operation of the document, or of the one) is retired,
// no longer served.
const LifecycleExtension = "x-snyk-api-lifecycle"

// Retired reports whether an object's extensions mark it sunset.
func Retired(extensions map[string]any) bool {
	v, _ := extensions[LifecycleExtension].(string)
	return v == "sunset"
}

// snykLevels are oasdiff's levels for vervet's.
var snykLevels = map[string]string{"wip": "draft", "experimental": "alpha", "beta": "beta", "ga": "stable"}

// SnykLevel is oasdiff's level for a level vervet names (wip,
// experimental, beta, ga); ok is false for any other name.
func SnykLevel(name string) (level string, ok bool) {
	level, ok = snykLevels[name]
	return level, ok
}

// LevelNamed is oasdiff's level for a level named in either vocabulary:
// oasdiff's draft, alpha, beta and stable, or vervet's wip,
// experimental, beta and ga; ok is false for any other name.
func LevelNamed(name string) (level string, ok bool) {
	switch name {
	case "draft", "alpha", "beta", "stable":
		return name, true
	}
	level, ok = snykLevels[name]
	return level, ok
}

// Unstable reports whether a stability level marks something not yet
// stable: listed like a pre-release version and never gated.
func Unstable(level string) bool {
	return level == "draft" || level == "alpha" || level == "beta"
}

// StabilityOf reads an object's level, "" when it declares none: its
// x-stability-level, else its x-snyk-api-stability as oasdiff's level.
// Both on one object must agree (specs refuses the document otherwise).
func StabilityOf(extensions map[string]any) string {
	level, _ := extensions[StabilityExtension].(string)
	snyk, _ := extensions[SnykStabilityExtension].(string)
	return DeclaredLevel(level, snyk)
}

// DeclaredLevel is the level of an object declaring level
// (x-stability-level) and snyk (x-snyk-api-stability), either "".
func DeclaredLevel(level, snyk string) string {
	if level != "" {
		return level
	}
	return snykLevels[snyk]
}

// NameDisagrees says what is wrong when a version document declares, at
// its root, a level its name contradicts: a name marks the version
// released (no mark, or ~ga) or names its pre-release (~beta is beta,
// ~experimental alpha, ~wip draft; any other mark, .upcoming and preview,
// some pre-release). The name and the document are equally strong: a
// disagreement is an input error. "" when they agree or the document
// declares nothing.
func NameDisagrees(version, level string) string {
	if version == "" || level == "" {
		return ""
	}
	mark := ""
	if len(version) > len("2006-01-02") {
		mark = strings.ToLower(version[len("2006-01-02"):])
	}
	agrees := !Unstable(level)
	switch want, named := snykLevels[strings.TrimPrefix(mark, "~")]; {
	case mark == "":
	case named:
		agrees = want == level
	default:
		agrees = Unstable(level)
	}
	if agrees {
		return ""
	}
	return fmt.Sprintf("the document declares stability %s at its root, but its name makes it version %s: name the version by its stability, or declare the one its name says", level, version)
}

// MarkedLevel is the unstable level a version's name marks, as vervet
// names them (2024-01-04~beta is beta, ~experimental alpha, ~wip draft);
// "" for any other name.
func MarkedLevel(version string) string {
	if len(version) <= len("2006-01-02") {
		return ""
	}
	level := snykLevels[strings.TrimPrefix(strings.ToLower(version[len("2006-01-02"):]), "~")]
	if !Unstable(level) {
		return ""
	}
	return level
}

// versionStability is a version's level: its media type objects' own,
// else the operation's, else the document's (docLevel).
func versionStability(op *openapi3.Operation, product, version, docLevel string) string {
	level := ""
	visit := func(content openapi3.Content) {
		for name, mt := range content {
			if parsed, ok, _ := ParseMediaType(name); ok && parsed.Product == product && parsed.Version == version && mt != nil {
				if l := StabilityOf(mt.Extensions); l != "" {
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
		level = StabilityOf(op.Extensions)
	}
	if level == "" {
		level = docLevel
	}
	return level
}

// withStability gives a version's view the version's level as its
// operation's x-stability-level, the one extension oasdiff reads, so that it
// compares the levels of two versions (api-stability-decreased) whichever
// object declared them, in whichever spelling (vervet's too).
func withStability(view *openapi3.Operation, level string) {
	if own, _ := view.Extensions[StabilityExtension].(string); level == "" || own == level {
		return
	}
	view.Extensions = maps.Clone(view.Extensions)
	if view.Extensions == nil {
		view.Extensions = map[string]any{}
	}
	view.Extensions[StabilityExtension] = level
}
