package policy

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
)

// Finding is one rule's verdict on one operation-version.
type Finding struct {
	Rule      string   `json:"rule"`
	Severity  Severity `json:"severity"`
	Operation string   `json:"operation"`
	Version   string   `json:"version"`
	// Change is the oasdiff check id behind the finding, "" when the finding
	// has no single change.
	Change   string `json:"change"`
	Message  string `json:"message"`
	Exempted bool   `json:"exempted"`
	// Preexisting marks a finding already true of the base (same rule,
	// operation, version and message): the revision did not cause it.
	Preexisting bool           `json:"-"`
	Location    *diff.Location `json:"location,omitempty"`
	// Exemption is the exemption that exempts the finding, for printers that
	// state the reason; the JSON output keeps only exempted.
	Exemption *Exemption `json:"-"`
}

// Fixable reports whether `apiver fix` can fix the finding: an error inside
// an existing version, which a new version of the operation can carry. A
// stability level lowered in place is not: it takes back a promise about
// the version itself, which no new version restores. apiver fix edits
// operations under paths only, not webhooks or callbacks.
func (f Finding) Fixable() bool {
	return f.Rule == BreakingChangeWithoutNewVersion && f.Severity == Error && !f.Exempted && !f.Preexisting && f.Operation != "" && f.Version != "" &&
		f.Change != stabilityDecreased && versions.DirectionOf(f.Operation) == versions.Inbound
}

const stabilityDecreased = "api-stability-decreased"

// Report is the outcome of a check.
type Report struct {
	Date     civil.Date
	Findings []Finding
	// FailOnPreexisting lets findings already true of the base fail it.
	FailOnPreexisting bool
	// Allowed counts the info-level changes inside existing versions: the
	// policy allows them, so they are no findings, but the report says how
	// many there are, as diff lists them.
	Allowed int
}

// Counts counts findings by severity; exempted ones and those already true
// of the base are counted apart, unless FailOnPreexisting judges the latter
// as any other.
type Counts struct {
	Errors      int `json:"errors"`
	Warnings    int `json:"warnings"`
	Infos       int `json:"infos"`
	Exempted    int `json:"exempted"`
	Preexisting int `json:"preexisting"`
}

// Counts tallies the report.
func (r *Report) Counts() Counts {
	var c Counts
	for _, f := range r.Findings {
		c.add(f.Exempted, f.Preexisting && !r.FailOnPreexisting, f.Severity)
	}
	return c
}

func (c *Counts) add(exempted, preexisting bool, s Severity) {
	switch {
	case exempted:
		c.Exempted++
	case preexisting:
		c.Preexisting++
	case s == Error:
		c.Errors++
	case s == Warning:
		c.Warnings++
	default:
		c.Infos++
	}
}

// Failed reports whether a finding at or above failOn is not exempted and,
// unless FailOnPreexisting, was introduced by the revision.
func (r *Report) Failed(failOn Severity) bool {
	for _, f := range r.Findings {
		if r.Fails(f, failOn) {
			return true
		}
	}
	return false
}

// Fails reports whether one finding fails the check.
func (r *Report) Fails(f Finding, failOn Severity) bool {
	return !f.Exempted && (!f.Preexisting || r.FailOnPreexisting) && f.Severity.Rank() <= failOn.Rank()
}

// Input is what a check judges.
type Input struct {
	Base, Revision *specs.Snapshot
	Result         *diff.Result
	// Date is "today" for the policy.
	Date   civil.Date
	Config Config
}

// Check applies every rule to a comparison.
func Check(in Input) *Report {
	c := checker{in: in}
	c.changesInExistingVersions()
	c.bumpsWithoutBreakingChange()
	c.versionOrder()
	c.invalidVersions()
	c.removedOperations()
	c.removedVersions()
	c.sunsets(in.Revision, in.Result.Revision)
	c.unversionedDeprecations()
	c.markPreexisting()
	c.applyExemptions()
	slices.SortStableFunc(c.findings, compareFindings)
	return &Report{Date: in.Date, Findings: c.findings, FailOnPreexisting: in.Config.FailOnPreexisting, Allowed: c.allowed}
}

