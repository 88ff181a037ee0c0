package diff

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
)

// enumPool holds values that oasdiff compares with reflect.DeepEqual: 0 and
// -0 are equal, 1 and "1" are not, nor are [1, 2] and [2, 1].
var enumPool = []any{
	"a", "b", "c", "d", "e", "1", "", 1.0, 2.5, 0.0, math.Copysign(0, -1), 1e20,
	true, false, nil, map[string]any{"k": 1.0}, map[string]any{"k": 2.0},
	map[string]any{"k": 1.0, "l": []any{"x"}}, []any{1.0, 2.0}, []any{2.0, 1.0}, []any{},
}

// enumSlots is the number of enums in a document of enumDoc.
const enumSlots = 9

// enumDoc is a document whose enums sit where oasdiff compares them in
// different ways: a component shared by request and response, inline
// properties, a query parameter, a response header, oneOf branches matched
// by comparing them, and an array whose enum is on the array or on its
// items (the enum-on-array-or-items equivalence). A nil enum is left out.
func enumDoc(enums [enumSlots][]any, onArray bool) []byte {
	withEnum := func(schema map[string]any, enum []any) map[string]any {
		if enum != nil {
			schema["enum"] = enum
		}
		return schema
	}
	widget := map[string]any{"$ref": "#/components/schemas/Widget"}
	tags := map[string]any{"type": "array", "items": withEnum(map[string]any{"type": "string"}, enums[3])}
	if onArray {
		tags = withEnum(map[string]any{"type": "array", "items": map[string]any{"type": "string"}}, enums[3])
	}
	doc := map[string]any{
		"openapi": "3.0.3",
		"info":    map[string]any{"title": "Widgets", "version": "1"},
		"paths": map[string]any{"/widgets": map[string]any{"post": map[string]any{
			"parameters":  []any{map[string]any{"name": "mode", "in": "query", "schema": withEnum(map[string]any{}, enums[2])}},
			"requestBody": map[string]any{"content": map[string]any{"application/vnd.example.2024-01-01+json": map[string]any{"schema": widget}}},
			"responses": map[string]any{"200": map[string]any{
				"description": "OK",
				"headers":     map[string]any{"X-Kind": map[string]any{"schema": withEnum(map[string]any{}, enums[6])}},
				"content": map[string]any{
					"application/vnd.example.2024-01-01+json": map[string]any{"schema": widget},
					"application/vnd.example.2024-02-01+json": map[string]any{"schema": map[string]any{
						"type": "object", "properties": map[string]any{"color": withEnum(map[string]any{}, enums[7])},
					}},
				},
			}},
		}}},
		"components": map[string]any{"schemas": map[string]any{
			"Color": withEnum(map[string]any{}, enums[0]),
			"Widget": map[string]any{"type": "object", "properties": map[string]any{
				"color": map[string]any{"$ref": "#/components/schemas/Color"},
				"size":  withEnum(map[string]any{}, enums[1]),
				"tags":  tags,
				"choice": map[string]any{"oneOf": []any{
					withEnum(map[string]any{"title": "first"}, enums[4]),
					withEnum(map[string]any{}, enums[5]),
					withEnum(map[string]any{}, enums[8]),
				}},
			}},
		}},
	}
	data, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return data
}

func randomEnum(r *rand.Rand) []any {
	switch r.IntN(20) {
	case 0, 1, 2:
		return nil
	case 3:
		return []any{}
	}
	enum := make([]any, 1+r.IntN(12))
	for i := range enum {
		enum[i] = enumPool[r.IntN(len(enumPool))]
	}
	return enum
}

// mutateEnum is the enum of the revision: the same, reordered, with a
// value removed, with values added or repeated, another, or none.
func mutateEnum(r *rand.Rand, enum []any) []any {
	out := append([]any(nil), enum...)
	switch r.IntN(8) {
	case 0:
	case 1:
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	case 2:
		if len(out) > 0 {
			i := r.IntN(len(out))
			out = append(out[:i], out[i+1:]...)
		}
	case 3:
		for range 1 + r.IntN(4) {
			out = append(out, enumPool[r.IntN(len(enumPool))])
		}
	case 4:
		if len(out) > 0 {
			out = append(out, out[r.IntN(len(out))])
			r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		}
	case 5:
		return randomEnum(r)
	case 6:
		return nil
	case 7:
		return []any{}
	}
	return out
}

