package diff

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	oasdiff "github.com/oasdiff/oasdiff/diff"
	oasload "github.com/oasdiff/oasdiff/load"
)

// Options control a comparison.
type Options struct {
	// Product is the <product> of the vendor media types that name versions.
	Product string
	// Levels overrides oasdiff's level for a check id; LevelOff drops the
	// check's changes.
	Levels map[string]string
	// Date is the policy's "today" for sunset checks: oasdiff's own read the
	// wall clock, so apiver judges sunsets itself against this date.
	Date civil.Date
	// Literal compares schema keywords as written, without the
	// equivalences: for tests that show what the equivalences remove.
	Literal bool
	// LatestVersion says the snapshots publish only the newest version of
	// each operation: a version that a newer one replaces in the revision
	// is deprecated, not removed (policy's latest-version snapshot mode).
	LatestVersion bool
	// Plan, when set, is what the fast pass found unchanged between the two
	// snapshots of Compare (load.PlanPair): those operations and
	// components are not diffed, as they can produce no change.
	Plan *load.Plan
	// DocumentDiffs, when set, remembers the diffs CompareDocuments makes
	// of its comparisons' copies, and gives those of copies it holds.
	DocumentDiffs *DocumentDiffs
}

// LevelOff is the Levels value that turns a check off.
const LevelOff = "off"

// Result holds every pair of a comparison, in operation and version order.
type Result struct {
	Pairs []*Pair
	// Document holds the changes outside any operation (components,
	// security, webhooks added or removed), with an empty operation and
	// version.
	Document []Change
	// Base and Revision are the operations of each snapshot with their
	// versions, for rules that look past the pairs (order, validity).
	Base, Revision []*versions.Operation
	// ByDocument says the versions are version documents
	// (CompareDocuments): a new document releases every operation it
	// holds, changed or not.
	ByDocument bool
	// product names the versions' media types (Options.Product), which
	// Answer orders merged changes by.
	product string
}

// Changes lists every change of every pair.
func (r *Result) Changes() []Change {
	all := slices.Clone(r.Document)
	for _, p := range r.Pairs {
		all = append(all, p.Changes...)
	}
	return all
}

// Compare pairs the operation-versions of two snapshots and diffs every pair.
//
// All pairs go through oasdiff in one run: each pair becomes an operation on
// a path of its own in two synthetic documents, so schemas that several
// pairs share are diffed once, and oasdiff never sees two versions' media
// types side by side.
func Compare(base, revision *specs.Snapshot, opts Options) (*Result, error) {
	res := &Result{
		Base:     versions.Operations(base.Doc, opts.Product),
		Revision: versions.Operations(revision.Doc, opts.Product),
		product:  opts.Product,
	}
	pairs := pairUp(base, revision, res.Base, res.Revision)
	document, err := diffPairs(base, revision, pairs, opts, true)
	if err != nil {
		return nil, fmt.Errorf("diff of %s and %s: %w", base.Path, revision.Path, err)
	}
	res.Pairs, res.Document = sortedPairs(pairs), document
	return res, nil
}

// CompareVersions diffs, within one snapshot, version from against version
// to of every operation that has both: what a client meets when it
// migrates.
func CompareVersions(s *specs.Snapshot, from, to string, opts Options) (*Result, error) {
	res := &Result{Base: versions.Operations(s.Doc, opts.Product)}
	res.Revision = res.Base
	var pairs []pairing
	for _, op := range res.Base {
		old, next := op.Version(from), op.Version(to)
		if old == nil || next == nil {
			continue
		}
		pairs = append(pairs, pairing{
			Pair: &Pair{Operation: op.Name(), Version: to, Kind: Bump, Predecessor: from},
			base: newSide(op, s.Path, old.View, from), revision: newSide(op, s.Path, next.View, to),
		})
	}
	opts.Plan = nil // a plan compares two snapshots, not one with itself
	if _, err := diffPairs(s, s, pairs, opts, false); err != nil {
		return nil, fmt.Errorf("diff of %s: %w", s.Path, err)
	}
	res.Pairs = sortedPairs(pairs)
	return res, nil
}

