package changelog

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/apiver/apiver/diff"
)

// readablePath writes a schema path as clients write it:
// results/items/roles/items/roleName is results[].roles[].roleName.
func readablePath(path string) string {
	path = diff.BranchStep.ReplaceAllStringFunc(path, func(seg string) string {
		m := diff.BranchStep.FindStringSubmatch(seg)
		return "(" + diff.BranchName(m[1]) + ")."
	})
	path = strings.TrimSuffix(path, ".")
	var b strings.Builder
	for i, step := range strings.Split(path, "/") {
		switch {
		case step == "items":
			b.WriteString("[]")
		case step == "":
		default:
			if i > 0 && b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(step)
		}
	}
	return b.String()
}

// codeOf quotes a value for a code span. A value a reader could not see
// (empty, blank, invisible characters) is shown in double quotes.
func codeOf(value string) string {
	if strings.HasPrefix(value, "subschema #") {
		value = diff.BranchName(value)
	}
	value = strings.TrimPrefix(value, "#/components/schemas/")
	value = strings.ReplaceAll(value, ", #/components/schemas/", ", ")
	visible := false
	for _, r := range value {
		if !unicode.IsSpace(r) && unicode.IsGraphic(r) {
			visible = true
		}
		if !unicode.IsGraphic(r) && r != ' ' {
			visible = false
			break
		}
	}
	if !visible || strings.TrimSpace(value) != value {
		value = strconv.Quote(value)
	}
	return "`" + strings.ReplaceAll(value, "`", "'") + "`"
}

// codeList is values as code spans, joined for reading.
func codeList(values []string, render func(string) string) string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = codeOf(render(v))
	}
	return strings.Join(out, ", ")
}

// andList joins words as a sentence does: "a", "a and b", "a, b and c".
func andList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// variantPhrase names the branches a change applies to: "in the
// `S3LogIntegrationRequest` variant", or for several that share a name's
// tail, "in 7 alert configuration variants: Any Other, Billing Threshold, …".
func variantPhrase(names []string) string {
	if len(names) == 1 {
		return "in the " + codeOf(names[0]) + " variant"
	}
	return diff.SiblingsPhrase(names, "variants", 0)
}

var (
	quoted   = regexp.MustCompile("`[^`]*`")
	pathStep = regexp.MustCompile(`^(?:[A-Za-z0-9_.$@-]+|(?:oneOf|anyOf|allOf)\[[^\]]*\])?$`)
)

// isSchemaPath tells a property path (results/items/name) from other
// quoted values with slashes: media types, patterns, URLs.
func isSchemaPath(s string) bool {
	if !strings.Contains(s, "/") || strings.HasPrefix(s, "#/") || strings.HasPrefix(s, "/") {
		return false
	}
	if strings.HasPrefix(s, "application/") || strings.HasPrefix(s, "text/") || strings.HasPrefix(s, "multipart/") {
		return false
	}
	for _, step := range strings.Split(diff.BranchStep.ReplaceAllString(s, "oneOf[x]/"), "/") {
		if !pathStep.MatchString(step) {
			return false
		}
	}
	return true
}

// readableCodes rewrites each quoted path of a message as readablePath does
// and names schema references by their names.
func readableCodes(message string) string {
	return quoted.ReplaceAllStringFunc(message, func(c string) string {
		inner := c[1 : len(c)-1]
		if isSchemaPath(inner) {
			inner = readablePath(inner)
		}
		return codeOf(inner)
	})
}
