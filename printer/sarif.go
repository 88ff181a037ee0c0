package printer

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// fingerprintKey names apiver's partial fingerprint; the suffix is its
// version, to bump if the hash ever changes.
const fingerprintKey = "apiverFinding/v1"

// checkSARIF writes a SARIF 2.1.0 log for GitHub code scanning: one result
// per annotation, exempted findings kept as suppressed results, and the
// summary in the run's properties.
func checkSARIF(w io.Writer, res CheckResult) error {
	r, failOn := res.Report, res.FailOn
	anns := annotations(r.Findings)
	run := sarif.NewRun()
	driver := sarif.NewToolComponent().WithName("apiver").WithRules(sarifRules(anns))
	if res.ToolVersion != "" {
		driver.WithVersion(res.ToolVersion)
	}
	run.Tool = sarif.NewTool().WithDriver(driver)
	for _, a := range anns {
		result := run.CreateResultForRule(a.Rule).
			WithLevel(sarifLevel(a.Severity)).
			WithMessage(sarif.NewTextMessage(a.text())).
			WithPartialFingerprints(map[string]string{fingerprintKey: a.fingerprint()})
		l := a.anchor()
		if l == nil && res.Spec != "" {
			l = &diff.Location{File: res.Spec, Line: 1}
		}
		if l != nil {
			result.AddLocation(sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().
				WithArtifactLocation(sarif.NewSimpleArtifactLocation(fileURI(l.File))).
				WithRegion(sarif.NewRegion().WithStartLine(l.Line))))
		}
		type use struct {
			Operation string `json:"operation"`
			Version   string `json:"version"`
		}
		uses := make([]use, len(a.uses))
		for i, u := range a.uses {
			uses[i] = use(u)
		}
		props := sarif.NewPropertyBag().Add("operations", uses)
		if a.Change != "" {
			props.Add("change", a.Change)
		}
		result.WithProperties(props)
		if a.Exempted {
			s := sarif.NewSuppression().WithKind("external").WithStatus("accepted")
			if e := a.Exemption; e != nil {
				s.WithJustification(e.Reason + " (exempted until " + e.Expires.String() + ")")
			}
			result.AddSuppression(s)
		}
	}
	c := r.Counts()
	run.WithProperties(sarif.NewPropertyBag().
		Add("date", r.Date.String()).
		Add("errors", c.Errors).Add("warnings", c.Warnings).Add("infos", c.Infos).Add("exempted", c.Exempted).
		Add("verdict", verdictWord(r, failOn)).
		Add("summary", Summary(r, failOn)))
	report := sarif.NewReport().AddRun(run)
	var buf bytes.Buffer
	if err := report.PrettyWrite(&buf); err != nil {
		return err
	}
	buf.WriteString("\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// sarifRules describes every apiver rule and every oasdiff check that fired,
// sorted by id.
func sarifRules(anns []*annotation) []*sarif.ReportingDescriptor {
	var rules []*sarif.ReportingDescriptor
	for _, r := range policy.Rules {
		rules = append(rules, sarif.NewRule(r.ID).WithDescription(r.Purpose).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(r.Severity))).
			WithProperties(sarif.NewPropertyBag().AddTag("versioning-policy")))
	}
	fired := map[string]bool{}
	for _, a := range anns {
		if a.Change != "" {
			fired[a.Change] = true
		}
	}
	for _, check := range policy.BuildCatalogue(policy.DefaultConfig()).Checks {
		if !fired[check.ID] {
			continue
		}
		rules = append(rules, sarif.NewRule(check.ID).WithDescription(check.Purpose).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(policy.Severity(check.Severity)))).
			WithProperties(sarif.NewPropertyBag().AddTag("oasdiff-check")))
	}
	slices.SortFunc(rules, func(a, b *sarif.ReportingDescriptor) int { return cmp.Compare(*a.ID, *b.ID) })
	return rules
}

func sarifLevel(s policy.Severity) string {
	switch s {
	case policy.Error:
		return sarif.LevelError
	case policy.Warning:
		return sarif.LevelWarning
	}
	return sarif.LevelNote
}

// fingerprint identifies a result across runs: its rule, change, operations
// and message, not its line, so that it survives edits that move lines.
func (a *annotation) fingerprint() string {
	parts := []string{a.Rule, a.Change, a.Message}
	for _, u := range a.uses {
		parts = append(parts, u.Operation, u.Version)
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:])
}

// fileURI is a spec's path as a URI reference: relative paths stay relative
// so that code scanning resolves them from the repository root.
func fileURI(path string) string {
	u := url.URL{Path: filepath.ToSlash(path)}
	if filepath.IsAbs(path) {
		u.Scheme = "file"
	}
	return u.String()
}
