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
	"github.com/apiver/apiver/policy"
)

// Formats lists the formats every printer accepts.
var Formats = []string{"text", "json", "markdown"}

// CheckFormats lists the formats of a check report: the common ones and
// those a CI system reads.
var CheckFormats = []string{"text", "json", "markdown", "githubactions", "sarif", "junit"}

// ValidFormat reports whether name is one of formats.
func ValidFormat(formats []string, name string) bool { return slices.Contains(formats, name) }

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
}

// OperationVersion names one version of one operation ("" when unversioned).
type OperationVersion struct {
	Operation, Version string
}

// Check writes a check report in the named format.
func Check(w io.Writer, format string, res CheckResult) error {
	switch format {
	case "json":
		return checkJSON(w, res.Report, res.FailOn)
	case "markdown":
		return checkMarkdown(w, res.Report, res.FailOn)
	case "githubactions":
		return checkGitHubActions(w, res.Report, res.FailOn)
	case "sarif":
		return checkSARIF(w, res)
	case "junit":
		return checkJUnit(w, res)
	default:
		return checkText(w, res.Report, res.FailOn)
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

// Summary is the one line that states counts and the verdict.
func Summary(r *policy.Report, failOn policy.Severity) string {
	c := r.Counts()
	verdict := "passed"
	if r.Failed(failOn) {
		verdict = "FAILED"
	}
	s := fmt.Sprintf("%s, %s, %s", plural(c.Errors, "error"), plural(c.Warnings, "warning"), plural(c.Infos, "info"))
	if c.Exempted > 0 {
		s += fmt.Sprintf(" (%d exempted)", c.Exempted)
	}
	return s + ": check " + verdict
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
	switch {
	case operation == "":
		return documentHeading
	case version == "":
		return operation + " (unversioned)"
	}
	return operation + " (version " + version + ")"
}

// markdownCell escapes what would break a table cell.
func markdownCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
