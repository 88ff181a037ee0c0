package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// hostileName is a property name that would start a workflow command on a
// line of its own, close a code span and render a remote image and a
// mention if printed raw.
const hostileName = "id\n::error file=README.md::owned`![x](https://evil.example/x.png) @octocat <b>"

// TestHostileNamesEndToEnd: a spec whose property name carries a line
// break, a backtick and Markdown is checked in every format; the text
// formats keep it on its line and Markdown keeps it out of the markup.
func TestHostileNamesEndToEnd(t *testing.T) {
	dir := t.TempDir()
	quoted := `"` + strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`).Replace(hostileName) + `"`
	// Removing a required response property breaks the version.
	withName := strings.Replace(tinySpec("name", quoted), "                properties:\n", "                required: ["+quoted+"]\n                properties:\n", 1)
	writeFiles(t, dir, map[string]string{
		"api-2024-01-01.yaml": withName,
		"api-2024-02-01.yaml": tinySpec("name"),
	})
	base, revision := filepath.Join(dir, "api-2024-01-01.yaml"), filepath.Join(dir, "api-2024-02-01.yaml")
	for _, format := range []string{"text", "githubactions", "markdown"} {
		var out, errOut bytes.Buffer
		code := run([]string{"diff", "--format", format, base, revision}, &out, &errOut)
		if format == "githubactions" {
			code = run([]string{"check", "--format", format, base, revision}, &out, &errOut)
		}
		if code == exitInput {
			t.Fatalf("%s: exit 2: %s", format, errOut.String())
		}
		if !strings.Contains(out.String(), "owned") {
			t.Fatalf("%s: the name is not in the output:\n%s", format, out.String())
		}
		for line := range strings.Lines(out.String()) {
			if strings.HasPrefix(line, "::error file=README.md") {
				t.Errorf("%s: the name starts a workflow command:\n%s", format, out.String())
			}
		}
		if format == "markdown" && (strings.Contains(out.String(), "![x](") || strings.Contains(out.String(), "<b>") || strings.Contains(out.String(), " @octocat")) {
			t.Errorf("markdown renders the name's markup live:\n%s", out.String())
		}
	}
}

// TestFixKeepsCRLF: in a file whose lines end in CRLF, the lines fix
// inserts end in CRLF too, whether they come from the revision or from an
// LF base; the result passes the check.
func TestFixKeepsCRLF(t *testing.T) {
	archive, err := txtar.ParseFile("../../testdata/fix/comment-column-0.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range archive.Files {
		if !strings.HasPrefix(f.Name, "want.") {
			crlf := strings.ReplaceAll(string(f.Data), "\n", "\r\n")
			writeFiles(t, dir, map[string]string{f.Name: string(f.Data), "crlf-" + f.Name: crlf})
		}
	}
	t.Chdir(dir)
	for _, base := range []string{"base-2024-01-15.yaml", "crlf-base-2024-01-15.yaml"} {
		var out, errOut bytes.Buffer
		if code := run([]string{"fix", base, "crlf-revision-2024-03-01.yaml", "-o", "fixed.yaml"}, &out, &errOut); code != exitPass {
			t.Fatalf("fix: exit %d: %s", code, errOut.String())
		}
		fixed, err := os.ReadFile("fixed.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if n, crlf := strings.Count(string(fixed), "\n"), strings.Count(string(fixed), "\r\n"); n != crlf || n < 20 {
			t.Errorf("fix of %s: %d line breaks, %d of them CRLF:\n%q", base, n, crlf, fixed)
		}
		if code := run([]string{"check", base, "fixed.yaml"}, &out, &errOut); code != exitPass {
			t.Errorf("check of the fixed file: exit %d: %s", code, out.String())
		}
	}
}

// TestControlCharactersEscapedInEveryTextFormat: C0 and C1 controls, bidi
// overrides and the line and paragraph separators in a spec's name reach
// no text-like output raw, GitHub Actions commands included.
func TestControlCharactersEscapedInEveryTextFormat(t *testing.T) {
	dir := t.TempDir()
	const name = `"id\e\0\v\f\u202e\u2066\u2028\u2029\x85\x9b::error::x"`
	withName := strings.Replace(tinySpec("name", name), "                properties:\n", "                required: ["+name+"]\n                properties:\n", 1)
	writeFiles(t, dir, map[string]string{"api-2024-01-01.yaml": withName, "api-2024-02-01.yaml": tinySpec("name")})
	base, revision := filepath.Join(dir, "api-2024-01-01.yaml"), filepath.Join(dir, "api-2024-02-01.yaml")
	runs := map[string][]string{}
	for _, format := range []string{"text", "githubactions", "markdown"} {
		runs["check "+format] = []string{"check", "--format", format, base, revision}
	}
	for _, format := range []string{"text", "markdown"} {
		runs["diff "+format] = []string{"diff", "--format", format, base, revision}
	}
	for what, args := range runs {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != exitPolicy && code != exitPass {
			t.Fatalf("%s: exit %d: %s", what, code, errOut.String())
		}
		for _, r := range out.String() {
			if (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029 {
				t.Errorf("%s: raw %U in the output:\n%q", what, r, out.String())
				break
			}
		}
		if !strings.Contains(out.String(), `\x1b`) {
			t.Errorf("%s: the name is not shown escaped:\n%s", what, out.String())
		}
	}
}
