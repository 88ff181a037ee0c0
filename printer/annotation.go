package printer

import (
	"fmt"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
)

// annotation is one finding at one place in a spec, with every
// operation-version it was found in. A change inside a $ref'ed component is
// found once per operation that uses the component, all on the component's
// line; annotated once, it names those operations instead of repeating
// itself on that line.
type annotation struct {
	policy.Finding
	uses []OperationVersion
}

// annotations gathers findings that differ only in their operation-version,
// in the order their first finding appears.
func annotations(findings []policy.Finding) []*annotation {
	type key struct {
		rule, change, message string
		severity              policy.Severity
		exempted              bool
		exemption             *policy.Exemption
		file                  string
		line                  int
	}
	var out []*annotation
	index := map[key]*annotation{}
	for _, f := range findings {
		k := key{rule: f.Rule, change: f.Change, message: f.Message, severity: f.Severity, exempted: f.Exempted, exemption: f.Exemption}
		if f.Location != nil {
			k.file, k.line = f.Location.File, f.Location.Line
		}
		a, ok := index[k]
		if !ok {
			a = &annotation{Finding: f}
			index[k] = a
			out = append(out, a)
		}
		a.uses = append(a.uses, OperationVersion{f.Operation, f.Version})
	}
	return out
}

// anchor is where the annotation goes: its location when that is a line of
// a file in the work tree. A line of a file read at a git ref (the base's
// line of a removal) is a line of another version of the file; the text
// names it instead.
func (a *annotation) anchor() *diff.Location {
	if a.Location == nil || a.Location.Ref != "" {
		return nil
	}
	return a.Location
}

// title is the rule and, when there is one, the oasdiff change behind it.
func (a *annotation) title() string {
	if a.Change == "" {
		return a.Rule
	}
	return a.Rule + " (" + a.Change + ")"
}

// text is the message, the operations it was found in and, for an exempted
// finding, why it passes.
func (a *annotation) text() string {
	uses := make([]string, len(a.uses))
	for i, u := range a.uses {
		uses[i] = heading(u.Operation, u.Version)
	}
	s := a.Message + "\nIn " + strings.Join(uses, ", ")
	if l := a.Location; l != nil && l.Ref != "" {
		s += "\nAt " + l.String()
	}
	if e := a.Exemption; e != nil {
		s += fmt.Sprintf("\nExempted until %s: %s", e.Expires, e.Reason)
	}
	return s
}
