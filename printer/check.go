package printer

import (
	"fmt"
	"io"
	"strings"

	"github.com/apiver/apiver/policy"
)

func checkText(w io.Writer, r *policy.Report, failOn policy.Severity) error {
	var b strings.Builder
	for _, g := range groupBy(r.Findings, func(f policy.Finding) (string, string) { return f.Operation, f.Version }) {
		fmt.Fprintln(&b, heading(g.operation, g.version))
		for _, f := range g.items {
			severity := string(f.Severity)
			if f.Exempted {
				severity = "exempted"
			}
			fmt.Fprintf(&b, "  %-8s %s", severity, f.Rule)
			if f.Change != "" {
				fmt.Fprintf(&b, " (%s)", f.Change)
			}
			if loc := locationText(f.Location); loc != "" {
				fmt.Fprintf(&b, " at %s", loc)
			}
			fmt.Fprintf(&b, "\n           %s\n", f.Message)
		}
	}
	if len(r.Findings) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintln(&b, Summary(r, failOn))
	_, err := io.WriteString(w, b.String())
	return err
}

type checkSummary struct {
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Infos    int    `json:"infos"`
	Exempted int    `json:"exempted"`
	Verdict  string `json:"verdict"`
}

func checkJSON(w io.Writer, r *policy.Report, failOn policy.Severity) error {
	c := r.Counts()
	verdict := "pass"
	if r.Failed(failOn) {
		verdict = "fail"
	}
	findings := r.Findings
	if findings == nil {
		findings = []policy.Finding{}
	}
	return writeJSON(w, struct {
		Date     string           `json:"date"`
		Findings []policy.Finding `json:"findings"`
		Summary  checkSummary     `json:"summary"`
	}{r.Date.String(), findings, checkSummary{c.Errors, c.Warnings, c.Infos, c.Exempted, verdict}})
}

func checkMarkdown(w io.Writer, r *policy.Report, failOn policy.Severity) error {
	var b strings.Builder
	icon := "✅"
	if r.Failed(failOn) {
		icon = "❌"
	}
	fmt.Fprintf(&b, "### %s apiver check: %s\n\n", icon, Summary(r, failOn))
	var errs, warns, exempted []policy.Finding
	for _, f := range r.Findings {
		switch {
		case f.Exempted:
			exempted = append(exempted, f)
		case f.Severity == policy.Error:
			errs = append(errs, f)
		default:
			warns = append(warns, f)
		}
	}
	table := func(fs []policy.Finding) {
		b.WriteString("| Operation | Version | Rule | Change | Message | Location |\n|---|---|---|---|---|---|\n")
		for _, f := range fs {
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s | %s | %s |\n", f.Operation, f.Version, f.Rule, codeOrEmpty(f.Change), markdownCell(f.Message), locationText(f.Location))
		}
	}
	if len(errs) > 0 {
		b.WriteString("#### Errors\n\n")
		table(errs)
		b.WriteString("\n")
	}
	if len(warns) > 0 {
		fmt.Fprintf(&b, "<details><summary>%s and infos</summary>\n\n", plural(len(warns), "warning"))
		table(warns)
		b.WriteString("\n</details>\n\n")
	}
	if len(exempted) > 0 {
		fmt.Fprintf(&b, "<details><summary>%d exempted</summary>\n\n", len(exempted))
		table(exempted)
		b.WriteString("\n</details>\n\n")
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

func codeOrEmpty(s string) string {
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}
