package printer_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const (
	enumRemoved = "request-property-enum-value-removed"
	specFile    = "specs/api 2026-02-09.yaml"
)

func at(line int) *diff.Location { return &diff.Location{File: specFile, Line: line} }

// sampleReport has one finding of every kind a printer treats apart: the
// same change in two operations on one line (a shared component), a
// warning, an info, an exempted error, and an error without a location.
func sampleReport() *policy.Report {
	exemption := &policy.Exemption{Rule: policy.BreakingChangeWithoutNewVersion, Operation: "POST /orgs", Change: enumRemoved,
		Reason: "roles moved: see the role API, 100% done", Expires: civil.Date{Year: 2026, Month: 12, Day: 31}}
	return &policy.Report{Date: civil.Date{Year: 2026, Month: 2, Day: 9}, Findings: []policy.Finding{
		{Rule: policy.BreakingChangeWithoutNewVersion, Severity: policy.Error, Operation: "POST /widgets", Version: "2023-01-01",
			Change: enumRemoved, Message: "removed the enum value `BLUE` of the request property `color`", Location: at(40)},
		{Rule: policy.BreakingChangeWithoutNewVersion, Severity: policy.Error, Operation: "PATCH /widgets/{id}", Version: "2023-01-01",
			Change: enumRemoved, Message: "removed the enum value `BLUE` of the request property `color`", Location: at(40)},
		{Rule: policy.ExemptionExpired, Severity: policy.Error, Operation: "GET /old/*",
			Message: "The exemption for GET /old/* (legacy, kept) expired on 2026-01-01.\nRenew it or fix the finding."},
		{Rule: policy.NewVersionWithoutBreakingChange, Severity: policy.Warning, Operation: "GET /widgets", Version: "2024-01-01",
			Message: "Version 2024-01-01 was added although it has no breaking change from version 2023-01-01.", Location: at(12)},
		{Rule: policy.SunsetOverdueRule, Severity: policy.Info, Operation: "GET /gadgets", Version: "2022-01-01",
			Message: "Version 2022-01-01 is still present after its sunset on 2025-01-01.", Location: at(70)},
		{Rule: policy.BreakingChangeWithoutNewVersion, Severity: policy.Error, Operation: "POST /orgs", Version: "2023-01-01",
			Change: enumRemoved, Message: "removed the enum value `OWNER` of the request property `role`", Location: at(90),
			Exempted: true, Exemption: exemption},
	}}
}

func render(t *testing.T, format string, res printer.CheckResult) string {
	t.Helper()
	var b bytes.Buffer
	if err := printer.Check(&b, format, res); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return b.String()
}

func sampleResult() printer.CheckResult {
	return printer.CheckResult{Report: sampleReport(), FailOn: policy.Error, Checked: []printer.OperationVersion{
		{Operation: "POST /widgets", Version: "2023-01-01"},
		{Operation: "PATCH /widgets/{id}", Version: "2023-01-01"},
		{Operation: "GET /widgets", Version: "2024-01-01"},
		{Operation: "GET /gadgets", Version: "2022-01-01"},
		{Operation: "POST /orgs", Version: "2023-01-01"},
		{Operation: "DELETE /widgets/{id}", Version: ""},
	}, Spec: "specs/api.yaml"}
}

