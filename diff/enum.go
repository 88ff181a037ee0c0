package diff

import (
	"hash/maphash"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	oasdiff "github.com/oasdiff/oasdiff/diff"
)

// largeEnum is the number of distinct values above which an enum is
// compared by set difference rather than by oasdiff, whose scan of one
// enum for each value of the other takes minutes on a few hundred thousand
// values. A variable so that tests can take every enum, or none, that way.
var largeEnum = 64

// enumStandIn replaces a large enum while oasdiff runs. Two stand-ins are
// equal exactly when their enums hold the same values, so oasdiff finds the
// same enums changed, and the same schemas, as with the values themselves.
type enumStandIn struct{ set int }

// enumStandIns holds the large enums of a diff's two documents while their
// stand-ins are in place.
type enumStandIns struct {
	values map[*openapi3.Schema][]any
	sets   map[*openapi3.Schema]*valueSet
}

// replaceLargeEnums puts a stand-in in place of every large enum that the
// documents reach. The caller restores them (restore) once oasdiff is done.
func replaceLargeEnums(docs ...*openapi3.T) *enumStandIns {
	s := &enumStandIns{values: map[*openapi3.Schema][]any{}, sets: map[*openapi3.Schema]*valueSet{}}
	type group struct {
		set   *valueSet
		token []any
	}
	groups := map[uint64][]group{}
	tokens := 0
	w := schemaWalker{seen: map[walked]bool{}, visit: func(schema *openapi3.Schema) {
		if len(schema.Enum) <= largeEnum {
			return
		}
		set := newValueSet(schema.Enum)
		if set.len() <= largeEnum || set.unequalToItself {
			return
		}
		// Equal sets share a token; every other comparison of a stand-in
		// (with another set, a smaller enum or none) is unequal, as the
		// values would be: equal sets have as many distinct values.
		sum := set.sum()
		i := slices.IndexFunc(groups[sum], func(g group) bool { return g.set.equal(set) })
		if i < 0 {
			i = len(groups[sum])
			groups[sum] = append(groups[sum], group{set, []any{enumStandIn{tokens}}})
			tokens++
		}
		s.values[schema], s.sets[schema] = schema.Enum, set
		schema.Enum = groups[sum][i].token
	}}
	for _, doc := range docs {
		w.walk(reflect.ValueOf(doc))
	}
	return s
}

// restore puts the enums back and recomputes, from their values, each enum
// diff that oasdiff made of a stand-in, as oasdiff would have made it.
// Copies of a schema diff share its enum diff, so it is rewritten in place.
func (s *enumStandIns) restore(report *oasdiff.Diff) {
	for schema, values := range s.values {
		schema.Enum = values
	}
	if report == nil || len(s.values) == 0 {
		return
	}
	walkSchemaDiffs(reflect.ValueOf(report), map[uintptr]bool{}, func(d *oasdiff.SchemaDiff) {
		_, base := s.values[d.Base]
		_, revision := s.values[d.Revision]
		if d.EnumDiff == nil || (!base && !revision) {
			return
		}
		d.EnumDiff.Deleted = appendMissing(oasdiff.EnumValues{}, d.Base.Enum, s.setOf(d.Revision))
		d.EnumDiff.Added = appendMissing(oasdiff.EnumValues{}, d.Revision.Enum, s.setOf(d.Base))
	})
}

func (s *enumStandIns) setOf(schema *openapi3.Schema) *valueSet {
	if set, ok := s.sets[schema]; ok {
		return set
	}
	return newValueSet(schema.Enum)
}

// appendMissing appends, in order, the values that set lacks.
func appendMissing[S ~[]any](dst S, values []any, set *valueSet) S {
	for _, v := range values {
		if !set.has(v) {
			dst = append(dst, v)
		}
	}
	return dst
}

// valueSet holds values distinct under reflect.DeepEqual, oasdiff's
// comparison of enum values, filed by a key that equal values share.
type valueSet struct {
	buckets map[string][]any
	n       int
	// unequalToItself is set by a value that no set can find, itself
	// included (a NaN), so that the set cannot stand in for its values.
	unequalToItself bool
}

var keySeed = maphash.MakeSeed()

func newValueSet(values []any) *valueSet {
	s := &valueSet{buckets: make(map[string][]any, len(values))}
	for _, v := range values {
		if _, isString := v.(string); !isString && !reflect.DeepEqual(v, v) {
			s.unequalToItself = true
		}
		if key := valueKey(v); !slices.ContainsFunc(s.buckets[key], equalTo(v)) {
			s.buckets[key] = append(s.buckets[key], v)
			s.n++
		}
	}
	return s
}

func equalTo(v any) func(any) bool {
	return func(w any) bool { return reflect.DeepEqual(v, w) }
}

func (s *valueSet) len() int { return s.n }

func (s *valueSet) has(v any) bool {
	return slices.ContainsFunc(s.buckets[valueKey(v)], equalTo(v))
}

