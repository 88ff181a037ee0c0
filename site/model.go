// Package site writes the changelog website: an index of releases, a page
// per release and per resource with its version timeline, the deprecations,
// and an Atom feed. Pages are static and work opened from disk.
package site

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/versions"
)

// Options shape a site.
type Options struct {
	Title string
	// BaseURL is where the site is published; it makes the feed's ids and
	// links absolute. Without it the feed links are relative.
	BaseURL string
	// AsOf is the clock's today for the deprecations page.
	AsOf civil.Date
	// Periods are the deprecation periods by stability level (stable 12
	// months when unset), shown with each sunset on the resource pages.
	Periods policy.Periods
	// Deprecations come from the latest snapshot; the history's own
	// deprecations complete them.
	Deprecations []Deprecation
	// Select, when set, says how a client asks for a version ("send
	// `X-GitHub-Api-Version: 2026-03-10`"), for the resource pages and the
	// migration guides.
	Select func(version string) string
}

// Deprecation is one deprecated version and when it may be removed.
type Deprecation struct {
	Operation string
	Version   string
	Sunset    civil.Date
	Successor string
	// Period is the version's deprecation period (its level's).
	Period policy.Period
}

// counts are a release's changes by kind, for the index.
type counts struct{ Breaking, Deprecations, Additions, Other int }

func countOf(changes []changelog.Entry) counts {
	var c counts
	for _, e := range changes {
		switch {
		case e.Breaking:
			c.Breaking++
		case e.ID == changelog.VersionDeprecated || strings.Contains(e.ID, "deprecated"):
			c.Deprecations++
		case e.ID == changelog.VersionReleased || strings.HasPrefix(e.ID, "new-") || strings.Contains(e.ID, "-added"):
			c.Additions++
		default:
			c.Other++
		}
	}
	return c
}

// operationsOf counts the operations the changes name.
func operationsOf(changes []changelog.Entry) int {
	ops := map[string]bool{}
	for _, e := range changes {
		ops[e.Operation] = true
	}
	return len(ops)
}

// resource is one operation across the history.
type resource struct {
	Operation string
	Slug      string
	Versions  []*versionSpan
	// Releases are the releases that changed it, newest first, holding
	// only its own changes.
	Releases []changelog.Release
}

// versionSpan is one version's life as the history and the deprecations
// record it; zero dates are unknown.
type versionSpan struct {
	Version                               string
	Released, Deprecated, Sunset, Removed civil.Date
	Successor                             string
	// Period is the deprecation period the snapshot gives the version;
	// zero when only the history names it.
	Period policy.Period
}

// resources gathers every operation named in the history.
func resources(releases []changelog.Release, deprecations []Deprecation) []*resource {
	byOp := map[string]*resource{}
	spans := map[changelog.Use]*versionSpan{}
	get := func(op string) *resource {
		r, ok := byOp[op]
		if !ok {
			r = &resource{Operation: op}
			byOp[op] = r
		}
		return r
	}
	span := func(op, version string) *versionSpan {
		k := changelog.Use{Operation: op, Version: version}
		s, ok := spans[k]
		if !ok {
			s = &versionSpan{Version: version}
			// A version named by its date was released that day.
			if d, err := civil.ParseDate(version); err == nil {
				s.Released = d
			}
			spans[k] = s
			r := get(op)
			r.Versions = append(r.Versions, s)
		}
		return s
	}
	// Oldest first, so that later entries win.
	for _, rel := range slices.Backward(releases) {
		date, _ := civil.ParseDate(rel.Date)
		perOp := map[string][]changelog.Entry{}
		for _, e := range rel.Changes {
			perOp[e.Operation] = append(perOp[e.Operation], e)
			if e.Version == "" {
				continue
			}
			s := span(e.Operation, e.Version)
			switch e.ID {
			case changelog.VersionReleased:
				s.Released = date
				if e.Replaces != "" {
					prev := span(e.Operation, e.Replaces)
					prev.Successor = e.Version
				}
			case changelog.VersionDeprecated:
				s.Deprecated = date
				s.Sunset, _ = civil.ParseDate(e.Sunset)
			case changelog.VersionRemoved:
				s.Removed = date
			}
		}
		for op, changes := range perOp {
			r := get(op)
			r.Releases = append([]changelog.Release{{Date: rel.Date, Changes: changes}}, r.Releases...)
		}
	}
	for _, d := range deprecations {
		s := span(d.Operation, d.Version)
		s.Sunset, s.Period = d.Sunset, d.Period
		if s.Successor == "" {
			s.Successor = d.Successor
		}
	}
	out := make([]*resource, 0, len(byOp))
	for _, r := range byOp {
		slices.SortFunc(r.Versions, func(a, b *versionSpan) int { return cmp.Compare(a.Version, b.Version) })
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *resource) int { return versions.CompareOperationNames(a.Operation, b.Operation) })
	assignSlugs(out)
	return out
}

