package fix

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// Verify holds a fix to what it promises before anything is written, so
// that a file the planner got wrong (an odd layout, anchors, a construct
// it does not know) is refused instead of written:
//
//   - check BASE FIXED finds no error that check BASE REVISION (before)
//     did not: the fix breaks nothing the revision did not break;
//   - every restored version reads in the fixed file as it does in the
//     base, media type by media type, with the components it uses;
//   - diff REVISION FIXED changes only the restored versions and the
//     versions the fix added (the intended moves), and versions that went
//     back to the base in part: each of their changes from the base is one
//     the revision (revisionDiff, the diff of the base with it) has too.
//
// The error says what broke the promise.
func Verify(base, revision *specs.Snapshot, revisionDiff *diff.Result, before, after *policy.Report, res *Result, opts Options) error {
	if len(res.Splices) == 0 {
		return nil
	}
	refused := func(format string, args ...any) error {
		return fmt.Errorf("%s: fix refused, nothing written: %s", revision.Path, fmt.Sprintf(format, args...))
	}
	type key struct{ operation, version, rule, change string }
	had := map[key]bool{}
	for _, f := range before.Findings {
		had[key{f.Operation, f.Version, f.Rule, f.Change}] = true
	}
	for _, f := range after.Findings {
		if f.Severity == policy.Error && !f.Exempted && !had[key{f.Operation, f.Version, f.Rule, f.Change}] {
			return refused("the fixed file would break %s %s (%s %s), which the revision did not: %s", f.Operation, f.Version, f.Rule, f.Change, f.Message)
		}
	}
	if err := restoredAsInBase(base, res, opts.Product); err != nil {
		return refused("%v", err)
	}
	var fixedRev, fixed *specs.Snapshot
	var err error
	if opts.LoadAgainstRevision != nil {
		fixedRev, fixed, err = opts.LoadAgainstRevision(res.Data)
	} else {
		var doc *openapi3.T
		doc, err = specs.Parse(revision.Path, res.Data, opts.AllowRemoteRefs)
		whole := *revision
		whole.Doc, whole.Data = doc, res.Data
		fixedRev, fixed = revision, &whole
	}
	if err != nil {
		return fmt.Errorf("the fixed revision does not load: %w", err)
	}
	moves, err := diff.Compare(fixedRev, fixed, diff.Options{Product: opts.Product, Levels: opts.Config.ChangeLevels(), Date: opts.Date})
	if err != nil {
		return err
	}
	intended := map[[2]string]bool{}
	for _, t := range res.Restored {
		intended[[2]string{t.Operation, t.Version}] = true
	}
	for _, a := range res.Added {
		intended[[2]string{a.Operation, a.Version}] = true
	}
	// Another version may change only by going back to the base: a
	// component the restored versions share with it took the base's shape
	// again, undoing a change the revision made that is harmless for it.
	// It is no move of the fix's own as long as every change it has from
	// the base is one the revision has too.
	type change struct{ operation, version, id, message string }
	revised := map[change]bool{}
	for _, c := range revisionDiff.Changes() {
		revised[change{c.Operation, c.Version, c.ID, c.Message}] = true
	}
	reverted := map[[2]string]bool{}
	if res.againstBase != nil {
		for _, p := range res.againstBase.Pairs {
			if p.Kind != diff.Same {
				continue
			}
			reverted[[2]string{p.Operation, p.Version}] = !slices.ContainsFunc(p.Changes, func(c diff.Change) bool {
				return !revised[change{c.Operation, c.Version, c.ID, c.Message}]
			})
		}
	}
	for _, p := range moves.Pairs {
		for _, c := range p.Changes {
			if at := [2]string{c.Operation, c.Version}; !intended[at] && !reverted[at] {
				version := c.Version
				if version == "" {
					version = "(unversioned)"
				}
				return refused("the fixed file would also change %s %s, which the fix did not mean to move (%s: %s)", c.Operation, version, c.ID, c.Message)
			}
		}
	}
	return nil
}

// restoredAsInBase checks that each restored version's media types, and
// the components they use, read in the fixed file as in the base (the
// $refs into other files that the fix copied mapped back).
func restoredAsInBase(base *specs.Snapshot, res *Result, product string) error {
	baseDoc, err := parseDoc(base.Path, base.Data)
	if err != nil {
		return err
	}
	fixedDoc, err := parseDoc(base.Path, res.Data)
	if err != nil {
		return fmt.Errorf("the fixed file does not parse: %w", err)
	}
	back := map[string]string{}
	for ref, local := range res.Copied {
		back[local] = ref
	}
	p := &planner{in: Input{Product: product}}
	ops := specs.Operations(base.Doc, product)
	var used []*yaml.Node
	for _, t := range res.Restored {
		method, path, _ := strings.Cut(t.Operation, " ")
		i := slices.IndexFunc(ops, func(o *specs.Operation) bool { return o.Method == method && o.Path == path })
		if i < 0 {
			// Renamed path parameters: the key pairs it.
			continue
		}
		_, baseOp := lookup(baseDoc.at([]string{"paths", ops[i].Path}), ops[i].Method, true)
		_, fixedOp := lookup(fixedDoc.at([]string{"paths", ops[i].Path}), ops[i].Method, true)
		if baseOp == nil || fixedOp == nil {
			continue
		}
		for _, e := range p.versionEntries(baseOp, t.Version) {
			_, want := lookup(nodeAt(baseOp, e.content), e.key, false)
			_, got := lookup(nodeAt(fixedOp, e.content), e.key, false)
			if got == nil || !sameData(want, got, back) {
				return fmt.Errorf("%s %s: its %s in %s would not be the base's", t.Operation, t.Version, e.key, strings.Join(e.content, " "))
			}
			used = append(used, want)
		}
		for _, e := range p.versionEntries(fixedOp, t.Version) {
			if _, v := lookup(nodeAt(baseOp, e.content), e.key, false); v == nil {
				return fmt.Errorf("%s %s: its %s in %s is not the base's", t.Operation, t.Version, e.key, strings.Join(e.content, " "))
			}
		}
	}
	for c := range baseDoc.closure(used) {
		if want, got := baseDoc.component(c), fixedDoc.component(c); want != nil && (got == nil || !sameData(want, got, back)) {
			return fmt.Errorf("%s, which the restored versions use, would not be the base's", c.pointer())
		}
	}
	return nil
}

// sameData reports whether two nodes hold the same data, the strings of b
// first mapped through back.
func sameData(a, b *yaml.Node, back map[string]string) bool {
	var x, y any
	if a.Decode(&x) != nil || b.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, mapStrings(y, back))
}

func mapStrings(v any, to map[string]string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, c := range x {
			out[k] = mapStrings(c, to)
		}
		return out
	case map[any]any:
		out := make(map[any]any, len(x))
		for k, c := range x {
			out[k] = mapStrings(c, to)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = mapStrings(c, to)
		}
		return out
	case string:
		if t, ok := to[x]; ok {
			return t
		}
	}
	return v
}
