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
// item of a sequence and the end of each mapping lie in the text. Apply
// sets them on the document loaded from that text.
type Origins struct {
	root *yaml.Node
	// at is where keys and scalar items start, and where mappings (and
	// what is written {} in their place) end.
	at map[*yaml.Node]textPosition
	// replace and remove are the writer's: what the text holds in place
	// of a node, and the keys of the entries it leaves out.
	replace map[*yaml.Node]string
	remove  map[*yaml.Node]bool
}

type textPosition struct{ line, column int32 }

// componentRef reports whether a $ref's value names a component of a kind
// the loader resolves by sharing the component's value, which Apply then
// reaches where the component is. The others (a path item's, a callback's,
// a pointer into anything else) are written as YAML.
func componentRef(v *yaml.Node) bool {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		return false
	}
	kind, name, ok := strings.Cut(strings.TrimPrefix(v.Value, "#/components/"), "/")
	if !ok || len(kind) == len(v.Value) || name == "" || strings.Contains(name, "/") {
		return false
	}
	switch kind {
	case "schemas", "parameters", "responses", "requestBodies", "headers", "securitySchemes", "examples", "links":
		return true
	}
	return false
}

// Apply sets on doc, loaded from the text the origins were written with,
// the origins the loader's YAML reading of that text sets, in file (the
// name the loader gives the document). The loader sets them before it
// resolves $refs, when a $ref's value is still nil; here they are set
// after, so a $ref's value, which is the component's, is not entered: the
// component gets its origins where it is.
func (o *Origins) Apply(doc *openapi3.T, file string) {
	root := o.root
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	a := applier{Origins: o, file: file}
	// The reading names the root mapping's origin after its first key,
	// with an empty name.
	var key originKey
	if a.firstKey(root) != nil {
		key.root = true
	}
	a.value(reflect.ValueOf(doc), root, key)
}

// originKey names a mapping's origin: the key whose value it is, the first
// key of a mapping in a sequence, or the document's first key (root).
// The zero originKey: the mapping has none.
type originKey struct {
	node *yaml.Node
	root bool
}

type applier struct {
	*Origins
	file string
}

// written is what the text holds of n: its kind, and whether it is
// written as {} or "" in its place.
func (a applier) written(n *yaml.Node) (kind yaml.Kind, cut bool) {
	switch a.replace[n] {
	case "{}":
		return yaml.MappingNode, true
	case `""`:
		return yaml.ScalarNode, true
	}
	return n.Kind, false
}

// entries calls f with each entry of the mapping n that the text holds.
func (a applier) entries(n *yaml.Node, f func(k, v *yaml.Node)) {
	if kind, cut := a.written(n); kind != yaml.MappingNode || cut {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !a.remove[k] {
			f(k, n.Content[i+1])
		}
	}
}

// firstKey is the first key of the mapping n that the text holds.
func (a applier) firstKey(n *yaml.Node) *yaml.Node {
	if kind, cut := a.written(n); kind != yaml.MappingNode || cut {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !a.remove[k] {
			return k
		}
	}
	return nil
}

// tree reports whether the reading records anything of n: a mapping that
// is a mapping's value always, a sequence when one of its items does.
func (a applier) tree(n *yaml.Node) bool {
	switch kind, cut := a.written(n); {
	case kind == yaml.MappingNode:
		return true
	case kind == yaml.SequenceNode && !cut:
		for _, item := range n.Content {
			if a.itemKey(item).node != nil || a.tree(item) && item.Kind == yaml.SequenceNode {
				return true
			}
		}
	}
	return false
}

// itemKey names the origin of a sequence's item: a mapping that holds an
// entry has one.
func (a applier) itemKey(item *yaml.Node) originKey {
	if kind, _ := a.written(item); kind != yaml.MappingNode {
		return originKey{}
	}
	return originKey{node: a.firstKey(item)}
}

func (a applier) location(at textPosition, name string) openapi3.Location {
	return openapi3.Location{File: a.file, Line: int(at.line), Column: int(at.column), Name: name}
}

// origin is the origin of the mapping n, named by key.
func (a applier) origin(n *yaml.Node, key originKey) *openapi3.Origin {
	first := key.node
	name := ""
	if key.root {
		first = a.firstKey(n)
	} else {
		name = first.Value
	}
	k := a.location(a.at[first], name)
	end := a.at[n]
	k.EndLine, k.EndColumn = int(end.line), int(end.column)
	origin := &openapi3.Origin{Key: &k}
	if len(n.Content) > 0 {
		origin.Fields = make(openapi3.FieldLocations, 0, len(n.Content)/2)
	}
	a.entries(n, func(f, v *yaml.Node) {
		origin.Fields = append(origin.Fields, a.location(a.at[f], f.Value))
		if kind, cut := a.written(v); kind != yaml.SequenceNode || cut {
			return
		}
		var items []openapi3.Location
		for _, item := range v.Content {
			switch kind, cut := a.written(item); {
			case cut && kind == yaml.ScalarNode:
				items = append(items, a.location(a.at[item], ""))
			case kind == yaml.ScalarNode:
				items = append(items, a.location(a.at[item], item.Value))
			}
		}
		if items != nil {
			if origin.Sequences == nil {
				origin.Sequences = map[string][]openapi3.Location{}
			}
			origin.Sequences[f.Value] = items
		}
	})
	if len(origin.Fields) == 0 {
		origin.Fields = nil // as the reading leaves a mapping without keys
	}
	return origin
}

