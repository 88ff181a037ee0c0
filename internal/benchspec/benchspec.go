// Package benchspec makes the snapshot pairs the benchmarks measure: a real
// snapshot with one operation changed, and generated specs of a chosen size
// with a chosen number of operations changed.
package benchspec

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// requestRef is a request body's schema that names a component, as the real
// snapshots write it.
var requestRef = regexp.MustCompile(`(?m)^( *)requestBody:\n *content:\n *\S+:\n( *)schema:\n( *)\$ref: ("[^"]+"|'[^']+'|\S+)\n`)

// OneOperationChanged is text whose first operation with a $ref'd request
// schema takes, in its place, an allOf of that $ref and an object with a new
// optional property: a pull request that changes one operation. The
// component itself is left alone, so no other operation changes. A new
// optional request property is an info, so the check passes.
func OneOperationChanged(text []byte) ([]byte, error) {
	return replaceRequestRef(text, func(indent, ref string) string {
		return fmt.Sprintf("%[1]sallOf:\n%[1]s  - $ref: %[2]s\n%[1]s  - type: object\n"+
			"%[1]s    properties:\n%[1]s      benchmarkProperty: {type: string}\n", indent, ref)
	})
}

// OneOperationBroken is text whose first operation with a $ref'd request
// schema takes, in its place, an object that requires a new property: a
// pull request that breaks one operation-version without a new version,
// which the check fails and offers to fix.
func OneOperationBroken(text []byte) ([]byte, error) {
	return replaceRequestRef(text, func(indent, _ string) string {
		return fmt.Sprintf("%[1]stype: object\n%[1]srequired: [benchmarkProperty]\n%[1]sproperties:\n%[1]s  benchmarkProperty: {type: string}\n", indent)
	})
}

// replaceRequestRef is text with the $ref of its first request body schema
// that is one replaced by what schema writes, given the $ref's indent and
// value.
func replaceRequestRef(text []byte, schema func(indent, ref string) string) ([]byte, error) {
	m := requestRef.FindSubmatchIndex(text)
	if m == nil {
		return nil, fmt.Errorf("no request body with a $ref'd schema")
	}
	var b bytes.Buffer
	b.Write(text[:m[6]])
	b.WriteString(schema(string(text[m[6]:m[7]]), string(text[m[8]:m[9]])))
	b.Write(text[m[1]:])
	return b.Bytes(), nil
}

// Generate writes a base and a revision of a spec with ops operations, each
// with its own request and response schemas and a shared error schema, in
// which the first changed operations gain a required request property.
func Generate(ops, changed int) (base, revision []byte) {
	return generate(ops, 0), generate(ops, changed)
}

func generate(ops, changed int) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo:\n  title: generated\n  version: \"1\"\npaths:\n")
	for i := range ops {
		fmt.Fprintf(&b, `  /resources%d/{id}:
    parameters:
      - name: id
        in: path
        required: true
        schema:
          type: string
          pattern: ^[a-f0-9]{24}$
    post:
      operationId: update%d
      requestBody:
        content:
          application/vnd.gen.2024-01-01+json:
            schema:
              $ref: "#/components/schemas/Request%d"
      responses:
        "200":
          description: ok
          content:
            application/vnd.gen.2024-01-01+json:
              schema:
                $ref: "#/components/schemas/Resource%d"
        "400":
          $ref: "#/components/responses/BadRequest"
`, i, i, i, i)
	}
	b.WriteString(`components:
  responses:
    BadRequest:
      description: bad request
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
  schemas:
    Error:
      type: object
      properties:
        code: {type: integer}
        detail: {type: string}
`)
	for i := range ops {
		required := "[name]"
		if i < changed {
			required = "[name, size]"
		}
		fmt.Fprintf(&b, `    Request%d:
      type: object
      required: %s
      properties:
        name:
          type: string
          maxLength: 64
        size:
          type: integer
          minimum: 1
        tags:
          type: array
          items: {type: string, enum: [a, b, c]}
    Resource%d:
      type: object
      properties:
        id: {type: string, pattern: "^[a-f0-9]{24}$"}
        name: {type: string}
        size: {type: integer}
        created: {type: string, format: date-time}
        owner:
          type: object
          properties:
            id: {type: string}
            email: {type: string, format: email}
`, i, required, i)
	}
	return []byte(b.String())
}

// WriteDocuments writes a base and a revision folder of n version
// documents of three operations each (api.example.com.YYYY-MM-DD.yaml, a
// day apart from 2000-01-01); the revision's first broken documents each
// break their first operation in place (a required request property
// added), so that a fix restores them and adds a new document.
func WriteDocuments(base, revision string, n, broken int) error {
	day := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, folder := range []string{base, revision} {
		if err := os.MkdirAll(folder, 0o755); err != nil {
			return err
		}
	}
	for i := range n {
		name := fmt.Sprintf("api.example.com.%s.yaml", day.AddDate(0, 0, i).Format(time.DateOnly))
		if err := os.WriteFile(filepath.Join(base, name), document(3, false), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(revision, name), document(3, i < broken), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func document(ops int, broken bool) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: generated, version: \"1\"}\npaths:\n")
	for i := range ops {
		required := "[name]"
		if broken && i == 0 {
			required = "[name, size]"
		}
		fmt.Fprintf(&b, `  /resources%d:
    post:
      operationId: create%d
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: %s
              properties:
                name: {type: string}
                size: {type: integer}
      responses:
        "200":
          description: ok
`, i, i, required)
	}
	return []byte(b.String())
}
