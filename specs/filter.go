package specs

import (
	"regexp"

	"github.com/getkin/kin-openapi/openapi3"
)

// PathFilter restricts a snapshot to some of its paths, as oasdiff's
// --match-path and --exclude-path do: a path is kept when it matches one
// of Match (or Match is empty) and none of Exclude.
type PathFilter struct {
	Match, Exclude []*regexp.Regexp
}

// Keep reports whether the filter keeps path.
func (f PathFilter) Keep(path string) bool {
	matched := len(f.Match) == 0
	for _, re := range f.Match {
		if re.MatchString(path) {
			matched = true
			break
		}
	}
	if !matched {
		return false
	}
	for _, re := range f.Exclude {
		if re.MatchString(path) {
			return false
		}
	}
	return true
}

// apply drops the paths the filter does not keep from doc.
func (f PathFilter) apply(doc *openapi3.T) {
	if doc.Paths == nil || len(f.Match)+len(f.Exclude) == 0 {
		return
	}
	for _, path := range doc.Paths.Keys() {
		if !f.Keep(path) {
			doc.Paths.Delete(path)
		}
	}
}
