package policy

import (
	"fmt"
	"strings"

	"github.com/apiver/apiver/diff"
)

// CheckRename is an oasdiff check id of an older release that oasdiff now
// reports under other ids. A config or exemption naming Old applies to New.
type CheckRename struct {
	Old string
	New []string
	Why string
}

// CheckRenames lists the ids oasdiff renamed or split, from oasdiff's own
// sources of every release the module proxy serves (v1.11.8 to v1.35.0)
// and of the tufin/oasdiff releases before them.
var CheckRenames = append([]CheckRename{
	{"added-required-request-body", []string{"request-body-added-required"}, "renamed in tufin/oasdiff"},
	{"parsing-error", []string{"api-invalid-stability-level"}, "the stability level parse error got its own id in tufin/oasdiff"},
	{"request-allOf-modified", []string{"request-property-all-of-removed", "request-property-all-of-added"}, "split into removed and added subschemas in tufin/oasdiff"},
}, lowerBoundsUnset()...)

// lowerBoundsUnset: before oasdiff v1.31 a minLength, minItems or
// minProperties removed was reported as decreased to 0; since then it is
// "-unset".
func lowerBoundsUnset() []CheckRename {
	var out []CheckRename
	for _, place := range []string{"request-body", "request-parameter", "request-property", "response-body", "response-header", "response-property"} {
		for _, bound := range []string{"min-length", "min-items", "min-properties"} {
			decreased, unset := place+"-"+bound+"-decreased", place+"-"+bound+"-unset"
			if diff.IsCheckID(decreased) && diff.IsCheckID(unset) {
				out = append(out, CheckRename{decreased, []string{unset}, "a removed limit is reported as " + unset + " since oasdiff v1.31"})
			}
		}
	}
	return out
}

// renamedTo lists the ids a check id named in a config applies to besides
// itself, with a warning naming them; ok is false for an id that no
// release of oasdiff knows. named reports whether the config names an id
// itself, which then keeps its own setting.
func renamedTo(id string, named func(string) bool) (also []string, warning string, ok bool) {
	for _, r := range CheckRenames {
		if r.Old != id {
			continue
		}
		for _, n := range r.New {
			if !named(n) {
				also = append(also, n)
			}
		}
		if len(also) == 0 {
			return nil, "", true
		}
		return also, fmt.Sprintf("%q is oasdiff's old id (%s): it applies to %s", id, r.Why, strings.Join(also, " and ")), true
	}
	return nil, "", diff.IsCheckID(id)
}
