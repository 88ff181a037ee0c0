package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
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
