package prune

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// skeletonTexts are JSON texts of operations as skeletons write them, and
// some that no skeleton writes but a copy must still reproduce or refuse.
var skeletonTexts = []struct {
	text     string
	copyable bool
}{
	{`{"responses":{"200":{"content":{"application/vnd.atlas.2023-01-01+json":{"schema":{},"x-xgen-version":"2023-01-01"}},"description":""}}}`, true},
	{`{"requestBody":{"content":{"application/vnd.atlas.2023-01-01+json":{"schema":{}}},"description":"","required":true},"responses":{"200":{"content":{"application/vnd.atlas.2023-01-01+json":{"schema":{},"x-xgen-version":"2023-01-01"}},"description":""},"default":{"description":""}}}`, true},
	{`{"deprecated":true,"x-sunset":"2025-01-01","x-a":{"b":[1,"c",null,{"d":false}]},"responses":{"204":{"description":""}}}`, true},
	{`{"responses":{"200":{"description":"","headers":{"X-Rate":{"schema":{},"example":""}},"links":{"next":{"operationId":"a"}},"content":{"text/csv":{"encoding":{"a":{"contentType":"text/plain"}},"examples":{"e":{"value":""}}}}}}}`, true},
	{`{"responses":{}}`, false},   // an empty map of responses, which a copy would leave nil
	{`{"responses":null}`, false}, // read as a null, which the copy cannot set
	{`{}`, true},
}

func TestReadingsCopyWhatTheyRead(t *testing.T) {
	for _, c := range skeletonTexts {
		reads := newReadings()
		first, err := reads.operation([]byte(c.text))
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		second, err := reads.operation([]byte(c.text))
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		want := new(openapi3.Operation)
		if err := json.Unmarshal([]byte(c.text), want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first, want) || !reflect.DeepEqual(second, want) {
			t.Errorf("%s: read %#v and %#v, want %#v", c.text, first, second, want)
		}
		if got := reads.read[c.text] != nil; got != c.copyable {
			t.Errorf("%s: copyable %v, want %v", c.text, got, c.copyable)
		}
		// Nothing is shared: between the two, or with the reading kept.
		if !copyable(reflect.ValueOf([]*openapi3.Operation{first, second, reads.read[c.text]}), map[uintptr]bool{}) && c.copyable {
			t.Errorf("%s: the copies share a pointer, map or slice", c.text)
		}
	}
}

func TestCopyableRefusesWhatItCannotCopy(t *testing.T) {
	shared := &openapi3.Schema{}
	twice := &openapi3.MediaType{Schema: &openapi3.SchemaRef{Value: shared}, ItemSchema: &openapi3.SchemaRef{Value: shared}}
	if copyable(reflect.ValueOf(twice), map[uintptr]bool{}) {
		t.Error("a schema reached twice is copyable")
	}
	ref := &openapi3.SchemaRef{Ref: "#/components/schemas/A", Value: &openapi3.Schema{}}
	if !copyable(reflect.ValueOf(ref), map[uintptr]bool{}) {
		t.Error("a resolved reference without hidden state is not copyable")
	}
	withFunc := map[string]any{"f": func() {}}
	if copyable(reflect.ValueOf(withFunc), map[uintptr]bool{}) {
		t.Error("a function is copyable")
	}
}

// FuzzReadingsCopy: whatever kin-openapi reads as an operation, a
// skeleton's copy of that reading equals a reading of its own, and shares
// nothing with it.
func FuzzReadingsCopy(f *testing.F) {
	for _, c := range skeletonTexts {
		f.Add(c.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want := new(openapi3.Operation)
		if json.Unmarshal([]byte(text), want) != nil {
			return
		}
		reads := newReadings()
		first, err := reads.operation([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		second, err := reads.operation([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first, want) || !reflect.DeepEqual(second, want) {
			t.Fatalf("%s: read %#v and %#v, want %#v", text, first, second, want)
		}
		if reads.read[text] != nil && !copyable(reflect.ValueOf([]*openapi3.Operation{first, second, reads.read[text]}), map[uintptr]bool{}) {
			t.Fatalf("%s: the copies share a pointer, map or slice", text)
		}
	})
}