var notSlug = regexp.MustCompile(`[^a-z0-9]+`)

// maxSlug bounds a page's name, which takes ".html" and a hash after it.
const maxSlug = 200

// assignSlugs names each resource's page after its method and path. Where
// operations' names slug alike, the one the history names first keeps the
// plain slug and the later ones add a short hash of their name: a history
// grows at its newest end, so a page's URL does not change when an
// operation whose name slugs alike appears later.
func assignSlugs(rs []*resource) {
	hashed := func(r *resource) string {
		sum := sha256.Sum256([]byte(r.Operation))
		return "-" + hex.EncodeToString(sum[:4])
	}
	byBase := map[string][]*resource{}
	for _, r := range rs {
		base := strings.Trim(notSlug.ReplaceAllString(strings.ToLower(r.Operation), "-"), "-")
		switch {
		case len(base) > maxSlug:
			// A file name has at most 255 bytes.
			r.Slug = strings.TrimRight(base[:maxSlug], "-") + hashed(r)
			continue
		case base == "index" || base == "":
			// resources/index.html lists the resources.
			r.Slug = "op" + hashed(r)
			continue
		}
		r.Slug = base
		byBase[base] = append(byBase[base], r)
	}
	// An operation only the snapshot names (a deprecation) comes after the
	// history's.
	first := func(r *resource) string {
		if len(r.Releases) == 0 {
			return "~"
		}
		return r.Releases[len(r.Releases)-1].Date
	}
	for _, alike := range byBase {
		if len(alike) == 1 {
			continue
		}
		slices.SortFunc(alike, func(a, b *resource) int {
			return cmp.Or(cmp.Compare(first(a), first(b)), versions.CompareOperationNames(a.Operation, b.Operation))
		})
		for _, r := range alike[1:] {
			r.Slug += hashed(r)
		}
	}
}

// deprecationRow is one line of the deprecations page.
type deprecationRow struct {
	Deprecation
	Slug     string
	DaysLeft int
	Overdue  bool
}

// deprecationRows lists every deprecated version not removed by asOf: the
// snapshot's, completed by the history's. Overdue first, most overdue
// first, then by sunset.
func deprecationRows(rs []*resource, asOf civil.Date) []deprecationRow {
	var rows []deprecationRow
	for _, r := range rs {
		for _, v := range r.Versions {
			if v.Sunset.IsZero() || (!v.Removed.IsZero() && !v.Removed.After(asOf)) {
				continue
			}
			left := v.Sunset.DaysSince(asOf)
			rows = append(rows, deprecationRow{
				Deprecation: Deprecation{Operation: r.Operation, Version: v.Version, Sunset: v.Sunset, Successor: v.Successor},
				Slug:        r.Slug, DaysLeft: left, Overdue: left < 0,
			})
		}
	}
	slices.SortStableFunc(rows, func(a, b deprecationRow) int {
		return cmp.Or(a.Sunset.Compare(b.Sunset), versions.CompareOperationNames(a.Operation, b.Operation), cmp.Compare(a.Version, b.Version))
	})
	return rows
}
