package diff

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/flatten/allof"
)

// oasdiff compares allOf members one by one, so that it judges an allOf by
// its shape: a $ref wrapped in allOf to carry a description reads as the
// schema's type and properties removed, and a constraint written beside a
// $ref in OpenAPI 3.1 (kin-openapi turns {$ref: Kind, enum: [a, b]} into
// allOf: [Kind, {enum: [a, b]}]) reads as an allOf member added, a warning.
// flattenAllOf merges every allOf of the documents apiver diffs into one
// schema (oasdiff's flatten/allof), so that oasdiff compares what a value
// must satisfy: the wrapper is no change, and the narrowed enum an enum
// value removed.

// flattened is the documents of a diff with their allOf merged: copies, so
// the loaded documents, which the rest of apiver reads, keep their allOf.
type flattened struct {
	docs []*openapi3.T
	// copies map values of the originals to their copies, a map per
	// copier.
	copies []map[walked]reflect.Value
}

// operation is the copy of an operation of the originals.
func (f *flattened) operation(op *openapi3.Operation) *openapi3.Operation {
	key := walked{reflect.TypeOf(op), reflect.ValueOf(op).Pointer()}
	for _, copies := range f.copies {
		if v, ok := copies[key]; ok {
			return v.Interface().(*openapi3.Operation)
		}
	}
	return op
}

// flattenAllOf copies docs and merges the allOf of the copies. The copies
// share what the originals share (one copier), so two views of one
// snapshot still hand oasdiff the same schema twice. Every schema of the
// copies keeps the location of what it was merged from (mergeRestorer):
// the merge keeps no origins. An allOf that does not merge into what it
// means (mergeable) is diffed as written, in every document. Most
// documents have none: each is merged whole, and only where one does are
// the documents copied again and each allOf found by its place, to be
// diffed as written in all of them.
//
// Documents that share nothing (apart: two snapshots' loads) are copied,
// merged and restored each on its own goroutine, the merge being most of a
// release's diff that runs on one core.
func flattenAllOf(apart bool, docs ...*openapi3.T) *flattened {
	groups := [][]*openapi3.T{docs}
	if apart {
		groups = nil
		for i := range docs {
			groups = append(groups, docs[i:i+1])
		}
	}
	if f, ok := mergeWhole(docs, groups); ok {
		return f
	}
	f, _ := copyDocs(docs)
	byPlace := make([][]allOfAt, len(f.docs))
	for i, doc := range f.docs {
		byPlace[i] = schemasWithAllOf(doc)
		for _, at := range byPlace[i] {
			stashDefaults([]*openapi3.Schema{at.schema})
		}
	}
	asWritten := unmergeable(byPlace)
	// Every document's are hidden before any is merged: the documents
	// share schemas, and a merge replaces one where it is reached.
	for i := range f.docs {
		for _, at := range byPlace[i] {
			if asWritten[at.pointer] {
				stashFor(at.schema).takeAllOf(at.schema)
			}
		}
	}
	for _, doc := range f.docs {
		// What is left merges (each was merged alone); were a merge to
		// fail, it fails before it writes anything back, and that
		// document is diffed as written.
		_ = mergeDoc(doc)
	}
	putBack(f.docs)
	f.restore(docs)
	return f
}

// mergeWhole is flattenAllOf's fast way: docs copied and merged whole, a
// group of them (sharing one copier) on a goroutine of its own; groups
// that turn out to share a part, all together. False where an allOf must
// be diffed as written (mergesBadly, or a merge fails): flattenAllOf
// copies the documents again then and finds each allOf by its place.
func mergeWhole(docs []*openapi3.T, groups [][]*openapi3.T) (*flattened, bool) {
	parts := make([]*flattened, len(groups))
	withAllOf := make([][]*openapi3.Schema, len(groups))
	var wg sync.WaitGroup
	for i, group := range groups {
		wg.Go(func() { parts[i], withAllOf[i] = copyDocs(group) })
	}
	wg.Wait()
	if len(groups) > 1 && shareParts(parts) {
		// Two loads that share parts (a fix's check reads some of the
		// check's): copied and merged together, as one load's.
		return mergeWhole(docs, [][]*openapi3.T{docs})
	}
	all := slices.Concat(withAllOf...)
	if len(all) == 0 {
		// nothing to merge: oasdiff reads the documents themselves
		return &flattened{docs: docs}, true
	}
	if slices.ContainsFunc(all, mergesBadly) {
		return nil, false
	}
	merged := make([]bool, len(groups))
	for i, part := range parts {
		wg.Go(func() {
			stashed := stashDefaults(withAllOf[i])
			if !mergeEach(part.docs) {
				return
			}
			if stashed {
				putBack(part.docs)
			}
			part.restore(groups[i])
			merged[i] = true
		})
	}
	wg.Wait()
	if slices.Contains(merged, false) {
		return nil, false
	}
	f := &flattened{}
	for _, part := range parts {
		f.docs = append(f.docs, part.docs...)
		f.copies = append(f.copies, part.copies...)
	}
	return f, true
}

