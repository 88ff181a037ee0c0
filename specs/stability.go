package specs

import (
	"fmt"

	"github.com/apiver/apiver/versions"
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
