package prune

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A part's JSON is read into kin-openapi's types only where a rule cannot
// tell that the reading succeeds: most parts hold only names, strings,
// booleans, small numbers and the {} of schemas read apart, and reflection
// into kin-openapi's types costs most of a check of a small change.
//
// The rules follow encoding/json's reading of a struct (a key names a
// field exactly or, ignoring case, another: that one is not judged; any
// other key is left to the extensions, which never fail) and the custom
// readings of kin-openapi's types, each written out below. They only say
// yes where the reading cannot fail; anything else (a null, a key with an
// escape or outside ASCII, a number of more than 15 digits, a type no
// rule covers) is read by kin-openapi, as before.

type acceptKind uint8

const (
	acceptNever acceptKind = iota
	acceptAny              // any: any value, its numbers within float64
	acceptString
	acceptBool
	acceptUint   // uint64: an unsigned integer written without fraction or exponent
	acceptFloat  // float64: any number within float64
	acceptStruct // an object, read field by field
	acceptSchema // a Schema: a boolean, or an object read as a struct
	acceptList   // an array of elem
	acceptMap    // an object of elem, any keys
	acceptRef    // a ...Ref: an object with no $ref is read as its Value, elem
	acceptTypes  // Types: a string, or an array of strings
	acceptBoolSchema
	acceptBound   // ExclusiveBound: a boolean or a number
	acceptMapLike // Responses, Callback: x- keys are kept as they are, the others read as elem
)

type acceptRule struct {
	kind   acceptKind
	elem   *acceptRule
	fields map[string]*acceptRule
	// folded holds the fields' names in lower case: a key that differs
	// from one only in case is read into that field.
	folded map[string]bool
}

// kinStructs are the kin-openapi types whose UnmarshalJSON reads the JSON
// into the struct's own fields and then keeps every key into the
// extensions, which cannot fail: their reading fails exactly as
// encoding/json's reading of the struct does.
var kinStructs = typeSet(openapi3.Operation{}, openapi3.Parameter{}, openapi3.Response{}, openapi3.Encoding{},
	openapi3.Example{}, openapi3.Link{}, openapi3.Discriminator{}, openapi3.XML{}, openapi3.ExternalDocs{},
	openapi3.RequestBody{}, openapi3.Server{}, openapi3.ServerVariable{}, openapi3.MediaType{}, openapi3.PathItem{},
	openapi3.Schema{})

// refTypes read an object whose $ref is a string as a reference, which
// cannot fail (what lies beside it is kept, or its error noted, not
// returned), and anything else as their Value.
var refTypes = typeSet(openapi3.SchemaRef{}, openapi3.ParameterRef{}, openapi3.HeaderRef{}, openapi3.RequestBodyRef{},
	openapi3.ResponseRef{}, openapi3.ExampleRef{}, openapi3.LinkRef{}, openapi3.CallbackRef{}, openapi3.SecuritySchemeRef{})

func typeSet(values ...any) map[reflect.Type]bool {
	set := map[reflect.Type]bool{}
	for _, v := range values {
		set[reflect.TypeOf(v)] = true
	}
	return set
}