// shareParts reports whether two copies copied one value of the
// originals: the originals share it.
func shareParts(parts []*flattened) bool {
	for i, a := range parts {
		for _, b := range parts[i+1:] {
			for key := range a.copies[0] {
				if _, ok := b.copies[0][key]; ok {
					return true
				}
			}
		}
	}
	return false
}

// restore gives the merged copies of the schemas of docs the origins,
// names and annotations the merge lost (mergeRestorer).
func (f *flattened) restore(docs []*openapi3.T) {
	r := mergeRestorer{done: map[*openapi3.Schema]bool{}}
	for _, doc := range docs {
		for _, s := range rootSchemas(doc) {
			for _, copies := range f.copies {
				if cp, ok := copies[walked{reflect.TypeOf(s), reflect.ValueOf(s).Pointer()}]; ok {
					r.restoreRef(cp.Interface().(*openapi3.SchemaRef), []*openapi3.SchemaRef{s})
					break
				}
			}
		}
	}
}

// copyDocs copies docs, with the schemas of the copies that have an allOf.
func copyDocs(docs []*openapi3.T) (*flattened, []*openapi3.Schema) {
	c := &copier{memo: map[walked]reflect.Value{}}
	f := &flattened{copies: []map[walked]reflect.Value{c.memo}}
	for _, doc := range docs {
		cp := c.copy(reflect.ValueOf(*doc)).Interface().(openapi3.T)
		f.docs = append(f.docs, &cp)
	}
	return f, c.withAllOf
}

// stashDefaults stashes the defaults of schemas that hold an allOf; it
// tells whether one had a default.
func stashDefaults(schemas []*openapi3.Schema) bool {
	stashed := false
	for _, s := range schemas {
		if s.Default != nil {
			stashFor(s).takeDefault(s)
			stashed = true
		}
	}
	return stashed
}

// mergeEach merges every allOf of docs; false where the merge of one
// failed (the documents may then be merged in part).
func mergeEach(docs []*openapi3.T) bool {
	for _, doc := range docs {
		if mergeDoc(doc) != nil {
			return false
		}
	}
	return true
}

// allOfAt is a schema with an allOf, at the JSON pointer where the walk of
// its document first meets it.
type allOfAt struct {
	pointer string
	schema  *openapi3.Schema
}

// schemasWithAllOf is every schema of doc with an allOf, each once.
func schemasWithAllOf(doc *openapi3.T) []allOfAt {
	var out []allOfAt
	seen := map[*openapi3.Schema]bool{}
	_ = doc.WalkSchemas(func(pointer string, s *openapi3.SchemaRef) error {
		if s.Value != nil && len(s.Value.AllOf) > 0 && !seen[s.Value] {
			seen[s.Value] = true
			out = append(out, allOfAt{pointer, s.Value})
		}
		return nil
	})
	return out
}

// unmergeable is the pointers of the allOf, of any of docs, that are diffed
// as written (mergeable). A schema is left unmerged in every document where
// one of them cannot merge it: merged on one side and as written on the
// other, an unchanged schema would read as changed. The walk meets
// components first, by name, so a component is at the same pointer in
// every document.
func unmergeable(withAllOf [][]allOfAt) map[string]bool {
	out := map[string]bool{}
	for _, schemas := range withAllOf {
		for _, s := range schemas {
			if !out[s.pointer] && !mergeable(s.schema) {
				out[s.pointer] = true
			}
		}
	}
	return out
}

