package printer_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// hostileReport puts s everywhere a spec or config puts text: a property
// name in a message, an operation's path, a version, a file name and an
// exemption's reason.
func hostileReport(s string) printer.CheckResult {
	exemption := &policy.Exemption{Rule: policy.BreakingChangeWithoutNewVersion, Operation: "POST /" + s, Reason: s,
		Expires: civil.Date{Year: 2026, Month: 12, Day: 31}}
	loc := &diff.Location{File: "specs/" + s + ".yaml", Line: 3}
	report := &policy.Report{Date: civil.Date{Year: 2026, Month: 2, Day: 9}, Findings: []policy.Finding{
		{Rule: policy.BreakingChangeWithoutNewVersion, Severity: policy.Error, Operation: "GET /" + s, Version: "2023-01-01",
			Change: enumRemoved, Message: "removed the enum value `" + s + "` of the request property " + s, Location: loc},
		{Rule: policy.NewVersionWithoutBreakingChange, Severity: policy.Warning, Operation: "GET /" + s, Version: s,
			Message: "version " + s + " was added", Location: loc},
		{Rule: policy.BreakingChangeWithoutNewVersion, Severity: policy.Error, Operation: "POST /" + s, Version: "2023-01-01",
			Change: enumRemoved, Message: s, Location: loc, Exempted: true, Exemption: exemption},
	}}
	return printer.CheckResult{Report: report, FailOn: policy.Error, Spec: "specs/" + s + ".yaml", Checked: []printer.OperationVersion{
		{Operation: "GET /" + s, Version: "2023-01-01"}, {Operation: "POST /" + s, Version: "2023-01-01"}}}
}

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// shape is what must not depend on the text: per format, the counts of its
// structural parts.
func shape(t *testing.T, format, out string) map[string]int {
	t.Helper()
	m := map[string]int{}
	switch format {
	case "text":
		m["lines"] = strings.Count(out, "\n")
		for line := range strings.Lines(out) {
			if strings.HasPrefix(line, "::") {
				m["workflow commands"]++
			}
		}
	case "githubactions":
		m["lines"] = strings.Count(out, "\n")
		for line := range strings.Lines(out) {
			if strings.HasPrefix(line, "::") {
				m["annotations"]++
			}
		}
	case "markdown":
		var b bytes.Buffer
		if err := markdown.Convert([]byte(out), &b); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		for _, tag := range []string{"<tr>", "<td", "<li>", "<h", "<a ", "<img", "raw HTML omitted", "<em>", "<strong>", "<del>", "<blockquote>", "<pre>"} {
			m[tag] = strings.Count(html, tag)
		}
	case "junit":
		var suites struct {
			Suites []struct {
				Cases []struct {
					Failures []struct{} `xml:"failure"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal([]byte(out), &suites); err != nil {
			t.Fatalf("junit is not XML: %v", err)
		}
		for _, s := range suites.Suites {
			m["suites"]++
			for _, c := range s.Cases {
				m["cases"]++
				m["failures"] += len(c.Failures)
			}
		}
	default: // the JSON formats
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%s is not JSON: %v", format, err)
		}
		m["lines"] = strings.Count(out, "\n")
	}
	return m
}

// FuzzCheckFormats: whatever a name holds, every format has the structure
// it has for a plain name: one annotation line per finding, table rows and
// list items intact, no live link, image or HTML, no line that starts a
// workflow command.
func FuzzCheckFormats(f *testing.F) {
	for _, s := range []string{"name", "a\n::error file=x::owned", "x`y", "`@octocat`", "![x](https://evil.example/p.png)",
		"<img src=x>", "a|b", "\r", "\x1b[2J", "]]></failure>", "\"},{\"x", "\u2028", "1. x", "#", "\xff"} {
		f.Add(s)
	}
	plain := map[string]map[string]int{}
	f.Fuzz(func(t *testing.T, s string) {
		for _, format := range printer.CheckFormats {
			want, ok := plain[format]
			if !ok {
				var b bytes.Buffer
				if err := printer.Check(&b, format, hostileReport("name")); err != nil {
					t.Fatal(err)
				}
				want = shape(t, format, b.String())
				plain[format] = want
			}
			var b bytes.Buffer
			if err := printer.Check(&b, format, hostileReport(s)); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			got := shape(t, format, b.String())
			for k, n := range want {
				if format != "junit" && format != "text" && format != "githubactions" && format != "markdown" && k == "lines" {
					continue // JSON's line count follows its content
				}
				if got[k] != n {
					t.Fatalf("%s with %q: %d %s, want %d as for a plain name:\n%s", format, s, got[k], k, n, b.String())
				}
			}
		}
	})
}

// FuzzSunsetICS: the calendar keeps its lines whatever an operation's path
// holds: every line ends in CRLF (RFC 5545), none holds a bare CR or LF,
// one event per sunset.
func FuzzSunsetICS(f *testing.F) {
	for _, s := range []string{"widgets", "a\rb", "a\r\nSUMMARY:owned", "x;y,z\\", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cal := policy.SunsetCalendar{Date: civil.Date{Year: 2026, Month: 1, Day: 1}, Days: 90, Upcoming: []policy.Lifecycle{
			{Operation: "GET /" + s, Version: "2023-01-01", State: policy.Deprecated, SunsetOn: civil.Date{Year: 2026, Month: 2, Day: 1}, Successor: s},
		}}
		var b bytes.Buffer
		if err := printer.Sunset(&b, "ics", cal); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.HasSuffix(out, "\r\n") {
			t.Fatalf("the calendar does not end in CRLF: %q", out)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n")
		for _, l := range lines {
			if strings.ContainsAny(l, "\r\n") {
				t.Fatalf("a line holds a bare CR or LF: %q", l)
			}
		}
		if n := strings.Count(out, "\r\nBEGIN:VEVENT\r\n"); n != 1 {
			t.Fatalf("%d events, want 1:\n%s", n, out)
		}
		if n := strings.Count(out, "\r\nSUMMARY:"); n != 1 {
			t.Fatalf("%d summaries, want 1:\n%s", n, out)
		}
	})
}

// TestSunsetICSRefusesYear10000: a sunset past year 9999 (a version dated
// 9999) has no iCalendar date: refused, not written as a date of five
// digits that calendars cannot read.
func TestSunsetICSRefusesYear10000(t *testing.T) {
	t.Parallel()
	cal := policy.SunsetCalendar{Date: civil.Date{Year: 9999, Month: 1, Day: 1}, Days: 9000, Upcoming: []policy.Lifecycle{
		{Operation: "GET /w", Version: "9999-01-01", State: policy.Deprecated, SunsetOn: civil.Date{Year: 10000, Month: 6, Day: 1}},
	}}
	var b bytes.Buffer
	if err := printer.Sunset(&b, "ics", cal); err == nil {
		t.Fatalf("no error; wrote:\n%s", b.String())
	}
}