// CompareLegacy diffs every unversioned operation of legacy with version to
// of its versioned successor in s: the operation of the same method whose
// path is the legacy path with the prefix oldPrefix replaced by newPrefix.
func CompareLegacy(legacy, s *specs.Snapshot, oldPrefix, newPrefix, to string, opts Options) (*Result, error) {
	res := &Result{Base: versions.Operations(legacy.Doc, opts.Product), Revision: versions.Operations(s.Doc, opts.Product)}
	successors := map[string]*versions.Operation{}
	for _, op := range res.Revision {
		successors[op.Key()] = op
	}
	var pairs []pairing
	for _, op := range res.Base {
		if op.Unversioned == nil || !strings.HasPrefix(op.Path, oldPrefix) {
			continue
		}
		mapped := versions.Operation{Method: op.Method, Path: newPrefix + strings.TrimPrefix(op.Path, oldPrefix)}
		next := successors[mapped.Key()]
		if next == nil || next.Version(to) == nil {
			continue
		}
		pairs = append(pairs, pairing{
			Pair: &Pair{Operation: next.Name(), Version: to, Kind: Bump},
			base: &side{path: next.Path, file: legacy.Path, op: op.Unversioned, method: op.Method}, revision: &side{path: next.Path, file: s.Path, op: next.Version(to).View, method: next.Method},
		})
	}
	opts.Plan = nil
	if _, err := diffPairs(legacy, s, pairs, opts, false); err != nil {
		return nil, fmt.Errorf("diff of %s and %s: %w", legacy.Path, s.Path, err)
	}
	res.Pairs = sortedPairs(pairs)
	return res, nil
}