// mergeable tells an allOf that merges into one schema that means what it
// does. oasdiff's merge fails on members that conflict (types, formats,
// defaults or consts); a schema fails with any allOf below it that fails,
// through its members or its properties, so the fallback may keep more
// unmerged than the one allOf at fault, never less. Three more merge
// without failing but lose what a change must be seen in, or read as
// changed what is not (dropsProperties, crossesBranches, negatesTwice).
func mergeable(s *openapi3.Schema) bool {
	if mergesBadly(s) {
		return false
	}
	_, err := allof.Merge(openapi3.SchemaRef{Value: s})
	return err == nil
}

func mergesBadly(s *openapi3.Schema) bool {
	return dropsProperties(s) || crossesBranches(s) || negatesTwice(s)
}

// crossesBranches tells an allOf with more than one oneOf or anyOf among it
// and its members: the merge makes one branch of every combination, written
// out without the $ref names, so a change inside a branch would read as
// branches removed and added (in a response, an info and a warning).
func crossesBranches(s *openapi3.Schema) bool {
	groups := 0
	for _, m := range expandAllOf([]*openapi3.Schema{s}) {
		if len(m.OneOf) > 0 {
			groups++
		}
		if len(m.AnyOf) > 0 {
			groups++
		}
	}
	return groups > 1
}

// negatesTwice tells an allOf with more than one not among it and its
// members: the merge writes them as not: {anyOf: [...]}, which oasdiff
// reads as a new not, so that a not repeated or split in two would read as
// changed.
func negatesTwice(s *openapi3.Schema) bool {
	nots := 0
	for _, m := range expandAllOf([]*openapi3.Schema{s}) {
		if m.Not != nil {
			nots++
		}
	}
	return nots > 1
}

// mergeDoc merges the allOf of doc in place, but for those hidden in a
// stash, which keep their allOf as written, diffed member by member as
// before. Components the merge adds to name recursive schemas are taken out
// again: the two snapshots' would read as components added or removed. The
// merge fails before it writes anything back.
func mergeDoc(doc *openapi3.T) error {
	var schemas openapi3.Schemas
	if doc.Components != nil {
		schemas = doc.Components.Schemas
	}
	before := maps.Clone(schemas)
	_, err := allof.MergeSpec(mergeView(doc))
	maps.DeleteFunc(schemas, func(name string, _ *openapi3.SchemaRef) bool {
		_, ok := before[name]
		return !ok
	})
	return err
}

// mergeView is what oasdiff's merge is shown of doc: the schemas its walk
// of doc meets, in the same order (the merge's results depend on it), with
// no path or media type whose JSON pointer the walk would escape (see
// walk.go). The component schemas stay as they are, since the merge names
// recursive schemas after them; the others are parameters of names that
// sort in the walk's order.
func mergeView(doc *openapi3.T) *openapi3.T {
	roots, components := rootsAndComponents(doc)
	view := &openapi3.Components{Parameters: make(openapi3.ParametersMap, len(roots)-components)}
	if doc.Components != nil {
		view.Schemas = doc.Components.Schemas
	}
	for i, root := range roots[components:] {
		view.Parameters[fmt.Sprintf("%09d", i)] = &openapi3.ParameterRef{Value: &openapi3.Parameter{Schema: root}}
	}
	return &openapi3.T{Components: view}
}

// putBack gives every schema of docs what was stashed of it, once all are
// merged.
func putBack(docs []*openapi3.T) {
	for _, doc := range docs {
		eachSchema(rootSchemas(doc), func(s *openapi3.Schema) {
			if st, ok := s.Extensions[stashKey].(*stash); ok {
				st.putBack(s)
			}
		})
	}
}

// stash is what the merge must not see of a schema with an allOf, kept
// through the merge in an extension, which the merge copies into the
// schema it makes of the one that holds the allOf, and put back after:
//   - the allOf of a schema diffed as written;
//   - the default of the schema that holds the allOf, which overrides its
//     members' (the OpenAPI 3.0 way to give a $ref another default), where
//     the merge would refuse two defaults.
type stash struct {
	extensions map[string]any
	allOf      openapi3.SchemaRefs
	hasDefault bool
	def        any
}

const stashKey = "x-apiver-merge-stash"

