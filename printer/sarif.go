package printer

import (
	"bytes"
	"cmp"
	"io"
	"net/url"
	"path/filepath"
	"slices"

	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/versions"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// fingerprintKey names apiver's partial fingerprint; the suffix is its
// version, to bump if the hash ever changes (v2: the group id, one per
// root change).
const fingerprintKey = "apiverFinding/v2"

// InformationURI is where apiver is described, for SARIF's tool.
const InformationURI = "https://github.com/apiver/apiver"

// checkSARIF writes a SARIF 2.1.0 log for GitHub code scanning: one result
// per root change, exempted ones kept as suppressed results, and the
// summary in the run's properties.
func checkSARIF(w io.Writer, res CheckResult) error {
	r, failOn := res.Report, res.FailOn
	anns := res.annotations()
	driver := sarif.NewToolComponent().WithName("apiver").WithInformationURI(InformationURI).WithRules(sarifRules(anns))
	// A development build names no release; "devel" still tells a reader
	// which log came from an unreleased apiver.
	version := res.ToolVersion
	if version == "" {
		version = "devel"
	}
	driver.WithVersion(version)
	run := sarif.NewRun()
	run.Tool = sarif.NewTool().WithDriver(driver)
	for _, a := range anns {
		result := run.CreateResultForRule(a.Rule).
			WithLevel(sarifLevel(a.Severity)).
			WithMessage(sarif.NewTextMessage(a.text())).
			WithPartialFingerprints(map[string]string{fingerprintKey: a.ID})
		if l := res.landing(a); l != nil {
			result.AddLocation(sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().
				WithArtifactLocation(sarif.NewSimpleArtifactLocation(fileURI(l.File))).
				WithRegion(sarif.NewRegion().WithStartLine(l.Line))))
		}
		type use struct {
			Operation string `json:"operation"`
			Version   string `json:"version"`
		}
		uses := []use{}
		for _, i := range a.Members {
			f := r.Findings[i]
			if f.Operation != "" {
				uses = append(uses, use{f.Operation, f.Version})
			}
		}
		slices.SortFunc(uses, func(x, y use) int {
			return cmp.Or(versions.CompareOperationNames(x.Operation, y.Operation), cmp.Compare(x.Version, y.Version))
		})
		props := sarif.NewPropertyBag().Add("group", a.ID).Add("operations", slices.Compact(uses))
		if a.Change != "" {
			props.Add("change", a.Change)
		}
		if a.Anchor != nil && a.Location != nil {
			props.Add("baseLocation", a.Location.String())
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
	props := sarif.NewPropertyBag().
		Add("date", r.Date.String()).
		Add("errors", c.Errors).Add("warnings", c.Warnings).Add("infos", c.Infos).Add("exempted", c.Exempted).Add("preexisting", c.Preexisting).
		Add("verdict", verdictWord(r, failOn)).
		Add("summary", Summary(r, failOn))
	if n, command := res.fixOffer(); n > 0 {
		props.Add("fix", command).Add("fixableRootChanges", n)
	}
	run.WithProperties(props)
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

// fileURI is a spec's path as a URI reference: relative paths stay relative
// so that code scanning resolves them from the repository root.
func fileURI(path string) string {
	u := url.URL{Path: filepath.ToSlash(path)}
	if filepath.IsAbs(path) {
		u.Scheme = "file"
	}
	return u.String()
}
