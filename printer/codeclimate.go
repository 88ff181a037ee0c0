package printer

import (
	"io"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
)

// codeClimateIssue is one entry of GitLab's Code Quality report (the Code
// Climate format), the fields GitLab documents.
type codeClimateIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeClimateLocation `json:"location"`
	// Content offers apiver fix for a root change it resolves.
	Content *codeClimateContent `json:"content,omitempty"`
}

type codeClimateContent struct {
	Body string `json:"body"`
}

type codeClimateLocation struct {
	Path  string `json:"path"`
	Lines struct {
		Begin int `json:"begin"`
	} `json:"lines"`
}

// checkCodeClimate writes GitLab's Code Quality JSON: one issue per root
// change, at its line of the revision (a change without one at the
// revision's first line), with the group's id as fingerprint, which stays
// the same across runs.
func checkCodeClimate(w io.Writer, res CheckResult) error {
	issues := []codeClimateIssue{}
	_, command := res.fixOffer()
	for _, a := range res.annotations() {
		l := res.landing(a)
		if l == nil {
			l = &diff.Location{Line: 1}
		}
		issue := codeClimateIssue{Description: a.title() + ": " + a.text(), CheckName: a.Rule, Fingerprint: a.ID, Severity: codeClimateSeverity(a.Group)}
		issue.Location.Path, issue.Location.Lines.Begin = l.File, l.Line
		if res.fixable(a.Group) {
			issue.Content = &codeClimateContent{"`" + command + "` " + res.fixHint()}
		}
		issues = append(issues, issue)
	}
	return writeJSON(w, issues)
}

// codeClimateSeverity maps a group to GitLab's scale (info, minor, major,
// critical, blocker): an error fails the pipeline's check, so it is
// critical; an exempted change is only information.
func codeClimateSeverity(g policy.Group) string {
	switch {
	case g.Exempted:
		return "info"
	case g.Severity == policy.Error:
		return "critical"
	case g.Severity == policy.Warning:
		return "minor"
	}
	return "info"
}