// TestEveryFormatStatesSummary checks that every format carries the counts
// and the verdict, and renders the same input to the same bytes.
func TestEveryFormatStatesSummary(t *testing.T) {
	res := sampleResult()
	summary := printer.Summary(res.Report, res.FailOn)
	if !strings.Contains(summary, "3 errors") || !strings.Contains(summary, "check FAILED") {
		t.Fatalf("summary %q: want 3 errors and FAILED", summary)
	}
	for _, format := range printer.CheckFormats {
		t.Run(format, func(t *testing.T) {
			out := render(t, format, res)
			if again := render(t, format, res); again != out {
				t.Errorf("two renderings differ")
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			switch format {
			case "text", "githubactions":
				if last := lines[len(lines)-1]; last != summary {
					t.Errorf("last line %q, want the summary %q", last, summary)
				}
			case "markdown":
				if !strings.Contains(lines[0], summary) {
					t.Errorf("first line %q lacks the summary", lines[0])
				}
			case "json":
				var doc struct {
					Summary struct {
						Errors  int
						Verdict string
					}
				}
				if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Summary.Errors != 3 || doc.Summary.Verdict != "fail" {
					t.Errorf("summary %+v (%v), want 3 errors, fail", doc.Summary, err)
				}
			case "sarif":
				var doc struct {
					Runs []struct{ Properties map[string]any }
				}
				if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Runs[0].Properties["verdict"] != "fail" || doc.Runs[0].Properties["summary"] != summary {
					t.Errorf("run properties %v (%v), want verdict fail and the summary", doc.Runs[0].Properties, err)
				}
			case "junit":
				if !strings.Contains(out, "<system-out>"+summary+"</system-out>") || !strings.Contains(out, `<property name="verdict" value="fail">`) {
					t.Errorf("suite lacks the summary or the verdict:\n%s", out)
				}
			default:
				t.Fatalf("no summary check for format %s", format)
			}
		})
	}
}

func TestGitHubActions(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(render(t, "githubactions", sampleResult()), "\n"), "\n")
	want := []string{
		// One annotation for the change both operations see on line 40.
		"::error file=specs/api 2026-02-09.yaml,line=40,title=breaking-change-without-new-version (request-property-enum-value-removed)::" +
			"removed the enum value `BLUE` of the request property `color`%0AIn POST /widgets (version 2023-01-01), PATCH /widgets/{id} (version 2023-01-01)",
		// No location: no file or line; the message's newline is escaped.
		"::error title=exemption-expired::The exemption for GET /old/* (legacy, kept) expired on 2026-01-01.%0ARenew it or fix the finding.%0AIn GET /old/* (unversioned)",
		"::warning file=specs/api 2026-02-09.yaml,line=12,title=new-version-without-breaking-change::" +
			"Version 2024-01-01 was added although it has no breaking change from version 2023-01-01.%0AIn GET /widgets (version 2024-01-01)",
		"::notice file=specs/api 2026-02-09.yaml,line=70,title=sunset-overdue::Version 2022-01-01 is still present after its sunset on 2025-01-01.%0AIn GET /gadgets (version 2022-01-01)",
		// Exempted: a notice with the reason; % escaped in the data.
		"::notice file=specs/api 2026-02-09.yaml,line=90,title=breaking-change-without-new-version (request-property-enum-value-removed)::" +
			"removed the enum value `OWNER` of the request property `role`%0AIn POST /orgs (version 2023-01-01)%0AExempted until 2026-12-31: roles moved: see the role API, 100%25 done",
		// The two errors inside an existing version can be fixed.
		"::notice title=apiver fix::2 errors can be fixed: `apiver fix BASE REVISION` writes the spec that passes: the existing version restored, the change in a new version.",
		"3 errors, 1 warning, 1 info (1 exempted): check FAILED",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestGitHubActionsEscapesProperties(t *testing.T) {
	r := &policy.Report{Findings: []policy.Finding{{Rule: policy.SunsetOverdueRule, Severity: policy.Warning, Operation: "GET /a", Version: "2023-01-01",
		Message: "m", Location: &diff.Location{File: "C:/specs/a,b%.yaml", Line: 3}}}}
	out := render(t, "githubactions", printer.CheckResult{Report: r, FailOn: policy.Error})
	if want := "::warning file=C%3A/specs/a%2Cb%25.yaml,line=3,title=sunset-overdue::m%0AIn GET /a (version 2023-01-01)\n"; !strings.HasPrefix(out, want) {
		t.Errorf("got %q, want it to start with %q", out, want)
	}
}

// sarifLog is the part of a SARIF log the tests read.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name  string
				Rules []struct{ ID string }
			}
		}
		Results []sarifResult
	}
}

type sarifResult struct {
	RuleID    string
	RuleIndex int
	Level     string
	Message   struct{ Text string }
	Locations []struct {
		PhysicalLocation struct {
			ArtifactLocation struct{ URI string }
			Region           struct{ StartLine int }
		}
	}
	PartialFingerprints map[string]string
	Properties          struct {
		Change     string
		Operations []struct{ Operation, Version string }
	}
	Suppressions []struct{ Kind, Status, Justification string }
}

func parseSARIF(t *testing.T, out string) sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	return log
}

