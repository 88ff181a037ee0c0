package diff

import (
	"regexp"
	"strings"
	"sync"

	"github.com/oasdiff/oasdiff/checker/localizations"
)

// Template is an oasdiff message pattern cut at its arguments, with the
// roles of the arguments that tell the changes of one edit apart: the
// response status, the enum value, and the property (or parameter) the
// change is about. A role is -1 when the message has none.
type Template struct {
	// Parts is the literal text around the arguments: len(args)+1.
	Parts                 []string
	Status, Value, Target int
	// Parameter says the Target is a parameter, not a schema's property.
	Parameter bool
	re        *regexp.Regexp
}

var (
	templatesMu sync.Mutex
	templates   = map[string]*Template{}
	oasdiffText = localizations.New(localizations.LangDefault, localizations.LangDefault)
	verb        = regexp.MustCompile(`%[sdv]`)
)

// TemplateOf is the pattern of an oasdiff check id, nil for ids oasdiff
// does not know (apiver's own lifecycle ids).
func TemplateOf(id string) *Template {
	templatesMu.Lock()
	defer templatesMu.Unlock()
	if t, ok := templates[id]; ok {
		return t
	}
	key := "messages." + id
	pattern := oasdiffText.Get(key)
	var t *Template
	if pattern != key && strings.Contains(pattern, "%") {
		t = newTemplate(pattern)
	}
	templates[id] = t
	return t
}

func newTemplate(pattern string) *Template {
	t := &Template{Parts: verb.Split(pattern, -1), Status: -1, Value: -1, Target: -1}
	var re strings.Builder
	// (?s): a value may hold a line break (an enum value "a\nb").
	re.WriteString("(?s)^")
	for i, p := range t.Parts {
		re.WriteString(regexp.QuoteMeta(p))
		if i < len(t.Parts)-1 {
			re.WriteString("`(.*?)`")
		}
	}
	// oasdiff appends details to some messages; they stay as they are.
	re.WriteString("(.*)$")
	t.re = regexp.MustCompile(re.String())
	for i := 0; i+1 < len(t.Parts); i++ {
		before, after := t.Parts[i], t.Parts[i+1]
		switch {
		case strings.HasSuffix(before, "status ") || strings.HasPrefix(after, " status"):
			t.Status = i
		case strings.HasSuffix(before, "enum value ") || strings.HasPrefix(after, " enum value"):
			if t.Value < 0 {
				t.Value = i
			}
		case t.Target < 0 && (strings.HasSuffix(before, "property ") || strings.HasSuffix(before, "parameter ") ||
			strings.HasPrefix(after, " request property") || strings.HasPrefix(after, " response property") ||
			strings.HasPrefix(after, " response write-only property") || strings.HasPrefix(after, " response's property") ||
			strings.HasPrefix(after, " request parameter")):
			t.Target = i
			t.Parameter = strings.HasSuffix(before, "parameter ") || strings.HasPrefix(after, " request parameter")
		}
	}
	return t
}

// Args splits a message into its arguments and the details oasdiff
// appended; ok is false when the message does not follow the pattern.
func (t *Template) Args(message string) (args []string, rest string, ok bool) {
	m := t.re.FindStringSubmatch(message)
	if m == nil {
		return nil, "", false
	}
	return m[1 : len(m)-1], m[len(m)-1], true
}

// plurals turns the noun next to an argument that lists several into its
// plural.
var plurals = strings.NewReplacer(
	"property's", "properties'", "property", "properties",
	"parameter", "parameters", "enum value", "enum values", "value", "values",
)

// PluralizeEnd makes the last noun of a template's part plural (the noun
// before an argument), PluralizeStart the first (the noun after one).
func PluralizeEnd(s string) string {
	for _, n := range []string{"property's ", "property ", "parameter ", "enum value ", "value "} {
		if strings.HasSuffix(s, n) {
			return strings.TrimSuffix(s, n) + plurals.Replace(n)
		}
	}
	return s
}

// PluralizeStart: see PluralizeEnd.
func PluralizeStart(s string) string {
	for _, n := range []string{" enum value", " request property's", " response property's", " request property", " response property",
		" response write-only property", " response's property", " request parameter"} {
		if strings.HasPrefix(s, n) {
			return plurals.Replace(n) + strings.TrimPrefix(s, n)
		}
	}
	return s
}
