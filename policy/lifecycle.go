package policy

import (
	"cmp"
	"encoding/json"
	"slices"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
)

// State is where a resource version is in its life.
type State string

const (
	Stable        State = "stable"
	Deprecated    State = "deprecated"
	SunsetOverdue State = "sunset-overdue"
	PreRelease    State = "pre-release"
	// Upcoming is a version dated after the clock's date: scheduled, not
	// yet released, so it deprecates nothing yet.
	Upcoming State = "upcoming"
	// Retired is a version marked sunset in its document
	// (x-snyk-api-lifecycle): no longer served, so it may be removed.
	Retired State = "sunset"
)

// Lifecycle is one version's deprecation clock.
type Lifecycle struct {
	Operation string `json:"operation"`
	Version   string `json:"version"`
	State     State  `json:"state"`
	// DeprecatedOn is the date of the successor (zero when not deprecated, or
	// deprecated with `deprecated: true` and no successor in sight).
	DeprecatedOn civil.Date `json:"-"`
	// SunsetOn is the deprecation date plus the deprecation period, or the
	// declared x-sunset when that is later.
	SunsetOn civil.Date `json:"-"`
	// Period is the deprecation period of the version's level; zero for
	// a pre-release without a clock.
	Period Period `json:"-"`
	// DeclaredSunset is the version's x-sunset, zero when none.
	DeclaredSunset civil.Date     `json:"-"`
	Successor      string         `json:"successor"`
	Location       *diff.Location `json:"-"`
	// Released is, for an upcoming version, the date it is released on.
	Released civil.Date `json:"-"`
}

// MarshalJSON writes the dates as YYYY-MM-DD, "" when unknown.
func (l Lifecycle) MarshalJSON() ([]byte, error) {
	type plain Lifecycle
	return json.Marshal(struct {
		plain
		Deprecated string `json:"deprecated"`
		Sunset     string `json:"sunset"`
	}{plain(l), dateText(l.DeprecatedOn), dateText(l.SunsetOn)})
}

