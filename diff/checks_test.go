package diff

import (
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestSerializationChange holds the parameter check to the effective
// serialization: a style or explode change is one only where it changes
// how the parameter's values are written.
func TestSerializationChange(t *testing.T) {
	yes, no := true, false
	param := func(in, typ, style string, explode *bool) *openapi3.Parameter {
		p := &openapi3.Parameter{Name: "p", In: in, Style: style, Explode: explode}
		if typ != "" {
			p.Schema = openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{typ}})
		}
		return p
	}
	for _, c := range []struct {
		name           string
		base, revision *openapi3.Parameter
		from, to       string
		changed        bool
	}{
		{"query array now pipe-delimited", param("query", "array", "", nil), param("query", "array", "pipeDelimited", nil), "form, exploded", "pipeDelimited", true},
		{"query array no longer exploded", param("query", "array", "", nil), param("query", "array", "form", &no), "form, exploded", "form", true},
		{"form's default explode written out", param("query", "array", "", nil), param("query", "array", "form", &yes), "", "", false},
		{"query object now deepObject", param("query", "object", "form", nil), param("query", "object", "deepObject", nil), "form, exploded", "deepObject, exploded", true},
		{"one query value, another style", param("query", "integer", "", nil), param("query", "integer", "spaceDelimited", nil), "", "", false},
		{"one path value, a label", param("path", "string", "", nil), param("path", "string", "label", nil), "simple", "label", true},
		{"one path value, exploded", param("path", "string", "simple", nil), param("path", "string", "simple", &yes), "", "", false},
		{"header array exploded", param("header", "array", "", nil), param("header", "array", "", &yes), "simple", "simple, exploded", true},
		{"no type: may be an array", param("query", "", "", nil), param("query", "", "pipeDelimited", nil), "form, exploded", "pipeDelimited", true},
		{"content form now a deepObject", &openapi3.Parameter{Name: "p", In: "query", Content: openapi3.NewContentWithJSONSchema(&openapi3.Schema{})}, param("query", "object", "deepObject", nil), "content application/json", "deepObject, exploded", true},
		{"a content parameter has no style", &openapi3.Parameter{Name: "p", In: "query", Content: openapi3.NewContentWithJSONSchema(&openapi3.Schema{})}, &openapi3.Parameter{Name: "p", In: "query", Style: "pipeDelimited", Content: openapi3.NewContentWithJSONSchema(&openapi3.Schema{})}, "", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			from, to, changed := serializationChange(c.base, c.revision)
			if from != c.from || to != c.to || changed != c.changed {
				t.Errorf("serializationChange = %q, %q, %v; want %q, %q, %v", from, to, changed, c.from, c.to, c.changed)
			}
		})
	}
}

