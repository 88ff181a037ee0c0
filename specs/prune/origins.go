package prune

import (
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// Origins are the origins that kin-openapi's YAML reading (with origins,
// as the loader reads a YAML text) gives a text that the writer wrote as
// JSON, which the loader reads without them: where each key, each scalar
// item of a sequence and the end of each mapping lie in the text, kept
// apart from the parse tree, which is released before the load. Apply
// sets them on the document loaded from that text.
type Origins struct {
	root *originNode
}

// originNode is a mapping or a sequence of the text, as the reading's
// origins see it.
type originNode struct {
	mapping bool
	// end is where a mapping ends.
	end textPosition
	// entries are a mapping's, as written.
	entries []originEntry
	// items are a sequence's; tree says one of them has origins.
	items []originEntry
	tree  bool
}

// originEntry is a mapping's entry (its key's name and place) or a
// sequence's item (a scalar's value and place); value is the mapping or
// sequence it holds, nil for a scalar.
type originEntry struct {
	name  string
	at    textPosition
	value *originNode
}

type textPosition struct{ line, column int32 }

// itemTree reports whether the reading records anything of n as an item of
// a sequence: a mapping that holds an entry, or a sequence one of whose
// items it records.
func (n *originNode) itemTree() bool {
	if n.mapping {
		return len(n.entries) > 0
	}
	return n.tree
}

// valueTree is itemTree for the value of a mapping's entry, where every
// mapping has an origin.
func (n *originNode) valueTree() bool { return n != nil && (n.mapping || n.tree) }

// componentRef reports whether a $ref's value names a component of a kind
// the loader resolves by sharing the component's value, which Apply then
// reaches where the component is. The others (a path item's, a callback's,
// a pointer into anything else) are written as YAML.
func componentRef(v *yaml.Node) bool {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		return false
	}
	component, ok := strings.CutPrefix(v.Value, "#/components/")
	kind, name, named := strings.Cut(component, "/")
	if !ok || !named || name == "" || strings.Contains(name, "/") {
		return false
	}
	switch kind {
	case "schemas", "parameters", "responses", "requestBodies", "headers", "securitySchemes", "examples", "links":
		return true
	}
	return false
}

// TreeOrigins are the origins the loader's YAML reading would give a
// text whose position tree is root (specs.PositionTree): where each key
// and each scalar item of a sequence lies. The loader reads a JSON text
// without origins; these locate what it read there. Nil when root is not
// a mapping.
func TreeOrigins(root *yaml.Node) *Origins {
	if root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	return &Origins{root: treeOrigins(root)}
}

// treeOrigins is the origin node of n, nil for a scalar.
func treeOrigins(n *yaml.Node) *originNode {
	at := func(n *yaml.Node) textPosition { return textPosition{int32(n.Line), int32(n.Column)} }
	switch n.Kind {
	case yaml.MappingNode:
		m := &originNode{mapping: true, entries: make([]originEntry, 0, len(n.Content)/2)}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			m.entries = append(m.entries, originEntry{name: k.Value, at: at(k), value: treeOrigins(n.Content[i+1])})
		}
		return m
	case yaml.SequenceNode:
		seq := &originNode{items: make([]originEntry, len(n.Content))}
		for i, c := range n.Content {
			if c.Kind == yaml.ScalarNode {
				seq.items[i] = originEntry{name: c.Value, at: at(c)}
			} else if v := treeOrigins(c); v != nil {
				seq.items[i].value = v
				seq.tree = seq.tree || v.itemTree()
			}
		}
		return seq
	}
	return nil
}

// Apply sets on doc, loaded from the text the origins were written with,
// the origins the loader's YAML reading of that text sets, in file (the
// name the loader gives the document). The loader sets them before it
// resolves $refs, when a $ref's value is still nil; here they are set
// after, so a $ref's value, which is the component's, is not entered: the
// component gets its origins where it is.
func (o *Origins) Apply(doc *openapi3.T, file string) {
	a := applier{file: file}
	// The reading names the root mapping's origin after its first key,
	// with an empty name.
	var key originKey
	if len(o.root.entries) > 0 {
		key = originKey{at: o.root.entries[0].at, ok: true}
	}
	a.value(reflect.ValueOf(doc), o.root, key)
}