// markPreexisting marks the findings the base already had: the rules that
// judge a snapshot's state (its versions' clocks and names), applied to the
// base at the same date, found the same rule, operation, version and
// message. Rules that judge a change cannot find anything in the base.
func (c *checker) markPreexisting() {
	type key struct{ rule, operation, version, message string }
	base := checker{in: c.in, deprecated: c.deprecated}
	base.invalidVersionsOf(c.in.Base, c.in.Result.Base)
	base.sunsets(c.in.Base, c.in.Result.Base)
	had := map[key]bool{}
	for _, f := range base.findings {
		had[key{f.Rule, f.Operation, f.Version, f.Message}] = true
	}
	for i := range c.findings {
		f := &c.findings[i]
		f.Preexisting = had[key{f.Rule, f.Operation, f.Version, f.Message}]
	}
}

type checker struct {
	in       Input
	findings []Finding
	// deprecated are the dates of direct deprecations the check knows.
	deprecated map[string]civil.Date
	allowed    int
	// byName are the base's and the revision's operations by name, made on
	// the first question: a check asks once for each of its pairs.
	byName [2]map[string]*versions.Operation
}

// operation is the named operation of the base (side 0) or the revision
// (side 1), nil when it has none.
func (c *checker) operation(side int, name string) *versions.Operation {
	if c.byName[side] == nil {
		ops := c.in.Result.Base
		if side == 1 {
			ops = c.in.Result.Revision
		}
		c.byName[side] = make(map[string]*versions.Operation, len(ops))
		for _, op := range ops {
			if _, ok := c.byName[side][op.Name()]; !ok {
				c.byName[side][op.Name()] = op // the first, as findOperation
			}
		}
	}
	return c.byName[side][name]
}

// add records a finding at the rule's severity, or at most cap for findings
// that inherit a change's level; the config's severity for the rule wins.
func (c *checker) add(f Finding, capAt Severity) {
	rule, _ := LookupRule(f.Rule)
	severity := rule.Severity
	if configured, ok := c.in.Config.Severity[f.Rule]; ok {
		if configured == diff.LevelOff {
			return
		}
		severity = Severity(configured)
	}
	if capAt != "" && capAt.Rank() > severity.Rank() {
		severity = capAt
	}
	f.Severity = severity
	c.findings = append(c.findings, f)
}

// changesInExistingVersions judges the changes inside existing versions and
// unversioned operations, and those outside any operation (a document has
// no versions: a breaking change there needs a new version of everything).
func (c *checker) changesInExistingVersions() {
	judge := func(ch diff.Change) {
		if ch.Level == diff.Info {
			c.allowed++
			return
		}
		c.add(Finding{
			Rule: BreakingChangeWithoutNewVersion, Operation: ch.Operation, Version: ch.Version, Change: ch.ID,
			Message:  ch.Message,
			Location: ch.Location,
		}, ch.Level)
	}
	clock := c.clock()
	for _, p := range c.in.Result.Pairs {
		if p.PreRelease || (p.Kind != diff.Same && p.Kind != diff.Unversioned) {
			continue
		}
		// A version dated after the check's date is scheduled, not yet
		// released, and a retired one no longer served: no client reads
		// either, so they change freely (retiring is judged as a removal).
		if v := c.operation(1, p.Operation).AnyVersion(p.Version); v != nil && (clock.upcoming(v.Date) || v.Retired) {
			continue
		}
		for _, ch := range p.Changes {
			judge(ch)
		}
	}
	for _, ch := range c.in.Result.Document {
		judge(ch)
	}
}

