package diff

import (
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
)

// side is one operation view of a pair with the file it came from.
type side struct {
	path string
	file string
	op   *openapi3.Operation
	// method is the operation's; direction who sends its request.
	method    string
	direction versions.Direction
	// planned is the "METHOD /path" the fast pass's plan knows the
	// operation by: a callback's is its parent's, a webhook's none ("").
	planned string
	// sunset is the version's x-sunset, zero when none.
	sunset civil.Date
	// common are the parameters the view takes from its path item (those
	// the operation does not override), by location and name.
	common map[paramKey]bool
}

type paramKey struct{ in, name string }

type pairing struct {
	*Pair
	base, revision *side
	// remains is, for a removal, what the revision still has of it.
	remains remainder
	// supersededOn is, for a removed version, the date of the base's newer
	// version of the operation (zero when none): from that date the version
	// is deprecated by it (versionRemoval).
	supersededOn civil.Date
	// existing is, for an added version, whether the base already had its
	// operation.
	existing bool
}

// direction is who sends the request of the pair's operation.
func (p pairing) direction() versions.Direction {
	if p.revision != nil {
		return p.revision.direction
	}
	return p.base.direction
}

// remainder is what the revision still has of a removed operation-version.
type remainder int

const (
	// nothing: the path is gone, with every operation on it.
	nothing remainder = iota
	// samePath: the path stays with other operations; this one is gone.
	samePath
	// sameOperation: the operation stays with other versions.
	sameOperation
)

// pairUp decides what each operation-version of the revision is compared
// with, and which ones of the base are gone.
func pairUp(base, revision *specs.Snapshot, baseOps, revOps []*versions.Operation) []pairing {
	baseByKey := map[string]*versions.Operation{}
	for _, op := range baseOps {
		baseByKey[op.Key()] = op
	}
	revByKey := map[string]*versions.Operation{}
	for _, op := range revOps {
		revByKey[op.Key()] = op
	}
	revPaths := map[string]bool{}
	for _, op := range revOps {
		revPaths[pathKey(op)] = true
	}
	baseSide := func(op *versions.Operation, version string, view *openapi3.Operation) *side {
		return newSide(op, base.Path, view, version)
	}
	revSide := func(op *versions.Operation, version string, view *openapi3.Operation) *side {
		return newSide(op, revision.Path, view, version)
	}

	var pairs []pairing
	add := func(p Pair, b, r *side) { pairs = append(pairs, pairing{Pair: &p, base: b, revision: r}) }
	// addVersion adds a version with nothing before it; existing says the
	// base already had its operation.
	addVersion := func(p Pair, r *side, existing bool) {
		pairs = append(pairs, pairing{Pair: &p, revision: r, existing: existing})
	}

	for _, r := range revOps {
		b := baseByKey[r.Key()]
		if b == nil && r.Via != nil && baseByKey[r.Via.Key()] == nil {
			continue // a callback comes with its new operation, as its responses do
		}
		if !r.Versioned() {
			// An operation marked unstable in the base is not gated; one
			// made unstable in place is, and its lowered level is a change.
			if b != nil && b.Unversioned != nil {
				add(Pair{Operation: r.Name(), Kind: Unversioned, PreRelease: b.Unstable()}, baseSide(b, "", b.Unversioned), revSide(r, "", r.Unversioned))
			} else {
				add(Pair{Operation: r.Name(), Kind: Added, PreRelease: r.Unstable()}, nil, revSide(r, "", r.Unversioned))
			}
			continue
		}
		for i, v := range r.Versions {
			if b != nil {
				if old := b.Version(v.Name); old != nil {
					add(Pair{Operation: r.Name(), Version: v.Name, Kind: Same}, baseSide(b, v.Name, old.View), revSide(r, v.Name, v.View))
					continue
				}
				// A pre-release made stable in place: a promotion, not gated.
				if old := preRelease(b, v.Name); old != nil {
					add(Pair{Operation: r.Name(), Version: v.Name, PreRelease: true, Kind: Same}, baseSide(b, v.Name, old.View), revSide(r, v.Name, v.View))
					continue
				}
			}
			// The predecessor is the newest older version, from the revision
			// or else the base; an operation versioned for the first time
			// succeeds its unversioned self.
			switch {
			case i > 0:
				prev := r.Versions[i-1]
				add(Pair{Operation: r.Name(), Version: v.Name, Kind: Bump, Predecessor: prev.Name}, revSide(r, prev.Name, prev.View), revSide(r, v.Name, v.View))
			case b != nil && olderVersion(b, v.Name) != nil:
				prev := olderVersion(b, v.Name)
				add(Pair{Operation: r.Name(), Version: v.Name, Kind: Bump, Predecessor: prev.Name}, baseSide(b, prev.Name, prev.View), revSide(r, v.Name, v.View))
			case b != nil && b.Unversioned != nil:
				add(Pair{Operation: r.Name(), Version: v.Name, Kind: Bump}, baseSide(b, "", b.Unversioned), revSide(r, v.Name, v.View))
			default:
				addVersion(Pair{Operation: r.Name(), Version: v.Name, Kind: Added}, revSide(r, v.Name, v.View), b != nil)
			}
		}
		for _, v := range r.PreRelease {
			// A stable version marked unstable in place is still gated: its
			// lowered level is a breaking change (api-stability-decreased).
			if b != nil && b.Version(v.Name) != nil {
				add(Pair{Operation: r.Name(), Version: v.Name, Kind: Same}, baseSide(b, v.Name, b.Version(v.Name).View), revSide(r, v.Name, v.View))
				continue
			}
			if old := preRelease(b, v.Name); old != nil {
				add(Pair{Operation: r.Name(), Version: v.Name, PreRelease: true, Kind: Same}, baseSide(b, v.Name, old.View), revSide(r, v.Name, v.View))
			} else {
				addVersion(Pair{Operation: r.Name(), Version: v.Name, PreRelease: true, Kind: Added}, revSide(r, v.Name, v.View), b != nil)
			}
		}
	}

	for _, b := range baseOps {
		r := revByKey[b.Key()]
		if r == nil && b.Via != nil && revByKey[b.Via.Key()] == nil {
			continue // a callback goes with its operation
		}
		remains := nothing
		switch {
		case r != nil:
			remains = sameOperation
		case revPaths[pathKey(b)]:
			remains = samePath
		}
		removed := func(p Pair, view *openapi3.Operation) {
			if r != nil {
				p.Successor = successor(r, p.Version)
			}
			pairs = append(pairs, pairing{Pair: &p, base: baseSide(b, p.Version, view), remains: remains, supersededOn: newerVersion(b, p.Version).Date})
		}
		if !b.Versioned() {
			if r == nil {
				removed(Pair{Operation: b.Name(), Kind: Removed, PreRelease: b.Unstable()}, b.Unversioned)
			}
			continue
		}
		for _, v := range b.Versions {
			if r == nil || (r.Version(v.Name) == nil && preRelease(r, v.Name) == nil) {
				removed(Pair{Operation: b.Name(), Version: v.Name, Kind: Removed}, v.View)
			}
		}
		for _, v := range b.PreRelease {
			if preRelease(r, v.Name) == nil && (r == nil || r.Version(v.Name) == nil) {
				removed(Pair{Operation: b.Name(), Version: v.Name, PreRelease: true, Kind: Removed}, v.View)
			}
		}
	}
	return pairs
}