func writeSnapshot(t *testing.T, name string, data []byte) *specs.Snapshot {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := load.Load(path, specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// withLargeEnum runs fn with enums of more than n distinct values compared
// by set difference.
func withLargeEnum(n int, fn func()) {
	saved := largeEnum
	defer func() { largeEnum = saved }()
	largeEnum = n
	fn()
}

// comparison is everything the diff package makes of two snapshots.
type comparison struct {
	changes, versions []Change
	report            any
}

func compareAll(t *testing.T, base, revision *specs.Snapshot) comparison {
	t.Helper()
	opts := Options{Product: "example"}
	res, err := Compare(base, revision, opts)
	if err != nil {
		t.Fatal(err)
	}
	versions, err := CompareVersions(revision, "2024-01-01", "2024-02-01", opts)
	if err != nil {
		t.Fatal(err)
	}
	report, err := oasdiffReport(base.Doc, revision.Doc)
	if err != nil {
		t.Fatal(err)
	}
	return comparison{changes: res.Changes(), versions: versions.Changes(), report: report}
}

// The stand-ins must change nothing: on random enums, with every enum,
// those of more than three distinct values, or none compared by set
// difference, the changes, their messages and locations, and oasdiff's
// report itself are the same, and the documents are left as they were.
func TestLargeEnumsDiffAsOasdiffDoes(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 7))
	for i := range 300 {
		var baseEnums, revisionEnums [enumSlots][]any
		for j := range baseEnums {
			baseEnums[j] = randomEnum(r)
			revisionEnums[j] = mutateEnum(r, baseEnums[j])
		}
		baseData, revisionData := enumDoc(baseEnums, r.IntN(2) == 0), enumDoc(revisionEnums, r.IntN(2) == 0)
		base := writeSnapshot(t, "x-2024-01-01.yaml", baseData)
		revision := writeSnapshot(t, "x-2024-02-01.yaml", revisionData)
		baseBefore, revisionBefore := docJSON(t, base.Doc), docJSON(t, revision.Doc)

		var want comparison
		withLargeEnum(math.MaxInt, func() { want = compareAll(t, base, revision) })
		for _, n := range []int{0, 3} {
			withLargeEnum(n, func() {
				got := compareAll(t, base, revision)
				if d := cmp.Diff(want.changes, got.changes); d != "" {
					t.Errorf("case %d, enums of more than %d values: changes differ (-oasdiff +stand-ins):\n%s\nbase: %s\nrevision: %s", i, n, d, baseData, revisionData)
				}
				if d := cmp.Diff(want.versions, got.versions); d != "" {
					t.Errorf("case %d, enums of more than %d values: version changes differ (-oasdiff +stand-ins):\n%s\nrevision: %s", i, n, d, revisionData)
				}
				if !reflect.DeepEqual(want.report, got.report) {
					t.Errorf("case %d, enums of more than %d values: oasdiff's reports differ\nbase: %s\nrevision: %s", i, n, baseData, revisionData)
				}
			})
		}
		if docJSON(t, base.Doc) != baseBefore || docJSON(t, revision.Doc) != revisionBefore {
			t.Fatalf("case %d: the documents were not restored", i)
		}
	}
}

func docJSON(t *testing.T, doc *openapi3.T) string {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The walk finds schemas through exported fields and the Map method of
// kin-openapi's map-like types: an unexported field that leads to schemas
// in another type would hide that type's enums from it, and oasdiff would
// then compare a stand-in with the values it stands for.
// loadOnly are the unexported fields that lead to schemas which kin-openapi
// reads only while it loads or writes a document (a $ref's sibling
// keywords); oasdiff, outside the package, cannot read them at all.
var loadOnly = map[string]bool{
	"openapi3.SchemaRef.sibling":    true,
	"openapi3.SchemaRef.target":     true,
	"openapi3.MappingRef.sibling":   true,
	"openapi3.MappingRef.target":    true,
	"openapi3.PathItem.refSiblings": true,
}

func TestSchemaWalkSeesEveryField(t *testing.T) {
	t.Parallel()
	// Every type a document's values have, through every field.
	next := map[reflect.Type][]reflect.Type{}
	var collect func(reflect.Type)
	collect = func(typ reflect.Type) {
		if _, ok := next[typ]; ok {
			return
		}
		next[typ] = nil
		var out []reflect.Type
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			out = append(out, typ.Elem())
		case reflect.Struct:
			for f := range typ.Fields() {
				out = append(out, f.Type)
			}
		}
		next[typ] = out
		for _, u := range out {
			collect(u)
		}
	}
	collect(reflect.TypeFor[openapi3.T]())
	leads := map[reflect.Type]bool{reflect.TypeFor[openapi3.Schema](): true}
	for changed := true; changed; {
		changed = false
		for typ, out := range next {
			for _, u := range out {
				if leads[u] && !leads[typ] {
					leads[typ], changed = true, true
				}
			}
		}
	}
	for typ := range leads {
		if typ.Kind() != reflect.Struct {
			continue
		}
		if !schemaHolders[typ] {
			t.Errorf("%v leads to schemas but the walk skips it", typ)
		}
		for f := range typ.Fields() {
			if !f.IsExported() && leads[f.Type] && mapLike[typ] == nil && !loadOnly[typ.String()+"."+f.Name] {
				t.Errorf("%v.%s leads to schemas but is unexported", typ, f.Name)
			}
		}
	}
}

func TestValueKeySharedByEqualValues(t *testing.T) {
	t.Parallel()
	for _, v := range enumPool {
		for _, w := range enumPool {
			if reflect.DeepEqual(v, w) && valueKey(v) != valueKey(w) {
				t.Errorf("%#v and %#v are equal but have keys %s and %s", v, w, valueKey(v), valueKey(w))
			}
			if !reflect.DeepEqual(v, w) && valueKey(v) == valueKey(w) {
				t.Errorf("%#v and %#v share the key %s", v, w, valueKey(v))
			}
		}
	}
	deep, deeper := any(nil), any(nil)
	for range 40 {
		deep, deeper = []any{deep}, []any{deeper}
	}
	cyclic := []any{nil}
	cyclic[0] = cyclic
	if valueKey(deep) != valueKey(deeper) || valueKey(cyclic) == "" {
		t.Error("values nested deeper than documents nest them have no key")
	}
	if !newValueSet([]any{"a", math.NaN()}).unequalToItself {
		t.Error("an enum with a NaN would have a stand-in, equal to itself where the enum is not")
	}
}