// TestNarrowings holds the parameter check to the bounds that take values
// away, and only those.
func TestNarrowings(t *testing.T) {
	five, three, ten := uint64(5), uint64(3), uint64(10)
	one, two := 1.0, 2.0
	got := narrowings(
		&openapi3.Schema{MaxLength: &five, Min: &one, MaxItems: &five, MinItems: 2, Pattern: "^a$"},
		&openapi3.Schema{MaxLength: &three, Min: &two, MaxItems: &ten, MinItems: 1, Pattern: "^b$", UniqueItems: true, MinLength: 1},
	)
	want := []narrowing{{"minLength", "none", "1"}, {"maxLength", "5", "3"}, {"minimum", "1", "2"}, {"uniqueItems", "false", "true"}}
	if len(got) != len(want) {
		t.Fatalf("narrowings = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("narrowings[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if got := narrowings(&openapi3.Schema{}, &openapi3.Schema{Pattern: ".*"}); len(got) != 0 {
		t.Errorf("a pattern that takes every value: narrowings = %v, want none", got)
	}
}

// TestNumberNarrowings: the exclusive bounds, a multipleOf and a const
// narrow by the values they take away, not by the keywords written.
func TestNumberNarrowings(t *testing.T) {
	yes := true
	num := func(f float64) *float64 { return &f }
	for _, c := range []struct {
		name           string
		base, revision *openapi3.Schema
		want           []narrowing
	}{
		{"an exclusive minimum set", &openapi3.Schema{}, &openapi3.Schema{ExclusiveMin: openapi3.ExclusiveBound{Value: num(0)}}, []narrowing{{"exclusiveMinimum", "none", "0"}}},
		{"the minimum made exclusive", &openapi3.Schema{Min: num(1)}, &openapi3.Schema{ExclusiveMin: openapi3.ExclusiveBound{Value: num(1)}}, []narrowing{{"exclusiveMinimum", "none", "1"}}},
		{"the minimum made exclusive (OpenAPI 3.0)", &openapi3.Schema{Min: num(1)}, &openapi3.Schema{Min: num(1), ExclusiveMin: openapi3.ExclusiveBound{Bool: &yes}}, []narrowing{{"exclusiveMinimum", "false", "true"}}},
		{"an exclusive minimum below the minimum", &openapi3.Schema{Min: num(5)}, &openapi3.Schema{Min: num(5), ExclusiveMin: openapi3.ExclusiveBound{Value: num(3)}}, nil},
		{"an exclusive maximum lowered", &openapi3.Schema{ExclusiveMax: openapi3.ExclusiveBound{Value: num(9)}}, &openapi3.Schema{ExclusiveMax: openapi3.ExclusiveBound{Value: num(8)}}, []narrowing{{"exclusiveMaximum", "9", "8"}}},
		{"an exclusive maximum made inclusive at a lower value", &openapi3.Schema{ExclusiveMax: openapi3.ExclusiveBound{Value: num(9)}}, &openapi3.Schema{Max: num(8)}, []narrowing{{"maximum", "none", "8"}}},
		{"an exclusive maximum made inclusive", &openapi3.Schema{ExclusiveMax: openapi3.ExclusiveBound{Value: num(9)}}, &openapi3.Schema{Max: num(9)}, nil},
		{"of integers, an exclusive maximum made the maximum it allows", &openapi3.Schema{Type: &openapi3.Types{"integer"}, ExclusiveMax: openapi3.ExclusiveBound{Value: num(6)}}, &openapi3.Schema{Type: &openapi3.Types{"integer"}, Max: num(5)}, nil},
		{"of numbers, an exclusive maximum made a lower maximum", &openapi3.Schema{ExclusiveMax: openapi3.ExclusiveBound{Value: num(6)}}, &openapi3.Schema{Max: num(5)}, []narrowing{{"maximum", "none", "5"}}},
		{"a multipleOf set", &openapi3.Schema{}, &openapi3.Schema{MultipleOf: num(5)}, []narrowing{{"multipleOf", "none", "5"}}},
		{"a multipleOf changed to a multiple", &openapi3.Schema{MultipleOf: num(2)}, &openapi3.Schema{MultipleOf: num(4)}, []narrowing{{"multipleOf", "2", "4"}}},
		{"a multipleOf changed to a divisor", &openapi3.Schema{MultipleOf: num(4)}, &openapi3.Schema{MultipleOf: num(2)}, nil},
		{"a decimal multipleOf changed to a divisor", &openapi3.Schema{MultipleOf: num(0.3)}, &openapi3.Schema{MultipleOf: num(0.1)}, nil},
		{"a const set", &openapi3.Schema{}, &openapi3.Schema{Const: "a"}, []narrowing{{"const", "none", "a"}}},
		{"a const changed", &openapi3.Schema{Const: 1.0}, &openapi3.Schema{Const: 2.0}, []narrowing{{"const", "1", "2"}}},
		{"a const of an enum's one value", &openapi3.Schema{Enum: []any{"a"}}, &openapi3.Schema{Const: "a"}, nil},
		{"a const of one value of an enum (the enum's value removed)", &openapi3.Schema{Enum: []any{"a", "b"}}, &openapi3.Schema{Const: "a"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := narrowings(c.base, c.revision); !slices.Equal(got, c.want) {
				t.Errorf("narrowings = %v, want %v", got, c.want)
			}
		})
	}
}

// TestUnevaluated: unevaluatedProperties: false refuses undeclared
// properties only where no additionalProperties evaluates them, and
// unevaluatedItems: false items only where no items schema does.
func TestUnevaluated(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		name   string
		schema *openapi3.Schema
		want   bool
	}{
		{"nothing said", &openapi3.Schema{}, true},
		{"unevaluatedProperties: false", &openapi3.Schema{UnevaluatedProperties: openapi3.BoolSchema{Has: &no}}, false},
		{"unevaluatedProperties: true", &openapi3.Schema{UnevaluatedProperties: openapi3.BoolSchema{Has: &yes}}, true},
		{"beside additionalProperties: true", &openapi3.Schema{AdditionalProperties: openapi3.AdditionalProperties{Has: &yes}, UnevaluatedProperties: openapi3.BoolSchema{Has: &no}}, true},
		{"beside an additionalProperties schema", &openapi3.Schema{AdditionalProperties: openapi3.AdditionalProperties{Schema: openapi3.NewStringSchema().NewRef()}, UnevaluatedProperties: openapi3.BoolSchema{Has: &no}}, true},
		{"additionalProperties: false", &openapi3.Schema{AdditionalProperties: openapi3.AdditionalProperties{Has: &no}}, false},
	} {
		if got := takesUndeclared(c.schema); got != c.want {
			t.Errorf("%s: takesUndeclared = %v, want %v", c.name, got, c.want)
		}
	}
	if !takesUnevaluatedItems(&openapi3.Schema{Items: openapi3.NewStringSchema().NewRef(), UnevaluatedItems: openapi3.BoolSchema{Has: &no}}) {
		t.Error("unevaluatedItems: false beside items: takesUnevaluatedItems = false, want true")
	}
	if takesUnevaluatedItems(&openapi3.Schema{UnevaluatedItems: openapi3.BoolSchema{Has: &no}}) {
		t.Error("unevaluatedItems: false alone: takesUnevaluatedItems = true, want false")
	}
}

// TestSubschemasSet holds the request checks to the subschemas that take
// values away: items where an array took any (not on what cannot be an
// array, not items that constrain nothing), and a not schema.
func TestSubschemasSet(t *testing.T) {
	yes, no := true, false
	typed := func(typ string) *openapi3.Schema { return &openapi3.Schema{Type: &openapi3.Types{typ}} }
	with := func(s *openapi3.Schema, items, not *openapi3.Schema) *openapi3.Schema {
		if items != nil {
			s.Items = openapi3.NewSchemaRef("", items)
		}
		if not != nil {
			s.Not = openapi3.NewSchemaRef("", not)
		}
		return s
	}
	for _, c := range []struct {
		name           string
		base, revision *openapi3.Schema
		want           []string
	}{
		{"items given to an array", typed("array"), with(typed("array"), typed("integer"), nil), []string{"items"}},
		{"items given where no type is said", &openapi3.Schema{}, with(&openapi3.Schema{}, typed("integer"), nil), []string{"items"}},
		{"items that refuse every value", typed("array"), with(typed("array"), with(&openapi3.Schema{}, nil, &openapi3.Schema{}), nil), []string{"items"}},
		{"items with a description only", typed("array"), with(typed("array"), &openapi3.Schema{Description: "any"}, nil), nil},
		{"items on a string", typed("string"), with(typed("string"), typed("integer"), nil), nil},
		{"a string made an array with items (oasdiff's type change)", typed("string"), with(typed("array"), typed("integer"), nil), nil},
		{"items: false (oasdiff's schema-became-false)", typed("array"), with(typed("array"), &openapi3.Schema{Always: &no}, nil), nil},
		{"items: true", typed("array"), with(typed("array"), &openapi3.Schema{Always: &yes}, nil), nil},
		{"not: false, which refuses nothing", typed("string"), with(typed("string"), nil, &openapi3.Schema{Always: &no}), nil},
		{"items there already", with(typed("array"), typed("integer"), nil), with(typed("array"), typed("string"), nil), nil},
		{"a not schema", typed("string"), with(typed("string"), nil, &openapi3.Schema{Enum: []any{"x"}}), []string{"not"}},
		{"a not schema there already", with(typed("string"), nil, &openapi3.Schema{Enum: []any{"x"}}), with(typed("string"), nil, &openapi3.Schema{Enum: []any{"y"}}), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, n := range subschemasSet(c.base, c.revision) {
				got = append(got, n.keyword)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("subschemasSet = %v, want %v", got, c.want)
			}
		})
	}
}

// TestReservedRefused: only a query parameter that took reserved
// characters unencoded and no longer does.
func TestReservedRefused(t *testing.T) {
	param := func(in string, allowReserved bool) *openapi3.Parameter {
		return &openapi3.Parameter{Name: "p", In: in, AllowReserved: allowReserved}
	}
	for _, c := range []struct {
		name           string
		base, revision *openapi3.Parameter
		want           bool
	}{
		{"query, allowReserved unset", param("query", true), param("query", false), true},
		{"query, allowReserved set", param("query", false), param("query", true), false},
		{"header, allowReserved unset (it applies to queries only)", param("header", true), param("header", false), false},
	} {
		if got := reservedRefused(c.base, c.revision); got != c.want {
			t.Errorf("%s: reservedRefused = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestContentTypesRefused: a part's content type is refused unless the
// new list has it or a range that holds it.
func TestContentTypesRefused(t *testing.T) {
	for _, c := range []struct {
		base, revision string
		want           []string
	}{
		{"image/png, image/jpeg", "image/png", []string{"image/jpeg"}},
		{"image/png", "image/*", nil},
		{"image/*", "image/png", []string{"image/*"}},
		{"text/plain", "*/*", nil},
		{"Text/Plain; charset=utf-8", "text/plain", nil},
		{"application/json", "application/json, application/xml", nil},
	} {
		if got := contentTypesRefused(c.base, c.revision); !slices.Equal(got, c.want) {
			t.Errorf("contentTypesRefused(%q, %q) = %v, want %v", c.base, c.revision, got, c.want)
		}
	}
}