func dateText(d civil.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

// Clock computes lifecycles: the deprecation periods and the check date.
type Clock struct {
	// Periods are the deprecation periods by stability level: a
	// pre-release of a level without one keeps no clock.
	Periods Periods
	Today   civil.Date
	// Deprecated holds the known dates on which versions marked deprecated
	// themselves (no successor) were deprecated, by OperationVersion: a
	// check knows a version deprecated by its revision, a history knows the
	// release that first marked it.
	Deprecated map[string]civil.Date
}

// Clocked reports whether a version has a clock: a released one always, a
// pre-release when its level has a period.
func (c Clock) Clocked(v *versions.Version) bool {
	if !v.PreRelease {
		return true
	}
	_, ok := c.Periods.Of(v.Stability)
	return ok
}

// Lifecycles lists every version of every operation of a snapshot with its
// state on the clock's date, by operation and version.
func (c Clock) Lifecycles(s *specs.Snapshot, ops []*versions.Operation) []Lifecycle {
	var out []Lifecycle
	for _, op := range ops {
		for i := range op.Versions {
			var successor *versions.Version
			if i+1 < len(op.Versions) {
				successor = &op.Versions[i+1]
			}
			out = append(out, c.lifecycle(s, op, &op.Versions[i], successor))
		}
		for i := range op.PreRelease {
			v := &op.PreRelease[i]
			if c.Clocked(v) {
				out = append(out, c.lifecycle(s, op, v, PreReleaseSuccessor(op, v)))
				continue
			}
			out = append(out, Lifecycle{Operation: op.Name(), Version: v.Name, State: PreRelease, Location: versionLocation(s, op, v.Name)})
		}
	}
	slices.SortStableFunc(out, func(a, b Lifecycle) int {
		return cmp.Or(versions.CompareOperationNames(a.Operation, b.Operation), cmp.Compare(a.Version, b.Version))
	})
	return out
}

// levelRank orders the levels, least stable first; a released version
// is stable.
var levelRank = map[string]int{LevelDraft: 1, LevelAlpha: 2, LevelBeta: 3, LevelStable: 4}

func rankOf(v *versions.Version) int {
	if !v.PreRelease {
		return levelRank[LevelStable]
	}
	return levelRank[v.Stability]
}

// PreReleaseSuccessor is the version that deprecates a pre-release, as
// vervet has it: the oldest version of the operation dated after it whose
// level is the same or more stable (a newer beta or a release deprecates
// a beta; a newer alpha does not), or one of its date that is more stable
// (2024-01-01 deprecates 2024-01-01~beta: a promotion). nil when there is
// none, or when the pre-release names no date (preview).
func PreReleaseSuccessor(op *versions.Operation, v *versions.Version) *versions.Version {
	if op == nil || v.Date.IsZero() {
		return nil
	}
	var best *versions.Version
	consider := func(w *versions.Version) {
		newer := w.Date.After(v.Date) && rankOf(w) >= rankOf(v)
		promoted := w.Date == v.Date && rankOf(w) > rankOf(v)
		if !newer && !promoted {
			return
		}
		if best == nil || w.Date.Before(best.Date) || (w.Date == best.Date && w.Name < best.Name) {
			best = w
		}
	}
	for i := range op.Versions {
		consider(&op.Versions[i])
	}
	for i := range op.PreRelease {
		if op.PreRelease[i].Stability != "" {
			consider(&op.PreRelease[i])
		}
	}
	return best
}

// lifecycle is one version's clock. A version is deprecated on its
// successor's date (a released version document's successor is the next
// released document). One marked deprecated itself (`deprecated: true`,
// on the operation or its media type) is deprecated even when its
// successor lives elsewhere (a new path): on the date the clock knows for
// it; when it knows none, the x-sunset alone dates its end, and without
// one the snapshot's date stands for the deprecation (the latest it can
// be). A released version dated after the clock's date is upcoming, and
// deprecates its predecessor only from its date: until then the
// predecessor is stable, with the successor and the dates it is scheduled
// to deprecate and sunset it on. A pre-release on a clock runs the same
// clock with its level's period, and is a pre-release until deprecated.
func (c Clock) lifecycle(s *specs.Snapshot, op *versions.Operation, v *versions.Version, successor *versions.Version) Lifecycle {
	l := c.served(s, op, v, successor)
	if v.Retired {
		l.State = Retired
	}
	return l
}

// served is a version's clock as if it were served, for lifecycle.
func (c Clock) served(s *specs.Snapshot, op *versions.Operation, v *versions.Version, successor *versions.Version) Lifecycle {
	l := Lifecycle{Operation: op.Name(), Version: v.Name, State: Stable, DeclaredSunset: op.Sunset(v.Name), Location: versionLocation(s, op, v.Name), Period: c.PeriodOf(v)}
	switch {
	case v.PreRelease:
		l.State = PreRelease
	case c.upcoming(v.Date):
		l.State, l.Released = Upcoming, v.Date
		return l
	case v.Document != nil:
		// The next version document deprecates this one, whether or not
		// it still holds the operation.
		successor = v.Document.Next
	}
	switch {
	case successor != nil && c.upcoming(successor.Date) && !op.Deprecated(v.Name):
		l.Successor = successor.Name
		l.DeprecatedOn = successor.Date
		l.SunsetOn = sunset(l.Period, l.DeprecatedOn, l.DeclaredSunset)
		return l
	case successor != nil && !c.upcoming(successor.Date):
		l.Successor = successor.Name
		l.DeprecatedOn = successor.Date
	case !op.Deprecated(v.Name):
		return l
	default:
		l.DeprecatedOn = c.Deprecated[OperationVersion(l.Operation, l.Version)]
		if l.DeprecatedOn.IsZero() && l.DeclaredSunset.IsZero() {
			l.DeprecatedOn = cmp.Or(s.Date, c.Today)
		}
	}
	l.SunsetOn = sunset(l.Period, l.DeprecatedOn, l.DeclaredSunset)
	l.State = Deprecated
	if !l.SunsetOn.IsZero() && c.Today.After(l.SunsetOn) {
		l.State = SunsetOverdue
	}
	return l
}

// upcoming says whether a version dated d is not yet released on the
// clock's date.
func (c Clock) upcoming(d civil.Date) bool {
	return !c.Today.IsZero() && d.After(c.Today)
}

// sunset is the end of a version deprecated on deprecatedOn: the
// deprecation period later, or the declared x-sunset when that is later.
func sunset(period Period, deprecatedOn, declared civil.Date) civil.Date {
	var on civil.Date
	if !deprecatedOn.IsZero() {
		on = period.From(deprecatedOn)
	}
	if declared.After(on) {
		on = declared
	}
	return on
}

// PeriodOf is the deprecation period of a version on the clock: its
// level's, the stable one for a released version.
func (c Clock) PeriodOf(v *versions.Version) Period {
	if v.PreRelease {
		return c.Periods[v.Stability]
	}
	return c.Periods[LevelStable]
}

func versionLocation(s *specs.Snapshot, op *versions.Operation, version string) *diff.Location {
	file, ref, inDocument := op.VersionFile(version)
	if !inDocument {
		file, ref = s.Path, s.Ref
	}
	if line := op.VersionLine(version); line > 0 {
		return &diff.Location{File: file, Line: line, Ref: ref}
	}
	if inDocument {
		return nil
	}
	return operationLocation(s, op)
}

// SunsetCalendar is what a release manager must act on.
type SunsetCalendar struct {
	Date civil.Date
	// Days is the window after Date.
	Days int
	// Overdue versions are past their sunset; Upcoming ones reach it within
	// the window. Both soonest first.
	Overdue, Upcoming []Lifecycle
	// Scheduled versions are dated after Date: not yet released, by date.
	Scheduled []Lifecycle
	// Retired versions are marked sunset, no longer served: by operation
	// and version.
	Retired []Lifecycle
}

// Calendar picks the versions whose sunset is past or within days of the
// clock's date.
func Calendar(c Clock, lifecycles []Lifecycle, days int) SunsetCalendar {
	cal := SunsetCalendar{Date: c.Today, Days: days}
	end := c.Today.AddDays(days)
	for _, l := range lifecycles {
		switch {
		case l.State == Upcoming:
			cal.Scheduled = append(cal.Scheduled, l)
		case l.State == Retired:
			cal.Retired = append(cal.Retired, l)
		case l.SunsetOn.IsZero():
		case l.State == SunsetOverdue:
			cal.Overdue = append(cal.Overdue, l)
		case !l.SunsetOn.After(end):
			cal.Upcoming = append(cal.Upcoming, l)
		}
	}
	bySunset := func(a, b Lifecycle) int { return a.SunsetOn.Compare(b.SunsetOn) }
	slices.SortStableFunc(cal.Overdue, bySunset)
	slices.SortStableFunc(cal.Upcoming, bySunset)
	slices.SortStableFunc(cal.Scheduled, func(a, b Lifecycle) int { return cmp.Compare(a.Version, b.Version) })
	return cal
}
