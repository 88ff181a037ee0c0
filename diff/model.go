// Package diff pairs the resource versions of two snapshots, diffs each pair
// with oasdiff, and returns the changes in apiver's own model.
package diff

import (
	"fmt"

	"github.com/apiver/apiver/specs"
)

// Kind says how a pair's two sides relate.
type Kind string

const (
	// Same is a version present in both snapshots, diffed against itself.
	Same Kind = "same"
	// Bump is a version new in the revision, diffed against its predecessor.
	Bump Kind = "bump"
	// Unversioned is an operation without versions, diffed against itself.
	Unversioned Kind = "unversioned"
	// Added is an operation or version with nothing before it.
	Added Kind = "added"
	// Removed is an operation or version missing from the revision.
	Removed Kind = "removed"
)

// Level is how serious a change is.
type Level string

const (
	Error   Level = "error"
	Warning Level = "warning"
	Info    Level = "info"
)

// Rank orders levels, most serious first.
func (l Level) Rank() int {
	switch l {
	case Error:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// Location is a place in a spec file.
type Location struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Ref is the git ref the file was read at (a REF:PATH input), "" for a
	// file on disk.
	Ref string `json:"ref,omitempty"`
	// Column tells apart the nodes of one line (flow style, JSON); 0 when
	// unknown.
	Column int `json:"-"`
	// Node names the node located in a version document, so that the
	// location moves to the same node of another (load.DocumentPair.Place).
	Node specs.NodePath `json:"-"`
}

// String is FILE:LINE, or REF:FILE:LINE for a file read from git.
func (l Location) String() string {
	if l.Ref != "" {
		return fmt.Sprintf("%s:%s:%d", l.Ref, l.File, l.Line)
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

// Change is one difference within an operation-version.
type Change struct {
	Operation string    `json:"operation"`
	Version   string    `json:"version"`
	ID        string    `json:"id"`
	Level     Level     `json:"level"`
	Message   string    `json:"message"`
	Location  *Location `json:"location,omitempty"`
	// Sunset is the x-sunset (YYYY-MM-DD) of an endpoint-deprecated change,
	// "" when none was declared.
	Sunset string `json:"sunset,omitempty"`
	// Component is, for a change outside any operation that one component
	// made, its "kind/name" ("schemas/Pet"): Result.Answer reads it.
	Component string `json:"-"`
}

// Pair is one operation-version of the revision (or of the base, when it was
// removed) with the counterpart it was diffed against.
type Pair struct {
	// Operation is "METHOD /path" as the revision writes it (the base, for a
	// removal).
	Operation string
	Version   string
	// PreRelease versions are diffed but never gated.
	PreRelease bool
	Kind       Kind
	// Predecessor is, for a bump, the version compared against ("" when the
	// predecessor is the unversioned operation).
	Predecessor string
	// Successor is, for a removed version whose operation stays, the
	// oldest newer version the revision has ("" when none).
	Successor string
	Changes   []Change
}

// Breaking reports whether any change of the pair is an error.
func (p *Pair) Breaking() bool {
	for _, c := range p.Changes {
		if c.Level == Error {
			return true
		}
	}
	return false
}
