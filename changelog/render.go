package changelog

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/versions"
)

// RenderFormats lists the formats of `apiver changelog render`.
var RenderFormats = []string{"markdown", "text"}

func compareOperations(a, b string) int { return versions.CompareOperationNames(a, b) }

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

func uncapitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}

// IsLifecycle reports whether the line is a version's release,
// deprecation or removal.
func (l *Line) IsLifecycle() bool {
	return l.ID == VersionReleased || l.ID == VersionDeprecated || l.ID == VersionRemoved
}

// Lead is the statement as it opens a line followed by its operations: a
// lifecycle line names the version they share ("Version 2023-01-01 removed
// (…)").
func (l *Line) Lead() string {
	switch {
	case !l.IsLifecycle():
		return l.Text
	case l.SharedVersion() != "":
		return "Version " + l.SharedVersion() + " " + uncapitalize(l.Text)
	case len(l.Uses) > 1:
		return "Versions " + uncapitalize(l.Text)
	}
	return l.Text
}

// Tail is the statement as it follows an operation and its version
// ("`GET /clusters` 2023-01-01 removed (…)").
func (l *Line) Tail() string {
	if l.IsLifecycle() {
		return uncapitalize(l.Text)
	}
	return l.Text
}

// UseGroup is the uses of a line that share one detail.
type UseGroup struct {
	Detail string
	Uses   []Use
}

// UseGroups gathers the line's uses by detail, in the order they first
// appear, so that operations with the same detail are named together.
func (l *Line) UseGroups() []UseGroup {
	var out []UseGroup
	at := map[string]int{}
	for _, u := range l.Uses {
		i, ok := at[u.Detail]
		if !ok {
			i = len(out)
			at[u.Detail] = i
			out = append(out, UseGroup{Detail: u.Detail})
		}
		out[i].Uses = append(out[i].Uses, u)
	}
	return out
}

// Operations counts the operations the line names: an operation named
// for two of its versions, or for two details, is one.
func (l *Line) Operations() int {
	seen := map[string]bool{}
	for _, u := range l.Uses {
		seen[u.Operation] = true
	}
	return len(seen)
}

// versionsOfOne are the versions the line names when all its uses are
// versions of one operation, without details; nil otherwise.
func (l *Line) versionsOfOne() []string {
	var versions []string
	for _, u := range l.Uses {
		if u.Operation != l.Uses[0].Operation || u.Detail != "" || u.Version == "" {
			return nil
		}
		versions = append(versions, u.Version)
	}
	return versions
}

// SharedVersion is the version every use of the line names, "" when they
// differ (or the operations are unversioned).
func (l *Line) SharedVersion() string {
	if len(l.Uses) == 0 {
		return ""
	}
	v := l.Uses[0].Version
	for _, u := range l.Uses[1:] {
		if u.Version != v {
			return ""
		}
	}
	return v
}

