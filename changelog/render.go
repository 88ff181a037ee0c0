package changelog

import (
	"cmp"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// RenderFormats lists the formats of `apiver changelog render`.
var RenderFormats = []string{"markdown", "text"}

// line is one rendered change and the operation-versions it applies to.
type line struct {
	text       string
	breaking   bool
	exempted   bool
	id         string
	operations []string
}

// firstCode is the first `quoted` token of a message: for enum changes,
// the value added or removed.
var firstCode = regexp.MustCompile("`[^`]*`")

// lines groups a release's changes for reading: enum values added to or
// removed from one property of one operation-version become one change, and
// identical changes across operations become one line listing them.
func lines(r Release) []*line {
	type enumKey struct{ op, version, id, template string }
	enumValues := map[enumKey][]string{}
	var enumOrder []enumKey
	type item struct {
		op, text string
		e        Entry
	}
	var items []item
	for _, e := range r.Changes {
		op := e.Operation
		if e.Version != "" {
			op += " (" + e.Version + ")"
		}
		if strings.Contains(e.ID, "enum-value-added") || strings.Contains(e.ID, "enum-value-removed") {
			if loc := firstCode.FindStringIndex(e.Text); loc != nil {
				k := enumKey{op, e.Version, e.ID, e.Text[:loc[0]] + "\x00" + e.Text[loc[1]:]}
				if _, seen := enumValues[k]; !seen {
					enumOrder = append(enumOrder, k)
					items = append(items, item{op: op, e: e})
				}
				enumValues[k] = append(enumValues[k], e.Text[loc[0]:loc[1]])
				continue
			}
		}
		items = append(items, item{op: op, text: e.Text, e: e})
	}
	// Fill in the merged enum texts.
	for i := range items {
		if items[i].text != "" {
			continue
		}
		e := items[i].e
		loc := firstCode.FindStringIndex(e.Text)
		k := enumKey{items[i].op, e.Version, e.ID, e.Text[:loc[0]] + "\x00" + e.Text[loc[1]:]}
		values := enumValues[k]
		slices.Sort(values)
		values = slices.Compact(values)
		text := strings.Replace(k.template, "\x00", strings.Join(values, ", "), 1)
		if len(values) > 1 {
			text = strings.Replace(text, " enum value ", " enum values ", 1)
		}
		items[i].text = text
	}

	byText := map[[4]string]*line{}
	var out []*line
	for _, it := range items {
		k := [4]string{it.e.ID, it.text, fmt.Sprint(it.e.Breaking), fmt.Sprint(it.e.Exempted)}
		l, ok := byText[k]
		if !ok {
			l = &line{text: capitalize(it.text), breaking: it.e.Breaking, exempted: it.e.Exempted, id: it.e.ID}
			byText[k] = l
			out = append(out, l)
		}
		if !slices.Contains(l.operations, it.op) {
			l.operations = append(l.operations, it.op)
		}
	}
	slices.SortStableFunc(out, func(a, b *line) int {
		return cmp.Or(boolFirst(a.breaking, b.breaking), cmp.Compare(len(b.operations), len(a.operations)), cmp.Compare(a.id, b.id), cmp.Compare(a.text, b.text))
	})
	return out
}

func boolFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// Render writes the history for people, newest release first.
func Render(w io.Writer, format string, releases []Release) error {
	var b strings.Builder
	markdown := format == "markdown"
	if markdown {
		b.WriteString("# API changelog\n")
	}
	for _, r := range releases {
		ls := lines(r)
		breaking := 0
		for _, l := range ls {
			if l.breaking {
				breaking++
			}
		}
		if markdown {
			fmt.Fprintf(&b, "\n## %s\n", r.Date)
		} else {
			fmt.Fprintf(&b, "%s\n%s\n", r.Date, strings.Repeat("=", len(r.Date)))
		}
		if len(ls) == 0 {
			b.WriteString("\nNo changes.\n")
		}
		section := ""
		for _, l := range ls {
			title := "Changes"
			if l.breaking {
				title = "Breaking changes"
			}
			if title != section {
				section = title
				if markdown {
					fmt.Fprintf(&b, "\n### %s\n\n", title)
				} else {
					fmt.Fprintf(&b, "\n%s:\n", title)
				}
			}
			writeLine(&b, l, markdown)
		}
		if !markdown {
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeLine(b *strings.Builder, l *line, markdown bool) {
	text := l.text
	if l.exempted {
		text += " (exempted)"
	}
	code := func(s string) string {
		if markdown {
			return "`" + s + "`"
		}
		return s
	}
	if len(l.operations) == 1 {
		fmt.Fprintf(b, "- %s: %s\n", code(l.operations[0]), text)
		return
	}
	fmt.Fprintf(b, "- %s in %d operations:\n", text, len(l.operations))
	for _, op := range l.operations {
		fmt.Fprintf(b, "  - %s\n", code(op))
	}
}
