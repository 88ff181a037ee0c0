// Package escape turns text taken from a spec or a config (names, paths,
// enum values, messages) into data of one output format, never markup:
// one function per format, applied to every such string as it is written.
// A newline in a property name must not start a line of a CI log (GitHub
// Actions runs a line beginning "::" as a workflow command), and a backtick
// must not end a Markdown code span early.
package escape

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text is s with every character that could move the cursor, end a line
// or hide text shown as a Go escape: C0 and C1 controls (\n, \r, \x1b,
// \u0085), DEL, the Unicode line and paragraph separators, the
// bidirectional overrides, and bytes that are not UTF-8 (\xff). The result
// is one line that reads as it is stored.
func Text(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case unsafeRune(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
			return true
		}
	}
	return false
}

func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0: // C0, DEL, C1
		return true
	case r == '\u2028', r == '\u2029': // line and paragraph separators
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e', r == '\u200f':
		// Bidirectional controls reorder what follows them on the line.
		return true
	}
	return false
}

// markdownEscaper backslash-escapes the ASCII punctuation that Markdown
// (CommonMark and GitHub's extensions) reads as markup in running text:
// emphasis, code, links and images, autolinks and raw HTML, entities,
// strikethrough and table cells. "@" is followed by a word joiner, since a
// mention is found in text after the Markdown is rendered, where a
// backslash escape no longer shows.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `!`, `\!`, `|`, `\|`, `~`, `\~`, `&`, `\&`,
	`#`, `\#`, `@`, "@\u2060",
	// GitHub links bare URLs: an escape keeps them text.
	"://", `\://`, "www.", `www\.`, "WWW.", `WWW\.`,
)

// listMarker is what opens a list item or a setext heading underline at the
// start of a line; the escape keeps it text.
var listMarker = regexp.MustCompile(`^(?:[-+=]|[0-9]{1,9}[.)])`)

// Markdown is s as literal Markdown text outside a code span: control
// characters shown as Text shows them (so no newline breaks a table row or
// a list item), and markup characters escaped.
func Markdown(s string) string {
	return lineStart(markdownEscaper.Replace(Text(s)))
}

// lineStart escapes what opens a block when it starts a line.
func lineStart(s string) string {
	if m := listMarker.FindString(s); m != "" {
		s = m[:len(m)-1] + `\` + s[len(m)-1:]
	}
	if strings.HasPrefix(s, " ") {
		// Leading spaces would indent the text into a code block.
		s = "&#32;" + s[1:]
	}
	return s
}

// Code is s as a Markdown code span: its control characters shown as Text
// shows them, and a fence of one backtick more than the longest run of
// backticks in s, so that no backtick in s can close it (CommonMark's
// rule). A space pads s when it starts or ends with a backtick, or starts
// and ends with a space (CommonMark strips one such space from each end).
func Code(s string) string {
	s = Text(s)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if s == "" || s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// TableCode is Code for a cell of a GitHub table, where a pipe ends the
// cell even inside a code span unless it is escaped; the escape does not
// show.
func TableCode(s string) string {
	return strings.ReplaceAll(Code(s), "|", `\|`)
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// SplitCode splits s into the spans it marks as code and the text
// between them, as CommonMark reads code spans: a run of backticks opens
// one that the next run of as many backticks closes (so a span fenced
// with two may hold one), one space is stripped from each end of a span padded on both
// sides, and a run that nothing closes is text.
func SplitCode(s string, yield func(text string, code bool)) {
	var text strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			text.WriteByte(s[i])
			i++
			continue
		}
		n := runAt(s, i)
		end := -1
		for j := i + n; j < len(s); {
			if s[j] != '`' {
				j++
				continue
			}
			m := runAt(s, j)
			if m == n {
				end = j
				break
			}
			j += m
		}
		if end < 0 {
			text.WriteString(s[i : i+n])
			i += n
			continue
		}
		yield(text.String(), false)
		text.Reset()
		code := s[i+n : end]
		if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
			code = code[1 : len(code)-1]
		}
		yield(code, true)
		i = end + n
	}
	yield(text.String(), false)
}

// runAt is the length of the run of backticks at s[i].
func runAt(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// MarkdownProse is a sentence that marks names as code spans (`name`,
// fenced past any backtick the name holds), as apiver's changelog lines
// do, as Markdown: each code span through Code, the text between through
// Markdown. A stray backtick is text.
func MarkdownProse(s string) string {
	return prose(s, Code)
}

// TableProse is MarkdownProse for a cell of a GitHub table: its code spans
// through TableCode.
func TableProse(s string) string {
	return prose(s, TableCode)
}

func prose(s string, code func(string) string) string {
	var b strings.Builder
	SplitCode(s, func(part string, isCode bool) {
		switch {
		case isCode:
			b.WriteString(code(part))
		case b.Len() == 0:
			b.WriteString(Markdown(part))
		default:
			b.WriteString(markdownEscaper.Replace(Text(part)))
		}
	})
	return b.String()
}

// DiffPath is a file name for a unified diff's ---/+++ header as git
// writes it: as it is, or, when it holds a character Text would escape, a
// double quote or a backslash, C-quoted ("a/x\nb"; other bytes in octal),
// which git apply reads back to the name. A raw line break would end the
// header, and start a line of the CI log.
func DiffPath(s string) string {
	if !needsEscape(s) && !strings.ContainsAny(s, `"\`) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case s[i] == '"' || s[i] == '\\':
			b.WriteString(`\` + s[i:i+1])
		case s[i] == '\n':
			b.WriteString(`\n`)
		case s[i] == '\t':
			b.WriteString(`\t`)
		case (r == utf8.RuneError && size == 1) || unsafeRune(r):
			for _, c := range []byte(s[i : i+size]) {
				fmt.Fprintf(&b, `\%03o`, c)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}
