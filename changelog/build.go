package changelog

import (
	"cmp"
	"fmt"
	"slices"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
)

// BuildOptions control a history build: how the snapshots are read and
// loaded (pipeline.Series), and who is told what they publish.
type BuildOptions struct {
	pipeline.Options
	// Detected, when set, is told what the snapshots' look made of their
	// reading, when the config does not say (policy.Config.DetectSnapshot).
	Detected func(policy.Detection)
}

// Build walks the snapshots of a history in date order and records, for
// each one after the first, the release that leads to it (pipeline's
// History.Series). What the snapshots publish, when the config does not
// say, is known only once all are compared: the releases wait for it.
func Build(h pipeline.History, opts BuildOptions) (*History, error) {
	var releases []pendingRelease
	var evidence policy.SnapshotEvidence
	if err := h.Series(opts.Options, func(s pipeline.Step) error {
		evidence.AddPair(s.Result.Base, s.Result.Revision)
		releases = append(releases, releaseOf(s.Base, s.Revision, s.Result, opts.Config))
		return nil
	}); err != nil {
		return nil, err
	}
	return historyOf(releases, evidence, opts)
}

// historyOf is the history of a series' releases, read in the snapshot
// mode the config sets or, unset, the one the whole series shows.
func historyOf(releases []pendingRelease, evidence policy.SnapshotEvidence, opts BuildOptions) (*History, error) {
	cfg := opts.Config
	if d := cfg.DetectSnapshot(evidence); d != policy.NotDetected && opts.Detected != nil {
		opts.Detected(d)
	}
	h := &History{}
	for _, rel := range releases {
		if _, err := h.Add(rel.as(cfg.Snapshot)); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// Update computes the release from base to revision and adds it to h.
// added is false when h already records that date. detected, when set, is
// told what the pair's look made of its reading, as for Build: one pair
// never reads as latest-version snapshots unless the config says so.
func Update(h *History, base, revision *specs.Snapshot, cfg policy.Config, detected func(policy.Detection)) (added bool, err error) {
	if revision.Date.IsZero() {
		return false, fmt.Errorf("%s: no date in the file name; use --revision-date", revision.Path)
	}
	if h.Has(revision.Date.String()) {
		return false, nil
	}
	step, err := pipeline.StepBetween(base, revision, cfg)
	if err != nil {
		return false, err
	}
	return addStep(h, step, cfg, detected)
}

// addStep adds the release of a step to h, and tells detected what the
// pair's look made of its reading.
func addStep(h *History, step pipeline.Step, cfg policy.Config, detected func(policy.Detection)) (added bool, err error) {
	var evidence policy.SnapshotEvidence
	evidence.AddPair(step.Result.Base, step.Result.Revision)
	if d := cfg.DetectSnapshot(evidence); d != policy.NotDetected && detected != nil {
		detected(d)
	}
	return h.Add(releaseOf(step.Base, step.Revision, step.Result, cfg).as(cfg.Snapshot))
}

// pendingRelease is a release as each snapshot mode records it.
type pendingRelease struct {
	Release
	// replaced are the version-removed entries of versions that a newer
	// one replaced: latest-version snapshots record no removal for them.
	replaced []Entry
}

func (p pendingRelease) as(mode policy.SnapshotMode) Release {
	if mode != policy.LatestVersion || len(p.replaced) == 0 {
		return p.Release
	}
	r := p.Release
	r.Changes = slices.DeleteFunc(slices.Clone(r.Changes), func(e Entry) bool { return slices.Contains(p.replaced, e) })
	return r
}

// releaseOf is the release a comparison's result records.
func releaseOf(base, revision *specs.Snapshot, res *diff.Result, cfg policy.Config) pendingRelease {
	latest := cfg
	latest.Snapshot = policy.LatestVersion
	var replaced []Entry
	report := policy.Check(policy.Input{Base: base, Revision: revision, Result: res, Date: revision.Date, Config: cfg})
	exempted := map[[4]string]bool{}
	for _, f := range report.Findings {
		if f.Exempted {
			exempted[[4]string{f.Operation, f.Version, f.Change, f.Message}] = true
		}
	}

	var entries []Entry
	periods := cfg.Periods()
	stable := periods[policy.LevelStable]
	clock := policy.Clock{Periods: periods}
	for _, p := range res.Pairs {
		lifecycle := p.Version != "" && (p.Kind == diff.Added || p.Kind == diff.Removed)
		if !lifecycle {
			periodEnd := periodOf(res, p, periods).From(revision.Date)
			if e, ok := mediaTypeDeprecation(res, p, periodEnd); ok {
				entries = append(entries, e)
			}
			for _, c := range p.Changes {
				if c.ID == diff.EndpointDeprecated {
					entries = append(entries, deprecationEntry(p, c, periodEnd))
					continue
				}
				entries = append(entries, Entry{
					Operation: p.Operation, Version: p.Version, ID: c.ID, Breaking: c.Level == diff.Error, Text: c.Message,
					Exempted: exempted[[4]string{p.Operation, p.Version, c.ID, c.Message}],
				})
			}
		}
		switch {
		case p.Version != "" && (p.Kind == diff.Added || p.Kind == diff.Bump):
			e := Entry{Operation: p.Operation, Version: p.Version, ID: VersionReleased, Replaces: p.Predecessor, Text: fmt.Sprintf("Version %s released", p.Version)}
			if p.Predecessor != "" {
				e.Text = fmt.Sprintf("Version %s released, replacing %s", p.Version, p.Predecessor)
			}
			entries = append(entries, e)
			entries = append(entries, preReleaseDeprecations(res, p, clock)...)
			if p.Predecessor != "" && p.Kind == diff.Bump {
				sunset := stable.From(versionDate(revision, p.Version))
				if declared := declaredSunset(res, p); declared.After(sunset) {
					sunset = declared
				}
				entries = append(entries, Entry{
					Operation: p.Operation, Version: p.Predecessor, ID: VersionDeprecated, Sunset: sunset.String(),
					Text: fmt.Sprintf("Version %s deprecated by %s; it may be removed from %s", p.Predecessor, p.Version, sunset),
				})
			}
		case p.Kind == diff.Removed && p.Predecessor != "":
			// Dropped from a new version document: its predecessor still
			// holds the operation.
			entries = append(entries, Entry{Operation: p.Operation, Version: p.Version, ID: VersionRemoved, Breaking: true,
				Text: fmt.Sprintf("Removed in version %s; version %s still has it", p.Version, p.Predecessor)})
			sunset := stable.From(versionDate(revision, p.Version))
			if declared := declaredSunset(res, &diff.Pair{Operation: p.Operation, Predecessor: p.Predecessor}); declared.After(sunset) {
				sunset = declared
			}
			entries = append(entries, Entry{
				Operation: p.Operation, Version: p.Predecessor, ID: VersionDeprecated, Sunset: sunset.String(),
				Text: fmt.Sprintf("Version %s deprecated by %s, which removes it; it may be removed from %s", p.Predecessor, p.Version, sunset),
			})
		case p.Version != "" && p.Kind == diff.Removed && !cfg.Replaced(res, p):
			e := Entry{Operation: p.Operation, Version: p.Version, ID: VersionRemoved, Breaking: true, Text: fmt.Sprintf("Version %s removed", p.Version)}
			if latest.Replaced(res, p) {
				replaced = append(replaced, e)
			}
			entries = append(entries, e)
		}
	}
	slices.SortStableFunc(entries, func(a, b Entry) int {
		return cmp.Or(versions.CompareOperationNames(a.Operation, b.Operation), cmp.Compare(a.Version, b.Version), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Text, b.Text))
	})
	if entries == nil {
		entries = []Entry{}
	}
	return pendingRelease{Release: Release{Date: revision.Date.String(), Changes: entries}, replaced: replaced}
}

// preReleaseDeprecations are the lifecycle entries of the pre-releases on
// a clock that a new version deprecates: those it is now the successor of
// (policy.PreReleaseSuccessor), which had none in the base. Each sunsets
// its level's period after the new version's date, or on its x-sunset
// when that is later.
func preReleaseDeprecations(res *diff.Result, p *diff.Pair, clock policy.Clock) []Entry {
	revOp := operationWhere(res.Revision, func(op *versions.Operation) bool { return op.Name() == p.Operation })
	if revOp == nil || !clock.Periods.Unstable() {
		return nil
	}
	baseOp := operationWhere(res.Base, func(op *versions.Operation) bool { return op.Key() == revOp.Key() })
	var out []Entry
	for i := range revOp.PreRelease {
		v := &revOp.PreRelease[i]
		successor := policy.PreReleaseSuccessor(revOp, v)
		if !clock.Clocked(v) || successor == nil || successor.Name != p.Version || (baseOp != nil && policy.PreReleaseSuccessor(baseOp, v) != nil) {
			continue
		}
		sunset := clock.PeriodOf(v).From(successor.Date)
		if declared := revOp.Sunset(v.Name); declared.After(sunset) {
			sunset = declared
		}
		out = append(out, Entry{
			Operation: p.Operation, Version: v.Name, ID: VersionDeprecated, Sunset: sunset.String(),
			Text: fmt.Sprintf("Version %s deprecated by %s; it may be removed from %s", v.Name, p.Version, sunset),
		})
	}
	return out
}

// periodOf is the deprecation period of a pair's version in the revision:
// its level's when the config gives that level one (a pre-release, or an
// unversioned operation marked unstable), else the stable period.
func periodOf(res *diff.Result, p *diff.Pair, periods policy.Periods) policy.Period {
	level := ""
	if op := operationWhere(res.Revision, func(op *versions.Operation) bool { return op.Name() == p.Operation }); op != nil {
		switch {
		case p.Version == "":
			level = op.Level()
		case p.PreRelease:
			if i := slices.IndexFunc(op.PreRelease, func(v versions.Version) bool { return v.Name == p.Version }); i >= 0 {
				level = op.PreRelease[i].Stability
			}
		}
	}
	if period, ok := periods.Of(level); ok {
		return period
	}
	return periods[policy.LevelStable]
}

// declaredSunset is the sunset the revision declares for a bump's
// predecessor: for a version document, its document's (info.x-sunset, or
// the operation's x-sunset there); for media types, an x-sunset on the
// predecessor's media types, where the revision still has it. Zero when
// it declares none: the sunset is then the end of the period.
func declaredSunset(res *diff.Result, p *diff.Pair) civil.Date {
	op := operationWhere(res.Revision, func(op *versions.Operation) bool { return op.Name() == p.Operation })
	if op == nil || !res.ByDocument && op.Version(p.Predecessor) == nil {
		return civil.Date{}
	}
	return op.Sunset(p.Predecessor)
}

// deprecationEntry is the lifecycle entry of an operation newly marked
// deprecated: its sunset is the declared x-sunset, else the end of the
// deprecation period.
func deprecationEntry(p *diff.Pair, c diff.Change, periodEnd civil.Date) Entry {
	sunset := c.Sunset
	if sunset == "" {
		sunset = periodEnd.String()
	}
	text := fmt.Sprintf("Version %s deprecated; it may be removed from %s", p.Version, sunset)
	if p.Version == "" {
		text = fmt.Sprintf("Deprecated; it may be removed from %s", sunset)
	}
	return Entry{Operation: p.Operation, Version: p.Version, ID: VersionDeprecated, Sunset: sunset, Text: text}
}

// mediaTypeDeprecation is the lifecycle entry of a version newly marked
// deprecated on its media type (`deprecated: true` or `x-deprecated: true`),
// which oasdiff does not report; a deprecated operation is reported by
// oasdiff's endpoint-deprecated.
func mediaTypeDeprecation(res *diff.Result, p *diff.Pair, periodEnd civil.Date) (Entry, bool) {
	if p.Version == "" || p.Kind != diff.Same {
		return Entry{}, false
	}
	revOp := operationWhere(res.Revision, func(op *versions.Operation) bool { return op.Name() == p.Operation })
	if revOp == nil || revOp.Op.Deprecated || !revOp.Deprecated(p.Version) {
		return Entry{}, false
	}
	if baseOp := operationWhere(res.Base, func(op *versions.Operation) bool { return op.Key() == revOp.Key() }); baseOp != nil && baseOp.Deprecated(p.Version) {
		return Entry{}, false
	}
	sunset := ""
	if d := revOp.Sunset(p.Version); !d.IsZero() {
		sunset = d.String()
	}
	return deprecationEntry(p, diff.Change{Sunset: sunset}, periodEnd), true
}

func operationWhere(ops []*versions.Operation, match func(*versions.Operation) bool) *versions.Operation {
	if i := slices.IndexFunc(ops, match); i >= 0 {
		return ops[i]
	}
	return nil
}

// versionDate is a version's own date, the day its predecessor is
// deprecated; the revision's date for a version that is not a date.
func versionDate(revision *specs.Snapshot, version string) civil.Date {
	d, err := civil.ParseDate(version)
	if err != nil {
		return revision.Date
	}
	return d
}
