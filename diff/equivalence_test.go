package diff

import (
	"reflect"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
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