// pathKey is an operation's path with its parameter names left out, as
// operations pair across snapshots.
func pathKey(op *versions.Operation) string { return strings.TrimPrefix(op.Key(), op.Method+" ") }

// successor is the oldest version of op newer than name: the one that
// succeeds a removed version.
func successor(op *versions.Operation, name string) string {
	return newerVersion(op, name).Name
}

// newerVersion is the oldest version of op newer than name, empty when none.
func newerVersion(op *versions.Operation, name string) versions.Version {
	for _, v := range op.Versions {
		if v.Name > name {
			return v
		}
	}
	return versions.Version{}
}

// newSide is a version's view of op, read from file.
func newSide(op *versions.Operation, file string, view *openapi3.Operation, version string) *side {
	s := &side{path: op.Path, file: file, op: view, method: op.Method, direction: op.Direction, sunset: op.Sunset(version), common: commonParameters(op)}
	switch op.Direction {
	case versions.Inbound:
		s.planned = op.Name()
	case versions.Callback:
		s.planned = op.Via.Name()
	}
	if op.Direction.Outbound() {
		// Neither a webhook's name nor a callback's URL expression is a
		// path template for oasdiff to read parameters from.
		s.path = "/" + strings.ToLower(op.Method)
	}
	return s
}

// commonParameters are the parameters op takes from its path item.
func commonParameters(op *versions.Operation) map[paramKey]bool {
	item := op.Item
	if item == nil || len(item.Parameters) == 0 {
		return nil
	}
	common := map[paramKey]bool{}
	for _, p := range item.Parameters {
		if p.Value != nil && op.Op.Parameters.GetByInAndName(p.Value.In, p.Value.Name) == nil {
			common[paramKey{p.Value.In, p.Value.Name}] = true
		}
	}
	return common
}

// olderVersion is the newest version of op older than name, or nil.
func olderVersion(op *versions.Operation, name string) *versions.Version {
	for i := len(op.Versions) - 1; i >= 0; i-- {
		if op.Versions[i].Name < name {
			return &op.Versions[i]
		}
	}
	return nil
}

// preRelease is the pre-release version of op with the given name, or nil.
func preRelease(op *versions.Operation, name string) *versions.Version {
	if op == nil {
		return nil
	}
	for i := range op.PreRelease {
		if op.PreRelease[i].Name == name {
			return &op.PreRelease[i]
		}
	}
	return nil
}
