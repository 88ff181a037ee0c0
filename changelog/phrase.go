package changelog

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/apiver/apiver/diff"
)

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

var quoted = regexp.MustCompile("`[^`]*`")

// readableCodes names the schema references of a message's code spans by
// their names. Property paths stay as check and diff write them
// (results/items/name), so that every command names a property alike and
// a property called items is its name.
func readableCodes(message string) string {
	return quoted.ReplaceAllStringFunc(message, func(c string) string {
		return codeOf(c[1 : len(c)-1])
	})
}
