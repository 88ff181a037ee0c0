package escape

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

func TestText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain name":                 "plain name",
		"a\nb":                       `a\nb`,
		"x\r\n::error file=a::owned": `x\r\n::error file=a::owned`,
		"\x1b[31mred":                `\x1b[31mred`,
		"nel\u0085line\u2028sep":     `nel\u0085line\u2028sep`,
		"rtl\u202eevil":              `rtl\u202eevil`,
		"bad\xffbyte":                `bad\xffbyte`,
		"tab\there":                  `tab\there`,
		"ünïcödé ok":                 "ünïcödé ok",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCode(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"name":     "`name`",
		"a`b":      "``a`b``",
		"``x":      "``` ``x ```",
		"x`":       "`` x` ``",
		" padded ": "`  padded  `",
		"":         "`  `",
	} {
		if got := Code(in); got != want {
			t.Errorf("Code(%q) = %q, want %q", in, got, want)
		}
	}
}

var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

func render(t *testing.T, src string) string {
	t.Helper()
	var b bytes.Buffer
	if err := md.Convert([]byte(src), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var liveMention = regexp.MustCompile(`@[A-Za-z0-9]`)

var codeElement = regexp.MustCompile(`(?s)<code>(.*?)</code>`)

// checkMarkdown asserts that s, escaped, renders as the text it is: one
// table row of two cells, one list item, no link, image, autolink, raw
// HTML or emphasis, and code spans holding exactly the text.
func checkMarkdown(t *testing.T, s string) {
	t.Helper()
	table := "| Message | Name | Prose |\n|---|---|---|\n| " + Markdown(s) + " | " + TableCode(s) + " | " + TableProse("a `"+s+"` b") + " |\n"
	out := render(t, table)
	if n := strings.Count(out, "<tr>"); n != 2 {
		t.Fatalf("%q: the table has %d rows, want 2:\n%s\n%s", s, n, table, out)
	}
	if n := strings.Count(out, "<td>") + strings.Count(out, "<td "); n != 3 {
		t.Fatalf("%q: the row has %d cells, want 2:\n%s", s, n, out)
	}
	list := "- " + Markdown(s) + "\n- " + MarkdownProse("name `"+strings.ReplaceAll(s, "`", "'")+"` here") + "\n"
	listOut := render(t, list)
	if n := strings.Count(listOut, "<li>"); n != 2 {
		t.Fatalf("%q: the list has %d items, want 2:\n%s\n%s", s, n, list, listOut)
	}
	for _, o := range []string{out, listOut} {
		for _, live := range []string{"<a ", "<img", "raw HTML omitted", "<em>", "<strong>", "<del>", "<script", "<h"} {
			if strings.Contains(strings.ReplaceAll(o, "<hr", ""), live) {
				t.Fatalf("%q renders live markup %q:\n%s", s, live, o)
			}
		}
	}
	for i, m := range codeElement.FindAllStringSubmatch(out+listOut, -1) {
		want := Text(s)
		if i > 0 && strings.Contains(s, "`") {
			break // the prose's spans end at the first backtick
		}
		if i == 2 {
			want = strings.ReplaceAll(want, "`", "'")
		}
		got := html.UnescapeString(m[1])
		if got != want && !(strings.Trim(want, " ") == "" && got == " "+want+" ") {
			t.Fatalf("%q: code span %d shows %q, want %q", s, i, got, want)
		}
	}
	if text := codeElement.ReplaceAllString(out+listOut, ""); liveMention.MatchString(text) {
		t.Fatalf("%q: a mention stays live:\n%s", s, text)
	}
}

var hostile = []string{
	"name", "a`b", "``", "x|y", "line\nbreak", "@octocat please", "![x](https://evil.example/p.png)",
	"<img src=x onerror=alert(1)>", "<https://evil.example>", "[link](javascript:alert(1))",
	"*bold* _it_ ~~del~~", "&lt;script&gt;", "# heading", "\\`", "` ", " `", "   ", "\r\n::error::x",
	"| --- |", "a\\|b", "-- list", "1. item", "> quote", "[^note]", "https://evil.example/x",
}

func TestMarkdownKeepsStructure(t *testing.T) {
	t.Parallel()
	for _, s := range hostile {
		checkMarkdown(t, s)
	}
}

func FuzzMarkdown(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkMarkdown(t, s)
	})
}

// No escaped text holds a raw control character, so no line of text
// output can start with one of the data's lines.
func FuzzText(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		for _, r := range out {
			if unsafeRune(r) || r == '\uFFFD' && !strings.ContainsRune(s, '\uFFFD') {
				t.Fatalf("Text(%q) = %q holds %U", s, out, r)
			}
		}
		if Text(out) != out {
			t.Fatalf("Text is not stable on %q", out)
		}
	})
}

func TestDiffPath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"a/api.yaml":           "a/api.yaml",
		"a/my api ü.yaml":      "a/my api ü.yaml",
		"a/q\n::error::x.yaml": `"a/q\n::error::x.yaml"`,
		"a/x\u202ey.yaml":      `"a/x\342\200\256y.yaml"`,
		`a/"q"\.yaml`:          `"a/\"q\"\\.yaml"`,
		"a/\xff.yaml":          `"a/\377.yaml"`,
	} {
		if got := DiffPath(in); got != want {
			t.Errorf("DiffPath(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestSplitCodeReadsFences: code spans as CommonMark reads them, so that
// a span fenced past a backtick inside (Code's) is one span.
func TestSplitCodeReadsFences(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"send " + Code("X`*E*`: 1"): "send |X`*E*`: 1|",
		"a `b` c ``d`` e":           "a |b| c |d| e",
		"stray ` and `code`":        "stray |and|code`",
		"``` unclosed `x`":          "``` unclosed |x|",
	} {
		var b strings.Builder
		SplitCode(in, func(part string, code bool) {
			if code {
				part = "|" + part + "|"
			}
			b.WriteString(part)
		})
		if b.String() != want {
			t.Errorf("SplitCode(%q) = %q, want %q", in, b.String(), want)
		}
	}
}