// stashFor is the stash of s, made on first use.
func stashFor(s *openapi3.Schema) *stash {
	if st, ok := s.Extensions[stashKey].(*stash); ok {
		return st
	}
	st := &stash{extensions: s.Extensions}
	ext := maps.Clone(s.Extensions)
	if ext == nil {
		ext = map[string]any{}
	}
	ext[stashKey] = st
	s.Extensions = ext
	return st
}

func (st *stash) takeDefault(s *openapi3.Schema) {
	if s.Default != nil {
		st.hasDefault, st.def, s.Default = true, s.Default, nil
	}
}

// takeAllOf stashes the allOf of s; a schema the documents share is met
// more than once.
func (st *stash) takeAllOf(s *openapi3.Schema) {
	if s.AllOf != nil {
		st.allOf, s.AllOf = s.AllOf, nil
	}
}

// putBack gives s (the schema stashed or the one the merge made of it)
// what was stashed.
func (st *stash) putBack(s *openapi3.Schema) {
	if st.allOf != nil {
		s.AllOf = st.allOf
	}
	if st.hasDefault {
		s.Default = st.def
	}
	s.Extensions = st.extensions
}

// dropsProperties tells an allOf whose merge would leave out properties
// that a member defines: where members forbid other properties
// (additionalProperties: false), the merge keeps only the properties every
// such member defines, as JSON Schema reads them; a value could then hold
// none of the others, and a change to them would not be seen at all. Such an
// allOf is written as a union of properties by intent, so it is diffed as
// written, member by member, where every property's change is seen.
func dropsProperties(s *openapi3.Schema) bool {
	members := expandAllOf([]*openapi3.Schema{s})
	var closed []*openapi3.Schema
	for _, m := range members {
		if m.AdditionalProperties.Has != nil && !*m.AdditionalProperties.Has {
			closed = append(closed, m)
		}
	}
	if len(closed) == 0 {
		return false
	}
	for _, m := range members {
		for name := range m.Properties {
			for _, c := range closed {
				if _, ok := c.Properties[name]; !ok {
					return true
				}
			}
		}
	}
	return false
}

// copier copies the parts of a document that can lead to a schema, which
// the merge rewrites in place; the rest (extensions, examples, origins) is
// shared with the original.
type copier struct {
	memo map[walked]reflect.Value
	// withAllOf are the schemas copied that have an allOf.
	withAllOf []*openapi3.Schema
}

