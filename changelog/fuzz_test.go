package changelog_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/changelog"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// The seed corpus is in testdata/fuzz/FuzzParse; go test runs it (and the
// f.Add seeds) as ordinary tests, go test -fuzz explores from it.

// FuzzParse: every input is a history or a one-line error; a history's
// dates are unique and newest first, and its encoding reads back to the
// same encoding, so an update never rewrites what it does not change.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[]",
		`[{"date": "2024-02-01", "changes": [{"operation": "GET /a", "version": "2024-01-01", "id": "version-released", "breaking": false, "text": "x", "note": "hand-written"}]},
		  {"date": "2024-01-01", "changes": []}]`,
		`[{"date": "2024-01-01", "changes": []}, {"date": "2024-01-01", "changes": []}]`,
		`[{"date": "2024-02-30", "changes": []}]`,
		`[{"date": "2024-01-01", "changes": {}}]`,
		`{"date": "2024-01-01"}`,
		"[\n  {\"date\": \"2024-01-01\",\n",
		`[{"date": "2024-01-01", "changes": [], "text": "\u2028<b>&amp;</b>"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := changelog.Parse(data)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error spans several lines: %q", msg)
			}
			return
		}
		dates := h.Dates()
		if !slices.IsSortedFunc(dates, func(a, b string) int { return strings.Compare(b, a) }) || len(slices.Compact(slices.Clone(dates))) != len(dates) {
			t.Fatalf("dates not unique and newest first: %v", dates)
		}
		enc, err := h.Encode()
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		h2, err := changelog.Parse(enc)
		if err != nil {
			t.Fatalf("the encoding does not parse: %v\n%s", err, enc)
		}
		enc2, err := h2.Encode()
		if err != nil {
			t.Fatalf("Encode again: %v", err)
		}
		if string(enc) != string(enc2) {
			t.Fatalf("the encoding changes when read back:\n%s\n---\n%s", enc, enc2)
		}
		if !slices.Equal(h2.Dates(), dates) {
			t.Fatalf("dates %v read back as %v", dates, h2.Dates())
		}
	})
}

// FuzzLines: any change messages, well-formed or not, give lines that
// stand for every change, and render without panicking.
func FuzzLines(f *testing.F) {
	f.Add("response-property-enum-value-added", "added the new `A` enum value to the `oneOf[subschema #2: AZURE]/items/x` response property for the response status `200`", "GET /b")
	f.Add("response-optional-property-added", "added the optional property `` to the response with the `` status", "GET /a")
	f.Add("request-property-enum-value-removed", "removed the enum value ` ` of the request property `oneOf[#/components/schemas/X]/`", "POST /a")
	f.Add("response-non-success-status-added", "added the non-success response with the status `404`", "GET /a")
	f.Add("version-removed", "Version 2023-01-01 removed", "GET /a")
	f.Add("unknown-id", "`", "")
	f.Fuzz(func(t *testing.T, id, text, op string) {
		r := changelog.Release{Date: "2026-01-01", Changes: []changelog.Entry{
			{Operation: "GET /a", Version: "2023-01-01", ID: id, Text: text},
			{Operation: op, Version: "2023-01-01", ID: id, Text: text},
			{Operation: op, Version: "2023-02-01", ID: "response-optional-property-added", Text: text},
		}}
		n := 0
		for _, l := range changelog.Lines(r, changelog.NewLifecycles([]changelog.Release{r})) {
			n += l.Entries
		}
		if n != len(r.Changes) {
			t.Fatalf("lines stand for %d of %d changes", n, len(r.Changes))
		}
		var b strings.Builder
		if err := changelog.Render(&b, "markdown", []changelog.Release{r}); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzRenderKeepsStructure: whatever names and paths the spec holds, the
// rendered changelog has the structure it has for plain ones: as many list
// items and headings, no live link, image, HTML or emphasis in Markdown,
// and in text no line that starts with the data's own line breaks.
func FuzzRenderKeepsStructure(f *testing.F) {
	for _, s := range []string{"name", "x`y", "@octocat", "![x](https://evil.example/p.png)", "<script>", "a\n::error::b", "|", "\r", "# h", "1. x"} {
		f.Add(s)
	}
	releases := func(s string) []changelog.Release {
		return []changelog.Release{{Date: "2026-01-01", Changes: []changelog.Entry{
			{Operation: "GET /" + s, Version: "2023-01-01", ID: "response-optional-property-added", Text: "added the optional property `" + s + "` to the response with the `200` status"},
			{Operation: "POST /" + s, Version: "2023-01-01", ID: "request-property-removed", Breaking: true, Text: "removed the request property " + s},
			{Operation: "GET /" + s, Version: s, ID: changelog.VersionReleased, Text: "Version " + s + " released"},
		}}}
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	shape := func(t *testing.T, format string, rs []changelog.Release) map[string]int {
		var b bytes.Buffer
		if err := changelog.Render(&b, format, rs); err != nil {
			t.Fatal(err)
		}
		m := map[string]int{"lines": strings.Count(b.String(), "\n")}
		if format == "markdown" {
			var h bytes.Buffer
			if err := md.Convert(b.Bytes(), &h); err != nil {
				t.Fatal(err)
			}
			for _, tag := range []string{"<li>", "<h", "<a ", "<img", "raw HTML omitted", "<em>", "<strong>", "<del>", "<ol", "<p>"} {
				m[tag] = strings.Count(h.String(), tag)
			}
		}
		return m
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, format := range changelog.RenderFormats {
			want, got := shape(t, format, releases("name")), shape(t, format, releases(s))
			for k, n := range want {
				if got[k] != n {
					t.Fatalf("%s with %q: %d %s, want %d as for a plain name", format, s, got[k], k, n)
				}
			}
		}
	})
}