// originKey names a mapping's origin: the key whose value it is, the first
// key of a mapping in a sequence, or the document's first key (without a
// name). ok is false where the mapping has none.
type originKey struct {
	name string
	at   textPosition
	ok   bool
}

// itemKey names the origin of a sequence's item: a mapping that holds an
// entry has one, named after its first key.
func itemKey(item *originNode) originKey {
	if !item.mapping || len(item.entries) == 0 {
		return originKey{}
	}
	return originKey{name: item.entries[0].name, at: item.entries[0].at, ok: true}
}

// valueKey names the origin of an entry's value: the entry's key, when
// the value is a mapping.
func valueKey(e originEntry) originKey {
	if e.value == nil || !e.value.mapping {
		return originKey{}
	}
	return originKey{name: e.name, at: e.at, ok: true}
}

type applier struct{ file string }

func (a applier) location(at textPosition, name string) openapi3.Location {
	return openapi3.Location{File: a.file, Line: int(at.line), Column: int(at.column), Name: name}
}

// origin is the origin of the mapping n, named by key.
func (a applier) origin(n *originNode, key originKey) *openapi3.Origin {
	k := a.location(key.at, key.name)
	k.EndLine, k.EndColumn = int(n.end.line), int(n.end.column)
	origin := &openapi3.Origin{Key: &k}
	if len(n.entries) > 0 {
		origin.Fields = make(openapi3.FieldLocations, len(n.entries))
	}
	for i, e := range n.entries {
		origin.Fields[i] = a.location(e.at, e.name)
		if e.value == nil || e.value.mapping {
			continue
		}
		var items []openapi3.Location
		for _, item := range e.value.items {
			if item.value == nil {
				items = append(items, a.location(item.at, item.name))
			}
		}
		if items != nil {
			if origin.Sequences == nil {
				origin.Sequences = map[string][]openapi3.Location{}
			}
			origin.Sequences[e.name] = items
		}
	}
	return origin
}

// value sets the origins of val, read from n, as the reading does: a
// struct with an Origin field gets the origin of its mapping, and its
// fields, by their JSON names, those of the mapping's entries.
func (a applier) value(val reflect.Value, n *originNode, key originKey) {
	var ptr reflect.Value
	for val.Kind() == reflect.Pointer || val.Kind() == reflect.Interface {
		// What the JSON reading decodes into an interface holds no struct.
		if val.IsNil() || val.Kind() == reflect.Interface {
			return
		}
		ptr = val
		val = val.Elem()
	}
	switch val.Kind() {
	case reflect.Struct:
		a.structure(val, ptr, n, key)
	case reflect.Map:
		a.mapping(val, n)
	case reflect.Slice:
		for i, item := range n.items {
			if i >= val.Len() {
				break
			}
			if item.value != nil && item.value.itemTree() {
				a.value(val.Index(i), item.value, itemKey(item.value))
			}
		}
	}
}

func (a applier) structure(val, ptr reflect.Value, n *originNode, key originKey) {
	fields := fieldsOf(val.Type())
	var origin *openapi3.Origin
	if key.ok && fields.origin != nil {
		origin = a.origin(n, key)
		val.FieldByIndex(fields.origin).Set(reflect.ValueOf(origin))
	}
	for _, e := range n.entries {
		if !e.value.valueTree() {
			continue
		}
		for _, i := range fields.named[e.name] {
			field := val.Field(i)
			if origin != nil && scalarMap(field) {
				a.mapKeys(origin, e.name, e.value)
			}
			a.value(field, e.value, valueKey(e))
		}
	}
	// A $ref's value is its target's, set where the target is.
	if fields.value != nil && (fields.ref == nil || val.FieldByIndex(fields.ref).String() == "") {
		if f := val.FieldByIndex(fields.value); !f.IsNil() {
			a.value(f, n, key)
		}
	}
	if fields.schema != nil {
		if f := val.FieldByIndex(fields.schema); !f.IsNil() {
			a.value(f, n, key)
		}
	}
	if fields.maplike {
		receiver := ptr
		if !receiver.IsValid() && val.CanAddr() {
			receiver = val.Addr()
		}
		if receiver.IsValid() {
			a.mapping(receiver.MethodByName("Map").Call(nil)[0], n)
		}
	}
}

