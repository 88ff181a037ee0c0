package diff

import (
	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/specs"
	"github.com/getkin/kin-openapi/openapi3"
)

// side is one operation view of a pair with the file it came from.
type side struct {
	path string
	file string
	op   *openapi3.Operation
	// sunset is the version's x-sunset, zero when none.
	sunset civil.Date
}

type pairing struct {
	*Pair
	base, revision *side
}

// pairUp decides what each operation-version of the revision is compared
// with, and which ones of the base are gone.
func pairUp(base, revision *specs.Snapshot, baseOps, revOps []*specs.Operation) []pairing {
	baseByKey := map[string]*specs.Operation{}
	for _, op := range baseOps {
		baseByKey[op.Key()] = op
	}
	revByKey := map[string]*specs.Operation{}
	for _, op := range revOps {
		revByKey[op.Key()] = op
	}
	baseSide := func(op *specs.Operation, version string, view *openapi3.Operation) *side {
		return &side{path: op.Path, file: base.Path, op: view, sunset: op.Sunset(version)}
	}
	revSide := func(op *specs.Operation, version string, view *openapi3.Operation) *side {
		return &side{path: op.Path, file: revision.Path, op: view, sunset: op.Sunset(version)}
	}

	var pairs []pairing
	add := func(p Pair, b, r *side) { pairs = append(pairs, pairing{Pair: &p, base: b, revision: r}) }

	for _, r := range revOps {
		b := baseByKey[r.Key()]
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
				add(Pair{Operation: r.Name(), Version: v.Name, Kind: Added}, nil, revSide(r, v.Name, v.View))
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
				add(Pair{Operation: r.Name(), Version: v.Name, PreRelease: true, Kind: Added}, nil, revSide(r, v.Name, v.View))
			}
		}
	}

	for _, b := range baseOps {
		r := revByKey[b.Key()]
		if !b.Versioned() {
			if r == nil {
				add(Pair{Operation: b.Name(), Kind: Removed, PreRelease: b.Unstable()}, baseSide(b, "", b.Unversioned), nil)
			}
			continue
		}
		for _, v := range b.Versions {
			if r == nil || (r.Version(v.Name) == nil && preRelease(r, v.Name) == nil) {
				add(Pair{Operation: b.Name(), Version: v.Name, Kind: Removed}, baseSide(b, v.Name, v.View), nil)
			}
		}
		for _, v := range b.PreRelease {
			if preRelease(r, v.Name) == nil && (r == nil || r.Version(v.Name) == nil) {
				add(Pair{Operation: b.Name(), Version: v.Name, PreRelease: true, Kind: Removed}, baseSide(b, v.Name, v.View), nil)
			}
		}
	}
	return pairs
}

// olderVersion is the newest version of op older than name, or nil.
func olderVersion(op *specs.Operation, name string) *specs.Version {
	for i := len(op.Versions) - 1; i >= 0; i-- {
		if op.Versions[i].Name < name {
			return &op.Versions[i]
		}
	}
	return nil
}

// preRelease is the pre-release version of op with the given name, or nil.
func preRelease(op *specs.Operation, name string) *specs.Version {
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
