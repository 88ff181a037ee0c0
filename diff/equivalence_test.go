package diff

import (
	"reflect"
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
		{"format: byte made contentEncoding: base64", &openapi3.Schema{Type: typed("string"), Format: "byte"}, &openapi3.Schema{Type: typed("string"), ContentEncoding: "base64"},
			oasdiff.SchemaDiff{FormatDiff: &oasdiff.ValueDiff{From: "byte"}, ContentEncodingDiff: &oasdiff.ValueDiff{To: "base64"}},
			normalizeBase64, func(d oasdiff.SchemaDiff) bool { return d.FormatDiff == nil && d.ContentEncodingDiff == nil }},
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
