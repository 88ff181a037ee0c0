// Package printer renders check findings and diff changes, one function per
// output format. It knows nothing of how findings are decided.
package printer

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/policy"
)

// Formats lists the formats every printer accepts.
var Formats = []string{"text", "json", "markdown"}

// CheckFormats lists the formats of a check report: the common ones and
// those a CI system reads.
var CheckFormats = []string{"text", "json", "markdown", "githubactions", "sarif", "junit", "code-climate"}

// formatAliases are other tools' names for a format: buf writes
// github-actions.
var formatAliases = map[string]string{"github-actions": "githubactions"}

// CanonicalFormat is the format an alias names, or name itself.
func CanonicalFormat(name string) string {
	if canonical, ok := formatAliases[name]; ok {
		return canonical
	}
	return name
}

// ValidFormat reports whether name, or the format it is an alias of, is
// one of formats.
func ValidFormat(formats []string, name string) bool {
	return slices.Contains(formats, CanonicalFormat(name))
}

// CheckResult is what a check printer renders.
type CheckResult struct {
	Report *policy.Report
	// FailOn is the lowest severity that fails the check.
	FailOn policy.Severity
	// Checked is every operation-version the check compared, so that JUnit
	// can list the ones that passed too.
	Checked []OperationVersion
	// Spec is the revision's file. SARIF places a finding without a
	// location at its first line: GitHub code scanning rejects a whole log
	// when one result has no location.
	Spec string
	// ToolVersion is apiver's version for SARIF's tool.driver.version; empty
	// for a development build.
	ToolVersion string
	// Groups are the report's root changes (Report.Groups with removals
	// anchored in the revision); nil groups the report without anchors.
	Groups []policy.Group
	// Fixed tells, index by index with Report.Findings, which findings
	// `apiver fix` resolves (found by running it); nil when none. The
	// report offers the fix for the root changes all of whose findings it
	// resolves, and only for them.
	Fixed []bool
	// FixCommand is the `apiver fix` command line that fixes them.
	FixCommand string
	// Root is the repository's root directory: the formats that annotate a
	// repository's files (githubactions, sarif, code-climate) name files
	// relative to it. "" leaves paths as given.
	Root string
}

// groups are the result's root changes.
func (res CheckResult) groups() []policy.Group {
	if res.Groups != nil || res.Report == nil {
		return res.Groups
	}
	return res.Report.Groups(nil)
}

// OperationVersion names one version of one operation ("" when unversioned).
type OperationVersion struct {
	Operation, Version string
}

// Check writes a check report in the named format.
func Check(w io.Writer, format string, res CheckResult) error {
	switch CanonicalFormat(format) {
	case "json":
		return checkJSON(w, res)
	case "markdown":
		return checkMarkdown(w, res)
	case "githubactions":
		return checkGitHubActions(w, res)
	case "sarif":
		return checkSARIF(w, res)
	case "junit":
		return checkJUnit(w, res)
	case "code-climate":
		return checkCodeClimate(w, res)
	default:
		return checkText(w, res)
	}
}

