package fix

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
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
//     versions the fix added: every other operation-version, one that
//     shares a component with a restored version too, reads as in the
//     revision.
//
// The error says what broke the promise.
func Verify(base, revision *specs.Snapshot, before, after *policy.Report, res *Result, opts Options) error {
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
	if err := restoredAsInBase(base, opts.baseOperations(base), res, opts.Product); err != nil {
		return refused("%v", err)
	}
	var fixedRev, fixed *specs.Snapshot
	var err error
	if opts.LoadAgainstRevision != nil {
		fixedRev, fixed, err = opts.LoadAgainstRevision(res.Data)
	} else {
		var doc *openapi3.T
		doc, err = load.Parse(revision.Path, res.Data, opts.AllowRemoteRefs)
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
	// oasdiff pairs oneOf members by their $ref names, so a version that
	// reads a split copy may show changes it does not have: such a version
	// passes when it reads as in the revision, the copies' names mapped
	// back.
	var revDoc, fixedDoc *doc
	asRevision := map[[2]string]bool{}
	asInRevision := func(operation, version string) bool {
		if version == "" {
			return false
		}
		at := [2]string{operation, version}
		if same, ok := asRevision[at]; ok {
			return same
		}
		if revDoc == nil {
			f, err := res.fixedDoc(revision.Path)
			if err != nil {
				return false
			}
			revDoc, fixedDoc = res.rev, f
		}
		asRevision[at] = readsAsInRevision(revDoc, fixedDoc, res.Split, opts.Product, operation, version)
		return asRevision[at]
	}
	for _, p := range moves.Pairs {
		for _, c := range p.Changes {
			if at := [2]string{c.Operation, c.Version}; !intended[at] && !asInRevision(c.Operation, c.Version) {
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

// restoredAsInBase checks that each restored version's media types (ops
// are the base's operations), and the components they use, read in the
// fixed file as in the base (the $refs into other files that the fix
// copied mapped back).
func restoredAsInBase(base *specs.Snapshot, ops []*versions.Operation, res *Result, product string) error {
	baseDoc := res.base
	fixedDoc, err := res.fixedDoc(base.Path)
	if err != nil {
		return fmt.Errorf("the fixed file does not parse: %w", err)
	}
	back := map[string]string{}
	for ref, local := range res.Copied {
		back[local] = ref
	}
	p := &planner{in: Input{Product: product}}
	var used []*yaml.Node
	for _, t := range res.Restored {
		method, path, _ := strings.Cut(t.Operation, " ")
		i := slices.IndexFunc(ops, func(o *versions.Operation) bool { return o.Method == method && o.Path == path })
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

// readsAsInRevision reports whether an operation-version's media types,
// and the components they use, read in the fixed file (fixedDoc) as in the
// revision (revDoc) once the split copies' names are mapped back.
func readsAsInRevision(revDoc, fixedDoc *doc, back map[string]string, product, operation, version string) bool {
	method, path, _ := strings.Cut(operation, " ")
	_, revOp := lookup(revDoc.at([]string{"paths", path}), method, true)
	_, fixedOp := lookup(fixedDoc.at([]string{"paths", path}), method, true)
	if revOp == nil || fixedOp == nil {
		return false
	}
	p := &planner{in: Input{Product: product}}
	revEntries, fixedEntries := p.versionEntries(revOp, version), p.versionEntries(fixedOp, version)
	if len(revEntries) != len(fixedEntries) {
		return false
	}
	var used []*yaml.Node
	for _, e := range revEntries {
		_, want := lookup(nodeAt(revOp, e.content), e.key, false)
		_, got := lookup(nodeAt(fixedOp, e.content), e.key, false)
		if got == nil || !sameData(want, got, back) {
			return false
		}
		used = append(used, got)
	}
	for c := range fixedDoc.closure(used) {
		orig := c
		if to, ok := back[c.pointer()]; ok {
			orig, _ = componentOf(to)
		}
		want, got := revDoc.component(orig), fixedDoc.component(c)
		if want == nil || got == nil || !sameData(want, got, back) {
			return false
		}
	}
	return true
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
