// Package prune reduces an OpenAPI document, as its parser sees it (the
// yaml.v3 node tree), to what a comparison with another snapshot can read:
// operations equal in both keep everything but their schemas, components
// nothing kept reaches are left out, and the descriptions and examples the
// diff does not compare are emptied. The reduced tree is written back as a
// text that kin-openapi parses to the same values, every node on its
// original line, so locations stay exact. Nothing here reads YAML text: the
// parser does.
package prune

// shape is what a node is in the OpenAPI structure, decided by where it
// sits: an object with its fields, a map of names, a list, or data (values
// as written: nothing in them is ignored or cut).
type shape struct {
	name string
	// fields are an object's fields; a field not listed is data.
	fields map[string]*shape
	// elem is the shape of each value of a names map or list.
	elem *shape
	list bool
	// extensible names maps (paths, responses, callbacks) hold x- keys as
	// extensions, not names.
	extensible bool
	// object marks the objects where null or a scalar is an input error.
	object bool
	// boolOK: a boolean is a schema too.
	boolOK bool
	// component is the components kind a $ref here names; a $ref where it
	// is "" makes the document one that is not reduced.
	component string
	// ignored are the fields the diff does not compare (apiver runs oasdiff
	// without descriptions and examples).
	ignored map[string]bool
	// schema marks a schema position: what a skeleton replaces by {}.
	schema bool
}

var data = &shape{name: "data"}

func (s *shape) isData() bool { return s == data }

// child is the shape of the value of key in a mapping of shape s.
func (s *shape) child(key string) *shape {
	switch {
	case s.isData():
		return data
	case s.elem != nil && !s.list:
		if s.extensible && len(key) > 1 && key[:2] == "x-" {
			return data
		}
		return s.elem
	case len(key) > 1 && key[:2] == "x-":
		return data
	}
	if c := s.fields[key]; c != nil {
		return c
	}
	return data
}

func namesOf(elem *shape) *shape { return &shape{name: elem.name + "s", elem: elem} }
func listOf(elem *shape) *shape  { return &shape{name: elem.name + "s", elem: elem, list: true} }

var descriptionOnly = map[string]bool{"description": true}
var descriptionAndExample = map[string]bool{"description": true, "example": true}

// The OpenAPI 3.0/3.1 structure as kin-openapi reads it (its types' JSON
// fields). A field kin-openapi does not know is data: hashed whole, never
// cut.
var (
	schemaShape = &shape{name: "schema", object: true, boolOK: true, component: "schemas", ignored: descriptionAndExample, schema: true}
	// boolSchema is a schema position that kin-openapi reads as a
	// BoolSchema, not as a SchemaRef: the two read some values apart.
	boolSchema     = &shape{name: "schema", object: true, boolOK: true, component: "schemas", ignored: descriptionAndExample, schema: true}
	exampleShape   = &shape{name: "example", object: true, component: "examples", ignored: descriptionOnly}
	externalDocs   = &shape{name: "external documentation", ignored: descriptionOnly}
	headerShape    = &shape{name: "header", object: true, component: "headers", ignored: descriptionAndExample}
	encodingShape  = &shape{name: "encoding", object: true}
	mediaTypeShape = &shape{name: "media type", object: true, ignored: map[string]bool{"example": true}}
	contentShape   = &shape{name: "content", elem: mediaTypeShape}
	parameterShape = &shape{name: "parameter", object: true, component: "parameters", ignored: descriptionAndExample}
	requestBody    = &shape{name: "request body", object: true, component: "requestBodies", ignored: descriptionOnly}
	responseShape  = &shape{name: "response", object: true, component: "responses", ignored: descriptionOnly}
	responsesShape = &shape{name: "responses", elem: responseShape, extensible: true}
	serverVariable = &shape{name: "server variable", ignored: descriptionOnly}
	serverShape    = &shape{name: "server", ignored: descriptionOnly}
	linkShape      = &shape{name: "link", object: true, component: "links", ignored: descriptionOnly}
	callbackShape  = &shape{name: "callback", component: "callbacks", extensible: true}
	pathItemShape  = &shape{name: "path item", object: true, ignored: descriptionOnly}
	operationShape = &shape{name: "operation", object: true, ignored: descriptionOnly}
	pathsShape     = &shape{name: "paths", elem: pathItemShape, extensible: true}
	securityScheme = &shape{name: "security scheme", object: true, component: "securitySchemes", ignored: descriptionOnly}
	tagShape       = &shape{name: "tag", ignored: descriptionOnly}
	infoShape      = &shape{name: "info", ignored: descriptionOnly}
	discriminator  = &shape{name: "discriminator"}
	componentsKind = map[string]*shape{
		"schemas": schemaShape, "parameters": parameterShape, "headers": headerShape, "requestBodies": requestBody,
		"responses": responseShape, "securitySchemes": securityScheme, "examples": exampleShape, "links": linkShape,
		"callbacks": callbackShape,
	}
	componentsShape = &shape{name: "components", fields: map[string]*shape{}}
	documentShape   = &shape{name: "document", fields: map[string]*shape{
		"info": infoShape, "servers": listOf(serverShape), "paths": pathsShape, "webhooks": namesOf(pathItemShape),
		"components": componentsShape, "tags": listOf(tagShape), "externalDocs": externalDocs,
	}}
)

