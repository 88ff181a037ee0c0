package diff_test

import (
	"strings"
	"testing"
)

const inheritanceBase = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /pets:
    post:
      requestBody:
        content:
          application/vnd.example.2024-01-01+json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses:
        '200': {description: OK}
components:
  schemas:
    Pet:
      type: object
      title: Pet Settings
      discriminator:
        propertyName: kind
        mapping: {CAT: '#/components/schemas/Cat', DOG: '#/components/schemas/Dog'}
      oneOf:
        - $ref: '#/components/schemas/Cat'
        - $ref: '#/components/schemas/Dog'
      properties:
        kind: {type: string, enum: [CAT, DOG, BIRD]}
      required: [kind]
    Cat:
      type: object
      allOf:
        - $ref: '#/components/schemas/Pet'
        - type: object
          properties:
            meow: {type: string}
    Dog:
      type: object
      allOf:
        - $ref: '#/components/schemas/Pet'
        - type: object
          properties:
            bark: {type: string}
`

// A property of a base schema that its subtypes extend by allOf is, merged,
// a property of each subtype too: its change is told at the base's path,
// named after the base, once, with the subtypes' branches named by $ref.
func TestInheritedPropertyToldAtTheBase(t *testing.T) {
	revision := strings.Replace(inheritanceBase, "enum: [CAT, DOG, BIRD]", "enum: [CAT, DOG]", 1)
	res := compare(t, inheritanceBase, revision, false)
	var messages []string
	for _, p := range res.Pairs {
		for _, c := range p.Changes {
			messages = append(messages, c.ID+": "+c.Message)
		}
	}
	want := "request-property-enum-value-removed: removed the enum value `BIRD` of the request property `kind` (shared schema: `Pet`, also at `oneOf[#/components/schemas/Cat]/kind`, `oneOf[#/components/schemas/Dog]/kind`)"
	if len(messages) != 1 || messages[0] != want {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(messages, "\n"), want)
	}
}

// A subtype that adds nothing to its base ({type: object, allOf: [$ref:
// Pet]}) is not a wrapper of it: it does not take the base's discriminator,
// so a mapping added to the base is one change, told at the base.
func TestSubtypeDoesNotTakeItsBasesDiscriminator(t *testing.T) {
	base := strings.Replace(inheritanceBase, `      allOf:
        - $ref: '#/components/schemas/Pet'
        - type: object
          properties:
            meow: {type: string}`, `      allOf:
        - $ref: '#/components/schemas/Pet'`, 1)
	revision := strings.Replace(base, "mapping: {CAT: '#/components/schemas/Cat', DOG: '#/components/schemas/Dog'}",
		"mapping: {CAT: '#/components/schemas/Cat', DOG: '#/components/schemas/Dog', KITTEN: '#/components/schemas/Cat'}", 1)
	res := compare(t, base, revision, false)
	var ids []string
	for _, p := range res.Pairs {
		for _, c := range p.Changes {
			ids = append(ids, c.ID+": "+c.Message)
		}
	}
	if len(ids) != 1 || !strings.HasPrefix(ids[0], "request-body-discriminator-mapping-added:") {
		t.Errorf("changes:\n%s\nwant one request-body-discriminator-mapping-added", strings.Join(ids, "\n"))
	}
}
