package printer

import (
	"fmt"
	"io"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/escape"
)

func diffText(w io.Writer, changes []diff.Change) error {
	var b strings.Builder
	counts := map[diff.Level]int{}
	for _, g := range groupBy(changes, func(c diff.Change) (string, string) { return c.Operation, c.Version }) {
		fmt.Fprintln(&b, heading(g.operation, g.version))
		for _, c := range g.items {
			counts[c.Level]++
			fmt.Fprintf(&b, "  %-7s %s", c.Level, escape.Text(c.ID))
			if loc := locationText(c.Location); loc != "" {
				fmt.Fprintf(&b, " at %s", escape.Text(loc))
			}
			fmt.Fprintf(&b, "\n          %s\n", escape.Text(c.Message))
		}
	}
	if len(changes) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s: %s, %s, %s\n", plural(len(changes), "change"),
		plural(counts[diff.Error], "error"), plural(counts[diff.Warning], "warning"), plural(counts[diff.Info], "info"))
	_, err := io.WriteString(w, b.String())
	return err
}

func diffJSON(w io.Writer, changes []diff.Change) error {
	if changes == nil {
		changes = []diff.Change{}
	}
	return writeJSON(w, struct {
		Changes []diff.Change `json:"changes"`
	}{changes})
}

func diffMarkdown(w io.Writer, changes []diff.Change) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### apiver diff: %s\n", plural(len(changes), "change"))
	for _, g := range groupBy(changes, func(c diff.Change) (string, string) { return c.Operation, c.Version }) {
		fmt.Fprintf(&b, "\n#### %s\n\n", markdownHeading(g.operation, g.version))
		for _, c := range g.items {
			fmt.Fprintf(&b, "- **%s** %s: %s\n", c.Level, escape.Code(c.ID), escape.MarkdownProse(c.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownHeading is heading with the operation as code.
func markdownHeading(operation, version string) string {
	switch {
	case operation == "":
		return documentHeading
	case version == "":
		return escape.Code(operation) + " (unversioned)"
	}
	return escape.Code(operation) + " (version " + escape.Markdown(version) + ")"
}