// diffPairs runs every pair through oasdiff at once and fills in its
// changes. With document set it also returns the changes outside the
// pairs' operations; comparisons within one snapshot or against a legacy
// document have none worth reporting.
func diffPairs(baseSource, revisionSource *specs.Snapshot, pairs []pairing, opts Options, document bool) ([]Change, error) {
	levels, err := checkLevels(opts.Levels)
	if err != nil {
		return nil, err
	}
	baseDoc, revDoc := syntheticDoc(baseSource.Doc, document, opts.Plan), syntheticDoc(revisionSource.Doc, document, opts.Plan)
	sources := oasdiff.OperationsSourcesMap{}
	for i, p := range pairs {
		if unchanged(p, opts.Plan) {
			continue
		}
		for _, s := range []struct {
			doc  *openapi3.T
			side *side
		}{{baseDoc, p.base}, {revDoc, p.revision}} {
			if s.side == nil {
				continue
			}
			// Each side keeps its own path, so oasdiff maps renamed path
			// parameters as it does between two documents.
			op := withContentSchemas(s.side.op)
			if s.side.direction.Outbound() {
				// The consumer's answer headers become parameters.
				op = withContentSchemas(turned(op))
			}
			item := &openapi3.PathItem{}
			item.SetOperation(s.side.method, op)
			s.doc.Paths.Set(pairPath(i, s.side.path), item)
			sources[op] = s.side.file
		}
	}

	// oasdiff diffs the documents with their allOf merged (flattenAllOf),
	// and locates its changes in the copies it diffed.
	flat := flattenAllOf(baseSource.Doc != revisionSource.Doc, baseDoc, revDoc)
	flatSources := oasdiff.OperationsSourcesMap{}
	for op, file := range sources {
		flatSources[flat.operation(op)] = file
	}
	sources = flatSources
	report, err := oasdiffReport(flat.docs[0], flat.docs[1])
	if err != nil {
		return nil, err
	}
	if !opts.Literal {
		normalize(report)
	}
	found := checker.CheckBackwardCompatibilityUntilLevel(checkConfig(levels), report, &sources, checker.INFO)
	if lowered := loweredBelowBeta(pairs, opts.Plan); len(lowered) > 0 {
		// oasdiff leaves out of its checks an operation the revision marks
		// draft or alpha, but a stable version marked so in place stays
		// gated, with all else its change does: those pairs' changes are
		// read from a run that keeps every operation. (It runs on the same
		// report: the run above left out only what is below beta.)
		all := checker.CheckBackwardCompatibilityUntilLevel(checkConfig(levels, checker.WithStabilityLevel(checker.StabilityDraft)), report, &sources, checker.INFO)
		inLowered := func(c checker.Change) bool { i, ok := pairIndex(c); return ok && lowered[i] }
		found = append(slices.DeleteFunc(found, inLowered), slices.DeleteFunc(all, func(c checker.Change) bool { return !inLowered(c) })...)
	}
	preferPlainPaths(found)
	canonicalSharedNames(found, baseSource.Doc, revisionSource.Doc)

	j := judge{localize: localizer(), levels: levels, date: opts.Date, latestVersion: opts.LatestVersion, baseRef: baseSource.Ref, revisionRef: revisionSource.Ref}
	names := mediaTypeNames(opts.Product)
	var documentChanges []Change
	for _, c := range found {
		i, inPair := pairIndex(c)
		c, ok := j.clockFree(c)
		if ok {
			var p pairing
			if inPair {
				p = pairs[i]
			}
			c, ok = j.commonParameter(c, p)
		}
		if !ok || (!opts.Literal && unseenAccessModes[c.GetId()]) {
			continue
		}
		change := Change{
			ID:       c.GetId(),
			Level:    LevelOf(c.GetLevel()),
			Message:  c.GetUncolorizedText(j.localize),
			Location: locationOf(c, baseSource, revisionSource),
		}
		if cc, ok := c.(checker.ComponentChange); ok && len(cc.Args) > 0 {
			change.Component = cc.Component + "/" + fmt.Sprint(cc.Args[0])
		}
		switch {
		case inPair:
			p := pairs[i]
			change.Operation, change.Version = p.Operation, p.Version
			if change.Location == nil {
				change.Location = p.operationLocation(isRemoval(change.ID), baseSource, revisionSource)
			}
			change.Message = names.restore(change.Message, p.Version)
			if d := p.direction(); d.Outbound() {
				if change, ok = j.outboundChange(change, d, p); !ok {
					continue
				}
			}
			p.Changes = append(p.Changes, change)
		case document:
			documentChanges = append(documentChanges, change)
		}
	}
	for _, p := range pairs {
		p.Changes = names.dedupe(j.scope(p, slices.Concat(p.Changes, j.lifecycleChanges(p), j.payloadChanges(p))))
	}
	return names.dedupe(documentChanges), nil
}

// oasdiffReport is oasdiff's diff of two documents, its large enums
// compared by set difference (replaceLargeEnums).
func oasdiffReport(baseDoc, revDoc *openapi3.T) (*oasdiff.Diff, error) {
	standIns := replaceLargeEnums(baseDoc, revDoc)
	report, err := oasdiff.Get(oasdiff.NewConfig(oasdiff.WithExcludeElements([]string{oasdiff.ExcludeExamplesOption, oasdiff.ExcludeDescriptionOption})), baseDoc, revDoc)
	standIns.restore(report)
	return report, err
}

func sortedPairs(pairs []pairing) []*Pair {
	out := make([]*Pair, len(pairs))
	for i, p := range pairs {
		out[i] = p.Pair
	}
	slices.SortStableFunc(out, comparePairs)
	return out
}

// comparePairs orders pairs by operation, then version.
func comparePairs(a, b *Pair) int {
	return cmp.Or(versions.CompareOperationNames(a.Operation, b.Operation), cmp.Compare(a.Version, b.Version))
}