// acceptRules are the rules of the validator's targets, by shape.
var acceptRules = func() map[*shape]*acceptRule {
	built := map[reflect.Type]*acceptRule{}
	rules := map[*shape]*acceptRule{}
	for s, target := range targets {
		rules[s] = ruleOf(reflect.TypeOf(target()).Elem().Elem(), built)
	}
	return rules
}()

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// ruleOf is the rule of type t; built holds those made, so that a type
// that holds itself (a schema) refers to its own rule.
func ruleOf(t reflect.Type, built map[reflect.Type]*acceptRule) *acceptRule {
	if r := built[t]; r != nil {
		return r
	}
	switch {
	case t == reflect.TypeFor[openapi3.Header]():
		// Header reads itself as its Parameter.
		return ruleOf(reflect.TypeFor[openapi3.Parameter](), built)
	case t.Kind() == reflect.Pointer:
		return ruleOf(t.Elem(), built)
	}
	// Made before its fields', so that a type that holds itself refers to it.
	r := &acceptRule{}
	built[t] = r
	switch {
	case t == reflect.TypeFor[openapi3.Types]():
		r.kind = acceptTypes
	case t == reflect.TypeFor[openapi3.BoolSchema]():
		r.kind, r.elem = acceptBoolSchema, ruleOf(reflect.TypeFor[*openapi3.SchemaRef](), built)
	case t == reflect.TypeFor[openapi3.ExclusiveBound]():
		r.kind = acceptBound
	case t == reflect.TypeFor[openapi3.MappingRef]():
		// Its UnmarshalText takes any string.
		r.kind = acceptString
	case t == reflect.TypeFor[openapi3.Responses]():
		r.kind, r.elem = acceptMapLike, ruleOf(reflect.TypeFor[*openapi3.ResponseRef](), built)
	case t == reflect.TypeFor[openapi3.Callback]():
		r.kind, r.elem = acceptMapLike, ruleOf(reflect.TypeFor[*openapi3.PathItem](), built)
	case refTypes[t]:
		// Read as its Value unless a key names $ref.
		value, _ := t.FieldByName("Value")
		r.kind, r.elem = acceptRef, ruleOf(value.Type, built)
	case kinStructs[t]:
		r.kind = acceptStruct
		if t == reflect.TypeFor[openapi3.Schema]() {
			r.kind = acceptSchema
		}
		r.fields, r.folded = map[string]*acceptRule{}, map[string]bool{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" && opts == "" {
				continue
			}
			if f.Anonymous || strings.Contains(","+opts+",", ",string,") {
				r.kind = acceptNever // encoding/json's promotion and quoting: not followed
				return r
			}
			if name == "" {
				name = f.Name
			}
			r.fields[name] = ruleOf(f.Type, built)
			r.folded[strings.ToLower(name)] = true
		}
	case reflect.PointerTo(t).Implements(unmarshalerType) || t.Implements(unmarshalerType):
		// A reading of its own that no rule follows.
	case t.Kind() == reflect.String:
		r.kind = acceptString
	case t.Kind() == reflect.Bool:
		r.kind = acceptBool
	case t.Kind() == reflect.Uint64:
		r.kind = acceptUint
	case t.Kind() == reflect.Float64:
		r.kind = acceptFloat
	case t.Kind() == reflect.Interface && t.NumMethod() == 0:
		r.kind = acceptAny
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		r.kind, r.elem = acceptList, ruleOf(t.Elem(), built)
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String:
		r.kind, r.elem = acceptMap, ruleOf(t.Elem(), built)
	}
	return r
}

// accepts reports whether kin-openapi reads the JSON text into a value of
// shape s's type without an error; false says nothing.
func accepts(s *shape, text []byte) bool {
	r := acceptRules[s]
	if r == nil || longDigits(text) {
		return false
	}
	a := &jsonReader{text: text}
	return a.value(r) && a.space() == len(text)
}

// jsonReader walks a JSON text, judging each value by a rule.
type jsonReader struct {
	text []byte
	i    int
}

func (a *jsonReader) space() int {
	for a.i < len(a.text) && (a.text[a.i] == ' ' || a.text[a.i] == '\t' || a.text[a.i] == '\n' || a.text[a.i] == '\r') {
		a.i++
	}
	return a.i
}

func (a *jsonReader) peek() byte {
	if a.space() < len(a.text) {
		return a.text[a.i]
	}
	return 0
}

func (a *jsonReader) value(r *acceptRule) bool {
	switch c := a.peek(); r.kind {
	case acceptAny:
		return a.skip()
	case acceptString:
		_, ok := a.str()
		return ok
	case acceptBool:
		return a.boolean()
	case acceptUint:
		n, ok := a.number()
		_, err := strconv.ParseUint(n, 10, 64)
		return ok && err == nil
	case acceptFloat:
		_, ok := a.number()
		return ok
	case acceptSchema, acceptStruct:
		if c != '{' {
			return r.kind == acceptSchema && a.boolean()
		}
		return a.object(func(key string, escaped bool) bool {
			if field := r.fields[key]; field != nil && !escaped {
				return a.value(field)
			}
			if escaped || !isASCII(key) || r.folded[strings.ToLower(key)] {
				return false
			}
			return a.skip()
		})
	case acceptList:
		return a.array(func() bool { return a.value(r.elem) })
	case acceptMap:
		return a.object(func(string, bool) bool { return a.value(r.elem) })
	case acceptRef:
		if c == '{' {
			start := a.i
			ref, ok := a.reference()
			if ref || !ok {
				return ref && ok
			}
			a.i = start
		}
		return a.value(r.elem)
	case acceptTypes:
		if c == '"' {
			_, ok := a.str()
			return ok
		}
		return a.array(func() bool {
			_, ok := a.str()
			return ok
		})
	case acceptBoolSchema:
		// A non-empty object is written again and read as a SchemaRef;
		// numbers of 15 digits or fewer are written back as they are.
		return a.boolean() || c == '{' && a.value(r.elem)
	case acceptBound:
		if c == 't' || c == 'f' {
			return a.boolean()
		}
		_, ok := a.number()
		return ok
	case acceptMapLike:
		return a.object(func(key string, escaped bool) bool {
			if escaped {
				return false
			}
			if strings.HasPrefix(key, "x-") {
				return a.skip()
			}
			return a.value(r.elem)
		})
	}
	return false
}