// Render writes the history for people, newest release first: per release
// its hand-written summary, then its lines, breaking first, each with its
// notes.
func Render(w io.Writer, format string, releases []Release) error {
	var b strings.Builder
	markdown := format == "markdown"
	if markdown {
		b.WriteString("# API changelog\n")
	}
	history := NewLifecycles(releases)
	for _, r := range releases {
		ls := Lines(r, history)
		if markdown {
			fmt.Fprintf(&b, "\n## %s\n", r.Date)
		} else {
			fmt.Fprintf(&b, "%s\n%s\n", r.Date, strings.Repeat("=", len(r.Date)))
		}
		if r.Summary != "" {
			// Hand-written Markdown: its markup kept in Markdown; in both
			// formats each of its lines shows its other control characters
			// escaped and cannot start a workflow command.
			lines := handLines(strings.TrimSpace(r.Summary), markdown)
			for i, l := range lines {
				lines[i] = noWorkflowCommand(escape.Text(l))
			}
			fmt.Fprintf(&b, "\n%s\n", strings.Join(lines, "\n"))
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
			if l.Heading != "" {
				// What a consumer's server receives.
				title = l.Heading
				if l.Breaking {
					title += ": breaking changes"
				}
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

// handLines splits hand-written text into its lines. In Markdown, which
// keeps the text as written, a lone CR ends a line too, as it does for the
// CI runner reading the log; in text, escape.Text shows it as \r.
func handLines(s string, markdown bool) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if markdown {
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return strings.Split(s, "\n")
}

// noWorkflowCommand keeps a hand-written line from starting a GitHub
// Actions workflow command when the output is printed in a CI log: the
// runner reads a line that starts with "::" (after spaces) as one, so the
// first colon is escaped, which Markdown renders as a colon.
func noWorkflowCommand(line string) string {
	trimmed := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(trimmed, "::") {
		return line
	}
	return line[:len(line)-len(trimmed)] + `\` + trimmed
}

// writeLine writes one line as one list item: the operation first when
// there is one, else the statement followed by the operations.
//
// Every string from the history goes through one escaping layer of the
// format: in Markdown, operations are code spans (escape.Code) and
// statements and details, prose that marks names as `code`, go through
// escape.MarkdownProse; in text, escape.Text shows control characters
// escaped.
func writeLine(b *strings.Builder, l *Line, markdown bool) {
	code, prose := escape.Text, escape.Text
	if markdown {
		code, prose = escape.Code, escape.MarkdownProse
	}
	text := l.Text
	if l.Exempted {
		text += " (exempted)"
	}
	lifecycle := l.IsLifecycle()
	if lifecycle && len(l.Uses) == 1 && l.Uses[0].Version != "" {
		// "`GET /clusters` 2023-01-01 removed (deprecated …)"
		u := l.Uses[0]
		fmt.Fprintf(b, "- %s %s %s\n", code(u.Operation), prose(u.Version), prose(l.Tail()))
		writeNotes(b, l, markdown)
		return
	}
	if lifecycle {
		text = l.Lead()
	}
	text = prose(text)
	if versions := l.versionsOfOne(); len(versions) > 1 && !lifecycle {
		// One operation in several of its versions: "`POST /a` 2024-01-01, 2024-02-01: …".
		for i, v := range versions {
			versions[i] = prose(v)
		}
		fmt.Fprintf(b, "- %s %s: %s\n", code(l.Uses[0].Operation), strings.Join(versions, ", "), text)
		writeNotes(b, l, markdown)
		return
	}
	if len(l.Uses) == 1 {
		u := l.Uses[0]
		lead := code(u.Operation)
		if u.Version != "" {
			lead += " " + prose(u.Version)
		}
		if u.Detail != "" {
			lead += " (" + prose(u.Detail) + ")"
		}
		fmt.Fprintf(b, "- %s: %s\n", lead, text)
	} else {
		shared := l.SharedVersion()
		var groups []string
		for _, g := range l.UseGroups() {
			ops := make([]string, len(g.Uses))
			for i, u := range g.Uses {
				ops[i] = code(u.Operation)
				if shared == "" && u.Version != "" {
					ops[i] += " " + prose(u.Version)
				}
			}
			group := strings.Join(ops, ", ")
			if g.Detail != "" {
				group += " (" + prose(g.Detail) + ")"
			}
			groups = append(groups, group)
		}
		in := "in 1 operation"
		if n := l.Operations(); n > 1 {
			in = fmt.Sprintf("in %d operations", n)
		}
		if shared != "" && !lifecycle {
			in += ", version " + prose(shared)
		}
		fmt.Fprintf(b, "- %s — %s: %s\n", text, in, strings.Join(groups, "; "))
	}
	writeNotes(b, l, markdown)
}

func writeNotes(b *strings.Builder, l *Line, markdown bool) {
	for _, n := range l.Notes {
		for _, line := range handLines(strings.TrimSpace(n), markdown) {
			// Notes are written by hand, in Markdown: the markup is kept,
			// control characters are not.
			if markdown {
				fmt.Fprintf(b, "  > %s\n", escape.Text(line))
			} else {
				fmt.Fprintf(b, "  Note: %s\n", escape.Text(line))
			}
		}
	}
}
