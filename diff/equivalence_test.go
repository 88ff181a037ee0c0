package diff

import (
	"reflect"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	oasdiff "github.com/oasdiff/oasdiff/diff"
)

// TestSameSchema: schemas compare by value through their $refs, cycles
// included, their descriptions aside; any other keyword tells them apart.
func TestSameSchema(t *testing.T) {
	t.Parallel()
	node := func(desc string, max float64) *openapi3.Schema {
		s := &openapi3.Schema{Type: &openapi3.Types{"object"}, Description: desc, Properties: openapi3.Schemas{}}
		s.Properties["n"] = &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{"integer"}, Max: &max}}
		// A cycle: the node holds itself under another name.
		s.Properties["next"] = &openapi3.SchemaRef{Ref: "#/components/schemas/" + desc, Value: s}
		return s
	}
	same := func(a, b *openapi3.Schema) bool {
		return sameSchema(reflect.ValueOf(a), reflect.ValueOf(b), map[[2]uintptr]bool{})
	}
	if !same(node("A", 9), node("B", 9)) {
		t.Errorf("two copies that differ in description and $ref names differ")
	}
	if same(node("A", 9), node("B", 10)) {
		t.Errorf("a maximum changed is the same schema")
	}
}

// TestOpenAPI31Forms: the keywords OpenAPI 3.1 writes for what 3.0 wrote
// otherwise (a const for a one-value enum, null in the type list, a number
// for an exclusive bound, contentEncoding for format: byte) are no change
// where they take the same values, and leave the change where they do not.
func TestOpenAPI31Forms(t *testing.T) {
	t.Parallel()
	yes := true
	num := func(f float64) *float64 { return &f }
	typed := func(types ...string) *openapi3.Types { t := openapi3.Types(types); return &t }
	for _, c := range []struct {
		name           string
		base, revision *openapi3.Schema
		diff           oasdiff.SchemaDiff
		normalize      func(*oasdiff.SchemaDiff)
		want           func(oasdiff.SchemaDiff) bool
	}{
		{"a one-value enum made a const", &openapi3.Schema{Enum: []any{"a"}}, &openapi3.Schema{Const: "a"},
			oasdiff.SchemaDiff{EnumDiff: &oasdiff.EnumDiff{EnumDeleted: true, Deleted: []any{"a"}}, ConstDiff: &oasdiff.ValueDiff{To: "a"}},
			normalizeConstEnum, func(d oasdiff.SchemaDiff) bool { return d.EnumDiff == nil && d.ConstDiff == nil }},
		{"an enum made a const of one of its values", &openapi3.Schema{Enum: []any{"a", "b"}}, &openapi3.Schema{Const: "a"},
			oasdiff.SchemaDiff{EnumDiff: &oasdiff.EnumDiff{EnumDeleted: true, Deleted: []any{"a", "b"}}, ConstDiff: &oasdiff.ValueDiff{To: "a"}},
			normalizeConstEnum, func(d oasdiff.SchemaDiff) bool {
				return d.ConstDiff == nil && d.EnumDiff != nil && !d.EnumDiff.EnumDeleted && len(d.EnumDiff.Deleted) == 1 && d.EnumDiff.Deleted[0] == "b" && len(d.EnumDiff.Added) == 0
			}},
		{"nullable made null in the type list", &openapi3.Schema{Type: typed("string"), Nullable: true}, &openapi3.Schema{Type: typed("string", "null")},
			oasdiff.SchemaDiff{NullableDiff: &oasdiff.ValueDiff{From: true, To: false}, TypeDiff: &oasdiff.StringsDiff{Added: []string{"null"}}},
			normalizeNullable, func(d oasdiff.SchemaDiff) bool { return d.NullableDiff == nil && d.TypeDiff == nil }},
		{"nullable made a type list without null", &openapi3.Schema{Type: typed("string"), Nullable: true}, &openapi3.Schema{Type: typed("string", "integer")},
			oasdiff.SchemaDiff{NullableDiff: &oasdiff.ValueDiff{From: true, To: false}, TypeDiff: &oasdiff.StringsDiff{Added: []string{"integer"}}},
			normalizeNullable, func(d oasdiff.SchemaDiff) bool { return d.NullableDiff != nil && d.TypeDiff != nil }},
		{"an exclusive minimum in the 3.1 form", &openapi3.Schema{Min: num(0), ExclusiveMin: openapi3.ExclusiveBound{Bool: &yes}}, &openapi3.Schema{ExclusiveMin: openapi3.ExclusiveBound{Value: num(0)}},
			oasdiff.SchemaDiff{MinDiff: &oasdiff.ValueDiff{From: 0.0}, ExclusiveMinDiff: &oasdiff.ValueDiff{From: true, To: 0.0}},
			normalizeNumberBounds, func(d oasdiff.SchemaDiff) bool { return d.MinDiff == nil && d.ExclusiveMinDiff == nil }},
		{"an exclusive minimum raised across the forms", &openapi3.Schema{Min: num(0), ExclusiveMin: openapi3.ExclusiveBound{Bool: &yes}}, &openapi3.Schema{ExclusiveMin: openapi3.ExclusiveBound{Value: num(1)}},
			oasdiff.SchemaDiff{MinDiff: &oasdiff.ValueDiff{From: 0.0}, ExclusiveMinDiff: &oasdiff.ValueDiff{From: true, To: 1.0}},
			normalizeNumberBounds, func(d oasdiff.SchemaDiff) bool {
				return d.MinDiff == nil && reflect.DeepEqual(d.ExclusiveMinDiff, &oasdiff.ValueDiff{From: 0.0, To: 1.0})
			}},
		{"of integers, a maximum made the exclusive maximum above it", &openapi3.Schema{Type: typed("integer"), Max: num(5)}, &openapi3.Schema{Type: typed("integer"), ExclusiveMax: openapi3.ExclusiveBound{Value: num(6)}},
			oasdiff.SchemaDiff{MaxDiff: &oasdiff.ValueDiff{From: 5.0}, ExclusiveMaxDiff: &oasdiff.ValueDiff{To: 6.0}},
			normalizeNumberBounds, func(d oasdiff.SchemaDiff) bool { return d.MaxDiff == nil && d.ExclusiveMaxDiff == nil }},
		{"of numbers, a maximum made the exclusive maximum above it", &openapi3.Schema{Type: typed("number"), Max: num(5)}, &openapi3.Schema{Type: typed("number"), ExclusiveMax: openapi3.ExclusiveBound{Value: num(6)}},
			oasdiff.SchemaDiff{MaxDiff: &oasdiff.ValueDiff{From: 5.0}, ExclusiveMaxDiff: &oasdiff.ValueDiff{To: 6.0}},
			normalizeNumberBounds, func(d oasdiff.SchemaDiff) bool { return d.MaxDiff != nil && d.ExclusiveMaxDiff != nil }},
		{"format: byte made contentEncoding: base64", &openapi3.Schema{Type: typed("string"), Format: "byte"}, &openapi3.Schema{Type: typed("string"), ContentEncoding: "base64"},
			oasdiff.SchemaDiff{FormatDiff: &oasdiff.ValueDiff{From: "byte"}, ContentEncodingDiff: &oasdiff.ValueDiff{To: "base64"}},
			normalizeBase64, func(d oasdiff.SchemaDiff) bool { return d.FormatDiff == nil && d.ContentEncodingDiff == nil }},
		{"format: binary made contentMediaType: application/octet-stream", &openapi3.Schema{Type: typed("string"), Format: "binary"}, &openapi3.Schema{Type: typed("string"), ContentMediaType: "application/octet-stream"},
			oasdiff.SchemaDiff{FormatDiff: &oasdiff.ValueDiff{From: "binary"}, ContentMediaTypeDiff: &oasdiff.ValueDiff{To: "application/octet-stream"}},
			normalizeBinary, func(d oasdiff.SchemaDiff) bool { return d.FormatDiff == nil && d.ContentMediaTypeDiff == nil }},
		{"format: binary made contentMediaType: image/png", &openapi3.Schema{Type: typed("string"), Format: "binary"}, &openapi3.Schema{Type: typed("string"), ContentMediaType: "image/png"},
			oasdiff.SchemaDiff{FormatDiff: &oasdiff.ValueDiff{From: "binary"}, ContentMediaTypeDiff: &oasdiff.ValueDiff{To: "image/png"}},
			normalizeBinary, func(d oasdiff.SchemaDiff) bool { return d.FormatDiff != nil && d.ContentMediaTypeDiff != nil }},
		{"format: byte made contentEncoding: base32", &openapi3.Schema{Type: typed("string"), Format: "byte"}, &openapi3.Schema{Type: typed("string"), ContentEncoding: "base32"},
			oasdiff.SchemaDiff{FormatDiff: &oasdiff.ValueDiff{From: "byte"}, ContentEncodingDiff: &oasdiff.ValueDiff{To: "base32"}},
			normalizeBase64, func(d oasdiff.SchemaDiff) bool { return d.FormatDiff != nil && d.ContentEncodingDiff != nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := c.diff
			d.Base, d.Revision = c.base, c.revision
			c.normalize(&d)
			if !c.want(d) {
				t.Errorf("after normalizing: enum %+v, const %+v, nullable %+v, type %+v, min %+v, exclusiveMin %+v, format %+v, contentEncoding %+v",
					d.EnumDiff, d.ConstDiff, d.NullableDiff, d.TypeDiff, d.MinDiff, d.ExclusiveMinDiff, d.FormatDiff, d.ContentEncodingDiff)
			}
		})
	}
}

