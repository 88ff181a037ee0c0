package policy

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
)

// Group is a root change: the findings that come from one edit. They share
// the rule, the change, the place of the changed node (in the revision; in
// the base for a removal) and the message once the parts that depend on the
// operation and the oneOf branch are taken out (diff.RootMessage). One edit
// of a shared schema is one group that reaches every operation-version
// using it. The values removed from (or added to) one enum, each on a line
// of its own, are one edit, and so is the same edit made to sibling
// schemas (diff.GatherEdits).
type Group struct {
	// ID is a short hash of the group's rule, change, messages and
	// operations: the same in every run, and across edits that only move
	// lines.
	ID       string   `json:"id"`
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Change   string   `json:"change"`
	// Message is the findings' message when they all have the same one,
	// else their root message; it names every enum value of the edit and
	// the sibling schemas it was made to (diff.EditMessage).
	Message  string         `json:"message"`
	Location *diff.Location `json:"location,omitempty"`
	// Anchor is the revision's line nearest to a location in the base (a
	// removal): where an annotation on the pull request goes.
	Anchor   *diff.Location `json:"anchor,omitempty"`
	Exempted bool           `json:"exempted"`
	// Preexisting marks a root change already true of the base.
	Preexisting bool `json:"-"`
	// Operations are the operation-versions reached, "METHOD /path@version"
	// ("METHOD /path" when unversioned), in operation order.
	Operations []string `json:"operations"`
	// Members are the indices of the group's findings in Report.Findings.
	Members   []int      `json:"-"`
	Exemption *Exemption `json:"-"`
}

// Reach is how many operation-versions the group reaches.
func (g *Group) Reach() int { return len(g.Operations) }

// Annotated is where an annotation of the group belongs: the anchor in the
// revision, else the location when it is a line of a file on disk; nil when
// there is neither (a line of a file read at a git ref is a line of another
// version of the file).
func (g *Group) Annotated() *diff.Location {
	switch {
	case g.Anchor != nil:
		return g.Anchor
	case g.Location != nil && g.Location.Ref == "":
		return g.Location
	}
	return nil
}

// OperationVersion is "METHOD /path@version", or "METHOD /path" when
// unversioned.
func OperationVersion(operation, version string) string {
	if version == "" {
		return operation
	}
	return operation + "@" + version
}

// Anchor places a location of the base (a removal) on the nearest line of
// the revision; operation is the first operation that saw it. It returns
// nil when the location is already the revision's, or cannot be placed.
type Anchor func(loc diff.Location, operation string) *diff.Location

// NewAnchor anchors locations in base's file to lines of revision's file,
// and those in a file the base $refs to lines of the file at the same place
// beside the revision, falling back to the line of the operation in the
// revision.
func NewAnchor(base, revision *specs.Snapshot, revisionOps []*versions.Operation) Anchor {
	lines := specs.NewAnchorer(base, revision)
	return func(loc diff.Location, operation string) *diff.Location {
		if loc.File == revision.Path && loc.Ref == revision.Ref {
			return nil
		}
		at := func(line int) *diff.Location {
			return &diff.Location{File: revision.Path, Line: line, Ref: revision.Ref}
		}
		if loc.File == base.Path && loc.Ref == base.Ref {
			if line, ok := lines.Line(loc.Line); ok && line > 0 {
				return at(line)
			}
		}
		if loc.File != base.Path {
			// A $ref'd file of the base: the nearest line of the file at
			// its place beside the revision. Else a file on disk is a file
			// of the work tree, its own line.
			if loc.Ref == base.Ref {
				if file, line, ok := lines.FileLine(loc.File, loc.Ref, loc.Line); ok && line > 0 {
					return &diff.Location{File: file, Line: line}
				}
			}
			if loc.Ref == "" {
				return nil
			}
		}
		if op := findOperation(revisionOps, operation); op != nil && op.Line() > 0 {
			return at(op.Line())
		}
		return nil
	}
}

// CountGroups tallies the report's groups as Counts tallies its findings.
func (r *Report) CountGroups(groups []Group) Counts {
	var c Counts
	for _, g := range groups {
		c.add(g.Exempted, g.Preexisting && !r.FailOnPreexisting, g.Severity)
	}
	return c
}

