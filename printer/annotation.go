package printer

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
)

// annotation is a root change as the formats that annotate files show it
// (githubactions, sarif, code-climate): once, at one line of the revision,
// naming every operation-version it reaches.
type annotation struct {
	policy.Group
	// at is where it goes, with the file relative to the repository's
	// root; nil when nowhere in the revision.
	at *diff.Location
}

// A root change already true of the base is not one: the pull request did
// not cause it, so it gets no annotation on lines it may never have
// touched, unless the config lets such changes fail the check.
func (res CheckResult) annotations() []*annotation {
	var out []*annotation
	for _, g := range res.groups() {
		if g.Preexisting && !res.Report.FailOnPreexisting {
			continue
		}
		a := &annotation{Group: g}
		if l := g.Annotated(); l != nil {
			a.at = &diff.Location{File: res.repoPath(*l), Line: l.Line}
		}
		out = append(out, a)
	}
	return out
}

// landing is the line an annotation lands on: its own, else the
// revision's first line (a finding of no line, such as an exemption that
// expired); nil without a revision file.
func (res CheckResult) landing(a *annotation) *diff.Location {
	if a.at != nil || res.Spec == "" {
		return a.at
	}
	return &diff.Location{File: res.repoPath(diff.Location{File: res.Spec}), Line: 1}
}

// repoPath is a file's path relative to the repository's root, as code
// hosts name the files of a change; a path outside the root stays as given.
// A file read at a git ref is named as git names it: relative to the top,
// unless it starts with ./ or ../ (then relative to the current directory).
func (res CheckResult) repoPath(l diff.Location) string {
	file := l.File
	if res.Root == "" {
		return file
	}
	if l.Ref != "" && !strings.HasPrefix(file, "./") && !strings.HasPrefix(file, "../") {
		return filepath.ToSlash(filepath.Clean(file))
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	// The root comes from git with symlinks resolved; resolve the file's
	// folder alike (the file itself may exist only at the ref).
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs))
	}
	rel, err := filepath.Rel(res.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return filepath.ToSlash(rel)
}

// title is the rule and, when there is one, the oasdiff change behind it.
func (a *annotation) title() string {
	if a.Change == "" {
		return a.Rule
	}
	return a.Rule + " (" + a.Change + ")"
}

// annotationOperations is how many operation-versions an annotation names
// before it says how many more there are.
const annotationOperations = 10

// text is the message, the operation-versions it reaches, where the base
// had it (a removal anchored in the revision, or a line of a file at a git
// ref) and, for an exempted group, why it passes.
func (a *annotation) text() string {
	same := func(s string) string { return s }
	return a.textEscaped(same)
}

// textEscaped is text with esc applied to each string from the spec or the
// config, the message included; the line breaks between its parts stay.
func (a *annotation) textEscaped(esc func(string) string) string {
	s := esc(a.Message)
	if reach := reachText(a.Operations, annotationOperations); reach != "" {
		s += "\n" + esc(strings.ToUpper(reach[:1])+reach[1:])
	}
	if l := a.Location; l != nil && (a.Anchor != nil || l.Ref != "") {
		s += "\nIn the base at " + esc(l.String())
	}
	if e := a.Exemption; e != nil {
		s += fmt.Sprintf("\nExempted until %s: %s", e.Expires, esc(e.Reason))
	}
	return s
}

// reachText is "in POST /a@2023-01-01", or "in 14 operation-versions: A,
// B, C and 11 more" naming at most shown of them; "" for none.
func reachText(operations []string, shown int) string {
	switch n := len(operations); {
	case n == 0:
		return ""
	case n == 1:
		return "in " + operations[0]
	case n <= shown+1:
		return fmt.Sprintf("in %d operation-versions: %s", n, strings.Join(operations, ", "))
	default:
		return fmt.Sprintf("in %d operation-versions: %s and %d more", n, strings.Join(operations[:shown], ", "), n-shown)
	}
}
