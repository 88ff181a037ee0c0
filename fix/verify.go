package fix

import (
	"fmt"
	"maps"
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
	if fixedDoc, err := res.fixedDoc(revision.Path); err == nil {
		if at := renamedDiscriminatorValue(fixedDoc.root, res.Split); at != "" {
			return refused("%s is a oneOf/anyOf member of a discriminator without a mapping for it: its split copy's name would be the value clients send and read", at)
		}
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
	trees := func() bool {
		if revDoc == nil {
			f, err := res.fixedDoc(revision.Path)
			if err != nil {
				return false
			}
			revDoc, fixedDoc = res.rev, f
		}
		return true
	}
	asRevision := map[[2]string]bool{}
	// Operations share components: each is compared once.
	sameComponents := map[component]bool{}
	asInRevision := func(operation, version string) bool {
		if version == "" || !trees() {
			return false
		}
		at := [2]string{operation, version}
		if _, ok := asRevision[at]; !ok {
			asRevision[at] = readsAsInRevision(revDoc, fixedDoc, res.Split, opts.Product, operation, version, sameComponents)
		}
		return asRevision[at]
	}
	// passes: a change of the operation-version is one the fix means, or
	// one the revision already reads.
	passes := func(operation, version string) bool {
		return intended[[2]string{operation, version}] || asInRevision(operation, version)
	}
	var fixedRev, fixed *specs.Snapshot
	var err error
	if opts.LoadAgainstRevision != nil {
		fixedRev, fixed, err = opts.LoadAgainstRevision(res.Data, func(operation string) bool {
			return !trees() || mayMove(revDoc, fixedDoc, opts.Product, operation, func(version string) bool { return passes(operation, version) })
		})
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
	if fixedRev == nil {
		return nil // no operation could move
	}
	moves, err := diff.Compare(fixedRev, fixed, diff.Options{Product: opts.Product, Levels: opts.Config.ChangeLevels(), Date: opts.Date})
	if err != nil {
		return err
	}
	for _, p := range moves.Pairs {
		for _, c := range p.Changes {
			if !passes(c.Operation, c.Version) {
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

// renamedDiscriminatorValue is the $ref of a split copy that a
// discriminator reads by its name, "" when none: a discriminator without a
// mapping entry for a member takes the member's component name as the
// property's value, so the copy would change what clients send and read
// (oasdiff and the name-mapped comparisons see no change).
func renamedDiscriminatorValue(n *yaml.Node, split map[string]string) string {
	if n == nil {
		return ""
	}
	if n.Kind == yaml.MappingNode {
		if _, d := lookup(n, "discriminator", false); d != nil {
			mapped := map[string]bool{}
			if _, m := lookup(d, "mapping", false); m != nil && m.Kind == yaml.MappingNode {
				for i := 1; i < len(m.Content); i += 2 {
					mapped[m.Content[i].Value] = true
				}
			}
			for _, key := range []string{"oneOf", "anyOf"} {
				_, list := lookup(n, key, false)
				if list == nil || list.Kind != yaml.SequenceNode {
					continue
				}
				for _, member := range list.Content {
					if _, ref := lookup(member, "$ref", false); ref != nil && !mapped[ref.Value] {
						if _, copied := split[ref.Value]; copied {
							return ref.Value
						}
					}
				}
			}
		}
	}
	for _, c := range n.Content {
		if at := renamedDiscriminatorValue(c, split); at != "" {
			return at
		}
	}
	return ""
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
			baseContent, fixedContent := nodeAt(baseOp, e.content), nodeAt(fixedOp, e.content)
			if _, v := lookup(baseContent, e.key, false); v != nil {
				continue
			}
			// Else it must read as the base's unversioned media type that
			// the version's view pairs it with.
			u, ok := pairedUnversioned(baseContent, fixedContent, product, t.Version)[e.key]
			_, want := lookup(baseContent, u, false)
			_, got := lookup(fixedContent, e.key, false)
			if !ok || !sameData(want, got, back) {
				return fmt.Errorf("%s %s: its %s in %s is not the base's", t.Operation, t.Version, e.key, strings.Join(e.content, " "))
			}
			used = append(used, want)
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
func readsAsInRevision(revDoc, fixedDoc *doc, back map[string]string, product, operation, version string, sameComponents map[component]bool) bool {
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
		same, ok := sameComponents[c]
		if !ok {
			orig := c
			if to, ok := back[c.pointer()]; ok {
				orig, _ = componentOf(to)
			}
			want, got := revDoc.component(orig), fixedDoc.component(c)
			same = want != nil && got != nil && sameData(want, got, back)
			sameComponents[c] = same
		}
		if !same {
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

// mayMove reports whether the diff of the revision (revDoc) with the fixed
// file could show a change of the operation ("METHOD /path") that Verify
// refuses, one of a version that does not pass. A change it refuses is of
// a version that the operation's request body or responses write in one of
// the two files (readsAsInRevision passes any other), or of an unversioned
// operation, or of one missing from a file: so the operation may move when
// one of those versions does not pass, when it has no version written
// there, when it is missing, or when kin-openapi reads it from elsewhere
// than these trees show (a $ref beside the content written) or may read
// more of it (callbacks, which pair as operations of their own, or what a
// merge key brings).
func mayMove(revDoc, fixedDoc *doc, product, operation string, passes func(version string) bool) bool {
	method, path, _ := strings.Cut(operation, " ")
	written := map[string]bool{}
	for _, d := range []*doc{revDoc, fixedDoc} {
		item := d.at([]string{"paths", path})
		_, op := lookup(item, method, true)
		if op == nil || op.Kind != yaml.MappingNode || hasKey(item, "$ref") || hasKey(item, "<<") || hasKey(op, "<<") || hasKey(op, "callbacks") {
			return true
		}
		_, body := lookup(op, "requestBody", false)
		if refersAway(body) {
			return true
		}
		_, responses := lookup(op, "responses", false)
		if responses != nil && responses.Kind == yaml.MappingNode {
			for i := 1; i < len(responses.Content); i += 2 {
				if refersAway(responses.Content[i]) {
					return true
				}
			}
		}
		versioned := false
		for _, e := range mediaEntries(op) {
			if mt, ok, _ := versions.ParseMediaType(e.key); ok && mt.Product == product {
				versioned, written[mt.Version] = true, true
			}
		}
		if !versioned {
			return true
		}
	}
	for _, v := range slices.Sorted(maps.Keys(written)) {
		if !passes(v) {
			return true
		}
	}
	return false
}

// refersAway reports whether a request body or response writes content
// that kin-openapi does not read: it reads the $ref beside it instead.
func refersAway(m *yaml.Node) bool { return hasKey(m, "$ref") && hasKey(m, "content") }

func hasKey(m *yaml.Node, key string) bool {
	k, _ := lookup(m, key, false)
	return k != nil
}
