package diff

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestDefiningComponent(t *testing.T) {
	t.Parallel()
	shared := &openapi3.Schema{}
	doc := &openapi3.T{Components: &openapi3.Components{Schemas: openapi3.Schemas{
		"Shared": {Value: shared},
		"Alias":  {Ref: "#/components/schemas/Shared", Value: shared},
		"Alias2": {Ref: "#/components/schemas/Alias", Value: shared},
		"Inner":  {Ref: "#/components/schemas/Shared/properties/a", Value: &openapi3.Schema{}},
		"Loop":   {Ref: "#/components/schemas/Loop"},
		"Away":   {Ref: "other.yaml#/components/schemas/Shared", Value: shared},
	}}}
	for name, want := range map[string]string{
		"Shared": "Shared", "Alias": "Shared", "Alias2": "Shared",
		"Inner": "Inner", "Loop": "Loop", "Away": "Away", "Missing": "Missing",
	} {
		if got := definingComponent(doc, name); got != want {
			t.Errorf("definingComponent(%s) = %s, want %s", name, got, want)
		}
	}
}