// unchanged reports whether the plan found a pair's operation the same,
// with all it reaches, in both snapshots: its diff is empty.
func unchanged(p pairing, plan *load.Plan) bool {
	if plan == nil || p.base == nil || p.revision == nil || (p.Kind != Same && p.Kind != Unversioned) {
		return false
	}
	return p.base.planned != "" && p.revision.planned != "" && plan.OperationUnchanged(p.base.planned) && plan.OperationUnchanged(p.revision.planned)
}

// syntheticDoc is a document to hold pair operations: the original
// without its paths and webhooks (whose operations are pairs), so that
// changes outside any operation (components, security) are diffed too when
// document is set, and otherwise only what operations name (security
// schemes). With a plan, only the components that may have changed are
// there to diff.
func syntheticDoc(doc *openapi3.T, document bool, plan *load.Plan) *openapi3.T {
	synth := &openapi3.T{OpenAPI: doc.OpenAPI, Info: doc.Info, Paths: openapi3.NewPaths(), Security: doc.Security}
	if document {
		synth.Extensions, synth.Components, synth.Servers, synth.Tags = doc.Extensions, changedComponents(doc.Components, plan), doc.Servers, doc.Tags
		synth.ExternalDocs, synth.JSONSchemaDialect = doc.ExternalDocs, doc.JSONSchemaDialect
	} else if doc.Components != nil {
		synth.Components = &openapi3.Components{SecuritySchemes: doc.Components.SecuritySchemes}
	}
	return synth
}

// changedComponents is the components the plan says may have changed
// (the security schemes, which the plan compares as a whole, all).
func changedComponents(c *openapi3.Components, plan *load.Plan) *openapi3.Components {
	if c == nil || plan == nil {
		return c
	}
	out := *c
	out.Schemas = keepChanged(plan, "schemas", c.Schemas)
	out.Parameters = keepChanged(plan, "parameters", c.Parameters)
	out.Headers = keepChanged(plan, "headers", c.Headers)
	out.RequestBodies = keepChanged(plan, "requestBodies", c.RequestBodies)
	out.Responses = keepChanged(plan, "responses", c.Responses)
	out.Examples = keepChanged(plan, "examples", c.Examples)
	out.Links = keepChanged(plan, "links", c.Links)
	out.Callbacks = keepChanged(plan, "callbacks", c.Callbacks)
	return &out
}

func keepChanged[M ~map[string]V, V any](plan *load.Plan, kind string, m M) M {
	if m == nil {
		return nil
	}
	out := M{}
	for name, v := range m {
		if plan.ComponentChanged(kind, name) {
			out[name] = v
		}
	}
	return out
}

// pairPath gives pair i a path of its own; the original path stays in it so
// oasdiff still matches path parameters.
func pairPath(i int, path string) string {
	return "/" + strconv.Itoa(i) + path
}

// loweredBelowBeta are the pairs (by index) whose revision marks the
// operation draft or alpha where the base did not, as oasdiff reads
// x-stability-level.
func loweredBelowBeta(pairs []pairing, plan *load.Plan) map[int]bool {
	below := func(op *openapi3.Operation) bool {
		level, _ := op.Extensions[versions.StabilityExtension].(string)
		return level == checker.StabilityDraft || level == checker.StabilityAlpha
	}
	var lowered map[int]bool
	for i, p := range pairs {
		if p.base == nil || p.revision == nil || unchanged(p, plan) || below(p.base.op) || !below(p.revision.op) {
			continue
		}
		if lowered == nil {
			lowered = map[int]bool{}
		}
		lowered[i] = true
	}
	return lowered
}

// pairIndex reads the pair a change belongs to back from its path.
func pairIndex(c checker.Change) (int, bool) {
	if c.GetSection() != "paths" {
		return 0, false
	}
	head, _, _ := strings.Cut(strings.TrimPrefix(c.GetPath(), "/"), "/")
	i, err := strconv.Atoi(head)
	return i, err == nil
}

// LevelOf is apiver's name for an oasdiff level.
func LevelOf(l checker.Level) Level {
	switch l {
	case checker.ERR:
		return Error
	case checker.WARN:
		return Warning
	}
	return Info
}