func (c *checker) bumpsWithoutBreakingChange() {
	for _, p := range c.in.Result.Pairs {
		// The first version of a legacy operation is a migration, not a
		// bump; a new version document releases every operation it holds.
		if p.Kind != diff.Bump || p.Predecessor == "" || p.Breaking() || c.in.Result.ByDocument {
			continue
		}
		c.add(Finding{
			Rule: NewVersionWithoutBreakingChange, Operation: p.Operation, Version: p.Version,
			Message:  fmt.Sprintf("Version %s was added although it has no breaking change from version %s.", p.Version, p.Predecessor),
			Location: c.versionLocation(p.Operation, p.Version),
		}, "")
	}
}

func (c *checker) versionOrder() {
	revDate := c.in.Revision.Date
	for _, p := range c.in.Result.Pairs {
		if p.PreRelease || p.Version == "" || (p.Kind != diff.Bump && p.Kind != diff.Added) {
			continue
		}
		loc := c.versionLocation(p.Operation, p.Version)
		if !revDate.IsZero() && p.Version > revDate.String() {
			c.add(Finding{
				Rule: VersionOutOfOrder, Operation: p.Operation, Version: p.Version, Location: loc,
				Message: fmt.Sprintf("Version %s is dated after the revision's date %s.", p.Version, revDate),
			}, "")
		}
		if newest := c.newestBaseVersion(p.Operation); newest != "" && p.Version <= newest {
			c.add(Finding{
				Rule: VersionOutOfOrder, Operation: p.Operation, Version: p.Version, Location: loc,
				Message: fmt.Sprintf("Version %s was added although version %s already existed; a new version must be newer than every existing one.", p.Version, newest),
			}, "")
		}
	}
}

func (c *checker) invalidVersions() { c.invalidVersionsOf(c.in.Revision, c.in.Result.Revision) }

func (c *checker) invalidVersionsOf(s *specs.Snapshot, ops []*versions.Operation) {
	for _, op := range ops {
		for _, bad := range op.Invalid {
			c.add(Finding{
				Rule: InvalidVersion, Operation: op.Name(), Version: bad.Version,
				Message:  fmt.Sprintf("Media type %q names version %q, which is not a real date.", bad.MediaType, bad.Version),
				Location: versionLocation(s, op, bad.Version),
			}, "")
		}
	}
}

// removedOperations judges unversioned operations missing from the
// revision: one the base marks deprecated may go from its sunset on (its
// x-sunset, else the deprecation period from the base's date, the latest
// it can have been deprecated on); any other is removed too early.
func (c *checker) removedOperations() {
	periods := c.in.Config.Periods()
	for _, p := range c.in.Result.Pairs {
		if p.Kind != diff.Removed || p.Version != "" || p.PreRelease {
			continue
		}
		op := findOperation(c.in.Result.Base, p.Operation)
		message := fmt.Sprintf("The unversioned operation %s was removed.", p.Operation)
		if op != nil && op.Op != nil && op.Op.Deprecated {
			sunsetOn := op.Sunset("")
			if sunsetOn.IsZero() {
				if on := cmp.Or(c.in.Base.Date, c.in.Date); !on.IsZero() {
					sunsetOn = periods.OrStable(op.Level()).From(on)
				}
			}
			if !sunsetOn.IsZero() && !c.in.Date.Before(sunsetOn) {
				continue
			}
			message = fmt.Sprintf("The deprecated unversioned operation %s was removed before its sunset on %s.", p.Operation, sunsetOn)
		}
		c.add(Finding{Rule: OperationRemoved, Operation: p.Operation, Message: message, Location: operationLocation(c.in.Base, op)}, "")
	}
}

func (c *checker) clock() Clock {
	if c.deprecated == nil {
		c.deprecated = newlyDeprecated(c.in)
	}
	return Clock{Periods: c.in.Config.Periods(), Today: c.in.Date, Deprecated: c.deprecated}
}

