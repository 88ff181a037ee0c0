package changelog

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/oasdiff/oasdiff/checker/localizations"
)

// template is an oasdiff message pattern cut at its arguments, with the
// roles of the arguments a reader merges on: the response status, the enum
// value, and the property (or parameter) the change is about. A role is -1
// when the message has none.
type template struct {
	parts                 []string // literal text around the arguments: len(args)+1
	re                    *regexp.Regexp
	status, value, target int
}

var (
	templatesMu sync.Mutex
	templates   = map[string]*template{}
	oasdiffText = localizations.New(localizations.LangDefault, localizations.LangDefault)
	verb        = regexp.MustCompile(`%[sdv]`)
)

// templateOf is the pattern of an oasdiff check id, nil for ids oasdiff
// does not know (apiver's own lifecycle ids).
func templateOf(id string) *template {
	templatesMu.Lock()
	defer templatesMu.Unlock()
	if t, ok := templates[id]; ok {
		return t
	}
	key := "messages." + id
	pattern := oasdiffText.Get(key)
	var t *template
	if pattern != key && strings.Contains(pattern, "%") {
		t = newTemplate(pattern)
	}
	templates[id] = t
	return t
}

func newTemplate(pattern string) *template {
	t := &template{parts: verb.Split(pattern, -1), status: -1, value: -1, target: -1}
	var re strings.Builder
	re.WriteString("^")
	for i, p := range t.parts {
		re.WriteString(regexp.QuoteMeta(p))
		if i < len(t.parts)-1 {
			re.WriteString("`(.*?)`")
		}
	}
	// oasdiff appends details to some messages; they stay as they are.
	re.WriteString("(.*)$")
	t.re = regexp.MustCompile(re.String())
	for i := 0; i+1 < len(t.parts); i++ {
		before, after := t.parts[i], t.parts[i+1]
		switch {
		case strings.HasSuffix(before, "status ") || strings.HasPrefix(after, " status"):
			t.status = i
		case strings.HasSuffix(before, "enum value ") || strings.HasPrefix(after, " enum value"):
			if t.value < 0 {
				t.value = i
			}
		case t.target < 0 && (strings.HasSuffix(before, "property ") || strings.HasSuffix(before, "parameter ") ||
			strings.HasPrefix(after, " request property") || strings.HasPrefix(after, " response property") ||
			strings.HasPrefix(after, " response write-only property") || strings.HasPrefix(after, " response's property") ||
			strings.HasPrefix(after, " request parameter")):
			t.target = i
		}
	}
	return t
}

// args splits a message into its arguments and the details oasdiff
// appended; ok is false when the message does not follow the pattern.
func (t *template) args(message string) (args []string, rest string, ok bool) {
	m := t.re.FindStringSubmatch(message)
	if m == nil {
		return nil, "", false
	}
	return m[1 : len(m)-1], m[len(m)-1], true
}

// variantSegment is a oneOf/anyOf/allOf step of a schema path.
var variantSegment = regexp.MustCompile(`(?:oneOf|anyOf|allOf)\[([^\]]*)\]/?`)

// variantName is what a reader calls a branch: the schema's name, the
// discriminator value, or its position.
func variantName(inside string) string {
	inside = strings.TrimPrefix(inside, "#/components/schemas/")
	if rest, ok := strings.CutPrefix(inside, "subschema "); ok {
		if _, value, found := strings.Cut(rest, ": "); found {
			return value
		}
		return rest
	}
	return inside
}

// splitVariant cuts a property path at its first oneOf/anyOf branch: the
// path before it, the branch's name and the path after it. found is false
// when there is no branch or nothing follows it.
func splitVariant(path string) (prefix, name, rest string, found bool) {
	loc := variantSegment.FindStringSubmatchIndex(path)
	if loc == nil || loc[1] == len(path) {
		return path, "", "", false
	}
	return path[:loc[0]], variantName(path[loc[2]:loc[3]]), path[loc[1]:], true
}

// readablePath writes a schema path as clients write it:
// results/items/roles/items/roleName is results[].roles[].roleName.
func readablePath(path string) string {
	path = variantSegment.ReplaceAllStringFunc(path, func(seg string) string {
		m := variantSegment.FindStringSubmatch(seg)
		return "(" + variantName(m[1]) + ")."
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
		value = variantName(value)
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

// plural turns the noun next to a merged argument into its plural.
var plurals = strings.NewReplacer(
	"property's", "properties'", "property", "properties",
	"parameter", "parameters", "enum value", "enum values", "value", "values",
)

// pluralizeEnd makes the last noun of s plural, pluralizeStart the first.
func pluralizeEnd(s string) string {
	for _, n := range []string{"property's ", "property ", "parameter ", "enum value ", "value "} {
		if strings.HasSuffix(s, n) {
			return strings.TrimSuffix(s, n) + plurals.Replace(n)
		}
	}
	return s
}

func pluralizeStart(s string) string {
	for _, n := range []string{" enum value", " request property's", " response property's", " request property", " response property",
		" response write-only property", " response's property", " request parameter"} {
		if strings.HasPrefix(s, n) {
			return plurals.Replace(n) + strings.TrimPrefix(s, n)
		}
	}
	return s
}

// camelWords splits AnyOtherAlertConfig into Any, Other, Alert, Config.
func camelWords(s string) []string {
	var words []string
	runes := []rune(s)
	start := 0
	for i := 1; i < len(runes); i++ {
		if unicode.IsUpper(runes[i]) && (unicode.IsLower(runes[i-1]) || (i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1]))) {
			words = append(words, string(runes[start:i]))
			start = i
		}
	}
	return append(words, string(runes[start:]))
}

// spelledOut are the abbreviations of schema names a reader sees spelled out.
var spelledOut = map[string]string{"config": "configuration", "configs": "configurations"}

// variantPhrase names the branches a change applies to: "in the
// `S3LogIntegrationRequest` variant", or for several that share a name's
// tail, "in 7 alert configuration variants: Any Other, Billing Threshold, …".
func variantPhrase(names []string) string {
	if len(names) == 1 {
		return "in the " + codeOf(names[0]) + " variant"
	}
	split := make([][]string, len(names))
	common := -1
	for i, n := range names {
		if strings.Contains(n, " ") {
			split[i] = strings.Fields(n)
		} else {
			split[i] = camelWords(n)
		}
		if i == 0 {
			common = len(split[i]) - 1
			continue
		}
		k := 0
		for k < common && k < len(split[i])-1 && split[i][len(split[i])-1-k] == split[0][len(split[0])-1-k] {
			k++
		}
		common = k
	}
	if common <= 0 {
		return "in " + strconv.Itoa(len(names)) + " variants: " + strings.Join(names, ", ")
	}
	tail := split[0][len(split[0])-common:]
	kind := make([]string, len(tail))
	for i, w := range tail {
		w = strings.ToLower(w)
		if long, ok := spelledOut[w]; ok {
			w = long
		}
		kind[i] = w
	}
	short := make([]string, len(names))
	for i, s := range split {
		short[i] = strings.Join(s[:len(s)-common], " ")
	}
	return "in " + strconv.Itoa(len(names)) + " " + strings.Join(kind, " ") + " variants: " + strings.Join(short, ", ")
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
	for _, step := range strings.Split(variantSegment.ReplaceAllString(s, "oneOf[x]/"), "/") {
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
