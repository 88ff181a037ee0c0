package diff

import (
	"testing"

	"github.com/apiver/apiver/load"
)

const flattenDoc = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /widgets:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                item:
                  description: wrapped
                  allOf:
                    - $ref: '#/components/schemas/Item'
                code:
                  allOf:
                    - type: string
                    - type: integer
      responses:
        '200': {description: OK}
components:
  schemas:
    Item:
      type: object
      properties:
        size: {type: string, enum: [S, M]}
`

// flattenAllOf merges copies: the loaded document keeps its allOf, the
// copy's merged schemas keep their locations, and an allOf that cannot be
// merged stays as written in the copy.
func TestFlattenAllOf(t *testing.T) {
	doc, err := load.Parse("openapi.yaml", []byte(flattenDoc), false)
	if err != nil {
		t.Fatal(err)
	}
	f := flattenAllOf(false, doc)
	original := doc.Paths.Find("/widgets").Post.RequestBody.Value.Content["application/json"].Schema.Value
	flat := f.docs[0].Paths.Find("/widgets").Post.RequestBody.Value.Content["application/json"].Schema.Value
	if len(original.Properties["item"].Value.AllOf) != 1 || len(original.Properties["code"].Value.AllOf) != 2 {
		t.Error("the loaded document lost its allOf")
	}
	item := flat.Properties["item"].Value
	if len(item.AllOf) != 0 || item.Properties["size"] == nil {
		t.Errorf("item not merged: %+v", item)
	}
	if item.Origin == nil || item.Origin.Key == nil || item.Origin.Key.Line != 12 {
		t.Errorf("merged item located at %+v, want line 12", item.Origin)
	}
	if size := item.Properties["size"].Value; size.Origin == nil || size.Origin.Key == nil || size.Origin.Key.Line != 27 {
		t.Errorf("merged item's size located at %+v, want line 27", size.Origin)
	}
	if code := flat.Properties["code"].Value; len(code.AllOf) != 2 || code.Extensions[stashKey] != nil {
		t.Errorf("code, which cannot be merged, is not as written: %+v", code)
	}
}