// newlyDeprecated dates the versions the revision marks deprecated itself
// while the base did not: they are deprecated on the revision's date (the
// check date when the revision has none), so the policy's clock starts
// then.
func newlyDeprecated(in Input) map[string]civil.Date {
	on := in.Revision.Date
	if on.IsZero() {
		on = in.Date
	}
	dates := map[string]civil.Date{}
	base := operationsByKey(in.Result.Base)
	clock := Clock{Periods: in.Config.Periods()}
	for _, op := range in.Result.Revision {
		baseOp := base[op.Key()]
		for _, v := range slices.Concat(op.Versions, op.PreRelease) {
			if clock.Clocked(&v) && op.Deprecated(v.Name) && (baseOp == nil || baseOp.AnyVersion(v.Name) == nil || !baseOp.Deprecated(v.Name)) {
				dates[OperationVersion(op.Name(), v.Name)] = on
			}
		}
	}
	return dates
}

// removedVersions judges versions missing from the revision: a removal is
// allowed only once the version is deprecated and its sunset has come. In a
// latest-version series a version replaced by a newer one was deprecated,
// not removed. A version the revision marks no longer served (the lifecycle
// marker) that the base served is retired: removed for its clients, on the
// same clock, so that retiring it first cannot let its removal pass early.
func (c *checker) removedVersions() {
	for _, p := range c.in.Result.Pairs {
		if p.Version == "" {
			continue
		}
		retiring := p.Kind == diff.Same && c.retires(p)
		// An operation dropped from a new version document (its
		// predecessor named) is a change of that version, not a removal.
		if (p.Kind != diff.Removed && !retiring) || p.Predecessor != "" {
			continue
		}
		if !retiring && c.in.Config.Replaced(c.in.Result, p) {
			continue
		}
		clock := c.clock()
		baseOp, successor := successorOf(c.in.Result, p)
		v := baseOp.AnyVersion(p.Version)
		// A pre-release is held to its level's period only when the
		// config gives it one: that period is a promise to its clients.
		if p.PreRelease && (v == nil || !clock.Clocked(v)) {
			continue
		}
		// A pre-release replaced by a more stable version of its date was
		// promoted: that version serves its clients (vervet resolves
		// 2024-01-04~beta to 2024-01-04 once the beta is gone).
		if p.PreRelease && successor != nil && successor.Date == v.Date {
			continue
		}
		// A successor tells clients to move once it is released: one that
		// arrives with the removal gave them no notice, so only the base's
		// deprecates the version.
		if successor != nil && baseOp.AnyVersion(successor.Name) == nil {
			successor = nil
		}
		l := clock.lifecycle(c.in.Base, baseOp, v, successor)
		var why string
		switch {
		case l.State == Retired:
			continue // no longer served: no client breaks
		case l.State == Stable || l.State == PreRelease:
			why = "while it was not deprecated"
		case l.SunsetOn.IsZero():
			why = "while deprecated without a sunset date"
		case c.in.Date.Before(l.SunsetOn):
			why = fmt.Sprintf("before its sunset on %s", l.SunsetOn)
		default:
			continue
		}
		removed := "removed"
		if retiring {
			removed = "retired (x-snyk-api-lifecycle: sunset)"
		}
		message := fmt.Sprintf("Version %s was %s %s%s.", p.Version, removed, why, c.clients(p.Version, "break"))
		if p.Successor != "" {
			message = fmt.Sprintf("Version %s was %s %s; version %s succeeds it%s.", p.Version, removed, why, p.Successor, c.clients(p.Version, "break"))
		}
		c.add(Finding{
			Rule: VersionRemovedBeforeSunset, Operation: p.Operation, Version: p.Version, Location: l.Location,
			Message: message,
		}, "")
	}
}

// retires reports whether the revision marks p's version no longer served
// where the base did not.
func (c *checker) retires(p *diff.Pair) bool {
	revision := c.operation(1, p.Operation).AnyVersion(p.Version)
	base := c.operation(0, p.Operation).AnyVersion(p.Version)
	return revision != nil && base != nil && revision.Retired && !base.Retired
}

