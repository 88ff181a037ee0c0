package changelog

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/escape"
)

// MigrationFormats lists the formats of `apiver changelog migrate`.
var MigrationFormats = []string{"markdown", "text", "json"}

// Migration is a per-operation guide from one version (or the legacy API)
// to another, as the seed's section 9.2 writes one.
type Migration struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Select says how a client asks for To ("send `X-GitHub-Api-Version:
	// 2026-03-10`"), "" when the config does not say.
	Select     string           `json:"select,omitempty"`
	Operations []OperationGuide `json:"operations"`
}

// OperationGuide is what changes for a client of one operation.
type OperationGuide struct {
	Operation string        `json:"operation"`
	Request   []diff.Change `json:"request"`
	Response  []diff.Change `json:"response"`
	Other     []diff.Change `json:"other"`
}

// NewMigration sorts each pair's changes into request and response sides.
func NewMigration(from, to string, res *diff.Result) Migration {
	m := Migration{From: from, To: to, Operations: []OperationGuide{}}
	for _, p := range res.Pairs {
		m.Operations = append(m.Operations, guideOf(p.Operation, p.Changes))
	}
	return m
}

func guideOf(operation string, changes []diff.Change) OperationGuide {
	g := OperationGuide{Operation: operation, Request: []diff.Change{}, Response: []diff.Change{}, Other: []diff.Change{}}
	for _, c := range changes {
		switch {
		case strings.HasPrefix(c.ID, "request-") || strings.HasPrefix(c.ID, "new-"):
			g.Request = append(g.Request, c)
		case strings.HasPrefix(c.ID, "response-"):
			g.Response = append(g.Response, c)
		default:
			g.Other = append(g.Other, c)
		}
	}
	return g
}

// Bump is a new version of an operation released with a history release,
// and the version it replaces.
type Bump struct {
	Operation, From, To string
}

// Bumps lists the new versions a release brought that replace an older
// one: their changes are the difference between the two versions.
func Bumps(r Release) map[Use]Bump {
	out := map[Use]Bump{}
	for _, e := range r.Changes {
		if e.ID == VersionReleased && e.Replaces != "" {
			out[Use{Operation: e.Operation, Version: e.Version}] = Bump{Operation: e.Operation, From: e.Replaces, To: e.Version}
		}
	}
	return out
}

// MigrationsFromHistory are the migration guides between every two
// versions a history records a bump between, from the changes recorded with
// the new version: what `changelog migrate` says, without the snapshots.
// Sorted by the versions.
func MigrationsFromHistory(releases []Release) []Migration {
	type pair struct{ from, to string }
	byPair := map[pair]*Migration{}
	var pairs []pair
	for _, r := range releases {
		bumps := Bumps(r)
		perOp := map[Use][]diff.Change{}
		var order []Use
		for _, e := range r.Changes {
			u := Use{Operation: e.Operation, Version: e.Version}
			if _, ok := bumps[u]; !ok || e.ID == VersionReleased {
				continue
			}
			if _, seen := perOp[u]; !seen {
				order = append(order, u)
			}
			level := diff.Info
			if e.Breaking {
				level = diff.Error
			}
			perOp[u] = append(perOp[u], diff.Change{Operation: e.Operation, Version: e.Version, ID: e.ID, Level: level, Message: e.Text})
		}
		for u := range bumps {
			if _, seen := perOp[u]; !seen {
				order = append(order, u)
			}
		}
		slices.SortFunc(order, func(a, b Use) int {
			return cmp.Or(compareOperations(a.Operation, b.Operation), cmp.Compare(a.Version, b.Version))
		})
		for _, u := range order {
			b := bumps[u]
			k := pair{b.From, b.To}
			m, ok := byPair[k]
			if !ok {
				m = &Migration{From: b.From, To: b.To}
				byPair[k] = m
				pairs = append(pairs, k)
			}
			m.Operations = append(m.Operations, guideOf(u.Operation, perOp[u]))
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int { return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to)) })
	out := make([]Migration, len(pairs))
	for i, k := range pairs {
		out[i] = *byPair[k]
	}
	return out
}

