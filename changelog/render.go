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

// Line is one change as people read it, and the operation-versions it
// applies to.
type Line struct {
	Text     string
	Breaking bool
	Exempted bool
	// ID is the change id the line was made from.
	ID   string
	Uses []Use
}

// Use is one operation-version a line applies to.
type Use struct {
	Operation string
	Version   string
}

// String is the operation with its version in parentheses.
func (u Use) String() string {
	if u.Version == "" {
		return u.Operation
	}
	return u.Operation + " (" + u.Version + ")"
}

// firstCode is the first `quoted` token of a message: for enum changes,
// the value added or removed.
var firstCode = regexp.MustCompile("`[^`]*`")

// Lines groups a release's changes for reading: enum values added to or
// removed from one property of one operation-version become one change, and
// identical changes across operations become one line listing them.
// Breaking lines come first, then the lines used by most operations.
func Lines(r Release) []*Line {
	type enumKey struct{ op, version, id, template string }
	enumValues := map[enumKey][]string{}
	type item struct {
		op, text string
		e        Entry
	}
	var items []item
	for _, e := range r.Changes {
		op := Use{e.Operation, e.Version}.String()
		if strings.Contains(e.ID, "enum-value-added") || strings.Contains(e.ID, "enum-value-removed") {
			if loc := firstCode.FindStringIndex(e.Text); loc != nil {
				k := enumKey{op, e.Version, e.ID, e.Text[:loc[0]] + "\x00" + e.Text[loc[1]:]}
				if _, seen := enumValues[k]; !seen {
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

	byText := map[[4]string]*Line{}
	var out []*Line
	for _, it := range items {
		k := [4]string{it.e.ID, it.text, fmt.Sprint(it.e.Breaking), fmt.Sprint(it.e.Exempted)}
		l, ok := byText[k]
		if !ok {
			l = &Line{Text: capitalize(it.text), Breaking: it.e.Breaking, Exempted: it.e.Exempted, ID: it.e.ID}
			byText[k] = l
			out = append(out, l)
		}
		use := Use{it.e.Operation, it.e.Version}
		if !slices.Contains(l.Uses, use) {
			l.Uses = append(l.Uses, use)
		}
	}
	slices.SortStableFunc(out, func(a, b *Line) int {
		return cmp.Or(boolFirst(a.Breaking, b.Breaking), cmp.Compare(len(b.Uses), len(a.Uses)), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Text, b.Text))
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
		ls := Lines(r)
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
			if l.Breaking {
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

func writeLine(b *strings.Builder, l *Line, markdown bool) {
	text := l.Text
	if l.Exempted {
		text += " (exempted)"
	}
	code := func(s string) string {
		if markdown {
			return "`" + s + "`"
		}
		return s
	}
	if len(l.Uses) == 1 {
		fmt.Fprintf(b, "- %s: %s\n", code(l.Uses[0].String()), text)
		return
	}
	fmt.Fprintf(b, "- %s in %d operations:\n", text, len(l.Uses))
	for _, u := range l.Uses {
		fmt.Fprintf(b, "  - %s\n", code(u.String()))
	}
}