// locationOf is where the change is in the revision, or in the base for a
// removal, falling back to whichever side oasdiff knows.
func locationOf(c checker.Change, base, revision *specs.Snapshot) *Location {
	type source struct {
		*checker.Source
		snapshot *specs.Snapshot
	}
	first, second := source{c.GetRevisionSource(), revision}, source{c.GetBaseSource(), base}
	if isRemoval(c.GetId()) {
		first, second = second, first
	}
	for _, s := range []source{first, second} {
		if s.Source != nil && s.File != "" && s.Line > 0 {
			return &Location{File: fileOf(s.File, s.snapshot), Line: s.Line, Column: s.Column, Ref: s.snapshot.Ref}
		}
	}
	return nil
}

// fileOf is the file oasdiff names in a location of the snapshot s, as the
// user named it: oasdiff names it as kin-openapi recorded it, a URL
// (my%20api.yaml), less what looks like a git ref (c:d.yaml: d.yaml).
func fileOf(file string, s *specs.Snapshot) string {
	if name, ok := s.FileOf(file, func(origin string) string { return oasload.NewSource(origin).DisplayPath() }); ok {
		return name
	}
	return file
}

// operationLocation places a change oasdiff gives no place (a 3.1 type
// list's null added, whose keyword is type, not nullable) at its
// operation: in the revision (the base for a removal), else in the other.
func (p pairing) operationLocation(removal bool, base, revision *specs.Snapshot) *Location {
	sides := []struct {
		side     *side
		snapshot *specs.Snapshot
	}{{p.revision, revision}, {p.base, base}}
	if removal {
		sides[0], sides[1] = sides[1], sides[0]
	}
	for _, s := range sides {
		if s.side == nil || s.side.op == nil || s.side.op.Origin == nil || s.side.op.Origin.Key == nil || s.side.op.Origin.Key.Line == 0 {
			continue
		}
		key := s.side.op.Origin.Key
		return &Location{File: fileOf(cmp.Or(key.File, s.side.file), s.snapshot), Line: key.Line, Column: key.Column, Ref: s.snapshot.Ref}
	}
	return nil
}

func isRemoval(id string) bool {
	return strings.Contains(id, "-removed") || strings.Contains(id, "-deleted")
}

// mediaTypeNamer rewrites the version-free media type names the diff ran on
// back to the versions users know.
type mediaTypeNamer struct {
	product   string
	inDiff    *regexp.Regexp // application/vnd.<product>+<suffix>, as diffed
	anySuffix *regexp.Regexp // a vendor media type of the product, any version and suffix
}

func mediaTypeNames(product string) mediaTypeNamer {
	if product == "" {
		return mediaTypeNamer{}
	}
	q := regexp.QuoteMeta(product)
	return mediaTypeNamer{
		product:   product,
		inDiff:    regexp.MustCompile(`application/vnd\.` + q + `(\+[\w.-]+)?\b`),
		anySuffix: regexp.MustCompile(`application/vnd\.` + q + `(\.[\w.-]+)?\+[\w.-]+`),
	}
}

// restore names the pair's version in a message's media types.
func (n mediaTypeNamer) restore(message, version string) string {
	if n.inDiff == nil || version == "" {
		return message
	}
	return n.inDiff.ReplaceAllString(message, "application/vnd."+n.product+"."+version+"$1")
}

// dedupe sorts a pair's changes and drops repeats: one schema edit seen
// through several media types (json, csv) of one version is one change,
// which then names none of them (oasdiff's "(media type: …+csv)" would say
// it concerns CSV alone).
func (n mediaTypeNamer) dedupe(changes []Change) []Change {
	key := func(c Change) string {
		if n.anySuffix == nil {
			return c.Message
		}
		return n.anySuffix.ReplaceAllString(c.Message, "")
	}
	slices.SortStableFunc(changes, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Level.Rank(), b.Level.Rank()), cmp.Compare(a.ID, b.ID), cmp.Compare(key(a), key(b)), compareChanges(a, b))
	})
	out := changes[:0]
	for _, c := range changes {
		last := len(out) - 1
		if last < 0 || out[last].ID != c.ID || key(out[last]) != key(c) {
			out = append(out, c)
			continue
		}
		if c.Message != out[last].Message {
			out[last].Message = n.withoutMediaType(out[last].Message)
		}
	}
	clear(changes[len(out):])
	return out
}