// sunsets checks the clock of every version a snapshot has.
func (c *checker) sunsets(s *specs.Snapshot, ops []*versions.Operation) {
	for _, l := range c.clock().Lifecycles(s, ops) {
		if l.State == SunsetOverdue {
			c.add(Finding{
				Rule: SunsetOverdueRule, Operation: l.Operation, Version: l.Version, Location: l.Location,
				Message: fmt.Sprintf("Version %s is still present after its sunset on %s%s.", l.Version, l.SunsetOn, c.clients(l.Version, movedTo(l.Successor))),
			}, "")
		}
		if earliest := l.Period.From(l.DeprecatedOn); l.State != Retired && !l.DeprecatedOn.IsZero() && !l.DeclaredSunset.IsZero() && l.DeclaredSunset.Before(earliest) {
			c.add(Finding{
				Rule: SunsetTooEarly, Operation: l.Operation, Version: l.Version, Location: l.Location,
				Message: fmt.Sprintf("Version %s declares x-sunset %s, earlier than its deprecation on %s plus %s (%s).", l.Version, l.DeclaredSunset, l.DeprecatedOn, l.Period, earliest),
			}, "")
		}
	}
}

// clients names, when the config says how clients choose a version, those
// that ask for version and what happens to them: "; clients that send
// `X-GitHub-Api-Version: 2022-11-28` break".
func (c *checker) clients(version, what string) string {
	request := c.in.Config.Versioning.Select.Request(version)
	if request == "" {
		return ""
	}
	return fmt.Sprintf("; clients that %s %s", request, what)
}

// movedTo is what clients of an overdue version should have done.
func movedTo(successor string) string {
	if successor == "" {
		return "should have moved"
	}
	return "should have moved to " + successor
}

// unversionedDeprecations judges the x-sunset of unversioned operations the
// revision newly marks deprecated: they too keep working for the
// deprecation period from the revision's date, their level's when the
// config gives it one, else the stable one.
func (c *checker) unversionedDeprecations() {
	periods := c.in.Config.Periods()
	on := cmp.Or(c.in.Revision.Date, c.in.Date)
	var base map[string]*versions.Operation
	for _, op := range c.in.Result.Revision {
		if op.Versioned() || !op.Op.Deprecated {
			continue
		}
		if base == nil {
			base = operationsByKey(c.in.Result.Base)
		}
		if baseOp := base[op.Key()]; baseOp != nil && baseOp.Op.Deprecated {
			continue
		}
		period := periods.OrStable(op.Level())
		declared, earliest := op.Sunset(""), period.From(on)
		if declared.IsZero() || !declared.Before(earliest) {
			continue
		}
		c.add(Finding{
			Rule: SunsetTooEarly, Operation: op.Name(), Location: operationLocation(c.in.Revision, op),
			Message: fmt.Sprintf("The operation declares x-sunset %s, earlier than its deprecation on %s plus %s (%s).", declared, on, period, earliest),
		}, "")
	}
}

// Replaced reports whether a version missing from the revision was, in a
// latest-version series, replaced by a newer version of its operation: a
// deprecation, not a removal.
func (c Config) Replaced(res *diff.Result, removed *diff.Pair) bool {
	if c.Snapshot != LatestVersion {
		return false
	}
	_, successor := successorOf(res, removed)
	revOp := findByKey(res.Revision, findOperation(res.Base, removed.Operation))
	return successor != nil && revOp != nil && revOp.Version(successor.Name) != nil
}

// successorOf finds a removed version's base operation and the version
// that succeeds it: the next newer one in the base, or else in the
// revision (for a pre-release, PreReleaseSuccessor's).
func successorOf(res *diff.Result, removed *diff.Pair) (*versions.Operation, *versions.Version) {
	baseOp := findOperation(res.Base, removed.Operation)
	newer := func(op *versions.Operation) *versions.Version { return newerVersion(op, removed.Version) }
	if removed.PreRelease {
		v := baseOp.AnyVersion(removed.Version)
		newer = func(op *versions.Operation) *versions.Version {
			if v == nil {
				return nil
			}
			return PreReleaseSuccessor(op, v)
		}
	}
	if successor := newer(baseOp); successor != nil {
		return baseOp, successor
	}
	return baseOp, newer(findByKey(res.Revision, baseOp))
}

