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
	r := sampleReport()
	// The fix resolves the two findings of the enum edit (as running it
	// would tell).
	fixed := make([]bool, len(r.Findings))
	for i, f := range r.Findings {
		fixed[i] = f.Fixable()
	}
	return printer.CheckResult{Report: r, Fixed: fixed, FixCommand: "apiver fix base.yaml 'specs/api 2026-02-09.yaml'", FailOn: policy.Error, Checked: []printer.OperationVersion{
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
	t.Parallel()
	res := sampleResult()
	summary := printer.Summary(res.Report, res.FailOn)
	if !strings.Contains(summary, "3 findings (errors)") || !strings.Contains(summary, "check FAILED") {
		t.Fatalf("summary %q: want 3 findings (errors) and FAILED", summary)
	}
	for _, format := range printer.CheckFormats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
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
				if verdict := printer.Verdict(res.Report, res.Report.Groups(nil), res.FailOn); !strings.Contains(lines[0], verdict) || !strings.Contains(out, summary) {
					t.Errorf("first line %q lacks the verdict %q, or the report the summary", lines[0], verdict)
				}
			case "code-climate":
				// GitLab's format has no place for a summary: one issue per
				// root change.
				var issues []struct{ Severity string }
				if err := json.Unmarshal([]byte(out), &issues); err != nil || len(issues) != 5 || issues[0].Severity != "critical" {
					t.Errorf("issues %+v (%v), want 5, the first critical", issues, err)
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
	t.Parallel()
	lines := strings.Split(strings.TrimSuffix(render(t, "githubactions", sampleResult()), "\n"), "\n")
	want := []string{
		// One annotation for the change both operations see on line 40.
		"::error file=specs/api 2026-02-09.yaml,line=40,title=breaking-change-without-new-version (request-property-enum-value-removed)::" +
			"removed the enum value `BLUE` of the request property `color`%0AIn 2 operation-versions: POST /widgets@2023-01-01, PATCH /widgets/{id}@2023-01-01",
		// No line of its own: the revision's first, as in SARIF, so that
		// it shows on the pull request; the message's newline is escaped.
		"::error file=specs/api.yaml,line=1,title=exemption-expired::The exemption for GET /old/* (legacy, kept) expired on 2026-01-01.\\nRenew it or fix the finding.%0AIn GET /old/*",
		"::warning file=specs/api 2026-02-09.yaml,line=12,title=new-version-without-breaking-change::" +
			"Version 2024-01-01 was added although it has no breaking change from version 2023-01-01.%0AIn GET /widgets@2024-01-01",
		"::notice file=specs/api 2026-02-09.yaml,line=70,title=sunset-overdue::Version 2022-01-01 is still present after its sunset on 2025-01-01.%0AIn GET /gadgets@2022-01-01",
		// Exempted: a notice with the reason; % escaped in the data.
		"::notice file=specs/api 2026-02-09.yaml,line=90,title=breaking-change-without-new-version (request-property-enum-value-removed)::" +
			"removed the enum value `OWNER` of the request property `role`%0AIn POST /orgs@2023-01-01%0AExempted until 2026-12-31: roles moved: see the role API, 100%25 done",
		// The root change inside an existing version can be fixed.
		"apiver fix: 1 root change can be fixed: `apiver fix base.yaml 'specs/api 2026-02-09.yaml'` writes a spec with those fixed, where 1 root change it cannot fix remains: the existing versions restored, the changes in a new version unless a newer one has them.",
		"3 findings (errors), 1 finding (warning), 1 finding (info), 1 finding exempted: check FAILED",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestGitHubActionsEscapesProperties(t *testing.T) {
	t.Parallel()
	r := &policy.Report{Findings: []policy.Finding{{Rule: policy.SunsetOverdueRule, Severity: policy.Warning, Operation: "GET /a", Version: "2023-01-01",
		Message: "m", Location: &diff.Location{File: "C:/specs/a,b%.yaml", Line: 3}}}}
	out := render(t, "githubactions", printer.CheckResult{Report: r, FailOn: policy.Error})
	if want := "::warning file=C%3A/specs/a%2Cb%25.yaml,line=3,title=sunset-overdue::m%0AIn GET /a@2023-01-01\n"; !strings.HasPrefix(out, want) {
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	fingerprints := func(r *policy.Report) []string {
		var out []string
		for _, res := range parseSARIF(t, render(t, "sarif", printer.CheckResult{Report: r, FailOn: policy.Error})).Runs[0].Results {
			fp := res.PartialFingerprints["apiverFinding/v2"]
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
	t.Parallel()
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
	want := []string{"GET /gadgets 2022-01-01", "GET /old/* exemption expired", "POST /orgs 2023-01-01", "GET /widgets 2024-01-01",
		"POST /widgets 2023-01-01", "DELETE /widgets/{id} unversioned", "PATCH /widgets/{id} 2023-01-01"}
	if !slices.Equal(cases, want) {
		t.Errorf("cases %v, want %v", cases, want)
	}
	if got, want := failing(s), []string{"GET /old/* exemption expired 1", "POST /widgets 2023-01-01 1", "PATCH /widgets/{id} 2023-01-01 1"}; !slices.Equal(got, want) || s.Failures != 3 {
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
	t.Parallel()
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
	if !strings.HasPrefix(out, "### ❌ apiver check FAILED: 600 root changes (errors) reaching 600 operation-versions, 600 root changes (warnings)") {
		t.Errorf("verdict line: %q", strings.SplitN(out, "\n", 2)[0])
	}
}

func TestMarkdownListsExemptions(t *testing.T) {
	t.Parallel()
	out := render(t, "markdown", sampleResult())
	if !strings.Contains(out, "<details><summary>1 root change exempted by 1 exemption</summary>") ||
		!strings.Contains(out, "| `POST /orgs` |  | `breaking-change-without-new-version` | `request-property-enum-value-removed` | roles moved: see the role API, 100% done | 2026-12-31 | 1 |") {
		t.Errorf("exemptions section missing or wrong:\n%s", out)
	}
}

// TestCodeClimateValidatesAgainstSchema checks GitLab's Code Quality report
// against a schema of the fields GitLab documents, and that fingerprints
// are unique and the same in every run.
func TestCodeClimateValidatesAgainstSchema(t *testing.T) {
	t.Parallel()
	c := jsonschema.NewCompiler()
	schema, err := c.Compile("testdata/codeclimate-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	res := sampleResult()
	out := render(t, "code-climate", res)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Errorf("not a valid Code Quality report: %v\n%s", err, out)
	}
	if render(t, "code-climate", res) != out {
		t.Errorf("two runs differ")
	}
	var issues []struct {
		Fingerprint string
		Location    struct {
			Path  string
			Lines struct{ Begin int }
		}
	}
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, is := range issues {
		if seen[is.Fingerprint] {
			t.Errorf("fingerprint %s twice", is.Fingerprint)
		}
		seen[is.Fingerprint] = true
	}
	// The expired exemption has no place: the revision's first line.
	if l := issues[1].Location; l.Path != "specs/api.yaml" || l.Lines.Begin != 1 {
		t.Errorf("unlocated issue at %+v, want specs/api.yaml:1", l)
	}
	// The validator does reject what the schema forbids.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(out, `"severity": "critical"`, `"severity": "error"`, 1)))
	if schema.Validate(bad) == nil {
		t.Errorf("a severity GitLab does not know passed validation")
	}
}

// manyGroups is a report of n error and n warning root changes, each in
// its own operation and line, and one exempted one.
func manyGroups(n int) *policy.Report {
	r := &policy.Report{}
	for i := range n {
		for _, sev := range []policy.Severity{policy.Error, policy.Warning} {
			r.Findings = append(r.Findings, policy.Finding{Rule: policy.BreakingChangeWithoutNewVersion, Severity: sev,
				Operation: fmt.Sprintf("POST /things/%d", i), Version: "2023-01-01", Change: enumRemoved,
				Message: fmt.Sprintf("removed the enum value `V%d` of the request property `kind`", i), Location: at(i + 1)})
		}
	}
	return r
}

// TestGitHubActionsCapsAnnotations: GitHub shows ten annotations of each
// level per step; apiver writes the ten that matter most (the widest
// reach first) and one notice about the rest.
func TestGitHubActionsCapsAnnotations(t *testing.T) {
	t.Parallel()
	r := manyGroups(25)
	// One change reaching three operations outranks the others.
	for _, op := range []string{"GET /wide/1", "GET /wide/2", "GET /wide/3"} {
		r.Findings = append(r.Findings, policy.Finding{Rule: policy.BreakingChangeWithoutNewVersion, Severity: policy.Error,
			Operation: op, Version: "2024-01-01", Change: enumRemoved, Message: "removed the enum value `W` of the request property `kind`", Location: at(500)})
	}
	out := render(t, "githubactions", printer.CheckResult{Report: r, FailOn: policy.Error})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	count := map[string]int{}
	for _, l := range lines {
		if cmd, _, ok := strings.Cut(l, " "); ok && strings.HasPrefix(cmd, "::") {
			count[cmd]++
		}
	}
	if count["::error"] != 10 || count["::warning"] != 10 || count["::notice"] != 1 {
		t.Errorf("annotations per level %v, want 10 errors, 10 warnings, 1 notice", count)
	}
	if !strings.HasPrefix(lines[0], "::error file=specs/api 2026-02-09.yaml,line=500,") {
		t.Errorf("first annotation %q, want the change with the widest reach", lines[0])
	}
	notice := lines[len(lines)-2] // then the summary
	if !strings.HasPrefix(notice, "::notice ") || !strings.Contains(notice, "31 root changes more") || !strings.Contains(notice, "job summary") || !strings.Contains(notice, "SARIF") {
		t.Errorf("notice %q: want how many more and where they are listed", notice)
	}
	if last := lines[len(lines)-1]; last != printer.Summary(r, policy.Error) {
		t.Errorf("last line %q, want the summary", last)
	}
}

// TestJSONGroups: findings keep their fields and gain their group's id;
// the groups list each root change with its operations; the summary counts
// groups.
func TestJSONGroups(t *testing.T) {
	t.Parallel()
	var doc struct {
		Findings []struct {
			Operation, Group string
		}
		Groups []struct {
			ID, Rule, Severity, Change, Message string
			Location                            *diff.Location
			Exempted                            bool
			Operations                          []string
		}
		Summary struct {
			Errors int
			Groups struct{ Errors, Warnings, Infos, Exempted int }
		}
	}
	if err := json.Unmarshal([]byte(render(t, "json", sampleResult())), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Groups) != 5 || doc.Summary.Errors != 3 || doc.Summary.Groups != (struct{ Errors, Warnings, Infos, Exempted int }{2, 1, 1, 1}) {
		t.Fatalf("%d groups, summary %+v; want 5 groups: 2 errors, 1 warning, 1 info, 1 exempted", len(doc.Groups), doc.Summary)
	}
	shared := doc.Groups[0]
	if want := []string{"POST /widgets@2023-01-01", "PATCH /widgets/{id}@2023-01-01"}; !slices.Equal(shared.Operations, want) ||
		shared.Change != enumRemoved || shared.Location == nil || shared.Location.Line != 40 || len(shared.ID) != 12 {
		t.Errorf("shared group %+v, want both operations at line 40", shared)
	}
	byID := map[string]int{}
	for _, f := range doc.Findings {
		if f.Group == "" {
			t.Errorf("finding of %s has no group", f.Operation)
		}
		byID[f.Group]++
	}
	if byID[shared.ID] != 2 || len(byID) != 5 {
		t.Errorf("findings per group %v", byID)
	}
	if last := doc.Groups[4]; !last.Exempted || last.Operations[0] != "POST /orgs@2023-01-01" {
		t.Errorf("exempted group last: %+v", last)
	}
}

// TestTextVerdictFirst: the verdict is the first line, one block per root
// change with its operations folded, the summary the last line.
func TestTextVerdictFirst(t *testing.T) {
	t.Parallel()
	r := manyGroups(2)
	for i := range 6 {
		r.Findings = append(r.Findings, policy.Finding{Rule: policy.BreakingChangeWithoutNewVersion, Severity: policy.Error,
			Operation: fmt.Sprintf("GET /wide/%d", i), Version: "2024-01-01", Change: enumRemoved,
			Message: fmt.Sprintf("removed the enum value `W` of the request property `branch%d/kind`", i), Location: at(500)})
	}
	out := render(t, "text", printer.CheckResult{Report: r, FailOn: policy.Error})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if want := "check FAILED: 3 root changes (errors) reaching 8 operation-versions, 2 root changes (warnings) reaching 2 operation-versions, 0 root changes (info)"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if !strings.HasPrefix(lines[2], "error    breaking-change-without-new-version (request-property-enum-value-removed) at specs/api 2026-02-09.yaml:500") ||
		lines[3] != "  removed the enum value `W` of the request property `kind`" ||
		lines[4] != "  in 6 operation-versions: GET /wide/0@2024-01-01, GET /wide/1@2024-01-01, GET /wide/2@2024-01-01 and 3 more" {
		t.Errorf("first block:\n%s", strings.Join(lines[2:5], "\n"))
	}
	if last := lines[len(lines)-1]; last != printer.Summary(r, policy.Error) {
		t.Errorf("last line %q", last)
	}
}

// TestEveryFormatOffersTheFix: a failing report that apiver fix resolves
// names the command in every format; one it does not resolve names none.
func TestEveryFormatOffersTheFix(t *testing.T) {
	t.Parallel()
	for _, format := range printer.CheckFormats {
		res := sampleResult()
		if out := render(t, format, res); !strings.Contains(out, "apiver fix base.yaml") {
			t.Errorf("%s: no fix offer:\n%s", format, out)
		}
		res.Fixed = nil
		if out := render(t, format, res); strings.Contains(out, "apiver fix base.yaml") {
			t.Errorf("%s: a fix offered that resolves nothing:\n%s", format, out)
		}
	}
}

// TestGitHubActionsShowsSpecLineBreaks: a line break in an operation's
// path, a message (a property's name) or an exemption's reason is the
// spec's or the config's, shown as \n as the text format shows it; only
// the annotation's own parts are joined by %0A.
func TestGitHubActionsShowsSpecLineBreaks(t *testing.T) {
	t.Parallel()
	r := &policy.Report{Findings: []policy.Finding{{Rule: policy.BreakingChangeWithoutNewVersion, Severity: policy.Error, Operation: "GET /a\n::error::x", Version: "2023-01-01",
		Message: "m `p\n::error::z`", Exempted: true, Exemption: &policy.Exemption{Reason: "r\n::error::y", Expires: civil.Date{Year: 2030, Month: 1, Day: 1}},
		Location: &diff.Location{File: "a.yaml", Line: 3}}}}
	out := render(t, "githubactions", printer.CheckResult{Report: r, FailOn: policy.Error})
	if want := "::m `p\\n::error::z`%0AIn GET /a\\n::error::x@2023-01-01%0AExempted until 2030-01-01: r\\n::error::y\n"; !strings.Contains(out, want) {
		t.Errorf("got %q, want it to hold %q", out, want)
	}
}
