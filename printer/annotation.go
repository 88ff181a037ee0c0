package printer

import (
	"fmt"
	"strings"

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
	if e := a.Exemption; e != nil {
		s += fmt.Sprintf("\nExempted until %s: %s", e.Expires, e.Reason)
	}
	return s
}
