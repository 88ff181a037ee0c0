package specs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The descriptions and examples oasdiff does not compare are emptied,
// line for line; the same words as names, data or extensions stay, and so
// does a description that is not a string, for the load to report.
func TestEmptiedKeepsLinesAndWhatIsCompared(t *testing.T) {
	text := `openapi: 3.0.3
info:
  title: t
  version: "1"
  description: |
    Two lines
    of text.
paths:
  /pets:
    get:
      description: A folded
        plain scalar.
      parameters:
        - description: first key of an item
          name: kind
          in: query
          schema: {type: string, description: flow style stays}
      responses:
        "200":
          description: OK
          content:
            application/json:
              example:
                name: Rex
              schema:
                type: object
                x-notes:
                  description: an extension's data
                default:
                  description: a default's data
                properties:
                  description:
                    type: string
                    description: 42
                    example: a dog
`
	want := `openapi: 3.0.3
info:
  title: t
  version: "1"
  description: ""


paths:
  /pets:
    get:
      description: ""

      parameters:
        - description: ""
          name: kind
          in: query
          schema: {type: string, description: flow style stays}
      responses:
        "200":
          description: ""
          content:
            application/json:
              example:
               ""
              schema:
                type: object
                x-notes:
                  description: an extension's data
                default:
                  description: a default's data
                properties:
                  description:
                    type: string
                    description: 42
                    example: ""
`
	src := &Source{path: "t.yaml", data: []byte(text)}
	src.prepare()
	if src.structure != "" || src.index.why != "" {
		t.Fatalf("not indexed: %q %q", src.structure, src.index.why)
	}
	got := string(src.emptied())
	if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("emptied text (-want +got):\n%s", diff)
	}
}