// validateSARIF checks a log against the official SARIF 2.1.0 schema
// (oasis-tcs/sarif-spec, Schemata/sarif-schema-2.1.0.json), formats
// included; the schema is read from testdata, never fetched.
func validateSARIF(t *testing.T, out string) error {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	schema, err := c.Compile("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return schema.Validate(doc)
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	out := render(t, "sarif", sampleResult())
	if err := validateSARIF(t, out); err != nil {
		t.Errorf("not valid SARIF 2.1.0: %v", err)
	}
	if err := validateSARIF(t, render(t, "sarif", printer.CheckResult{Report: &policy.Report{}, FailOn: policy.Error})); err != nil {
		t.Errorf("empty report: not valid SARIF 2.1.0: %v", err)
	}
	// The validator does reject what the schema forbids.
	if err := validateSARIF(t, strings.Replace(out, `"level": "error"`, `"level": "fatal"`, 1)); err == nil {
		t.Errorf("a result level the schema does not allow passed validation")
	}
}

func TestSARIFResults(t *testing.T) {
	log := parseSARIF(t, render(t, "sarif", sampleResult()))
	run := log.Runs[0]
	if run.Tool.Driver.Name != "apiver" {
		t.Errorf("driver %q, want apiver", run.Tool.Driver.Name)
	}
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	if !slices.IsSorted(ids) {
		t.Errorf("rules %v not sorted", ids)
	}
	for _, r := range policy.Rules {
		if !slices.Contains(ids, r.ID) {
			t.Errorf("rules %v lack apiver rule %s", ids, r.ID)
		}
	}
	if !slices.Contains(ids, enumRemoved) {
		t.Errorf("rules %v lack the oasdiff check that fired", ids)
	}
	if len(run.Results) != 5 {
		t.Fatalf("%d results, want 5 (the shared change once)", len(run.Results))
	}
	for _, res := range run.Results {
		if ids[res.RuleIndex] != res.RuleID {
			t.Errorf("result of %s points at rule %d (%s)", res.RuleID, res.RuleIndex, ids[res.RuleIndex])
		}
	}
	shared := run.Results[0]
	loc := shared.Locations[0].PhysicalLocation
	if shared.RuleID != policy.BreakingChangeWithoutNewVersion || shared.Level != "error" || shared.Properties.Change != enumRemoved ||
		loc.ArtifactLocation.URI != "specs/api%202026-02-09.yaml" || loc.Region.StartLine != 40 || len(shared.Properties.Operations) != 2 ||
		shared.Properties.Operations[1].Operation != "PATCH /widgets/{id}" {
		t.Errorf("shared change: got %+v", shared)
	}
	// GitHub rejects a log with an unlocated result: the spec's first line.
	if noLoc := run.Results[1]; noLoc.RuleID != policy.ExemptionExpired || len(noLoc.Locations) != 1 ||
		noLoc.Locations[0].PhysicalLocation.ArtifactLocation.URI != "specs/api.yaml" || noLoc.Locations[0].PhysicalLocation.Region.StartLine != 1 {
		t.Errorf("finding without location: got %+v", noLoc)
	}
	if levels := []string{run.Results[2].Level, run.Results[3].Level}; !slices.Equal(levels, []string{"warning", "note"}) {
		t.Errorf("levels of the warning and the info: %v", levels)
	}
	exempted := run.Results[4]
	if exempted.Level != "error" || len(exempted.Suppressions) != 1 || exempted.Suppressions[0].Kind != "external" ||
		!strings.Contains(exempted.Suppressions[0].Justification, "roles moved") {
		t.Errorf("exempted finding: got %+v", exempted)
	}
	for i, res := range run.Results[:4] {
		if len(res.Suppressions) != 0 {
			t.Errorf("result %d (%s) is suppressed", i, res.RuleID)
		}
	}
}

// TestSARIFFingerprints: a finding keeps its fingerprint when its line
// moves, and findings that differ get different ones.
func TestSARIFFingerprints(t *testing.T) {
	fingerprints := func(r *policy.Report) []string {
		var out []string
		for _, res := range parseSARIF(t, render(t, "sarif", printer.CheckResult{Report: r, FailOn: policy.Error})).Runs[0].Results {
			fp := res.PartialFingerprints["apiverFinding/v1"]
			if fp == "" {
				t.Fatalf("result %s has no fingerprint", res.RuleID)
			}
			out = append(out, fp)
		}
		return out
	}
	before := fingerprints(sampleReport())
	if len(slices.Compact(slices.Sorted(slices.Values(before)))) != len(before) {
		t.Errorf("fingerprints not unique: %v", before)
	}
	moved := sampleReport()
	for i := range moved.Findings {
		if l := moved.Findings[i].Location; l != nil {
			l.Line += 25
		}
	}
	if after := fingerprints(moved); !slices.Equal(before, after) {
		t.Errorf("moving lines changed fingerprints:\n%v\n%v", before, after)
	}
	reworded := sampleReport()
	reworded.Findings[3].Message += " Again."
	if after := fingerprints(reworded); after[2] == before[2] {
		t.Errorf("a different message kept the fingerprint")
	}
}

type junitSuites struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Classname string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Failures  []struct {
				Type string `xml:"type,attr"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestJUnit(t *testing.T) {
	parse := func(res printer.CheckResult) junitSuites {
		var s junitSuites
		if err := xml.Unmarshal([]byte(render(t, "junit", res)), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	failing := func(s junitSuites) []string {
		var out []string
		for _, c := range s.Suites[0].Cases {
			if len(c.Failures) > 0 {
				out = append(out, fmt.Sprintf("%s %s %d", c.Classname, c.Name, len(c.Failures)))
			}
		}
		return out
	}
	res := sampleResult()
	s := parse(res)
	// Six checked operation-versions plus the expired exemption's pattern.
	if s.Tests != 7 || s.Suites[0].Tests != 7 || s.Suites[0].Name != "apiver check" {
		t.Fatalf("tests %d/%d in suite %q, want 7", s.Tests, s.Suites[0].Tests, s.Suites[0].Name)
	}
	var cases []string
	for _, c := range s.Suites[0].Cases {
		cases = append(cases, c.Classname+" "+c.Name)
	}
	want := []string{"GET /gadgets 2022-01-01", "GET /old/* unversioned", "POST /orgs 2023-01-01", "GET /widgets 2024-01-01",
		"POST /widgets 2023-01-01", "DELETE /widgets/{id} unversioned", "PATCH /widgets/{id} 2023-01-01"}
	if !slices.Equal(cases, want) {
		t.Errorf("cases %v, want %v", cases, want)
	}
	if got, want := failing(s), []string{"GET /old/* unversioned 1", "POST /widgets 2023-01-01 1", "PATCH /widgets/{id} 2023-01-01 1"}; !slices.Equal(got, want) || s.Failures != 3 {
		t.Errorf("failing cases %v (failures=%d), want %v", got, s.Failures, want)
	}
	for _, c := range s.Suites[0].Cases {
		if c.Classname == "POST /orgs" && !strings.Contains(c.SystemOut, enumRemoved) {
			t.Errorf("the exempted finding is not in its case's output: %q", c.SystemOut)
		}
	}
	res.FailOn = policy.Warning
	if got := failing(parse(res)); !slices.Contains(got, "GET /widgets 2024-01-01 1") {
		t.Errorf("with --fail-on warning the warning's case passes: %v", got)
	}
}

// TestMarkdownFitsPRComment: hundreds of findings still fit a GitHub
// comment, and the tables say how many rows they left out.
func TestMarkdownFitsPRComment(t *testing.T) {
	r := &policy.Report{}
	for i := range 600 {
		for _, sev := range []policy.Severity{policy.Error, policy.Warning} {
			r.Findings = append(r.Findings, policy.Finding{Rule: policy.BreakingChangeWithoutNewVersion, Severity: sev,
				Operation: fmt.Sprintf("POST /api/example/v2/groups/{groupId}/clusters/{clusterName}/things/%d", i), Version: "2023-01-01",
				Change: enumRemoved, Message: strings.Repeat("removed the enum value of a deeply nested request property ", 4), Location: at(i + 1)})
		}
	}
	out := render(t, "markdown", printer.CheckResult{Report: r, FailOn: policy.Error})
	if len(out) > 65536 {
		t.Errorf("%d characters, more than a PR comment takes", len(out))
	}
	if !strings.Contains(out, "more; `apiver check` lists them all") {
		t.Errorf("no line about the rows left out")
	}
	if !strings.HasPrefix(out, "### ❌ apiver check: 600 errors, 600 warnings") {
		t.Errorf("verdict line: %q", strings.SplitN(out, "\n", 2)[0])
	}
}

func TestMarkdownListsExemptions(t *testing.T) {
	out := render(t, "markdown", sampleResult())
	if !strings.Contains(out, "<details><summary>1 exempted by 1 exemption</summary>") ||
		!strings.Contains(out, "| `POST /orgs` |  | `breaking-change-without-new-version` | `request-property-enum-value-removed` | roles moved: see the role API, 100% done | 2026-12-31 | 1 |") {
		t.Errorf("exemptions section missing or wrong:\n%s", out)
	}
}