// mapping sets the origins of the values of a Go map from the entries of n.
func (a applier) mapping(val reflect.Value, n *originNode) {
	keyType := val.Type().Key()
	if keyType.Kind() != reflect.String {
		return
	}
	for _, e := range n.entries {
		if !e.value.valueTree() {
			continue
		}
		k := reflect.ValueOf(e.name).Convert(keyType)
		switch elem := val.MapIndex(k); elem.Kind() {
		case reflect.Pointer:
			a.value(elem, e.value, valueKey(e))
		case reflect.Struct:
			// Map values cannot be set in place.
			cp := reflect.New(elem.Type()).Elem()
			cp.Set(elem)
			a.structure(cp, reflect.Value{}, e.value, valueKey(e))
			val.SetMapIndex(k, cp)
		}
	}
}

// mapKeys records, as the reading does, where the keys of a map of
// scalars (a flow's scopes) are, sorted by name, under its field's name.
func (a applier) mapKeys(origin *openapi3.Origin, field string, v *originNode) {
	if !v.mapping || len(v.entries) == 0 {
		return
	}
	keys := make([]openapi3.Location, len(v.entries))
	for i, e := range v.entries {
		keys[i] = a.location(e.at, e.name)
	}
	slices.SortFunc(keys, func(x, y openapi3.Location) int { return strings.Compare(x.Name, y.Name) })
	if origin.Sequences == nil {
		origin.Sequences = map[string][]openapi3.Location{}
	}
	origin.Sequences[field] = keys
}

// scalarMap reports whether v is a map of scalars that holds an entry.
func scalarMap(v reflect.Value) bool {
	if v.Kind() != reflect.Map || v.IsNil() || v.Len() == 0 {
		return false
	}
	switch v.Type().Elem().Kind() {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// structFields is what the reading's walk reads of a struct type.
type structFields struct {
	// origin is the Origin field the reading sets (JSON name "-").
	origin []int
	// named are the exported fields by their JSON names.
	named map[string][]int
	// value and schema are the Value and Schema fields without a JSON
	// name, which hold the struct's value (a $ref's, an
	// additionalProperties').
	value, schema []int
	// ref is the Ref field of a $ref's struct.
	ref []int
	// maplike: its pointer's Map method gives its entries (paths,
	// responses, callbacks).
	maplike bool
}

var structFieldsCache sync.Map // reflect.Type → *structFields

var originType = reflect.TypeFor[*openapi3.Origin]()

func fieldsOf(t reflect.Type) *structFields {
	if f, ok := structFieldsCache.Load(t); ok {
		return f.(*structFields)
	}
	f := &structFields{named: map[string][]int{}}
	if sf, ok := t.FieldByName("Origin"); ok && sf.Type == originType && sf.Tag.Get("json") == "-" {
		f.origin = sf.Index
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			f.named[name] = append(f.named[name], i)
		}
	}
	wrapper := func(name string) []int {
		if sf, ok := t.FieldByName(name); ok && sf.Type.Kind() == reflect.Pointer && sf.Tag.Get("json") == "" {
			return sf.Index
		}
		return nil
	}
	f.value, f.schema = wrapper("Value"), wrapper("Schema")
	if sf, ok := t.FieldByName("Ref"); ok && sf.Type.Kind() == reflect.String {
		f.ref = sf.Index
	}
	if m, ok := reflect.PointerTo(t).MethodByName("Map"); ok && m.Type.NumIn() == 1 && m.Type.NumOut() == 1 {
		f.maplike = true
	}
	structFieldsCache.Store(t, f)
	return f
}
