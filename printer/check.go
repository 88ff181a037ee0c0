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
	verdict := verdictWord(r, failOn)
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

// The markdown tables share a budget of characters, so that a report with
// hundreds of findings still fits a pull-request comment (GitHub takes up
// to 65536 characters, headings included); each table still to come keeps
// a reserve of it. A table that runs out says how many rows it left out.
const (
	markdownBudget  = 60000
	markdownReserve = 4000
)

// checkMarkdown is a pull-request summary: the verdict, the errors, the
// warnings folded away, and the exemptions that applied.
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
	const findingHeader = "| Operation | Version | Rule | Change | Message | Location |\n|---|---|---|---|---|---|\n"
	exemptions := exemptionRows(exempted)
	tables := []struct {
		open, header, close string
		rows                []string
	}{
		{"#### Errors\n\n", findingHeader, "\n" + fixLine(errs), findingRows(errs)},
		{fmt.Sprintf("<details><summary>%s and infos</summary>\n\n", plural(len(warns), "warning")), findingHeader, "\n</details>\n\n", findingRows(warns)},
		{fmt.Sprintf("<details><summary>%d exempted by %s</summary>\n\n", len(exempted), plural(len(exemptions), "exemption")),
			"| Operation | Version | Rule | Change | Reason | Expires | Findings |\n|---|---|---|---|---|---|---|\n", "\n</details>\n\n", exemptions},
	}
	remaining := markdownBudget
	for i, t := range tables {
		if len(t.rows) == 0 {
			continue
		}
		budget := remaining
		for _, later := range tables[i+1:] {
			if len(later.rows) > 0 {
				budget -= markdownReserve
			}
		}
		b.WriteString(t.open)
		remaining -= markdownTable(&b, t.header, t.rows, budget)
		b.WriteString(t.close)
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// fixLine points at apiver fix when some errors are fixable.
func fixLine(errs []policy.Finding) string {
	n := 0
	for _, f := range errs {
		if f.Fixable() {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s can be fixed: %s\n\n", plural(n, "error"), FixHint)
}

func findingRows(fs []policy.Finding) []string {
	rows := make([]string, len(fs))
	for i, f := range fs {
		rows[i] = fmt.Sprintf("| `%s` | %s | `%s` | %s | %s | %s |\n", f.Operation, f.Version, f.Rule, codeOrEmpty(f.Change), markdownCell(f.Message), locationText(f.Location))
	}
	return rows
}

// exemptionRows lists the exemptions that applied, in the order of the
// first finding each exempts, with how many findings each exempts.
func exemptionRows(exempted []policy.Finding) []string {
	var order []*policy.Exemption
	count := map[*policy.Exemption]int{}
	for _, f := range exempted {
		if count[f.Exemption] == 0 {
			order = append(order, f.Exemption)
		}
		count[f.Exemption]++
	}
	rows := make([]string, len(order))
	for i, e := range order {
		if e == nil {
			rows[i] = fmt.Sprintf("| | | | | | | %d |\n", count[e])
			continue
		}
		rows[i] = fmt.Sprintf("| `%s` | %s | `%s` | %s | %s | %s | %d |\n", e.Operation, e.Version, e.Rule, codeOrEmpty(e.Change), markdownCell(e.Reason), e.Expires, count[e])
	}
	return rows
}

// markdownTable writes the header and the rows that fit the budget, then
// says how many it left out; it returns the characters it wrote.
func markdownTable(b *strings.Builder, header string, rows []string, budget int) int {
	b.WriteString(header)
	used := len(header)
	for i, row := range rows {
		if used+len(row) > budget {
			n, _ := fmt.Fprintf(b, "\n… and %d more; `apiver check` lists them all.\n", len(rows)-i)
			return used + n
		}
		b.WriteString(row)
		used += len(row)
	}
	return used
}

func codeOrEmpty(s string) string {
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}
