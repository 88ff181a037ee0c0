package printer

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/policy"
)

// textOperations is how many operation-versions a text or markdown block
// names before it says how many more there are.
const textOperations = 3

// textListed is how many root changes that do not fail the check the text
// lists one by one; above it they are counted per rule and change, so that
// the failing ones stay on one screen.
const textListed = 20

// checkText starts with the verdict and writes one block per root change
// that fails the check: what and where, the message, and the
// operation-versions it reaches, folded; errors first, the widest reach
// first. The others follow alike, or, when there are many, one line per
// rule and change. The summary of finding counts is the last line.
func checkText(w io.Writer, res CheckResult) error {
	var b strings.Builder
	groups := res.groups()
	fmt.Fprintln(&b, Verdict(res.Report, groups, res.FailOn))
	var failing, others []policy.Group
	for _, g := range groups {
		switch {
		case res.groupFails(g):
			failing = append(failing, g)
		case g.Preexisting && !g.Exempted && !res.Report.FailOnPreexisting:
			// One line below, not a block each.
		default:
			others = append(others, g)
		}
	}
	section := ""
	block := func(g policy.Group) {
		if s := groupSeverityText(g); s != section {
			section = s
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%-8s %s", section, escape.Text(g.Rule))
		if g.Change != "" {
			fmt.Fprintf(&b, " (%s)", escape.Text(g.Change))
		}
		if loc := locationText(g.Location); loc != "" {
			b.WriteString(" at " + escape.Text(loc))
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "  %s\n", escape.Text(g.Message))
		if reach := reachText(texts(g.Operations), textOperations); reach != "" {
			fmt.Fprintf(&b, "  %s\n", reach)
		}
		if e := g.Exemption; e != nil {
			fmt.Fprintf(&b, "  exempted until %s: %s\n", e.Expires, escape.Text(e.Reason))
		}
	}
	for _, g := range failing {
		block(g)
	}
	if len(others) <= textListed {
		for _, g := range others {
			block(g)
		}
	} else {
		foldedText(&b, others)
	}
	if line := PreexistingLine(res.preexisting()); line != "" {
		fmt.Fprintf(&b, "\n%s\n", line)
	}
	if line := fixLine(res); line != "" {
		fmt.Fprintf(&b, "\napiver fix: %s\n", escape.Text(strings.TrimSpace(line)))
	}
	b.WriteString("\n")
	fmt.Fprintln(&b, Summary(res.Report, res.FailOn))
	_, err := io.WriteString(w, b.String())
	return err
}

// foldedText counts root changes per severity, rule and change, most
// first.
func foldedText(b *strings.Builder, groups []policy.Group) {
	type kind struct{ severity, rule, change string }
	count := map[kind]int{}
	reach := map[kind]map[string]bool{}
	var kinds []kind
	for _, g := range groups {
		k := kind{groupSeverityText(g), g.Rule, g.Change}
		if count[k] == 0 {
			kinds = append(kinds, k)
			reach[k] = map[string]bool{}
		}
		count[k]++
		for _, op := range g.Operations {
			reach[k][op] = true
		}
	}
	slices.SortStableFunc(kinds, func(a, b kind) int {
		return cmp.Or(cmp.Compare(severityOrder(a.severity), severityOrder(b.severity)), cmp.Compare(count[b], count[a]))
	})
	fmt.Fprintf(b, "\n%s that do not fail the check (--format markdown or json lists each):\n", plural(len(groups), "more root change"))
	for _, k := range kinds {
		fmt.Fprintf(b, "%-8s %s", k.severity, escape.Text(k.rule))
		if k.change != "" {
			fmt.Fprintf(b, " (%s)", escape.Text(k.change))
		}
		fmt.Fprintf(b, ": %s reaching %s\n", plural(count[k], "root change"), plural(len(reach[k]), "operation-version"))
	}
}

func severityOrder(s string) int {
	if s == "exempted" {
		return 3
	}
	return policy.Severity(s).Rank()
}

func groupSeverityText(g policy.Group) string {
	if g.Exempted {
		return "exempted"
	}
	return string(g.Severity)
}

func severityText(f policy.Finding) string {
	if f.Exempted {
		return "exempted"
	}
	return string(f.Severity)
}

type checkSummary struct {
	Errors      int           `json:"errors"`
	Warnings    int           `json:"warnings"`
	Infos       int           `json:"infos"`
	Exempted    int           `json:"exempted"`
	Preexisting int           `json:"preexisting"`
	Verdict     string        `json:"verdict"`
	Groups      policy.Counts `json:"groups"`
	// Allowed is Report.Allowed: info-level changes in existing versions.
	Allowed int `json:"allowedChanges"`
}

// jsonFinding is a finding with the id of its group, and whether the
// revision introduced it (false: already true of the base).
type jsonFinding struct {
	policy.Finding
	Introduced bool   `json:"introduced"`
	Group      string `json:"group"`
}

// jsonGroup is a root change and whether the revision introduced it.
type jsonGroup struct {
	policy.Group
	Introduced bool `json:"introduced"`
}

// jsonFix offers apiver fix: the command, and how many root changes it
// resolves.
type jsonFix struct {
	Command     string `json:"command"`
	RootChanges int    `json:"rootChanges"`
}

func checkJSON(w io.Writer, res CheckResult) error {
	r := res.Report
	c := r.Counts()
	groups := res.groups()
	findings := make([]jsonFinding, len(r.Findings))
	for i, f := range r.Findings {
		findings[i].Finding, findings[i].Introduced = f, !f.Preexisting
	}
	for _, g := range groups {
		for _, i := range g.Members {
			findings[i].Group = g.ID
		}
	}
	// Empty lists, not null, for scripts.
	out := make([]jsonGroup, len(groups))
	for i, g := range groups {
		if g.Operations == nil {
			g.Operations = []string{}
		}
		out[i] = jsonGroup{g, !g.Preexisting}
	}
	var offer *jsonFix
	if n, command := res.fixOffer(); n > 0 {
		offer = &jsonFix{command, n}
	}
	return writeJSON(w, struct {
		Date     string        `json:"date"`
		Findings []jsonFinding `json:"findings"`
		Groups   []jsonGroup   `json:"groups"`
		Summary  checkSummary  `json:"summary"`
		Fix      *jsonFix      `json:"fix,omitempty"`
	}{r.Date.String(), findings, out, checkSummary{c.Errors, c.Warnings, c.Infos, c.Exempted, c.Preexisting, verdictWord(r, res.FailOn), r.CountGroups(groups), r.Allowed}, offer})
}

// The markdown tables share a budget of characters, so that a report with
// hundreds of findings still fits a pull-request comment (GitHub takes up
// to 65536 characters, headings included); each table still to come keeps
// a reserve of it. A table that runs out says how many rows it left out.
const (
	markdownBudget  = 60000
	markdownReserve = 4000
)

// checkMarkdown is a pull-request comment or job summary: the verdict,
// one row per root change that is an error, the warnings and infos folded
// away, and the exemptions that applied.
func checkMarkdown(w io.Writer, res CheckResult) error {
	r, failOn := res.Report, res.FailOn
	var b strings.Builder
	icon := "✅"
	if r.Failed(failOn) {
		icon = "❌"
	}
	groups := res.groups()
	fmt.Fprintf(&b, "### %s apiver %s\n\n%s\n\n", icon, Verdict(r, groups, failOn), Summary(r, failOn))
	var errs, warns, exemptedGroups []policy.Group
	for _, g := range groups {
		switch {
		case g.Preexisting && !g.Exempted && !res.Report.FailOnPreexisting:
			// One line at the end.
		case g.Exempted:
			exemptedGroups = append(exemptedGroups, g)
		case g.Severity == policy.Error:
			errs = append(errs, g)
		default:
			warns = append(warns, g)
		}
	}
	var exempted []policy.Finding
	for _, f := range r.Findings {
		if f.Exempted {
			exempted = append(exempted, f)
		}
	}
	const groupHeader = "| Rule | Change | Message | Location | Operation-versions |\n|---|---|---|---|---|\n"
	exemptions := exemptionRows(exempted)
	tables := []struct {
		open, header, close string
		rows                []string
	}{
		{"#### Errors\n\n", groupHeader, "\n" + fixLine(res), groupRows(errs)},
		{fmt.Sprintf("<details><summary>%s (warnings and infos)</summary>\n\n", plural(len(warns), "root change")), groupHeader, "\n</details>\n\n", groupRows(warns)},
		{fmt.Sprintf("<details><summary>%s exempted by %s</summary>\n\n", plural(len(exemptedGroups), "root change"), plural(len(exemptions), "exemption")),
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
		if i == 1 && rowsLength(t.rows) > budget-len(t.header) {
			// Too many warnings to list one by one: those that read alike
			// (one edit made at many places) share a row.
			t.rows = mergeAlike(warns)
		}
		b.WriteString(t.open)
		remaining -= markdownTable(&b, t.header, t.rows, budget)
		b.WriteString(t.close)
	}
	if line := PreexistingLine(res.preexisting()); line != "" {
		b.WriteString(line + "\n")
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// fixable reports whether apiver fix resolves every finding of a root
// change.
func (res CheckResult) fixable(g policy.Group) bool {
	return len(g.Members) > 0 && !slices.ContainsFunc(g.Members, func(i int) bool { return i >= len(res.Fixed) || !res.Fixed[i] })
}

// fixOffer is how many root changes apiver fix resolves and the command
// that does it; 0 when it resolves none.
func (res CheckResult) fixOffer() (int, string) {
	n := 0
	for _, g := range res.groups() {
		if res.fixable(g) {
			n++
		}
	}
	command := res.FixCommand
	if command == "" {
		command = "apiver fix BASE REVISION"
	}
	return n, command
}

// fixHint says what the offered fix writes: the spec that passes, or,
// when root changes that fail the check are beyond it, how many remain.
func (res CheckResult) fixHint() string {
	left := 0
	for _, g := range res.groups() {
		if !res.fixable(g) && slices.ContainsFunc(g.Members, func(i int) bool { return res.Report.Fails(res.Report.Findings[i], res.FailOn) }) {
			left++
		}
	}
	if left == 0 {
		return FixHint
	}
	return fmt.Sprintf("writes a spec with those fixed, where %s it cannot fix %s: %s", plural(left, "root change"), isOrAre(left), fixWhat)
}

func isOrAre(n int) string {
	if n == 1 {
		return "remains"
	}
	return "remain"
}

// fixLine offers apiver fix for the root changes it resolves, with the
// command that does it; "" when it resolves none.
func fixLine(res CheckResult) string {
	n, command := res.fixOffer()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s can be fixed: %s %s\n\n", plural(n, "root change"), escape.Code(command), res.fixHint())
}

// markdownGroup is a row: a group, or groups that read alike.
type markdownGroup struct {
	policy.Group
	places int
}

func groupRows(groups []policy.Group) []string {
	rows := make([]markdownGroup, len(groups))
	for i, g := range groups {
		rows[i] = markdownGroup{g, 1}
	}
	return markdownRows(rows)
}

func markdownRows(groups []markdownGroup) []string {
	rows := make([]string, len(groups))
	for i, g := range groups {
		ops := make([]string, len(g.Operations))
		for j, op := range g.Operations {
			ops[j] = escape.TableCode(op)
		}
		where := escape.Markdown(locationText(g.Location))
		if g.places > 1 {
			where = fmt.Sprintf("%d places", g.places)
		}
		rows[i] = fmt.Sprintf("| %s | %s | %s | %s | %s |\n", escape.TableCode(g.Rule), codeOrEmpty(g.Change), escape.TableProse(g.Message), where,
			strings.TrimPrefix(reachText(ops, textOperations), "in "))
	}
	return rows
}

// mergeAlike folds groups of the same rule, change and message at
// different places into one row each, in the order of their first group.
func mergeAlike(groups []policy.Group) []string {
	type key struct {
		rule, change, message, severity string
	}
	var out []*markdownGroup
	index := map[key]*markdownGroup{}
	for _, g := range groups {
		k := key{g.Rule, g.Change, diff.RootMessage(g.Message), string(g.Severity)}
		m, ok := index[k]
		if !ok {
			m = &markdownGroup{Group: g}
			m.Message = k.message
			index[k] = m
			out = append(out, m)
		}
		m.places++
		m.Operations = append(m.Operations, g.Operations...)
	}
	rows := make([]markdownGroup, len(out))
	for i, m := range out {
		ops := slices.Clone(m.Operations)
		slices.Sort(ops)
		m.Operations = slices.Compact(ops)
		rows[i] = *m
	}
	return markdownRows(rows)
}

func rowsLength(rows []string) int {
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	return n
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
		rows[i] = fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %d |\n", escape.TableCode(e.Operation), escape.Markdown(e.Version), escape.TableCode(e.Rule),
			codeOrEmpty(e.Change), escape.Markdown(e.Reason), e.Expires, count[e])
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
			if i == 0 {
				// One row longer than the whole budget (an enum that lost
				// thousands of values) is shown cut, never not at all.
				row = cutRow(row, budget-used-markdownCutRoom)
				b.WriteString(row)
				used += len(row)
				i++
				if i == len(rows) {
					return used
				}
			}
			n, _ := fmt.Fprintf(b, "\n… and %d more; `apiver check` lists them all.\n", len(rows)-i)
			return used + n
		}
		b.WriteString(row)
		used += len(row)
	}
	return used
}

// markdownCutRoom is what a cut row and the line after it take beyond the
// text kept.
const markdownCutRoom = 200

// cutRow keeps the start of a table row that does not fit, at most limit
// bytes, ended so that it still renders: never inside a code span, an
// escape or a character, then " … (cut; `apiver check` shows it whole) |".
func cutRow(row string, limit int) string {
	limit = max(limit, 0)
	if limit >= len(row) {
		return row
	}
	for limit > 0 && !utf8.RuneStart(row[limit]) {
		limit--
	}
	kept := row[:limit]
	// A code span still open at the cut goes whole: it opens with a run of
	// backticks and closes with a run of the same length.
	open, fence := -1, 0
	for i := 0; i < len(kept); {
		if kept[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(kept) && kept[j] == '`' {
			j++
		}
		switch {
		case open < 0:
			open, fence = i, j-i
		case j-i == fence:
			open = -1
		}
		i = j
	}
	if open >= 0 {
		kept = kept[:open]
	}
	kept = strings.TrimRight(kept, "\\")
	return kept + " … (cut; `apiver check` shows it whole) |\n"
}

// codeOrEmpty is a table cell's code span, or nothing for "".
func codeOrEmpty(s string) string {
	if s == "" {
		return ""
	}
	return escape.TableCode(s)
}

// texts is escape.Text of each string.
func texts(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = escape.Text(s)
	}
	return out
}
