package policy

import (
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/specs"
)

// NewDocumentAnchor anchors locations in the base's version documents to
// the nearest lines of the revision's document of the same version, as
// NewAnchor does for one file; a location in a document the revision no
// longer has, or in a file the revision's documents $ref, stays
// unanchored. It reads the pair's fast-pass trees: call it before
// pair.Release.
func NewDocumentAnchor(pair *specs.DocumentPair) Anchor {
	return func(loc diff.Location, _ string) *diff.Location {
		if loc.Ref != pair.Base.Ref {
			return nil
		}
		for _, r := range pair.Revision.Documents {
			if r.Path() == loc.File && r.Source.Ref() == loc.Ref {
				return nil // the revision's own line
			}
		}
		for _, b := range pair.Base.Documents {
			if b.Path() != loc.File {
				continue
			}
			if r := pair.Revision.Document(b.Version); r != nil {
				return &diff.Location{File: r.Path(), Line: pair.Line(b, r, loc.Line), Ref: r.Source.Ref()}
			}
		}
		return nil
	}
}