// RenderMigration writes the guide.
func RenderMigration(w io.Writer, format string, m Migration) error {
	if format == "json" {
		return writeIndentedJSON(w, m)
	}
	markdown := format == "markdown"
	var b strings.Builder
	title := fmt.Sprintf("Migrating from %s to %s", escape.Text(m.From), escape.Text(m.To))
	if markdown {
		fmt.Fprintf(&b, "# Migrating from %s to %s\n", escape.Markdown(m.From), escape.Markdown(m.To))
	} else {
		fmt.Fprintf(&b, "%s\n%s\n", title, strings.Repeat("=", len(title)))
	}
	if m.Select != "" {
		// The phrase quotes its header or query in a code span already.
		selection := escape.Text(m.Select)
		if markdown {
			selection = escape.MarkdownProse(m.Select)
		}
		fmt.Fprintf(&b, "\nTo move to %s, %s.\n", escape.Text(m.To), selection)
	}
	if len(m.Operations) == 0 {
		b.WriteString("\nNo operation has both.\n")
	}
	for _, g := range m.Operations {
		if markdown {
			fmt.Fprintf(&b, "\n## %s\n", escape.Code(g.Operation))
		} else {
			fmt.Fprintf(&b, "\n%s\n", escape.Text(g.Operation))
		}
		for _, part := range []struct {
			title   string
			changes []diff.Change
		}{{"Request", g.Request}, {"Response", g.Response}, {"Other", g.Other}} {
			if len(part.changes) == 0 {
				if part.title != "Other" {
					fmt.Fprintf(&b, "\n%s: no changes.\n", part.title)
				}
				continue
			}
			fmt.Fprintf(&b, "\n%s:\n", part.title)
			for _, l := range GuideLines(part.changes) {
				marker := ""
				if l.Breaking {
					marker = " (breaking)"
				}
				message := escape.Text(l.Text)
				if markdown {
					message = escape.MarkdownProse(l.Text)
				}
				fmt.Fprintf(&b, "- %s%s\n", message, marker)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// GuideLine is one edit in a guide's list of changes, or one change made
// alike for several response statuses.
type GuideLine struct {
	// Text is the sentence, `quoted` names included.
	Text     string
	Breaking bool
}

// GuideLines gathers a guide's changes into the edits they come from
// (diff.GatherEdits): the values removed from (or added to) one enum are
// one line, and so is the same edit made to sibling schemas. A change
// that stands alone is worded as the changelog's lines are, and those that
// differ only in their response status are one line naming every status
// ("for the 200 and 201 responses"). Lines are in the order of their
// first change; the JSON guide keeps each change.
func GuideLines(changes []diff.Change) []GuideLine {
	// Changes alike but for their status first: each group is one change
	// to the edits below, named by its first.
	items := make([]*item, len(changes))
	alike := map[string][]int{}
	var firsts []int
	for i, c := range changes {
		items[i] = newItem(Entry{Operation: c.Operation, Version: c.Version, ID: c.ID, Breaking: c.Level == diff.Error, Text: c.Message}, "")
		k := items[i].key("statuses")
		if _, ok := alike[k]; !ok {
			firsts = append(firsts, i)
		}
		alike[k] = append(alike[k], i)
	}
	members := func(first int) []int { return alike[items[first].key("statuses")] }
	parts := make([]diff.EditPart, len(firsts))
	edits := make([]diff.Edit, len(changes))
	for j, i := range firsts {
		c := changes[i]
		e := diff.EditOf(c.ID, c.Message)
		edits[i] = e
		key := string(c.Level) + "\x00" + c.ID + "\x00" + e.Key
		if e.Property == "" && !e.Valued {
			// Only changes of a property or an enum are made alike to
			// sibling schemas.
			key += "\x00" + c.Message
		}
		parts[j] = diff.EditPart{Key: key, Node: e.Place}
		if e.Valued {
			parts[j].Values = []string{e.Value}
		}
	}
	type line struct {
		first int
		GuideLine
	}
	var lines []line
	for _, nodes := range diff.GatherEdits(parts) {
		first := firsts[nodes[0][0]]
		if len(nodes) == 1 && len(nodes[0]) == 1 {
			var same []*item
			for _, i := range members(first) {
				same = append(same, items[i])
			}
			it := merge(same, "statuses")[0]
			lines = append(lines, line{first, GuideLine{Text: capitalize(it.render()), Breaking: it.e.Breaking}})
			continue
		}
		var messages, values, places []string
		seen := map[string]bool{}
		for _, node := range nodes {
			places = append(places, edits[firsts[node[0]]].Place)
			for _, j := range node {
				for _, i := range members(firsts[j]) {
					if m := changes[i].Message; !seen["m"+m] {
						seen["m"+m] = true
						messages = append(messages, m)
					}
				}
				if e := edits[firsts[j]]; e.Valued && !seen["v"+e.Value] {
					v := e.Value
					seen["v"+v] = true
					values = append(values, v)
				}
			}
		}
		c := changes[first]
		lines = append(lines, line{first, GuideLine{Text: capitalize(diff.EditMessage(c.ID, messages, values, places, 0)), Breaking: c.Level == diff.Error}})
	}
	slices.SortStableFunc(lines, func(a, b line) int { return cmp.Compare(a.first, b.first) })
	out := make([]GuideLine, len(lines))
	for i, l := range lines {
		out[i] = l.GuideLine
	}
	return out
}
