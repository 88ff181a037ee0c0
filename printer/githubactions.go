package printer

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apiver/apiver/policy"
)

// checkGitHubActions writes GitHub Actions workflow commands, so that each
// finding shows on the pull request's diff at its line of the spec, and
// ends with the summary line.
func checkGitHubActions(w io.Writer, r *policy.Report, failOn policy.Severity) error {
	var b strings.Builder
	for _, a := range annotations(r.Findings) {
		var props []string
		if l := a.anchor(); l != nil {
			props = append(props, "file="+escapeProperty(l.File), "line="+strconv.Itoa(l.Line))
		}
		props = append(props, "title="+escapeProperty(a.title()))
		fmt.Fprintf(&b, "::%s %s::%s\n", workflowCommand(a.Finding), strings.Join(props, ","), escapeData(a.text()))
	}
	if line := fixLine(r.Findings); line != "" {
		fmt.Fprintf(&b, "::notice title=apiver fix::%s\n", escapeData(strings.TrimSpace(line)))
	}
	fmt.Fprintln(&b, Summary(r, failOn))
	_, err := io.WriteString(w, b.String())
	return err
}

// FixHint tells the reader of a fixable finding how to fix it.
const FixHint = "`apiver fix BASE REVISION` writes the spec that passes: the existing version restored, the change in a new version."

// workflowCommand is the annotation level: an exempted finding is a notice,
// since it does not fail the check.
func workflowCommand(f policy.Finding) string {
	switch {
	case f.Exempted:
		return "notice"
	case f.Severity == policy.Error:
		return "error"
	case f.Severity == policy.Warning:
		return "warning"
	}
	return "notice"
}

// escapeData and escapeProperty follow the runner's rules (actions/toolkit's
// command.ts): a message escapes %, CR and LF; a property also : and ,.
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