// value sets the origins of val, read from n, as the reading does: a
// struct with an Origin field gets the origin of its mapping, and its
// fields, by their JSON names, those of the mapping's entries.
func (a applier) value(val reflect.Value, n *yaml.Node, key originKey) {
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
		if kind, cut := a.written(n); kind != yaml.SequenceNode || cut {
			return
		}
		for i, item := range n.Content {
			if i >= val.Len() {
				break
			}
			if k := a.itemKey(item); k.node != nil || item.Kind == yaml.SequenceNode && a.tree(item) {
				a.value(val.Index(i), item, k)
			}
		}
	}
}

func (a applier) structure(val, ptr reflect.Value, n *yaml.Node, key originKey) {
	fields := fieldsOf(val.Type())
	var origin *openapi3.Origin
	if (key.node != nil || key.root) && fields.origin != nil {
		origin = a.origin(n, key)
		val.FieldByIndex(fields.origin).Set(reflect.ValueOf(origin))
	}
	a.entries(n, func(k, v *yaml.Node) {
		for _, i := range fields.named[k.Value] {
			if !a.tree(v) {
				continue
			}
			field := val.Field(i)
			if origin != nil && scalarMap(field) {
				a.mapKeys(origin, k.Value, v)
			}
			a.value(field, v, a.valueKey(k, v))
		}
	})
	for _, index := range fields.wrapped {
		// A $ref's value is its target's, set where the target is.
		if fields.ref != nil && val.FieldByIndex(fields.ref).String() != "" && val.Type().FieldByIndex(index).Name == "Value" {
			continue
		}
		if f := val.FieldByIndex(index); !f.IsNil() {
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

// valueKey names the origin of an entry's value: the entry's key, when
// the value is a mapping.
func (a applier) valueKey(k, v *yaml.Node) originKey {
	if kind, _ := a.written(v); kind == yaml.MappingNode {
		return originKey{node: k}
	}
	return originKey{}
}

// mapping sets the origins of the values of a Go map from the entries of n.
func (a applier) mapping(val reflect.Value, n *yaml.Node) {
	if val.Type().Key().Kind() != reflect.String {
		return
	}
	a.entries(n, func(k, v *yaml.Node) {
		if !a.tree(v) {
			return
		}
		elem := val.MapIndex(reflect.ValueOf(k.Value).Convert(val.Type().Key()))
		switch elem.Kind() {
		case reflect.Pointer:
			a.value(elem, v, a.valueKey(k, v))
		case reflect.Struct:
			// Map values cannot be set in place.
			cp := reflect.New(elem.Type()).Elem()
			cp.Set(elem)
			a.structure(cp, reflect.Value{}, v, a.valueKey(k, v))
			val.SetMapIndex(reflect.ValueOf(k.Value).Convert(val.Type().Key()), cp)
		}
	})
}

// mapKeys records, as the reading does, where the keys of a map of
// scalars (a flow's scopes) are, sorted by name, under its field's name.
func (a applier) mapKeys(origin *openapi3.Origin, field string, v *yaml.Node) {
	var keys []openapi3.Location
	a.entries(v, func(k, _ *yaml.Node) { keys = append(keys, a.location(a.at[k], k.Value)) })
	if len(keys) == 0 {
		return
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
	// wrapped are the Value and Schema fields without a JSON name, which
	// hold the struct's value (a $ref's, an additionalProperties').
	wrapped [][]int
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
	for _, name := range []string{"Value", "Schema"} {
		if sf, ok := t.FieldByName(name); ok && sf.Type.Kind() == reflect.Pointer && sf.Tag.Get("json") == "" {
			f.wrapped = append(f.wrapped, sf.Index)
		}
	}
	if sf, ok := t.FieldByName("Ref"); ok && sf.Type.Kind() == reflect.String {
		f.ref = sf.Index
	}
	if m, ok := reflect.PointerTo(t).MethodByName("Map"); ok && m.Type.NumIn() == 1 && m.Type.NumOut() == 1 {
		f.maplike = true
	}
	structFieldsCache.Store(t, f)
	return f
}