// reference reads an object as a ...Ref's reading of it as a Ref: ref
// says it names a $ref, a string that is not empty; ok, that the reading
// cannot fail, or that ref is false and the object is read as its Value.
func (a *jsonReader) reference() (ref, ok bool) {
	ok = a.object(func(key string, escaped bool) bool {
		switch {
		case escaped || !isASCII(key):
			return false
		case key == "$ref":
			s, ok := a.str()
			ref = ref || s != ""
			return ok
		case key == "summary" || key == "description":
			_, ok := a.str()
			return ok
		case strings.EqualFold(key, "$ref") || strings.EqualFold(key, "summary") || strings.EqualFold(key, "description"):
			return false
		}
		return a.skip()
	})
	return ref, ok
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// object reads an object, calling member for each key with the reader at
// its value; escaped says the key holds an escape, as written.
func (a *jsonReader) object(member func(key string, escaped bool) bool) bool {
	return a.items('{', '}', func() bool {
		if a.peek() != '"' {
			return false
		}
		key, ok := a.str()
		if !ok || a.peek() != ':' {
			return false
		}
		a.i++
		return member(key, strings.IndexByte(key, '\\') >= 0)
	})
}

func (a *jsonReader) array(elem func() bool) bool { return a.items('[', ']', elem) }

// items reads a collection between open and close, item by item.
func (a *jsonReader) items(open, close byte, item func() bool) bool {
	if a.peek() != open {
		return false
	}
	a.i++
	if a.peek() == close {
		a.i++
		return true
	}
	for {
		if !item() {
			return false
		}
		switch a.peek() {
		case ',':
			a.i++
		case close:
			a.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string, and returns it as written between its quotes.
func (a *jsonReader) str() (string, bool) {
	if a.peek() != '"' {
		return "", false
	}
	start := a.i + 1
	for a.i = start; a.i < len(a.text); a.i++ {
		switch c := a.text[a.i]; {
		case c == '"':
			a.i++
			return string(a.text[start : a.i-1]), true
		case c == '\\':
			if a.i++; a.i >= len(a.text) {
				return "", false
			}
			switch a.text[a.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if a.i+4 >= len(a.text) || !isHex(a.text[a.i+1:a.i+5]) {
					return "", false
				}
				a.i += 4
			default:
				return "", false
			}
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

func (a *jsonReader) boolean() bool {
	for _, lit := range [][]byte{[]byte("true"), []byte("false")} {
		if a.peek() == lit[0] && bytes.HasPrefix(a.text[a.i:], lit) {
			a.i += len(lit)
			return true
		}
	}
	return false
}

// number reads a number, as written, that float64 holds.
func (a *jsonReader) number() (string, bool) {
	start := a.space()
	for a.i < len(a.text) && strings.IndexByte("+-.0123456789eE", a.text[a.i]) >= 0 {
		a.i++
	}
	n := string(a.text[start:a.i])
	if n == "" || !json.Valid(a.text[start:a.i]) {
		return "", false
	}
	_, err := strconv.ParseFloat(n, 64)
	return n, err == nil
}

// skip reads any value.
func (a *jsonReader) skip() bool {
	switch a.peek() {
	case '{':
		return a.object(func(string, bool) bool { return a.skip() })
	case '[':
		return a.array(a.skip)
	case '"':
		_, ok := a.str()
		return ok
	case 't', 'f':
		return a.boolean()
	case 'n':
		if bytes.HasPrefix(a.text[a.i:], []byte("null")) {
			a.i += 4
			return true
		}
		return false
	}
	_, ok := a.number()
	return ok
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
