package prune

import (
	"encoding/json"
	"slices"
	"testing"
)

// acceptCases are JSON texts of a part, by the shape read, and whether the
// rules accept them: a text accepted must read into kin-openapi's type
// (checked for every case), and the common ones must be accepted, or the
// rules save nothing.
var acceptCases = []struct {
	s      *shape
	text   string
	accept bool
}{
	{schemaShape, `{"type":"string","maxLength":24,"pattern":"^([a-f0-9]{24})$"}`, true},
	{schemaShape, `{"type":["string","null"],"enum":[1,"a",null,{"x":[]}],"default":{"a":1}}`, true},
	{schemaShape, `{"type":"object","properties":{"a":{},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}`, true},
	{schemaShape, `{"minimum":0.5,"maximum":1e300,"multipleOf":0.01,"exclusiveMinimum":true,"exclusiveMaximum":3}`, true},
	{schemaShape, `{"discriminator":{"propertyName":"t","mapping":{"a":"#/components/schemas/A"}},"oneOf":[{},{}]}`, true},
	{schemaShape, `{"$ref":"#/components/schemas/S"}`, true},
	{schemaShape, `{"$ref":"#/components/schemas/S","description":"","x-a":{"b":[1]}}`, true},
	{schemaShape, `{"$ref":""}`, true}, // no reference: read as a schema, $ref kept as an extension
	{schemaShape, `{"x-nested":{"properties":{"a":{"maxLength":"x"}}},"nullable":true}`, true},
	{schemaShape, `true`, true},
	{schemaShape, `{"title":"a\"b\\c"}`, true},
	{schemaShape, `{"Type":"string"}`, false}, // read into Type, ignoring case
	{schemaShape, `{"\u0074ype":5}`, false},
	{schemaShape, `{"ſtring":1}`, false},
	{schemaShape, `{"type":5}`, false},
	{schemaShape, `{"type":[5]}`, false},
	{schemaShape, `{"minLength":-1}`, false},
	{schemaShape, `{"minLength":1.5}`, false},
	{schemaShape, `{"minLength":1e2}`, false},
	{schemaShape, `{"maxLength":18446744073709551615}`, false},
	{schemaShape, `{"minimum":"1"}`, false},
	{schemaShape, `{"enum":5}`, false},
	{schemaShape, `{"required":[1]}`, false},
	{schemaShape, `{"required":true}`, false},
	{schemaShape, `{"nullable":"true"}`, false},
	{schemaShape, `{"nullable":null}`, false}, // read, but not judged
	{schemaShape, `{"additionalProperties":5}`, false},
	{schemaShape, `{"additionalProperties":{"items":{"minLength":"x"}}}`, false},
	{schemaShape, `{"exclusiveMinimum":"x"}`, false},
	{schemaShape, `{"discriminator":{"propertyName":5}}`, false},
	{schemaShape, `{"discriminator":{"mapping":{"a":5}}}`, false},
	{schemaShape, `{"properties":[]}`, false},
	{schemaShape, `{"items":{"items":{"minLength":"x"}}}`, false},
	{schemaShape, `{"$REF":"#/components/schemas/S"}`, false},
	{schemaShape, `{"$ref":5}`, false},
	{schemaShape, `"string"`, false},
	{schemaShape, `{"type":"string"} {}`, false},
	{schemaShape, `{"type":"string"`, false},
	{boolSchema, `false`, true},
	{boolSchema, `{"type":"string"}`, true},
	{boolSchema, `{"type":7}`, false},
	{boolSchema, `7`, false},
	{operationShape, `{"operationId":"a","tags":["t"],"deprecated":true,"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{},"x-v":"1"}}},"x-foo":5}}`, true},
	{operationShape, `{"parameters":[{"$ref":"#/components/parameters/p"},{"name":"a","in":"query","required":true,"schema":{}}],"responses":{"401":{"$ref":"#/components/responses/r"}}}`, true},
	{operationShape, `{"requestBody":{"required":true,"content":{"application/json":{"schema":{},"encoding":{"a":{"contentType":"text/plain","headers":{"h":{"schema":{}}}}}}}}}`, true},
	{operationShape, `{"security":[{"a":["x"]},{}],"servers":[{"url":"x","variables":{"v":{"default":"a","enum":["a"]}}}]}`, true},
	{operationShape, `{"callbacks":{"cb":{"{$url}":{"post":{"responses":{"200":{"description":"ok"}}}}}}}`, true},
	{operationShape, `{"responses":{"200":{"description":"ok","links":{"l":{"operationId":"b","parameters":{"p":"$response.body#/id"}}}}}}`, true},
	{operationShape, `{"responses":{"200":{"description":5}}}`, false},
	{operationShape, `{"responses":null}`, false},
	{operationShape, `{"parameters":{}}`, false},
	{operationShape, `{"security":[{"a":"x"}]}`, false},
	{operationShape, `{"deprecated":"yes"}`, false},
	{operationShape, `{"tags":"a"}`, false},
	{operationShape, `{"Responses":{}}`, false},
	{operationShape, `{"callbacks":{"cb":{"{$url}":{"post":{"deprecated":1}}}}}`, false},
	{parameterShape, `{"name":"a","in":"path","required":true,"schema":{},"examples":{"e":{"value":{"a":1}}}}`, true},
	{parameterShape, `{"name":"a","explode":"no"}`, false},
	{headerShape, `{"schema":{},"description":""}`, true},
	{responseShape, `{"description":"ok","headers":{"h":{"$ref":"#/components/headers/h"}}}`, true},
	{securityScheme, `{"type":"http","scheme":"digest"}`, false}, // its own reading: not followed
}

func TestAcceptedPartsRead(t *testing.T) {
	t.Parallel()
	for _, c := range acceptCases {
		got := accepts(c.s, []byte(c.text))
		if got != c.accept {
			t.Errorf("%s %s: accepted %v, want %v", c.s.name, c.text, got, c.accept)
		}
		if err := json.Unmarshal([]byte("["+c.text+"]"), targets[c.s]()); got && err != nil {
			t.Errorf("%s %s: accepted, but the loader's type refuses it: %v", c.s.name, c.text, err)
		}
	}
}

// FuzzAcceptedPartsRead: nothing the rules accept that kin-openapi's
// reading refuses.
func FuzzAcceptedPartsRead(f *testing.F) {
	shapes := []*shape{schemaShape, boolSchema, parameterShape, headerShape, requestBody, responseShape,
		securityScheme, exampleShape, linkShape, callbackShape, operationShape}
	if len(shapes) != len(targets) {
		f.Fatal("a target is not fuzzed")
	}
	for _, c := range acceptCases {
		f.Add(uint8(slices.Index(shapes, c.s)), c.text)
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		s := shapes[int(which)%len(shapes)]
		if !accepts(s, []byte(text)) {
			return
		}
		if err := json.Unmarshal([]byte("["+text+"]"), targets[s]()); err != nil {
			t.Errorf("%s %s: accepted, but the loader's type refuses it: %v", s.name, text, err)
		}
	})
}