// TestNullableWrapper: only a bare two-branch oneOf or anyOf of null and a
// typed schema that refuses null wraps that schema.
func TestNullableWrapper(t *testing.T) {
	t.Parallel()
	typed := func(types ...string) *openapi3.Types { t := openapi3.Types(types); return &t }
	thing := &openapi3.SchemaRef{Ref: "#/components/schemas/Thing", Value: &openapi3.Schema{Type: typed("object")}}
	null := &openapi3.SchemaRef{Value: &openapi3.Schema{Type: typed("null"), Description: "none"}}
	for _, c := range []struct {
		name   string
		schema *openapi3.Schema
		want   bool
	}{
		{"oneOf", &openapi3.Schema{OneOf: openapi3.SchemaRefs{thing, null}}, true},
		{"anyOf, null first", &openapi3.Schema{AnyOf: openapi3.SchemaRefs{null, thing}}, true},
		{"a third branch", &openapi3.Schema{OneOf: openapi3.SchemaRefs{thing, null, thing}}, false},
		{"a constraint beside it", &openapi3.Schema{OneOf: openapi3.SchemaRefs{thing, null}, MinProps: 1}, false},
		{"a branch that takes null", &openapi3.Schema{OneOf: openapi3.SchemaRefs{{Value: &openapi3.Schema{Type: typed("object"), Nullable: true}}, null}}, false},
		{"an untyped branch", &openapi3.Schema{OneOf: openapi3.SchemaRefs{{Value: &openapi3.Schema{}}, null}}, false},
		{"no null branch", &openapi3.Schema{OneOf: openapi3.SchemaRefs{thing, thing}}, false},
	} {
		if _, got := nullableWrapper(c.schema); got != c.want {
			t.Errorf("%s: nullableWrapper = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTypesTaken: a type list and a oneOf or anyOf of bare single types
// name the types they take; a oneOf of number and integer, or a branch
// with more than its type, names none.
func TestTypesTaken(t *testing.T) {
	t.Parallel()
	typed := func(types ...string) *openapi3.Types { t := openapi3.Types(types); return &t }
	branch := func(typ string) *openapi3.SchemaRef {
		return &openapi3.SchemaRef{Value: &openapi3.Schema{Type: typed(typ)}}
	}
	max := 3.0
	for _, c := range []struct {
		name   string
		schema *openapi3.Schema
		want   []string
		list   bool
	}{
		{"a type list", &openapi3.Schema{Type: typed("string", "integer")}, []string{"integer", "string"}, true},
		{"one type", &openapi3.Schema{Type: typed("string")}, nil, false},
		{"oneOf", &openapi3.Schema{OneOf: openapi3.SchemaRefs{branch("string"), branch("integer")}}, []string{"integer", "string"}, false},
		{"anyOf of number and integer", &openapi3.Schema{AnyOf: openapi3.SchemaRefs{branch("number"), branch("integer")}}, []string{"integer", "number"}, false},
		{"oneOf of number and integer", &openapi3.Schema{OneOf: openapi3.SchemaRefs{branch("number"), branch("integer")}}, nil, false},
		{"a branch with a bound", &openapi3.Schema{OneOf: openapi3.SchemaRefs{branch("string"), {Value: &openapi3.Schema{Type: typed("integer"), Max: &max}}}}, nil, false},
	} {
		got, list, ok := typesTaken(c.schema)
		if !slices.Equal(got, c.want) || ok != (c.want != nil) || list != c.list {
			t.Errorf("%s: typesTaken = %v, %v, %v; want %v, %v", c.name, got, list, ok, c.want, c.list)
		}
	}
}

// TestNullInEnum: null listed in the enum of a schema that takes null is
// no change; a 3.1 type list with null whose enum leaves null out does not
// take it.
func TestNullInEnum(t *testing.T) {
	t.Parallel()
	typed := func(types ...string) *openapi3.Types { t := openapi3.Types(types); return &t }
	d := oasdiff.SchemaDiff{
		Base:         &openapi3.Schema{Type: typed("string"), Nullable: true, Enum: []any{"on"}},
		Revision:     &openapi3.Schema{Type: typed("string", "null"), Enum: []any{"on", nil}},
		NullableDiff: &oasdiff.ValueDiff{From: true, To: false},
		TypeDiff:     &oasdiff.StringsDiff{Added: []string{"null"}},
		EnumDiff:     &oasdiff.EnumDiff{Added: []any{nil}},
	}
	normalizeNullable(&d)
	if d.NullableDiff != nil || d.TypeDiff != nil || d.EnumDiff != nil {
		t.Errorf("after normalizing: nullable %+v, type %+v, enum %+v", d.NullableDiff, d.TypeDiff, d.EnumDiff)
	}
	if takesNull(&openapi3.Schema{Type: typed("string", "null"), Enum: []any{"on"}}) {
		t.Error("a type list with null and an enum without it takes null")
	}
}
