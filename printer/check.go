package printer

import (
	"fmt"
	"io"
	"strings"

	"github.com/apiver/apiver/policy"
)

// checkText groups findings by operation and version, and within that by
// rule and change, so that eighteen removed enum values read as one block.
func checkText(w io.Writer, r *policy.Report, failOn policy.Severity) error {
	var b strings.Builder
	for _, g := range groupBy(r.Findings, func(f policy.Finding) (string, string) { return f.Operation, f.Version }) {
		fmt.Fprintln(&b, heading(g.operation, g.version))
		for _, kind := range groupBy(g.items, func(f policy.Finding) (string, string) {
			return severityText(f), f.Rule + " " + f.Change
		}) {
			f := kind.items[0]
			fmt.Fprintf(&b, "  %-8s %s", severityText(f), f.Rule)
			if f.Change != "" {
				fmt.Fprintf(&b, " (%s)", f.Change)
			}
			b.WriteString("\n")
			for _, f := range kind.items {
				b.WriteString("    ")
				if loc := locationText(f.Location); loc != "" {
					b.WriteString(loc + ": ")
				}
				b.WriteString(f.Message + "\n")
			}
		}
	}
	if len(r.Findings) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintln(&b, Summary(r, failOn))
	_, err := io.WriteString(w, b.String())
	return err
}

func severityText(f policy.Finding) string {
	if f.Exempted {
		return "exempted"
	}
	return string(f.Severity)
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
