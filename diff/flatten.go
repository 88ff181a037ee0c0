package diff

import (
	"errors"
	"maps"
	"reflect"
	"slices"

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
	// copies maps a value of the originals to its copy.
	copies map[walked]reflect.Value
}

// operation is the copy of an operation of the originals.
func (f *flattened) operation(op *openapi3.Operation) *openapi3.Operation {
	if v, ok := f.copies[walked{reflect.TypeOf(op), reflect.ValueOf(op).Pointer()}]; ok {
		return v.Interface().(*openapi3.Operation)
	}
	return op
}

// flattenAllOf copies docs and merges the allOf of the copies. The copies
// share what the originals share (one copier), so two views of one
// snapshot still hand oasdiff the same schema twice. Every schema of the
// copies keeps the location of what it was merged from (restoreOrigins):
// the merge keeps no origins. A merge that fails is retried without the
// allOf that cannot be merged (mergeOrFallBack).
func flattenAllOf(docs ...*openapi3.T) *flattened {
	c := &copier{memo: map[walked]reflect.Value{}}
	f := &flattened{copies: c.memo}
	if !slices.ContainsFunc(docs, hasAllOf) {
		// most pull requests' documents: nothing to merge, nothing to copy
		f.docs = docs
		return f
	}
	for _, doc := range docs {
		cp := c.copy(reflect.ValueOf(*doc)).Interface().(openapi3.T)
		f.docs = append(f.docs, &cp)
	}
	for _, doc := range f.docs {
		mergeOrFallBack(doc)
	}
	r := originRestorer{done: map[*openapi3.Schema]bool{}}
	for _, doc := range docs {
		_ = doc.WalkSchemas(func(_ string, s *openapi3.SchemaRef) error {
			if cp, ok := c.memo[walked{reflect.TypeOf(s), reflect.ValueOf(s).Pointer()}]; ok {
				r.restoreRef(cp.Interface().(*openapi3.SchemaRef), []*openapi3.SchemaRef{s})
			}
			return openapi3.SkipSubtree
		})
	}
	return f
}

// mergeOrFallBack merges the allOf of doc in place. oasdiff's merge fails
// the whole document on one allOf it cannot merge (types, formats,
// defaults or consts that conflict); then every schema whose own merge
// fails keeps its allOf as written, diffed member by member as before, and
// the rest is merged. Such a schema's allOf is hidden from the merge in an
// extension, which the merge copies into every copy it makes of the
// schema, and put back after. (A schema fails with any allOf below it that
// fails, through its members or its properties: the fallback may keep more
// unmerged than the one allOf at fault, never less.) Components the merge
// adds to name recursive schemas are taken out again: the two snapshots'
// would read as components added or removed.
func mergeOrFallBack(doc *openapi3.T) {
	var names []string
	if doc.Components != nil {
		for name := range doc.Components.Schemas {
			names = append(names, name)
		}
	}
	defer func() {
		if doc.Components == nil {
			return
		}
		for name := range doc.Components.Schemas {
			if !slices.Contains(names, name) {
				delete(doc.Components.Schemas, name)
			}
		}
	}()
	var unmerged []*openapi3.Schema
	var withAllOf []*openapi3.Schema
	seen := map[*openapi3.Schema]bool{}
	_ = doc.WalkSchemas(func(_ string, s *openapi3.SchemaRef) error {
		if s.Value == nil || len(s.Value.AllOf) == 0 || seen[s.Value] {
			return nil
		}
		seen[s.Value] = true
		withAllOf = append(withAllOf, s.Value)
		if dropsProperties(s.Value) {
			unmerged = append(unmerged, s.Value)
		}
		return nil
	})
	if len(withAllOf) == 0 {
		return
	}
	if len(unmerged) == 0 {
		if _, err := allof.MergeSpec(doc); err == nil {
			return
		}
		// MergeSpec fails before it writes anything back: doc is as it was.
		for _, s := range withAllOf {
			if _, err := allof.Merge(openapi3.SchemaRef{Value: s}); err != nil {
				unmerged = append(unmerged, s)
			}
		}
	} else {
		for _, s := range withAllOf {
			if !slices.Contains(unmerged, s) {
				if _, err := allof.Merge(openapi3.SchemaRef{Value: s}); err != nil {
					unmerged = append(unmerged, s)
				}
			}
		}
	}
	for _, s := range unmerged {
		ext := maps.Clone(s.Extensions)
		if ext == nil {
			ext = map[string]any{}
		}
		ext[unmergedAllOfKey] = &unmergedAllOf{allOf: s.AllOf, extensions: s.Extensions}
		s.AllOf, s.Extensions = nil, ext
	}
	_, err := allof.MergeSpec(doc)
	_ = doc.WalkSchemas(func(_ string, s *openapi3.SchemaRef) error {
		if s.Value == nil {
			return nil
		}
		if u, ok := s.Value.Extensions[unmergedAllOfKey].(*unmergedAllOf); ok {
			s.Value.AllOf, s.Value.Extensions = u.allOf, u.extensions
		}
		return nil
	})
	// An error here is not expected (what is left merges); the merge fails
	// before it writes anything back, so doc would be diffed as written.
	_ = err
}

// hasAllOf tells a document with an allOf anywhere.
func hasAllOf(doc *openapi3.T) bool {
	found := false
	_ = doc.WalkSchemas(func(_ string, s *openapi3.SchemaRef) error {
		if s.Value != nil && len(s.Value.AllOf) > 0 {
			found = true
			return errFound
		}
		return nil
	})
	return found
}

var errFound = errors.New("found")

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

// unmergedAllOfKey is the extension that carries an allOf that cannot be
// merged through the merge.
const unmergedAllOfKey = "x-apiver-unmerged-all-of"

type unmergedAllOf struct {
	allOf      openapi3.SchemaRefs
	extensions map[string]any
}

// copier copies the parts of a document that can lead to a schema, which
// the merge rewrites in place; the rest (extensions, examples, origins) is
// shared with the original.
type copier struct {
	memo map[walked]reflect.Value
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

// originRestorer gives the merged schemas the locations of what they were
// merged from: oasdiff's merge keeps none, and oasdiff locates a change by
// its schema's origin (or, for a branch, its $ref's). A merged schema takes
// the location of the first schema it merges (the one that held the allOf,
// else the first member), and each keyword the location of the first that
// wrote it, so an enum written beside a $ref is located where it is
// written.
type originRestorer struct {
	done map[*openapi3.Schema]bool
}

// restoreRef restores the origins of merged, a reference the merge made
// of the references from.
func (r originRestorer) restoreRef(merged *openapi3.SchemaRef, from []*openapi3.SchemaRef) {
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
		if f.Value != nil {
			values = append(values, f.Value)
		}
	}
	r.restore(merged.Value, values)
}

func (r originRestorer) restore(merged *openapi3.Schema, from []*openapi3.Schema) {
	if merged == nil || r.done[merged] || len(from) == 0 {
		return
	}
	r.done[merged] = true
	if len(merged.AllOf) == 0 {
		// merged: what it merged is its inputs and their allOf members,
		// the members' own allOf merged as well
		from = expandAllOf(from)
	}
	if merged.Origin == nil {
		merged.Origin = mergedOrigin(from)
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
// and sequence locations of the others that it lacks. The originals'
// origins are shared, never changed: one extended is a copy.
func mergedOrigin(from []*openapi3.Schema) *openapi3.Origin {
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
	return out
}
