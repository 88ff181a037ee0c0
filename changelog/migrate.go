package changelog

import (
	"fmt"
	"io"
	"strings"

	"github.com/apiver/apiver/diff"
)

// MigrationFormats lists the formats of `apiver changelog migrate`.
var MigrationFormats = []string{"markdown", "text", "json"}

// Migration is a per-operation guide from one version (or the legacy API)
// to another, as the seed's section 9.2 writes one.
type Migration struct {
	From       string           `json:"from"`
	To         string           `json:"to"`
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
		g := OperationGuide{Operation: p.Operation, Request: []diff.Change{}, Response: []diff.Change{}, Other: []diff.Change{}}
		for _, c := range p.Changes {
			switch {
			case strings.HasPrefix(c.ID, "request-") || strings.HasPrefix(c.ID, "new-"):
				g.Request = append(g.Request, c)
			case strings.HasPrefix(c.ID, "response-"):
				g.Response = append(g.Response, c)
			default:
				g.Other = append(g.Other, c)
			}
		}
		m.Operations = append(m.Operations, g)
	}
	return m
}

// RenderMigration writes the guide.
func RenderMigration(w io.Writer, format string, m Migration) error {
	if format == "json" {
		return writeIndentedJSON(w, m)
	}
	markdown := format == "markdown"
	var b strings.Builder
	title := fmt.Sprintf("Migrating from %s to %s", m.From, m.To)
	if markdown {
		fmt.Fprintf(&b, "# %s\n", title)
	} else {
		fmt.Fprintf(&b, "%s\n%s\n", title, strings.Repeat("=", len(title)))
	}
	if len(m.Operations) == 0 {
		b.WriteString("\nNo operation has both.\n")
	}
	for _, g := range m.Operations {
		if markdown {
			fmt.Fprintf(&b, "\n## `%s`\n", g.Operation)
		} else {
			fmt.Fprintf(&b, "\n%s\n", g.Operation)
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
			for _, c := range part.changes {
				marker := ""
				if c.Level == diff.Error {
					marker = " (breaking)"
				}
				fmt.Fprintf(&b, "- %s%s\n", capitalize(c.Message), marker)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
