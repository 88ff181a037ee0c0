package printer

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/versions"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []*junitCase    `xml:"testcase"`
	SystemOut  string          `xml:"system-out"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Classname string         `xml:"classname,attr"`
	Name      string         `xml:"name,attr"`
	Failures  []junitFailure `xml:"failure"`
	// SystemOut holds one line per finding that does not fail the check;
	// CDATA keeps the lines apart (encoding/xml escapes newlines in text).
	SystemOut *junitCDATA `xml:"system-out"`
}

type junitCDATA struct {
	Text string `xml:",cdata"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// expiredExemption stands for the version of an expired exemption's case.
const expiredExemption = "\x00exemption"

// checkJUnit writes JUnit XML: a test case per operation-version, failing
// with one failure per finding that fails the check; the other findings
// (below --fail-on, or exempted) are the case's output. The suite's
// properties and output carry the counts and the verdict.
func checkJUnit(w io.Writer, res CheckResult) error {
	r := res.Report
	cases := map[OperationVersion]*junitCase{}
	caseFor := func(ov OperationVersion) *junitCase {
		if c, ok := cases[ov]; ok {
			return c
		}
		name := ov.Version
		switch name {
		case "":
			name = "unversioned"
		case expiredExemption:
			name = "exemption expired"
		}
		c := &junitCase{Classname: escape.Text(ov.Operation), Name: escape.Text(name)}
		cases[ov] = c
		return c
	}
	for _, ov := range res.Checked {
		caseFor(ov)
	}
	for _, f := range r.Findings {
		ov := OperationVersion{f.Operation, f.Version}
		if f.Rule == policy.ExemptionExpired {
			// The config's, not an operation-version's: a case of its own.
			ov.Version = expiredExemption
		}
		c := caseFor(ov)
		if r.Fails(f, res.FailOn) {
			c.Failures = append(c.Failures, junitFailure{Message: escape.Text(f.Message), Type: escape.Text(f.Rule), Text: junitDetail(f)})
			continue
		}
		if c.SystemOut == nil {
			c.SystemOut = &junitCDATA{}
		} else {
			c.SystemOut.Text += "\n"
		}
		c.SystemOut.Text += severityText(f) + " " + junitDetail(f)
	}
	keys := make([]OperationVersion, 0, len(cases))
	for ov := range cases {
		keys = append(keys, ov)
	}
	slices.SortFunc(keys, func(a, b OperationVersion) int {
		return cmp.Or(versions.CompareOperationNames(a.Operation, b.Operation), cmp.Compare(a.Version, b.Version))
	})
	summary := Summary(r, res.FailOn)
	verdict := verdictWord(r, res.FailOn)
	counts := r.Counts()
	suite := junitSuite{
		Name: "apiver check",
		Properties: []junitProperty{
			{"date", r.Date.String()},
			{"fail-on", string(res.FailOn)},
			{"errors", fmt.Sprint(counts.Errors)},
			{"warnings", fmt.Sprint(counts.Warnings)},
			{"infos", fmt.Sprint(counts.Infos)},
			{"exempted", fmt.Sprint(counts.Exempted)},
			{"preexisting", fmt.Sprint(counts.Preexisting)},
			{"verdict", verdict},
		},
		SystemOut: summary,
	}
	if n, command := res.fixOffer(); n > 0 {
		suite.Properties = append(suite.Properties, junitProperty{"fix", command}, junitProperty{"fixable-root-changes", fmt.Sprint(n)})
	}
	for _, ov := range keys {
		c := cases[ov]
		suite.Cases = append(suite.Cases, c)
		if len(c.Failures) > 0 {
			suite.Failures++
		}
	}
	suite.Tests = len(suite.Cases)
	out, err := xml.MarshalIndent(junitSuites{Name: "apiver", Tests: suite.Tests, Failures: suite.Failures, Suites: []junitSuite{suite}}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, out)
	return err
}

// junitDetail is a finding in one line: rule, change, location and message.
// It goes into CDATA, which encoding/xml writes as it is, so escape.Text
// keeps out the control characters XML forbids and the line breaks that
// would split it.
func junitDetail(f policy.Finding) string {
	var b strings.Builder
	b.WriteString(f.Rule)
	if f.Change != "" {
		b.WriteString(" (" + f.Change + ")")
	}
	if loc := locationText(f.Location); loc != "" {
		b.WriteString(" at " + loc)
	}
	b.WriteString(": " + f.Message)
	return escape.Text(b.String())
}