// Groups gathers the report's findings into root changes, most serious
// first, then the widest reach first. anchor, when not nil, places
// locations of the base on lines of the revision.
func (r *Report) Groups(anchor Anchor) []Group {
	type key struct {
		rule, change, message string
		severity              Severity
		exempted, preexisting bool
		exemption             *Exemption
		file, ref             string
		line                  int
	}
	// Each finding's edit, root message and shape, read once for each
	// message: the steps below ask for them again and again, reading them
	// takes regular expressions, and many findings share a message (one
	// change seen by many operations, or in many version documents).
	type read struct {
		edit        diff.Edit
		root, shape string
	}
	reads := map[[2]string]read{}
	gr := grouping{Report: r, edits: make([]diff.Edit, len(r.Findings)), roots: make([]string, len(r.Findings))}
	shapes := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		k := [2]string{f.Change, f.Message}
		m, ok := reads[k]
		if !ok {
			m = read{diff.EditOf(f.Change, f.Message), diff.RootKey(f.Message), diff.MessageShape(f.Message)}
			reads[k] = m
		}
		gr.edits[i], gr.roots[i], shapes[i] = m.edit, m.root, m.shape
	}
	keyOf := func(f Finding, message string) key {
		k := key{rule: f.Rule, change: f.Change, message: message, severity: f.Severity, exempted: f.Exempted, preexisting: f.Preexisting, exemption: f.Exemption}
		if f.Location != nil {
			k.file, k.ref, k.line = f.Location.File, f.Location.Ref, f.Location.Line
		}
		return k
	}
	// Findings at one place read alike but for their property paths. The
	// place tells the node, so they are one edit, seen by each operation
	// through a property of its own name, unless one operation-version
	// sees two properties there (two properties on one line): then the
	// property names tell edits apart. Without a place, only the
	// property's own name can.
	alike := map[key][]int{}
	var order []key
	for i, f := range r.Findings {
		k := keyOf(f, gr.roots[i])
		if f.Location != nil {
			k = keyOf(f, shapes[i])
		}
		if _, ok := alike[k]; !ok {
			order = append(order, k)
		}
		alike[k] = append(alike[k], i)
	}
	var places []*Group
	var placeKeys []key
	for _, k := range order {
		members := alike[k]
		index := map[key]*Group{}
		split := gr.seesTwo(members)
		for _, i := range members {
			f := r.Findings[i]
			sub := k
			if split {
				sub = keyOf(f, gr.roots[i])
			}
			g, ok := index[sub]
			if !ok {
				g = &Group{Rule: f.Rule, Severity: f.Severity, Change: f.Change, Location: f.Location, Exempted: f.Exempted, Preexisting: f.Preexisting, Exemption: f.Exemption}
				index[sub] = g
				places = append(places, g)
				placeKeys = append(placeKeys, sub)
			}
			g.Members = append(g.Members, i)
		}
	}
	// The groups at each place are gathered into edits: the values of one
	// enum removed together, each at its own line, and the same edit made
	// to sibling schemas.
	parts := make([]diff.EditPart, len(places))
	for i, g := range places {
		k := placeKeys[i]
		k.message = ""
		if gr.ofSchemas(g.Members) {
			k.line = 0
		}
		parts[i] = gr.editPart(fmt.Sprint(k), g.Members)
	}
	var groups []*Group
	// A node is every schema its findings see it as: a component reached at
	// the top of one body and under results/items of another is both.
	placeNames := func(node []int) []string {
		var names []string
		for _, p := range node {
			for _, i := range places[p].Members {
				names = append(names, diff.SchemaName(gr.edits[i].Place))
			}
		}
		return sortedSet(names)
	}
	for _, nodes := range diff.ApartByName(diff.GatherEdits(parts), placeNames) {
		g := places[nodes[0][0]]
		var at []string
		for _, node := range nodes {
			at = append(at, gr.edits[places[node[0]].Members[0]].Place)
			for _, p := range node {
				if places[p] != g {
					g.Members = append(g.Members, places[p].Members...)
				}
				if diff.CompareLocations(places[p].Location, g.Location) < 0 {
					g.Location = places[p].Location
				}
			}
		}
		slices.Sort(g.Members)
		g.Message = gr.editMessage(g, at)
		groups = append(groups, g)
	}
	out := make([]Group, len(groups))
	for i, g := range groups {
		g.Operations = r.operations(g.Members)
		g.ID = r.groupID(g)
		if anchor != nil && g.Location != nil {
			first := ""
			if len(g.Members) > 0 {
				first = r.Findings[g.Members[0]].Operation
			}
			g.Anchor = anchor(*g.Location, first)
		}
		out[i] = *g
	}
	slices.SortStableFunc(out, compareGroups)
	return out
}

// grouping is a report with the edit (diff.EditOf) and the root message
// (diff.RootMessage) of each of its findings.
type grouping struct {
	*Report
	edits []diff.Edit
	roots []string
}