// methods are the path item fields that hold operations, as kin-openapi
// reads them.
var methods = map[string]bool{"connect": true, "delete": true, "get": true, "head": true, "options": true, "patch": true, "post": true, "put": true, "trace": true, "query": true}

func init() {
	schemas := namesOf(schemaShape)
	schemaList := listOf(schemaShape)
	schemaShape.fields = map[string]*shape{
		"properties": schemas, "patternProperties": schemas, "$defs": schemas, "dependentSchemas": schemas,
		"items": schemaShape, "not": schemaShape, "additionalProperties": boolSchema, "contains": schemaShape,
		"propertyNames": schemaShape, "unevaluatedItems": boolSchema, "unevaluatedProperties": boolSchema,
		"if": schemaShape, "then": schemaShape, "else": schemaShape, "contentSchema": schemaShape,
		"allOf": schemaList, "anyOf": schemaList, "oneOf": schemaList, "prefixItems": schemaList,
		"discriminator": discriminator, "externalDocs": externalDocs,
	}
	boolSchema.fields = schemaShape.fields
	examples := namesOf(exampleShape)
	headers := namesOf(headerShape)
	exampleShape.fields = map[string]*shape{}
	externalDocs.fields = map[string]*shape{}
	headerShape.fields = map[string]*shape{"schema": schemaShape, "content": contentShape, "examples": examples}
	parameterShape.fields = headerShape.fields
	encodingShape.fields = map[string]*shape{"headers": headers}
	mediaTypeShape.fields = map[string]*shape{"schema": schemaShape, "itemSchema": schemaShape, "examples": examples, "encoding": namesOf(encodingShape)}
	requestBody.fields = map[string]*shape{"content": contentShape}
	responseShape.fields = map[string]*shape{"headers": headers, "content": contentShape, "links": namesOf(linkShape)}
	serverVariable.fields = map[string]*shape{}
	serverShape.fields = map[string]*shape{"variables": namesOf(serverVariable)}
	linkShape.fields = map[string]*shape{"server": serverShape}
	callbackShape.elem = pathItemShape
	operationShape.fields = map[string]*shape{
		"parameters": listOf(parameterShape), "requestBody": requestBody, "responses": responsesShape,
		"callbacks": namesOf(callbackShape), "servers": listOf(serverShape), "externalDocs": externalDocs,
	}
	pathItemShape.fields = map[string]*shape{"parameters": listOf(parameterShape), "servers": listOf(serverShape)}
	for m := range methods {
		pathItemShape.fields[m] = operationShape
	}
	securityScheme.fields = map[string]*shape{}
	tagShape.fields = map[string]*shape{"externalDocs": externalDocs}
	infoShape.fields = map[string]*shape{}
	discriminator.fields = map[string]*shape{}
	for kind, s := range componentsKind {
		componentsShape.fields[kind] = namesOf(s)
	}
}