// Diff writes changes in the named format.
func Diff(w io.Writer, format string, changes []diff.Change) error {
	switch format {
	case "json":
		return diffJSON(w, changes)
	case "markdown":
		return diffMarkdown(w, changes)
	default:
		return diffText(w, changes)
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Summary is the one line that states the verdict and the counts of
// findings (one per operation-version a root change reaches).
func Summary(r *policy.Report, failOn policy.Severity) string {
	c := r.Counts()
	verdict := "passed"
	if r.Failed(failOn) {
		verdict = "FAILED"
	}
	s := fmt.Sprintf("%s, %s, %s", countOf(c.Errors, "finding", "error"), countOf(c.Warnings, "finding", "warning"), countOf(c.Infos, "finding", "info"))
	if c.Exempted > 0 {
		s += fmt.Sprintf(", %s exempted", plural(c.Exempted, "finding"))
	}
	if c.Preexisting > 0 {
		s += fmt.Sprintf(", %s already in the base", plural(c.Preexisting, "finding"))
	}
	return s + ": check " + verdict
}

// countOf is "2 root changes (errors)": how many of what, of which
// severity.
func countOf(n int, noun, severity string) string {
	if n != 1 && severity != "info" {
		severity += "s"
	}
	return plural(n, noun) + " (" + severity + ")"
}

// Verdict is the first line of a report: the verdict, then the root
// changes (groups) of each severity and how many operation-versions they
// reach.
func Verdict(r *policy.Report, groups []policy.Group, failOn policy.Severity) string {
	verdict := "passed"
	if r.Failed(failOn) {
		verdict = "FAILED"
	}
	reach := map[policy.Severity]map[string]bool{}
	count := map[policy.Severity]int{}
	exempted := 0
	for _, g := range groups {
		if g.Exempted {
			exempted++
			continue
		}
		if g.Preexisting && !r.FailOnPreexisting {
			continue
		}
		count[g.Severity]++
		if reach[g.Severity] == nil {
			reach[g.Severity] = map[string]bool{}
		}
		for _, op := range g.Operations {
			reach[g.Severity][op] = true
		}
	}
	var parts []string
	for _, s := range []struct {
		severity policy.Severity
		word     string
	}{{policy.Error, "error"}, {policy.Warning, "warning"}, {policy.Info, "info"}} {
		part := countOf(count[s.severity], "root change", s.word)
		if n := len(reach[s.severity]); n > 0 {
			part += " reaching " + plural(n, "operation-version")
		}
		parts = append(parts, part)
	}
	line := "check " + verdict + ": " + strings.Join(parts, ", ")
	if exempted > 0 {
		line += fmt.Sprintf(", %s exempted", plural(exempted, "root change"))
	}
	if r.Allowed > 0 {
		// diff lists these; without them the counts above would seem to
		// contradict it.
		line += fmt.Sprintf("; %s allowed in existing versions (apiver diff lists them)", countOf(r.Allowed, "change", "info"))
	}
	return line
}

// groupFails reports whether a root change fails the check.
func (res CheckResult) groupFails(g policy.Group) bool {
	return !g.Exempted && (!g.Preexisting || res.Report.FailOnPreexisting) && g.Severity.Rank() <= res.FailOn.Rank()
}

// preexisting are the root changes already true of the base, which do not
// fail the check: the report names them in one short section. Under
// FailOnPreexisting they are judged, and listed, as any other.
func (res CheckResult) preexisting() []policy.Group {
	var out []policy.Group
	for _, g := range res.groups() {
		if g.Preexisting && !res.Report.FailOnPreexisting && !g.Exempted {
			out = append(out, g)
		}
	}
	return out
}

// PreexistingLine is the one line on root changes already true of the base:
// how many, of which rules; "" when there are none.
func PreexistingLine(groups []policy.Group) string {
	if len(groups) == 0 {
		return ""
	}
	count := map[string]int{}
	var rules []string
	for _, g := range groups {
		if count[g.Rule] == 0 {
			rules = append(rules, g.Rule)
		}
		count[g.Rule]++
	}
	slices.Sort(rules)
	parts := make([]string, len(rules))
	for i, rule := range rules {
		parts[i] = fmt.Sprintf("%d %s", count[rule], rule)
	}
	return fmt.Sprintf("Already in the base: %s (%s), not caused by this revision and not failing it. --fail-on-preexisting fails on them; `apiver sunset` lists the overdue work.",
		plural(len(groups), "root change"), strings.Join(parts, ", "))
}

// verdictWord is the verdict as the machine-read formats state it.
func verdictWord(r *policy.Report, failOn policy.Severity) string {
	if r.Failed(failOn) {
		return "fail"
	}
	return "pass"
}

func plural(n int, word string) string {
	if n == 1 || word == "info" {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func locationText(l *diff.Location) string {
	if l == nil {
		return ""
	}
	return l.String()
}

// group is the findings or changes of one operation-version, in their order.
type group[T any] struct {
	operation, version string
	items              []T
}

// groupBy gathers items by operation and version, keeping the groups in the
// order their first item appears (the caller sorts most serious first).
func groupBy[T any](items []T, key func(T) (string, string)) []*group[T] {
	var groups []*group[T]
	index := map[[2]string]*group[T]{}
	for _, it := range items {
		op, v := key(it)
		g, ok := index[[2]string{op, v}]
		if !ok {
			g = &group[T]{operation: op, version: v}
			index[[2]string{op, v}] = g
			groups = append(groups, g)
		}
		g.items = append(g.items, it)
	}
	return groups
}

// documentHeading titles the changes outside any operation.
const documentHeading = "Document (outside any operation)"

func heading(operation, version string) string {
	operation, version = escape.Text(operation), escape.Text(version)
	switch {
	case operation == "":
		return documentHeading
	case version == "":
		return operation + " (unversioned)"
	}
	return operation + " (version " + version + ")"
}