// equal reports whether each set holds every value of the other.
func (s *valueSet) equal(t *valueSet) bool {
	if s.n != t.n {
		return false
	}
	for _, bucket := range s.buckets {
		for _, v := range bucket {
			if !t.has(v) {
				return false
			}
		}
	}
	return true
}

// sum is a hash of the set that equal sets share, whatever their order.
func (s *valueSet) sum() uint64 {
	var sum uint64
	for key, bucket := range s.buckets {
		sum += maphash.String(keySeed, key) * uint64(len(bucket))
	}
	return sum
}

// valueKey is a key that every value reflect.DeepEqual to v shares: exact
// for the values a JSON or YAML document holds (null, booleans, numbers,
// strings, arrays and objects of them), the type alone for others.
func valueKey(v any) string {
	var b strings.Builder
	writeValueKey(&b, v, 0)
	return b.String()
}

// writeValueKey writes the key of v; below a depth that no document
// reaches (a cyclic value), one key for all.
func writeValueKey(b *strings.Builder, v any, depth int) {
	if depth > 32 {
		b.WriteString("…")
		return
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(strconv.Quote(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case float64:
		if v == 0 {
			v = 0 // -0, which DeepEqual finds equal to 0
		}
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	case []any:
		b.WriteByte('[')
		for _, e := range v {
			writeValueKey(b, e, depth+1)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case map[string]any:
		entries := make([]string, 0, len(v))
		for k, e := range v {
			var entry strings.Builder
			entry.WriteString(strconv.Quote(k) + ":")
			writeValueKey(&entry, e, depth+1)
			entries = append(entries, entry.String())
		}
		slices.Sort(entries)
		b.WriteByte('{')
		for _, e := range entries {
			b.WriteString(e)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default:
		b.WriteString(reflect.TypeOf(v).String())
	}
}

// schemaWalker visits every schema a document reaches, once. It only
// follows the fields that can lead to one (schemaFields).
type schemaWalker struct {
	seen  map[walked]bool
	visit func(*openapi3.Schema)
}

// walked is a pointer followed, with its type: a struct and its first
// field share an address.
type walked struct {
	t reflect.Type
	p uintptr
}

func (w *schemaWalker) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || w.seen[walked{v.Type(), v.Pointer()}] {
			return
		}
		w.seen[walked{v.Type(), v.Pointer()}] = true
		switch p := v.Interface().(type) {
		case *openapi3.Schema:
			w.visit(p)
		case *openapi3.Paths:
			w.walk(reflect.ValueOf(p.Map()))
			return
		case *openapi3.Responses:
			w.walk(reflect.ValueOf(p.Map()))
			return
		case *openapi3.Callback:
			w.walk(reflect.ValueOf(p.Map()))
			return
		}
		w.walk(v.Elem())
	case reflect.Struct:
		for _, i := range schemaFields[v.Type()] {
			w.walk(v.Field(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			w.walk(it.Value())
		}
	case reflect.Slice:
		for i := range v.Len() {
			w.walk(v.Index(i))
		}
	}
}

// mapLike are kin-openapi's types that keep their entries in an unexported
// map, read with their Map method, and the type of the entries.
var mapLike = map[reflect.Type]reflect.Type{
	reflect.TypeFor[openapi3.Paths]():     reflect.TypeFor[map[string]*openapi3.PathItem](),
	reflect.TypeFor[openapi3.Responses](): reflect.TypeFor[map[string]*openapi3.ResponseRef](),
	reflect.TypeFor[openapi3.Callback]():  reflect.TypeFor[map[string]*openapi3.PathItem](),
}

// schemaHolders are the types of a document's values that can lead to a
// schema, and schemaFields the fields of each struct among them that can:
// the walk skips the rest (extensions, examples, origins, enum values).
var schemaHolders, schemaFields = findSchemaHolders()

func findSchemaHolders() (map[reflect.Type]bool, map[reflect.Type][]int) {
	next := map[reflect.Type][]reflect.Type{}
	var collect func(t reflect.Type)
	collect = func(t reflect.Type) {
		if _, ok := next[t]; ok {
			return
		}
		next[t] = nil
		var out []reflect.Type
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			out = append(out, t.Elem())
		case reflect.Struct:
			for f := range t.Fields() {
				if f.IsExported() {
					out = append(out, f.Type)
				}
			}
			if entries, ok := mapLike[t]; ok {
				out = append(out, entries)
			}
		}
		next[t] = out
		for _, u := range out {
			collect(u)
		}
	}
	collect(reflect.TypeFor[openapi3.T]())

	holders := map[reflect.Type]bool{reflect.TypeFor[openapi3.Schema](): true}
	for changed := true; changed; {
		changed = false
		for t, out := range next {
			if !holders[t] && slices.ContainsFunc(out, func(u reflect.Type) bool { return holders[u] }) {
				holders[t], changed = true, true
			}
		}
	}
	fields := map[reflect.Type][]int{}
	for t := range holders {
		if t.Kind() != reflect.Struct {
			continue
		}
		for f := range t.Fields() {
			if f.IsExported() && holders[f.Type] {
				fields[t] = append(fields[t], f.Index[0])
			}
		}
	}
	return holders, fields
}