// withoutMediaType drops oasdiff's "(media type: …)" detail from a message
// where it names one of the product's media types.
func (n mediaTypeNamer) withoutMediaType(message string) string {
	return mediaTypePart.ReplaceAllStringFunc(message, func(part string) string {
		if n.anySuffix.MatchString(part) {
			return ""
		}
		return part
	})
}

func compareChanges(a, b Change) int {
	return cmp.Or(cmp.Compare(a.Level.Rank(), b.Level.Rank()), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Message, b.Message), CompareLocations(a.Location, b.Location))
}

// CompareLocations orders locations by ref, file and line; a change without
// a location comes last.
func CompareLocations(a, b *Location) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return cmp.Or(cmp.Compare(a.Ref, b.Ref), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
}

// checkLevels turns level names into oasdiff levels, refusing unknown check
// ids (oasdiff would exit the process on one).
func checkLevels(names map[string]string) (map[string]checker.Level, error) {
	known := defaultLevels()
	levels := map[string]checker.Level{}
	for id, name := range names {
		if _, ok := known[id]; !ok {
			return nil, fmt.Errorf("unknown oasdiff check id %q", id)
		}
		switch name {
		case string(Error):
			levels[id] = checker.ERR
		case string(Warning):
			levels[id] = checker.WARN
		case string(Info):
			levels[id] = checker.INFO
		case LevelOff:
			levels[id] = checker.NONE
		default:
			return nil, fmt.Errorf("check %q: unknown level %q (want error, warning, info or off)", id, name)
		}
	}
	return levels, nil
}

// IsCheckID reports whether id is one of oasdiff's check ids or of
// apiver's own checks.
func IsCheckID(id string) bool {
	_, ok := defaultLevels()[id]
	return ok
}

// DefaultLevel is the level of a check id unless configured: oasdiff's, or
// that of apiver's own check (checker.NONE for an unknown id).
func DefaultLevel(id string) checker.Level { return defaultLevels()[id] }

// defaultLevels are oasdiff's levels and those of apiver's own checks.
var defaultLevels = sync.OnceValue(func() map[string]checker.Level {
	levels := maps.Clone(oasdiffLevels())
	for _, c := range OwnChanges {
		if c.RatedAs == "" {
			levels[c.ID] = c.Level
		}
	}
	return levels
})

// checkConfig is the configuration the checks run with: oasdiff's and
// apiver's own, at the levels configured (levelsForOasdiff).
func checkConfig(levels map[string]checker.Level, opts ...checker.Option) *checker.Config {
	config := checker.NewConfig(oasdiffChecks(), opts...)
	// oasdiff exits the process on a level set for an id it does not know.
	maps.Copy(config.LogLevels, defaultLevels())
	checker.WithSeverityLevels(levelsForOasdiff(levels, config.LogLevels))(config)
	return config
}

// OasdiffLevel is oasdiff's own level of a check id (checker.NONE when it
// knows no such id).
func OasdiffLevel(id string) checker.Level { return oasdiffLevels()[id] }

// oasdiffLevels is oasdiff's level of every check id, built once: oasdiff
// builds its whole rule table (about 300 KB) on every call, and the policy
// asks dozens of times as it starts. Only read, never changed.
var oasdiffLevels = sync.OnceValue(checker.GetCheckLevels)

// oasdiffChecks is oasdiff's checks, built once for the same reason.
var oasdiffChecks = sync.OnceValue(func() checker.BackwardCompatibilityChecks {
	return append(checker.GetAllChecks(), ownChecks...)
})
