package policy

import (
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
)

// NewDocumentAnchor anchors locations in the base's version documents to
// the nearest lines of the revision's document of the same version, as
// NewAnchor does for one file; a location in a document the revision no
// longer has, or in a file the revision's documents $ref, stays
// unanchored. It reads the pair's fast-pass trees: call it before
// pair.Release.
func NewDocumentAnchor(pair *load.DocumentPair) Anchor {
	return func(loc diff.Location, _ string) *diff.Location {
		file, ref, line, ok := pair.Anchor(loc.File, loc.Ref, loc.Line, loc.Node)
		if !ok || (file == loc.File && ref == loc.Ref) {
			return nil
		}
		return &diff.Location{File: file, Line: line, Ref: ref}
	}
}
