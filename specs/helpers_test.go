package specs_test

import (
	"testing"

	"github.com/apiver/apiver/load"
	"github.com/getkin/kin-openapi/openapi3"
)

// parseDoc parses an inline OpenAPI document that must be valid.
func parseDoc(t *testing.T, path, data string) *openapi3.T {
	t.Helper()
	doc, err := load.Parse(path, []byte(data), false)
	if err != nil {
		t.Fatalf("Parse(%s): %v", path, err)
	}
	return doc
}