// newerVersion is the oldest version of op newer than name, or nil.
func newerVersion(op *versions.Operation, name string) *versions.Version {
	if op == nil {
		return nil
	}
	for i := range op.Versions {
		if op.Versions[i].Name > name {
			return &op.Versions[i]
		}
	}
	return nil
}

// applyExemptions marks findings that an unexpired exemption covers, and
// reports expired exemptions, which cover nothing.
func (c *checker) applyExemptions() {
	var live []Exemption
	for _, e := range c.in.Config.Exemptions {
		if e.Expires.Before(c.in.Date) {
			c.add(Finding{
				Rule: ExemptionExpired, Operation: e.Operation, Version: e.Version, Change: e.Change,
				Message: fmt.Sprintf("The exemption for %s (%s) expired on %s.", e.Operation, e.Reason, e.Expires),
			}, "")
			continue
		}
		live = append(live, e)
	}
	for i := range c.findings {
		f := &c.findings[i]
		for j := range live {
			if live[j].matches(f) {
				f.Exempted, f.Exemption = true, &live[j]
				break
			}
		}
	}
}

func (e Exemption) matches(f *Finding) bool {
	if e.Rule != f.Rule || (e.Version != "" && e.Version != f.Version) || (e.Change != "" && e.Change != f.Change && !slices.Contains(e.Also, f.Change)) {
		return false
	}
	wantMethod, wantPath, _ := strings.Cut(e.Operation, " ")
	method, opPath, _ := strings.Cut(f.Operation, " ")
	if wantMethod != "*" && !strings.EqualFold(wantMethod, method) {
		return false
	}
	return matchOperationPath(wantPath, opPath)
}

func (c *checker) newestBaseVersion(operation string) string {
	op := findOperation(c.in.Result.Base, operation)
	if op == nil {
		// The operation may be renamed only in its path parameters.
		op = findByKey(c.in.Result.Base, findOperation(c.in.Result.Revision, operation))
	}
	if op == nil || len(op.Versions) == 0 {
		return ""
	}
	return op.Versions[len(op.Versions)-1].Name
}

// versionLocation is where the revision's operation names the version, or
// the operation itself.
func (c *checker) versionLocation(operation, version string) *diff.Location {
	op := findOperation(c.in.Result.Revision, operation)
	if op == nil {
		return nil
	}
	return versionLocation(c.in.Revision, op, version)
}

func operationLocation(s *specs.Snapshot, op *versions.Operation) *diff.Location {
	if op == nil {
		return nil
	}
	if line := op.Line(); line > 0 {
		return &diff.Location{File: s.Path, Line: line, Ref: s.Ref}
	}
	return nil
}

func findOperation(ops []*versions.Operation, name string) *versions.Operation {
	for _, op := range ops {
		if op.Name() == name {
			return op
		}
	}
	return nil
}

func findByKey(ops []*versions.Operation, like *versions.Operation) *versions.Operation {
	if like == nil {
		return nil
	}
	key := like.Key()
	for _, op := range ops {
		if op.Key() == key {
			return op
		}
	}
	return nil
}

// operationsByKey indexes ops by Key, for the loops over every operation;
// of several with one key it keeps the first, as findByKey finds it.
func operationsByKey(ops []*versions.Operation) map[string]*versions.Operation {
	byKey := make(map[string]*versions.Operation, len(ops))
	for _, op := range ops {
		if key := op.Key(); byKey[key] == nil {
			byKey[key] = op
		}
	}
	return byKey
}

func compareFindings(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.Severity.Rank(), b.Severity.Rank()),
		versions.CompareOperationNames(a.Operation, b.Operation),
		cmp.Compare(a.Version, b.Version),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Change, b.Change),
		cmp.Compare(a.Message, b.Message),
	)
}
