package changelog_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// TestGuideLinesMergeStatuses: a guide states once a change seen for
// several response statuses, and keeps apart the changes that differ in
// anything else.
func TestGuideLinesMergeStatuses(t *testing.T) {
	t.Parallel()
	change := func(id string, level diff.Level, message string) diff.Change {
		return diff.Change{Operation: "POST /clusters", Version: "2024-08-05", ID: id, Level: level, Message: message}
	}
	lines := changelog.GuideLines([]diff.Change{
		change("response-optional-property-added", diff.Info, "added the optional property `zoneId` to the response with the `200` status"),
		change("response-optional-property-added", diff.Info, "added the optional property `zoneId` to the response with the `201` status"),
		change("response-optional-property-added", diff.Info, "added the optional property `diskSizeGB` to the response with the `201` status"),
		change("response-property-became-required", diff.Info, "the response property `error` became required for the status `400`"),
		change("response-property-became-required", diff.Info, "the response property `error` became required for the status `500`"),
		change("response-property-became-required", diff.Error, "the response property `error` became required for the status `409`"),
	})
	type line struct {
		words    []string
		breaking bool
	}
	want := []line{
		{[]string{"`zoneId`", "200 and 201 responses"}, false},
		{[]string{"`diskSizeGB`", "201 response"}, false},
		{[]string{"`error`", "400 and 500 responses"}, false},
		{[]string{"`error`", "409 response"}, true},
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d: %+v", len(lines), len(want), lines)
	}
	for i, w := range want {
		for _, word := range w.words {
			if !strings.Contains(lines[i].Text, word) {
				t.Errorf("line %d %q lacks %q", i, lines[i].Text, word)
			}
		}
		if lines[i].Breaking != w.breaking {
			t.Errorf("line %d %q: breaking=%v, want %v", i, lines[i].Text, lines[i].Breaking, w.breaking)
		}
	}
}

// TestRenderMigrationMergesStatuses: the Markdown and text guides state the
// change to the 200 and 201 responses once; the JSON keeps both changes.
func TestRenderMigrationMergesStatuses(t *testing.T) {
	t.Parallel()
	var changes []diff.Change
	for _, status := range []string{"200", "201"} {
		changes = append(changes, diff.Change{Operation: "POST /clusters", Version: "2024-08-05", ID: "response-required-property-added", Level: diff.Info,
			Message: "added the required property `copySettings/items/zoneId` to the response with the `" + status + "` status"})
	}
	m := changelog.NewMigration("2023-02-01", "2024-08-05", &diff.Result{Pairs: []*diff.Pair{{Operation: "POST /clusters", Version: "2024-08-05", Changes: changes}}})
	for _, format := range []string{"markdown", "text"} {
		var b strings.Builder
		if err := changelog.RenderMigration(&b, format, m); err != nil {
			t.Fatal(err)
		}
		var items []string
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "- ") {
				items = append(items, l)
			}
		}
		if len(items) != 1 || !strings.Contains(items[0], "200 and 201 responses") {
			t.Errorf("%s: lines %q, want one for the 200 and 201 responses", format, items)
		}
	}
	var b strings.Builder
	if err := changelog.RenderMigration(&b, "json", m); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "response-required-property-added"); n != 2 {
		t.Errorf("the JSON guide holds %d of the 2 changes", n)
	}
}

// TestMigrationSelectStaysCode: a header name may hold backticks and
// asterisks (HTTP token characters); the guide's Markdown shows it in one
// code span, never as emphasis, and its text form as it is.
func TestMigrationSelectStaysCode(t *testing.T) {
	t.Parallel()
	const header = "X`*E*`"
	m := changelog.Migration{From: "2024-01-01", To: "2024-06-01", Select: policy.Selection{Header: header}.Request("2024-06-01")}
	var out, html bytes.Buffer
	if err := changelog.RenderMigration(&out, "markdown", m); err != nil {
		t.Fatal(err)
	}
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(out.Bytes(), &html); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(html.String(), "<em>") || !strings.Contains(html.String(), "<code>"+header+": 2024-06-01</code>") {
		t.Errorf("the header breaks out of its code span:\n%s\n%s", out.String(), html.String())
	}
	out.Reset()
	if err := changelog.RenderMigration(&out, "text", m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), header+": 2024-06-01") {
		t.Errorf("the text guide does not show the header as it is:\n%s", out.String())
	}
}
