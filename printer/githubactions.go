package printer

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/policy"
)

// GitHub shows at most this many annotations of each level per step and
// drops the rest silently.
const annotationsPerLevel = 10

// checkGitHubActions writes GitHub Actions workflow commands: one per root
// change, so that each shows on the pull request's diff at its line of the
// spec, errors first and the widest reach first, at most ten of each
// level; a notice says how many more there are and where they are listed.
// The summary is the last line.
func checkGitHubActions(w io.Writer, res CheckResult) error {
	anns := res.annotations()
	total := map[string]int{}
	for _, a := range anns {
		total[workflowCommand(a.Group)]++
	}
	limit := map[string]int{"error": annotationsPerLevel, "warning": annotationsPerLevel, "notice": annotationsPerLevel}
	if total["error"] > limit["error"] || total["warning"] > limit["warning"] || total["notice"] > limit["notice"] {
		// The notice about the rest is a notice too.
		limit["notice"]--
	}
	var b strings.Builder
	shown := map[string]int{}
	hidden := 0
	for _, a := range anns {
		command := workflowCommand(a.Group)
		if shown[command] == limit[command] {
			hidden++
			continue
		}
		shown[command]++
		var props []string
		if l := res.landing(a); l != nil {
			props = append(props, "file="+escapeProperty(escape.Text(l.File)), "line="+strconv.Itoa(l.Line))
		}
		props = append(props, "title="+escapeProperty(escape.Text(a.title())))
		fmt.Fprintf(&b, "::%s %s::%s\n", command, strings.Join(props, ","), escapeData(a.textEscaped(escape.Text)))
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "::notice title=%s::%s\n", escapeProperty(fmt.Sprintf("apiver: %s not annotated", plural(hidden, "more root change"))),
			escapeData(fmt.Sprintf("%s more than GitHub shows as annotations (%d error and %d warning annotations per step). "+
				"The job summary lists them all, and so does the SARIF log (--output sarif=FILE) on the Security tab.",
				plural(hidden, "root change"), annotationsPerLevel, annotationsPerLevel)))
	}
	// A log line, not an annotation: it belongs to no line of the spec.
	if line := fixLine(res); line != "" {
		fmt.Fprintf(&b, "apiver fix: %s\n", escape.Text(strings.TrimSpace(line)))
	}
	fmt.Fprintln(&b, Summary(res.Report, res.FailOn))
	_, err := io.WriteString(w, b.String())
	return err
}

// FixHint tells the reader of a fixable finding how to fix it, when the
// fix leaves nothing that fails; fixWhat is what it does.
const (
	FixHint = "writes the spec that passes: " + fixWhat
	fixWhat = "the existing versions restored, the changes in a new version unless a newer one has them."
)

// workflowCommand is the annotation level: an exempted finding is a notice,
// since it does not fail the check.
func workflowCommand(g policy.Group) string {
	switch {
	case g.Exempted:
		return "notice"
	case g.Severity == policy.Error:
		return "error"
	case g.Severity == policy.Warning:
		return "warning"
	}
	return "notice"
}

// escapeData and escapeProperty follow the runner's rules (actions/toolkit's
// command.ts): a message escapes %, CR and LF; a property also : and ,.
// Text from the spec or the config goes through escape.Text first, as in
// the text format: no control character (ESC, NUL, VT, FF...), bidi
// override or line separator reaches the log raw.
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string { return dataEscaper.Replace(s) }

func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
