package prune

import (
	"encoding/json"
	"reflect"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// readings remembers kin-openapi's reading of each skeleton's JSON and
// gives each skeleton a deep copy of it: the unchanged operations of a
// document, and of its partner, mostly read alike (the same responses of
// the same versions), and a copy costs a small part of a reading, which
// decodes every level of the operation several times over. A reading that
// holds what a copy cannot reproduce with certainty is read afresh for
// each skeleton instead (copyable).
type readings struct {
	mu sync.Mutex
	// read is each text's reading; nil where it is not copyable.
	read map[string]*openapi3.Operation
}

func newReadings() *readings { return &readings{read: map[string]*openapi3.Operation{}} }

// operation is kin-openapi's reading of text as an Operation, shared with
// no other caller.
func (r *readings) operation(text []byte) (*openapi3.Operation, error) {
	r.mu.Lock()
	known, seen := r.read[string(text)]
	r.mu.Unlock()
	if known == nil {
		op := new(openapi3.Operation)
		if err := json.Unmarshal(text, op); err != nil {
			return nil, err
		}
		if seen || !copyable(reflect.ValueOf(op), map[uintptr]bool{}) {
			if !seen {
				r.remember(text, nil) // the others read their own
			}
			return op, nil
		}
		r.remember(text, op)
		known = op
	}
	out := reflect.New(reflect.TypeFor[openapi3.Operation]())
	deepCopy(out.Elem(), reflect.ValueOf(known).Elem())
	return out.Interface().(*openapi3.Operation), nil
}

func (r *readings) remember(text []byte, known *openapi3.Operation) {
	r.mu.Lock()
	r.read[string(text)] = known
	r.mu.Unlock()
}

// mapLike are kin-openapi's types that keep their entries in an
// unexported map, read and written through their methods.
var mapLike = map[reflect.Type]bool{
	reflect.TypeFor[openapi3.Responses](): true,
	reflect.TypeFor[openapi3.Callback]():  true,
	reflect.TypeFor[openapi3.Paths]():     true,
}

// entries is the name of a map-like type's map of entries.
const entries = "m"

// copyable reports whether deepCopy reproduces v exactly: v holds no
// function, channel or unsafe pointer, no unexported field that is not
// zero (but a map-like type's entries, when it has some), and no pointer,
// map or slice reached twice (a copy would hold two).
func copyable(v reflect.Value, seen map[uintptr]bool) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if v.IsNil() {
			return true
		}
		if v.Kind() != reflect.Slice || v.Cap() > 0 {
			if seen[v.Pointer()] {
				return false
			}
			seen[v.Pointer()] = true
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		return copyable(v.Elem(), seen)
	case reflect.Interface:
		return v.IsNil() || copyable(v.Elem(), seen)
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if !copyable(it.Key(), seen) || !copyable(it.Value(), seen) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if !copyable(v.Index(i), seen) {
				return false
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := v.Field(i)
			switch {
			case t.Field(i).IsExported():
				if !copyable(f, seen) {
					return false
				}
			case mapLike[t] && t.Field(i).Name == entries:
				// Copied through Set: an empty map would come out nil.
				if !f.IsNil() && f.Len() == 0 || !v.CanAddr() {
					return false
				}
				for _, e := range mapEntries(v) {
					if !copyable(e, seen) {
						return false
					}
				}
			case !f.IsZero():
				return false
			}
		}
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return v.IsNil()
	}
	return true
}

// deepCopy sets dst, a zero value, to a copy of src that shares nothing
// with it; src is copyable.
func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if !src.IsNil() {
			p := reflect.New(src.Type().Elem())
			deepCopy(p.Elem(), src.Elem())
			dst.Set(p)
		}
	case reflect.Interface:
		if !src.IsNil() {
			e := reflect.New(src.Elem().Type()).Elem()
			deepCopy(e, src.Elem())
			dst.Set(e)
		}
	case reflect.Map:
		if !src.IsNil() {
			m := reflect.MakeMapWithSize(src.Type(), src.Len())
			for it := src.MapRange(); it.Next(); {
				k, e := reflect.New(src.Type().Key()).Elem(), reflect.New(src.Type().Elem()).Elem()
				deepCopy(k, it.Key())
				deepCopy(e, it.Value())
				m.SetMapIndex(k, e)
			}
			dst.Set(m)
		}
	case reflect.Slice:
		if !src.IsNil() {
			s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
			for i := range src.Len() {
				deepCopy(s.Index(i), src.Index(i))
			}
			dst.Set(s)
		}
	case reflect.Array:
		for i := range src.Len() {
			deepCopy(dst.Index(i), src.Index(i))
		}
	case reflect.Struct:
		if src.IsZero() {
			return
		}
		t := src.Type()
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				deepCopy(dst.Field(i), src.Field(i))
			}
		}
		if mapLike[t] {
			set := dst.Addr().MethodByName("Set")
			for key, e := range mapEntries(src) {
				c := reflect.New(e.Type()).Elem()
				deepCopy(c, e)
				set.Call([]reflect.Value{reflect.ValueOf(key), c})
			}
		}
	default:
		dst.Set(src)
	}
}

// mapEntries are the entries of v, an addressable value of a map-like
// type, as its Map method gives them.
func mapEntries(v reflect.Value) map[string]reflect.Value {
	m := v.Addr().MethodByName("Map").Call(nil)[0]
	out := make(map[string]reflect.Value, m.Len())
	for it := m.MapRange(); it.Next(); {
		out[it.Key().String()] = it.Value()
	}
	return out
}
