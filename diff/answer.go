package diff

import (
	"slices"
	"strings"

	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/versions"
)

// Answer completes r, a comparison of a base with a text loaded for its
// changes alone (load.PairOptions.ChangesOnly), from answered, the
// comparison of the same base with a revision that plan compares with that
// text (load.PairOptions.Answered):
//
//   - an operation plan finds unchanged, with its callbacks, compares with
//     the base as it did in answered: its pairs are answered's (r's own, if
//     any, read skeletons), and so is its operation where r holds it on
//     neither side;
//   - any other operation r holds on neither side is the same in the base
//     and the text, so the base's stands for both: its pairs would compare
//     it with itself and change nothing, and the policy reads it for its
//     versions and dates;
//   - outside the operations, a component plan finds unchanged has
//     answered's changes (the load left it out unless an operation kept
//     reaches it); the document's own changes (info, security) are r's.
func (r *Result) Answer(answered *Result, plan *load.Plan) {
	unchanged := func(c Change) bool {
		kind, name, _ := strings.Cut(c.Component, "/")
		return c.Component != "" && !plan.ComponentChanged(kind, name)
	}
	r.Document = slices.DeleteFunc(r.Document, unchanged)
	for _, c := range answered.Document {
		if unchanged(c) {
			r.Document = append(r.Document, c)
		}
	}
	r.Document = mediaTypeNames(r.product).dedupe(r.Document)

	hosts := map[string]bool{}
	for _, op := range answered.Revision {
		if op.Direction == versions.Inbound && plan.OperationUnchanged(op.Name()) {
			hosts[op.Key()] = true
		}
	}
	isAnswered := func(op *versions.Operation) bool {
		for op.Via != nil {
			op = op.Via
		}
		return op.Direction == versions.Inbound && hosts[op.Key()]
	}
	names := map[string]bool{}
	for _, ops := range [][]*versions.Operation{answered.Base, answered.Revision} {
		for _, op := range ops {
			if isAnswered(op) {
				names[op.Name()] = true
			}
		}
	}
	if len(names) > 0 {
		r.Pairs = slices.DeleteFunc(r.Pairs, func(p *Pair) bool { return names[p.Operation] })
		for _, p := range answered.Pairs {
			if names[p.Operation] {
				r.Pairs = append(r.Pairs, p)
			}
		}
		slices.SortStableFunc(r.Pairs, comparePairs)
	}

	inBase, inRevision := keys(r.Base), keys(r.Revision)
	for _, op := range answered.Base {
		if inBase[op.Key()] {
			continue
		}
		r.Base = append(r.Base, op)
		if !inRevision[op.Key()] && !isAnswered(op) {
			r.Revision = append(r.Revision, op)
		}
	}
	for _, op := range answered.Revision {
		if !inRevision[op.Key()] && isAnswered(op) {
			r.Revision = append(r.Revision, op)
		}
	}
}

func keys(ops []*versions.Operation) map[string]bool {
	out := make(map[string]bool, len(ops))
	for _, op := range ops {
		out[op.Key()] = true
	}
	return out
}