// editPart is a group at one place as diff.GatherEdits takes it: key
// holds what the group's findings share but their line and message.
func (r grouping) editPart(key string, members []int) diff.EditPart {
	var keys, nodes, values []string
	for _, i := range members {
		f := r.Findings[i]
		e := r.edits[i]
		keys = append(keys, e.Key)
		nodes = append(nodes, OperationVersion(f.Operation, f.Version)+"\x00"+e.Place)
		if e.Valued {
			values = append(values, e.Value)
		}
	}
	return diff.EditPart{Key: key + "\x01" + strings.Join(sortedSet(keys), "\x00"), Node: strings.Join(sortedSet(nodes), "\x01"), Values: sortedSet(values)}
}

// ofSchemas reports whether findings change a property or an enum: an
// edit that sibling schemas may share. Others (a parameter, a header, a
// response) stay at their place.
func (r grouping) ofSchemas(members []int) bool {
	for _, i := range members {
		if e := r.edits[i]; (e.Property == "" || e.Parameter) && !e.Valued {
			return false
		}
	}
	return true
}

// maxSiblings is how many sibling schemas a group's message names.
const maxSiblings = 10

// editMessage states the group's edit; at are the places it was made. Its
// enum values are in the order of the spec's lines, as the enum lists them.
func (r grouping) editMessage(g *Group, at []string) string {
	var messages, values []string
	line := map[string]int{}
	for _, i := range g.Members {
		f := r.Findings[i]
		messages = append(messages, f.Message)
		if !r.edits[i].Valued {
			continue
		}
		v := r.edits[i].Value
		l := 0
		if f.Location != nil {
			l = f.Location.Line
		}
		first, seen := line[v]
		if !seen {
			values = append(values, v)
		}
		if !seen || l < first {
			line[v] = l
		}
	}
	slices.SortFunc(values, func(a, b string) int { return cmp.Or(cmp.Compare(line[a], line[b]), cmp.Compare(a, b)) })
	return diff.EditMessage(g.Change, distinct(messages), values, at, maxSiblings)
}

// distinct drops repeats, keeping the first of each.
func distinct(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func sortedSet(ss []string) []string {
	ss = slices.Clone(ss)
	slices.Sort(ss)
	return slices.Compact(ss)
}

// seesTwo reports whether one operation-version has findings among members
// that differ by their property.
func (r grouping) seesTwo(members []int) bool {
	seen := map[string]string{}
	for _, i := range members {
		f := r.Findings[i]
		ov := OperationVersion(f.Operation, f.Version)
		root := r.roots[i]
		if prev, ok := seen[ov]; ok && prev != root {
			return true
		}
		seen[ov] = root
	}
	return false
}

// operations lists the distinct operation-versions of findings, in
// operation and version order; a finding of the whole document has none.
func (r *Report) operations(members []int) []string {
	type ov struct{ operation, version string }
	var list []ov
	for _, i := range members {
		f := r.Findings[i]
		if f.Operation != "" {
			list = append(list, ov{f.Operation, f.Version})
		}
	}
	slices.SortFunc(list, func(a, b ov) int {
		return cmp.Or(versions.CompareOperationNames(a.operation, b.operation), cmp.Compare(a.version, b.version))
	})
	list = slices.Compact(list)
	out := make([]string, len(list))
	for i, o := range list {
		out[i] = OperationVersion(o.operation, o.version)
	}
	return out
}

// groupID hashes what identifies an edit without its line: rule, change,
// the findings' distinct messages and the operations reached.
func (r *Report) groupID(g *Group) string {
	var messages []string
	for _, i := range g.Members {
		messages = append(messages, r.Findings[i].Message)
	}
	slices.Sort(messages)
	parts := []string{g.Rule, g.Change}
	if g.Exempted {
		parts = append(parts, "exempted")
	}
	if g.Preexisting {
		parts = append(parts, "preexisting")
	}
	parts = append(parts, slices.Compact(messages)...)
	parts = append(parts, "")
	parts = append(parts, g.Operations...)
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:6])
}

func compareGroups(a, b Group) int {
	return cmp.Or(
		compareBool(a.Preexisting, b.Preexisting),
		compareBool(a.Exempted, b.Exempted),
		cmp.Compare(a.Severity.Rank(), b.Severity.Rank()),
		cmp.Compare(b.Reach(), a.Reach()),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Change, b.Change),
		diff.CompareLocations(a.Location, b.Location),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.ID, b.ID),
	)
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
