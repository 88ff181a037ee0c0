package specs

import "testing"

func TestBrokenLocalRef(t *testing.T) {
	t.Parallel()
	const doc = `openapi: 3.0.3
paths:
  /a/{id}:
    get:
      parameters:
        - $ref: "#/paths/~1a~1{id}/get/parameters/1"
        - {name: id, in: path}
      responses:
        "200": {$ref: "#/components/responses/Ok"}
x-alias: &x {schemas: {A: {type: string}}}
components:
  responses:
    Ok: {description: ok}
  schemas: *x
`
	tests := []struct {
		name, ref string
		wantLine  int
		wantMsg   string
	}{
		{"every ref resolves (escapes, list index, through an alias)", "#/components/schemas/schemas/A", 0, ""},
		{"missing component", "#/components/schemas/B", 15, `$ref "#/components/schemas/B" points to nothing: no "B" in #/components/schemas`},
		{"missing top-level key", "#/definitions/A", 15, `$ref "#/definitions/A" points to nothing: no "definitions" in #/`},
		{"list index out of range", "#/paths/~1a~1{id}/get/parameters/2", 15, `$ref "#/paths/~1a~1{id}/get/parameters/2" points to nothing: no "2" in #/paths/~1a~1{id}/get/parameters`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data := doc + "x-last: {$ref: \"" + tt.ref + "\"}\n"
			line, msg, found := brokenLocalRef([]byte(data))
			if found != (tt.wantMsg != "") || line != tt.wantLine || msg != tt.wantMsg {
				t.Errorf("brokenLocalRef = %d, %q, %v; want %d, %q", line, msg, found, tt.wantLine, tt.wantMsg)
			}
		})
	}
}

func TestJSONErrorLine(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		data string
		want int
	}{
		{"{\"a\": 1,\n \"b\": x}", 2},
		{"{\"a\": 1,\n \"b\": [\n", 2}, // cut off: the last line, not the one after it
		{`{"a": 1}`, 0},
	} {
		if got := jsonErrorLine([]byte(tt.data)); got != tt.want {
			t.Errorf("jsonErrorLine(%q) = %d, want %d", tt.data, got, tt.want)
		}
	}
}