func (c *copier) copy(v reflect.Value) reflect.Value {
	t := v.Type()
	if !schemaHolders[t] {
		return v
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		key := walked{t, v.Pointer()}
		if done, ok := c.memo[key]; ok {
			return done
		}
		out := reflect.New(t.Elem())
		c.memo[key] = out
		if _, ok := mapLike[t.Elem()]; ok {
			// The entries are in an unexported map: a fresh value, its
			// exported fields, and the entries set one by one.
			for i := range t.Elem().NumField() {
				if t.Elem().Field(i).IsExported() {
					out.Elem().Field(i).Set(v.Elem().Field(i))
				}
			}
			m := v.MethodByName("Map").Call(nil)[0]
			set := out.MethodByName("Set")
			for _, k := range m.MapKeys() {
				set.Call([]reflect.Value{k, c.copy(m.MapIndex(k))})
			}
			return out
		}
		out.Elem().Set(c.copy(v.Elem()))
		if s, ok := out.Interface().(*openapi3.Schema); ok && len(s.AllOf) > 0 {
			c.withAllOf = append(c.withAllOf, s)
		}
		return out
	case reflect.Struct:
		out := reflect.New(t).Elem()
		out.Set(v)
		for _, i := range schemaFields[t] {
			out.Field(i).Set(c.copy(v.Field(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), c.copy(it.Value()))
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(c.copy(v.Index(i)))
		}
		return out
	}
	return v
}

// mergeRestorer gives the merged schemas what oasdiff's merge loses or
// takes wrongly from their members: their locations (oasdiff locates a
// change by its schema's origin, or for a branch its $ref's), their $ref
// names and titles, nullable and the annotations (keepAnnotations). A
// merged schema takes the location of the first schema it merges (the one
// that held the allOf, else the first member), and each keyword the
// location of the input whose value is in effect, so an enum written beside
// a $ref is located where it is written.
type mergeRestorer struct {
	done map[*openapi3.Schema]bool
}

// restoreRef restores the origins of merged, a reference the merge made
// of the references from.
func (r mergeRestorer) restoreRef(merged *openapi3.SchemaRef, from []*openapi3.SchemaRef) {
	if merged == nil {
		return
	}
	var values []*openapi3.Schema
	for _, f := range from {
		if f == nil {
			continue
		}
		if merged.Origin == nil && f.Origin != nil {
			merged.Origin = f.Origin
		}
		if merged.Ref == "" && len(from) == 1 {
			// oasdiff names a oneOf branch, and a schema several
			// properties share, by its $ref, which the merge drops
			merged.Ref = f.Ref
		}
		if f.Value != nil {
			values = append(values, f.Value)
		}
	}
	r.restore(merged.Value, values)
}

func (r mergeRestorer) restore(merged *openapi3.Schema, from []*openapi3.Schema) {
	if merged == nil || r.done[merged] || len(from) == 0 {
		return
	}
	r.done[merged] = true
	if len(merged.AllOf) == 0 {
		// merged: what it merged is its inputs and their allOf members,
		// the members' own allOf merged as well
		merged.Nullable = admitsNull(from) == nullYes
		keepAnnotations(merged, from)
		from = expandAllOf(from)
	}
	if merged.Origin == nil {
		merged.Origin = mergedOrigin(merged, from)
	}
	sub := func(get func(*openapi3.Schema) *openapi3.SchemaRef) []*openapi3.SchemaRef {
		var out []*openapi3.SchemaRef
		for _, s := range from {
			if ref := get(s); ref != nil {
				out = append(out, ref)
			}
		}
		return out
	}
	for name, p := range merged.Properties {
		r.restoreRef(p, sub(func(s *openapi3.Schema) *openapi3.SchemaRef { return s.Properties[name] }))
	}
	r.restoreRef(merged.Items, sub(func(s *openapi3.Schema) *openapi3.SchemaRef { return s.Items }))
	r.restoreRef(merged.AdditionalProperties.Schema, sub(func(s *openapi3.Schema) *openapi3.SchemaRef { return s.AdditionalProperties.Schema }))
	r.restoreRef(merged.Not, sub(func(s *openapi3.Schema) *openapi3.SchemaRef { return s.Not }))
	// Branches: matched by position with the first input that has as
	// many (the merge keeps a lone input's branches in order).
	for _, branches := range []struct {
		merged openapi3.SchemaRefs
		of     func(*openapi3.Schema) openapi3.SchemaRefs
	}{
		{merged.OneOf, func(s *openapi3.Schema) openapi3.SchemaRefs { return s.OneOf }},
		{merged.AnyOf, func(s *openapi3.Schema) openapi3.SchemaRefs { return s.AnyOf }},
		{merged.AllOf, func(s *openapi3.Schema) openapi3.SchemaRefs { return s.AllOf }},
	} {
		if len(branches.merged) == 0 {
			continue
		}
		var match openapi3.SchemaRefs
		for _, s := range from {
			if b := branches.of(s); len(b) == len(branches.merged) {
				match = b
				break
			}
		}
		for i, b := range branches.merged {
			if match != nil {
				r.restoreRef(b, []*openapi3.SchemaRef{match[i]})
			}
		}
	}
}

// nullVerdict is what an OpenAPI 3.0 schema says of null.
type nullVerdict int

const (
	nullSilent nullVerdict = iota // no type, no nullable: it leaves null to the others
	nullNo
	nullYes
)

// admitsNull is what schemas merged together say of null. oasdiff's merge
// admits null only where every schema it merges says nullable, the one that
// holds the allOf and a member that only adds a description included, so
// that every allOf would read as not nullable. But a schema without a type
// says nothing of null (a wrapper that adds a description to a $ref, a
// member that documents a property), and nullable: true beside an allOf
// makes its members nullable (the OpenAPI 3.0 way to write a nullable
// $ref). Null is admitted where no schema that speaks refuses it and one
// admits it.
func admitsNull(schemas []*openapi3.Schema) nullVerdict {
	verdict := nullSilent
	for _, s := range schemas {
		switch nullable(s) {
		case nullNo:
			return nullNo
		case nullYes:
			verdict = nullYes
		}
	}
	return verdict
}

func nullable(s *openapi3.Schema) nullVerdict {
	switch {
	case s.Nullable:
		return nullYes
	case len(s.Type.Slice()) > 0:
		return nullNo
	case len(s.AllOf) > 0:
		var members []*openapi3.Schema
		for _, m := range s.AllOf {
			if m != nil && m.Value != nil {
				members = append(members, m.Value)
			}
		}
		return admitsNull(members)
	}
	return nullSilent
}

// keepAnnotations gives merged what oasdiff's merge takes from its members
// where it should not, or keeps only from the schema that holds the allOf
// where it should take it from the members too:
//   - the title of what it merged, where that is one schema: a branch is
//     named by its own title, not by its base's (the merge takes the first
//     member's title where the schema has none);
//   - deprecated where any schema it merges is (a $ref to a deprecated
//     schema wrapped for a description is still deprecated);
//   - the discriminator of the one member of a wrapper ({description,
//     allOf: [$ref: Pet]}), which is that schema's. A subtype that extends
//     its base by allOf does not take the base's: its changes are the
//     base's, reported there.
func keepAnnotations(merged *openapi3.Schema, from []*openapi3.Schema) {
	if len(from) == 1 {
		merged.Title = from[0].Title
		if w := from[0]; merged.Discriminator == nil && wraps(w) {
			merged.Discriminator = w.AllOf[0].Value.Discriminator
		}
	}
	for _, s := range expandAllOf(from) {
		merged.Deprecated = merged.Deprecated || s.Deprecated
	}
}

// wraps tells a schema that only wraps one other (to give it a
// description): an allOf of one member, no properties of its own, and not
// a branch of that member's oneOf or anyOf (a subtype that adds nothing to
// its base).
func wraps(s *openapi3.Schema) bool {
	if len(s.AllOf) != 1 || len(s.Properties) > 0 || s.AllOf[0] == nil || s.AllOf[0].Value == nil {
		return false
	}
	member := s.AllOf[0].Value
	for _, branch := range slices.Concat(member.OneOf, member.AnyOf) {
		if branch != nil && branch.Value == s {
			return false
		}
	}
	return true
}

// expandAllOf is the schemas and, after each, its allOf members, theirs
// after them, each once.
func expandAllOf(schemas []*openapi3.Schema) []*openapi3.Schema {
	var out []*openapi3.Schema
	seen := map[*openapi3.Schema]bool{}
	var add func(s *openapi3.Schema)
	add = func(s *openapi3.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
		for _, m := range s.AllOf {
			if m != nil {
				add(m.Value)
			}
		}
	}
	for _, s := range schemas {
		add(s)
	}
	return out
}

// mergedOrigin is the origin of the first schema with one, with the field
// and sequence locations of the others that it lacks. A keyword that
// several write is located where the value the merge kept is written
// (inEffect): the narrower of two enums, the lower of two maxLength. The
// originals' origins are shared, never changed: one extended is a copy.
func mergedOrigin(merged *openapi3.Schema, from []*openapi3.Schema) *openapi3.Origin {
	var out *openapi3.Origin
	copied := false
	own := func() {
		if !copied {
			cp := *out
			cp.Fields, cp.Sequences = slices.Clone(out.Fields), maps.Clone(out.Sequences)
			out, copied = &cp, true
		}
	}
	for _, s := range from {
		if s.Origin == nil {
			continue
		}
		if out == nil {
			out = s.Origin
			continue
		}
		for _, f := range s.Origin.Fields {
			if _, ok := out.Fields.Lookup(f.Name); !ok {
				own()
				out.Fields = append(out.Fields, f)
			}
		}
		for name, seq := range s.Origin.Sequences {
			if _, ok := out.Sequences[name]; !ok {
				own()
				if out.Sequences == nil {
					out.Sequences = map[string][]openapi3.Location{}
				}
				out.Sequences[name] = seq
			}
		}
	}
	if out != nil {
		for _, keyword := range pickedKeywords {
			name := keyword.name
			w := inEffect(merged, from, name, keyword.value)
			if w == nil || w.Origin == nil {
				continue
			}
			field, hasField := w.Origin.Fields.Lookup(name)
			seq, hasSeq := w.Origin.Sequences[name]
			own()
			if hasField {
				for i := range out.Fields {
					if out.Fields[i].Name == name {
						out.Fields[i] = field
					}
				}
			}
			if hasSeq {
				if out.Sequences == nil {
					out.Sequences = map[string][]openapi3.Location{}
				}
				out.Sequences[name] = seq
			}
		}
		for name, values := range map[string][]any{"enum": merged.Enum, "required": anySlice(merged.Required)} {
			if seq := alignedSequence(name, values, from); seq != nil {
				own()
				if out.Sequences == nil {
					out.Sequences = map[string][]openapi3.Location{}
				}
				out.Sequences[name] = seq
			}
		}
	}
	return out
}

// alignedSequence is the locations of values, the merged list of a list
// keyword, each where an input writes it: a merged list is the union
// (required) or intersection (enum) of the inputs', so the locations of
// one input's list do not line up with it. Nil where one input wrote the
// whole list as merged.
func alignedSequence(name string, values []any, from []*openapi3.Schema) []openapi3.Location {
	if len(values) == 0 {
		return nil
	}
	written := func(s *openapi3.Schema) []any {
		if name == "required" {
			return anySlice(s.Required)
		}
		return s.Enum
	}
	writers := 0
	for _, s := range from {
		if s.Origin != nil && len(s.Origin.Sequences[name]) > 0 {
			if reflect.DeepEqual(written(s), values) {
				// located as a whole (the first input's, or inEffect's)
				return nil
			}
			writers++
		}
	}
	if writers < 2 {
		return nil
	}
	out := make([]openapi3.Location, len(values))
	for i, v := range values {
		for _, s := range from {
			if s.Origin == nil {
				continue
			}
			seq := s.Origin.Sequences[name]
			if j := slices.IndexFunc(written(s), func(w any) bool { return reflect.DeepEqual(w, v) }); j >= 0 && j < len(seq) {
				out[i] = seq[j]
				break
			}
		}
	}
	return out
}

func anySlice(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// pickedKeywords are the keywords whose merged value is one input's (or an
// intersection that may equal one input's), each with its value in a
// schema, nil where unset.
var pickedKeywords = []struct {
	name  string
	value func(*openapi3.Schema) any
}{
	{"enum", func(s *openapi3.Schema) any { return nonEmpty(s.Enum) }},
	{"maxLength", func(s *openapi3.Schema) any { return deref(s.MaxLength) }},
	{"minLength", func(s *openapi3.Schema) any { return s.MinLength }},
	{"maximum", func(s *openapi3.Schema) any { return deref(s.Max) }},
	{"minimum", func(s *openapi3.Schema) any { return deref(s.Min) }},
	{"maxItems", func(s *openapi3.Schema) any { return deref(s.MaxItems) }},
	{"minItems", func(s *openapi3.Schema) any { return s.MinItems }},
	{"maxProperties", func(s *openapi3.Schema) any { return deref(s.MaxProps) }},
	{"minProperties", func(s *openapi3.Schema) any { return s.MinProps }},
	{"pattern", func(s *openapi3.Schema) any { return nonBlank(s.Pattern) }},
	{"multipleOf", func(s *openapi3.Schema) any { return deref(s.MultipleOf) }},
	{"format", func(s *openapi3.Schema) any { return nonBlank(s.Format) }},
	{"default", func(s *openapi3.Schema) any { return s.Default }},
	{"type", func(s *openapi3.Schema) any { return nonEmpty(s.Type.Slice()) }},
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func nonEmpty[S ~[]E, E any](v S) any {
	if len(v) == 0 {
		return nil
	}
	return v
}

func nonBlank(v string) any {
	if v == "" {
		return nil
	}
	return v
}

// inEffect is the input whose value of keyword name the merge kept, where
// another input wrote it first; nil where the first is in effect or none
// matches.
func inEffect(merged *openapi3.Schema, from []*openapi3.Schema, name string, value func(*openapi3.Schema) any) *openapi3.Schema {
	kept := value(merged)
	if kept == nil {
		return nil
	}
	first := true
	for _, s := range from {
		if s.Origin == nil {
			continue
		}
		_, hasField := s.Origin.Fields.Lookup(name)
		_, hasSeq := s.Origin.Sequences[name]
		if !hasField && !hasSeq {
			continue
		}
		if reflect.DeepEqual(value(s), kept) {
			if first {
				return nil
			}
			return s
		}
		first = false
	}
	return nil
}
