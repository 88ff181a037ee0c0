package versions_test

import (
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
)

func TestOperationsSorted(t *testing.T) {
	t.Parallel()
	const doc = `openapi: 3.0.3
info:
  title: x
  version: '1'
paths:
  /b:
    get:
      responses: {'204': {description: ok}}
  /a/{id}:
    patch:
      responses: {'204': {description: ok}}
    get:
      responses: {'204': {description: ok}}
  /a:
    post:
      responses: {'204': {description: ok}}
    get:
      responses: {'204': {description: ok}}
    delete:
      responses: {'204': {description: ok}}
  /:
    get:
      responses: {'204': {description: ok}}
`
	var got []string
	for _, op := range versions.Operations(parseDoc(t, "api.yaml", doc), "example") {
		got = append(got, op.Name())
	}
	want := []string{"GET /", "DELETE /a", "GET /a", "POST /a", "GET /a/{id}", "PATCH /a/{id}", "GET /b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Operations order mismatch (-want +got):\n%s", diff)
	}
}

// viewSummary is what a test compares of an operation view.
type viewSummary struct {
	Params    []string // "in name [required]", sorted
	Body      string   // media types, sorted; "-" when there is no body
	Responses []string // "status: media types", sorted by status
}

func summarizeView(op *openapi3.Operation) *viewSummary {
	if op == nil {
		return nil
	}
	s := &viewSummary{Body: "-"}
	for _, p := range op.Parameters {
		param := p.Value.In + " " + p.Value.Name
		if p.Value.Required {
			param += " required"
		}
		s.Params = append(s.Params, param)
	}
	slices.Sort(s.Params)
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		s.Body = contentKeys(op.RequestBody.Value.Content)
	}
	if op.Responses != nil {
		m := op.Responses.Map()
		for _, status := range slices.Sorted(maps.Keys(m)) {
			s.Responses = append(s.Responses, status+": "+contentKeys(m[status].Value.Content))
		}
	}
	return s
}

func contentKeys(c openapi3.Content) string {
	return strings.Join(slices.Sorted(maps.Keys(c)), " ")
}

type versionSummary struct {
	Name       string
	Date       civil.Date
	PreRelease bool
	View       *viewSummary
}

func summarizeVersions(vs []versions.Version) []versionSummary {
	var out []versionSummary
	for _, v := range vs {
		out = append(out, versionSummary{Name: v.Name, Date: v.Date, PreRelease: v.PreRelease, View: summarizeView(v.View)})
	}
	return out
}

type opSummary struct {
	Name       string
	Versioned  bool
	Versions   []versionSummary
	PreRelease []versionSummary
	Invalid    []versions.InvalidVersionError
	// Unversioned reports that the operation has an unversioned view; the
	// view itself is checked by TestOperationsUnversionedView.
	Unversioned bool
}

func summarizeOp(op *versions.Operation) opSummary {
	s := opSummary{
		Name:        op.Name(),
		Versioned:   op.Versioned(),
		Versions:    summarizeVersions(op.Versions),
		PreRelease:  summarizeVersions(op.PreRelease),
		Unversioned: op.Unversioned != nil,
	}
	for _, bad := range op.Invalid {
		s.Invalid = append(s.Invalid, *bad)
	}
	return s
}

func opByName(t *testing.T, ops []*versions.Operation, name string) *versions.Operation {
	t.Helper()
	for _, op := range ops {
		if op.Name() == name {
			return op
		}
	}
	t.Fatalf("no operation %s", name)
	return nil
}

// parseDoc parses an OpenAPI document that must be valid, keeping each
// node's origin (its line) as load.Parse does.
func parseDoc(t *testing.T, path, data string) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true
	doc, err := loader.LoadFromDataWithPath([]byte(data), &url.URL{Path: path})
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return doc
}

func loadOpsFixture(t *testing.T) (*openapi3.T, []*versions.Operation) {
	t.Helper()
	path := filepath.Join("testdata", "ops", "example-2024-06-01.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := parseDoc(t, path, string(data))
	return doc, versions.Operations(doc, "example")
}

func TestOperationsViews(t *testing.T) {
	t.Parallel()
	_, ops := loadOpsFixture(t)
	const vjson = "application/vnd.example+json"
	postParams := []string{"header X-Trace required", "path orgId required"} // op-level X-Trace overrides the path-level one
	getParams := []string{"header X-Trace", "path orgId required"}           // path-level ones merged
	want := []opSummary{
		{
			Name:        "DELETE /abc",
			Unversioned: true,
		},
		{
			Name:        "PUT /abc",
			Unversioned: true,
		},
		{
			Name:        "GET /health",
			Unversioned: true,
		},
		{
			Name:      "GET /orgs/{orgId}/users",
			Versioned: true,
			Versions: []versionSummary{{
				Name: "2024-01-01", Date: civil.Date{Year: 2024, Month: 1, Day: 1},
				View: &viewSummary{Params: getParams, Body: "-", Responses: []string{"200: " + vjson, "404: " + vjson}},
			}},
			PreRelease: []versionSummary{
				{
					Name: "2024-09-01.upcoming", Date: civil.Date{Year: 2024, Month: 9, Day: 1}, PreRelease: true,
					View: &viewSummary{Params: getParams, Body: "-", Responses: []string{"200: " + vjson}},
				},
				{
					Name: "preview", PreRelease: true,
					View: &viewSummary{Params: getParams, Body: "-", Responses: []string{"200: " + vjson}},
				},
			},
			Invalid: []versions.InvalidVersionError{{MediaType: "application/vnd.example.2024-02-30+json", Version: "2024-02-30"}},
		},
		{
			Name:      "POST /orgs/{orgId}/users",
			Versioned: true,
			Versions: []versionSummary{
				{
					Name: "2024-01-01", Date: civil.Date{Year: 2024, Month: 1, Day: 1},
					View: &viewSummary{
						Params: postParams,
						Body:   vjson,
						// no 202: it holds only the other version's media type
						Responses: []string{"201: " + vjson, "204: ", "400: application/json"},
					},
				},
				{
					Name: "2024-06-01", Date: civil.Date{Year: 2024, Month: 6, Day: 1},
					View: &viewSummary{
						Params:    postParams,
						Body:      vjson,
						Responses: []string{"201: application/vnd.example+csv " + vjson, "202: " + vjson, "204: ", "400: application/json"},
					},
				},
			},
		},
	}
	var got []opSummary
	for _, op := range ops {
		got = append(got, summarizeOp(op))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Operations mismatch (-want +got):\n%s", diff)
	}
}

// A view keeps the version's own schemas (shared with the document) under
// the normalized name, and leaves the operation as written untouched.
func TestOperationsViewSchemas(t *testing.T) {
	t.Parallel()
	doc, ops := loadOpsFixture(t)
	post := opByName(t, ops, "POST /orgs/{orgId}/users")
	schemas := doc.Components.Schemas
	tests := []struct {
		version string
		want    *openapi3.Schema
	}{
		{"2024-01-01", schemas["UserV1"].Value},
		{"2024-06-01", schemas["UserV2"].Value},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			t.Parallel()
			v := post.Version(tt.version)
			if v == nil {
				t.Fatalf("Version(%q) = nil", tt.version)
			}
			body := v.View.RequestBody.Value.Content["application/vnd.example+json"]
			if body == nil || body.Schema.Value != tt.want {
				t.Errorf("request body schema is not the version's own schema")
			}
			created := v.View.Responses.Value("201").Value.Content["application/vnd.example+json"]
			if created == nil || created.Schema.Value != tt.want {
				t.Errorf("201 schema is not the version's own schema")
			}
			problem := v.View.Responses.Value("400").Value.Content["application/json"]
			if problem == nil || problem.Schema.Value != schemas["Problem"].Value {
				t.Errorf("400 application/json schema is not the Problem schema")
			}
		})
	}
	// The operation as written keeps every media type and its own parameters.
	if got := contentKeys(post.Op.RequestBody.Value.Content); got != "application/vnd.example.2024-01-01+json application/vnd.example.2024-06-01+json" {
		t.Errorf("Op request body content changed: %s", got)
	}
	if got := contentKeys(post.Op.Responses.Value("201").Value.Content); got != "application/vnd.example.2024-01-01+json application/vnd.example.2024-06-01+csv application/vnd.example.2024-06-01+json" {
		t.Errorf("Op 201 content changed: %s", got)
	}
	if n := len(post.Op.Parameters); n != 1 {
		t.Errorf("Op has %d parameters, want its own 1", n)
	}
	if post.Op.Responses.Len() != 4 {
		t.Errorf("Op has %d responses, want 4", post.Op.Responses.Len())
	}
}

func TestOperationVersion(t *testing.T) {
	t.Parallel()
	_, ops := loadOpsFixture(t)
	get := opByName(t, ops, "GET /orgs/{orgId}/users")
	tests := []struct {
		name  string
		found bool
	}{
		{"2024-01-01", true},
		{"2024-06-01", false},
		{"preview", false}, // pre-release versions are not dated versions
		{"2024-09-01.upcoming", false},
		{"2024-02-30", false},
		{"", false},
	}
	for _, tt := range tests {
		v := get.Version(tt.name)
		if (v != nil) != tt.found {
			t.Errorf("Version(%q) = %v, want found %v", tt.name, v, tt.found)
		}
		if v != nil && v.Name != tt.name {
			t.Errorf("Version(%q).Name = %q", tt.name, v.Name)
		}
	}
}

func TestOperationsInlineViews(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		product string
		doc     string
		want    opSummary
	}{
		{
			name:    "only application/json is unversioned",
			product: "example",
			doc: `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /items:
    parameters:
      - {name: q, in: query, schema: {type: string}}
    post:
      requestBody:
        content:
          application/json: {schema: {type: object}}
      responses:
        '200':
          description: ok
          content:
            application/json: {schema: {type: object}}
`,
			want: opSummary{
				Name:        "POST /items",
				Unversioned: true,
			},
		},
		{
			name:    "request body of another version only is dropped",
			product: "example",
			doc: `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /items:
    put:
      requestBody:
        content:
          application/vnd.example.2024-06-01+json: {schema: {type: object}}
      responses:
        '200':
          description: ok
          content:
            application/vnd.example.2024-01-01+json: {schema: {type: object}}
            application/vnd.example.2024-06-01+json: {schema: {type: object}}
`,
			want: opSummary{
				Name:      "PUT /items",
				Versioned: true,
				Versions: []versionSummary{
					{Name: "2024-01-01", Date: civil.Date{Year: 2024, Month: 1, Day: 1}, View: &viewSummary{Body: "-", Responses: []string{"200: application/vnd.example+json"}}},
					{Name: "2024-06-01", Date: civil.Date{Year: 2024, Month: 6, Day: 1}, View: &viewSummary{Body: "application/vnd.example+json", Responses: []string{"200: application/vnd.example+json"}}},
				},
			},
		},
		{
			name:    "another product's media types are not versions",
			product: "example",
			doc: `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /items:
    get:
      responses:
        '200':
          description: ok
          content:
            application/vnd.other.2024-01-01+json: {schema: {type: object}}
`,
			want: opSummary{
				Name:        "GET /items",
				Unversioned: true,
			},
		},
		{
			name:    "only an impossible date",
			product: "example",
			doc: `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /items:
    get:
      responses:
        '200':
          description: ok
          content:
            application/vnd.example.2024-02-30+json: {schema: {type: object}}
`,
			want: opSummary{
				Name:      "GET /items",
				Versioned: true,
				Invalid:   []versions.InvalidVersionError{{MediaType: "application/vnd.example.2024-02-30+json", Version: "2024-02-30"}},
			},
		},
		{
			name:    "path parameter declared on both levels",
			product: "example",
			doc: `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /items/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
      - {name: id, in: query, schema: {type: string}}
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/vnd.example.2024-01-01+json; charset=utf-8: {schema: {type: object}}
`,
			want: opSummary{
				Name:      "GET /items/{id}",
				Versioned: true,
				Versions: []versionSummary{
					{Name: "2024-01-01", Date: civil.Date{Year: 2024, Month: 1, Day: 1}, View: &viewSummary{
						Params:    []string{"path id required", "query id"},
						Body:      "-",
						Responses: []string{"200: application/vnd.example+json"},
					}},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ops := versions.Operations(parseDoc(t, "api.yaml", tt.doc), tt.product)
			if len(ops) != 1 {
				t.Fatalf("got %d operations, want 1", len(ops))
			}
			if diff := cmp.Diff(tt.want, summarizeOp(ops[0])); diff != "" {
				t.Errorf("operation mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The operation-level path parameter wins over the path-level one.
func TestOperationsParameterOverride(t *testing.T) {
	t.Parallel()
	_, ops := loadOpsFixture(t)
	post := opByName(t, ops, "POST /orgs/{orgId}/users")
	for _, v := range post.Versions {
		var traces []*openapi3.Parameter
		for _, p := range v.View.Parameters {
			if p.Value.Name == "X-Trace" {
				traces = append(traces, p.Value)
			}
		}
		if len(traces) != 1 || !traces[0].Required {
			t.Errorf("version %s: X-Trace parameters %+v, want only the operation's required one", v.Name, traces)
		}
	}
}

func TestOperationKey(t *testing.T) {
	t.Parallel()
	key := func(method, path string) string {
		return (&versions.Operation{Method: method, Path: path}).Key()
	}
	tests := []struct {
		name       string
		a, b       [2]string // method, path
		wantSameAs bool
	}{
		{"renamed parameter", [2]string{"GET", "/orgs/{orgId}/users/{userId}"}, [2]string{"GET", "/orgs/{id}/users/{uid}"}, true},
		{"same path", [2]string{"POST", "/orgs"}, [2]string{"POST", "/orgs"}, true},
		{"other method", [2]string{"GET", "/orgs/{id}"}, [2]string{"DELETE", "/orgs/{id}"}, false},
		{"literal segment is not a parameter", [2]string{"GET", "/orgs/{id}"}, [2]string{"GET", "/orgs/id"}, false},
		{"other literal segment", [2]string{"GET", "/orgs/{id}/users"}, [2]string{"GET", "/orgs/{id}/teams"}, false},
		{"parameter count", [2]string{"GET", "/orgs/{id}"}, [2]string{"GET", "/orgs/{id}/{x}"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ka, kb := key(tt.a[0], tt.a[1]), key(tt.b[0], tt.b[1])
			if (ka == kb) != tt.wantSameAs {
				t.Errorf("Key(%v) = %q, Key(%v) = %q; want equal %v", tt.a, ka, tt.b, kb, tt.wantSameAs)
			}
		})
	}
	// Name keeps the parameter names.
	op := &versions.Operation{Method: "GET", Path: "/orgs/{orgId}"}
	if got := op.Name(); got != "GET /orgs/{orgId}" {
		t.Errorf("Name() = %q", got)
	}
}

func TestOperationLines(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "ops", "example-2024-06-01.yaml")
	_, ops := loadOpsFixture(t)
	// text is the fixture's line, to keep the numbers honest.
	lines := readLines(t, path)
	tests := []struct {
		op       string
		version  string // "" checks Line()
		wantLine int
		text     string
	}{
		{op: "POST /orgs/{orgId}/users", wantLine: 17, text: "post:"},
		{op: "GET /orgs/{orgId}/users", wantLine: 60, text: "get:"},
		{op: "GET /health", wantLine: 85, text: "get:"},
		{op: "PUT /abc", wantLine: 95, text: "put:"},
		{op: "DELETE /abc", wantLine: 100, text: "delete:"},
		// request body first
		{op: "POST /orgs/{orgId}/users", version: "2024-01-01", wantLine: 27, text: "application/vnd.example.2024-01-01+json:"},
		{op: "POST /orgs/{orgId}/users", version: "2024-06-01", wantLine: 30, text: "application/vnd.example.2024-06-01+json:"},
		// the lowest status (200), not the first one written (404)
		{op: "GET /orgs/{orgId}/users", version: "2024-01-01", wantLine: 81, text: "application/vnd.example.2024-01-01+json:"},
		{op: "GET /orgs/{orgId}/users", version: "preview", wantLine: 72, text: "application/vnd.example.preview+json:"},
		{op: "GET /orgs/{orgId}/users", version: "2024-09-01.upcoming", wantLine: 75, text: "application/vnd.example.2024-09-01.upcoming+json:"},
		{op: "GET /orgs/{orgId}/users", version: "2024-02-30", wantLine: 78, text: "application/vnd.example.2024-02-30+json:"},
		{op: "GET /orgs/{orgId}/users", version: "2024-06-01", wantLine: 0},
		{op: "GET /health", version: "2024-01-01", wantLine: 0},
		{op: "DELETE /abc", version: "2024-01-01", wantLine: 0},
	}
	for _, tt := range tests {
		t.Run(tt.op+" "+tt.version, func(t *testing.T) {
			t.Parallel()
			if tt.wantLine > 0 {
				if got := strings.TrimSpace(lines[tt.wantLine-1]); got != tt.text {
					t.Fatalf("fixture line %d is %q, want %q", tt.wantLine, got, tt.text)
				}
			}
			op := opByName(t, ops, tt.op)
			var got int
			if tt.version == "" {
				got = op.Line()
			} else {
				got = op.VersionLine(tt.version)
			}
			if got != tt.wantLine {
				t.Errorf("line = %d, want %d", got, tt.wantLine)
			}
		})
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")
}

const unversionedDoc = `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /items/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    put:
      parameters:
        - {name: q, in: query, schema: {type: string}}
      requestBody:
        content:
          application/json: {schema: {type: object}}
          text/plain: {schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json: {schema: {type: object}}
            application/vnd.other.2024-01-01+json: {schema: {type: object}}
        '204':
          description: no content
        '400':
          description: bad
          content:
            application/problem+json: {schema: {type: object}}
`

// The parts of an unversioned view that do not depend on media type names.
func TestOperationsUnversionedViewShape(t *testing.T) {
	t.Parallel()
	ops := versions.Operations(parseDoc(t, "api.yaml", unversionedDoc), "example")
	if len(ops) != 1 || ops[0].Unversioned == nil {
		t.Fatalf("want one unversioned operation, got %v", ops)
	}
	o := ops[0]
	if o.Versioned() || len(o.Versions)+len(o.PreRelease)+len(o.Invalid) != 0 {
		t.Errorf("unversioned operation has versions: %+v", summarizeOp(o))
	}
	v := summarizeView(o.Unversioned)
	if diff := cmp.Diff([]string{"path id required", "query q"}, v.Params); diff != "" {
		t.Errorf("params mismatch (-want +got):\n%s", diff)
	}
	var statuses []string
	for _, r := range v.Responses {
		status, _, _ := strings.Cut(r, ":")
		statuses = append(statuses, status)
	}
	if diff := cmp.Diff([]string{"200", "204", "400"}, statuses); diff != "" {
		t.Errorf("statuses mismatch (-want +got):\n%s", diff)
	}
	if o.Unversioned.RequestBody == nil {
		t.Errorf("request body dropped from the unversioned view")
	}
}

// An unversioned view keeps every media type under its own name.
func TestOperationsUnversionedView(t *testing.T) {
	t.Parallel()
	_, fixtureOps := loadOpsFixture(t)
	inlineOps := versions.Operations(parseDoc(t, "api.yaml", unversionedDoc), "example")
	tests := []struct {
		name string
		op   *versions.Operation
		want *viewSummary
	}{
		{
			name: "fixture GET /health",
			op:   opByName(t, fixtureOps, "GET /health"),
			want: &viewSummary{Body: "-", Responses: []string{"200: application/json"}},
		},
		{
			name: "fixture DELETE /abc",
			op:   opByName(t, fixtureOps, "DELETE /abc"),
			want: &viewSummary{Body: "-", Responses: []string{"204: "}},
		},
		{
			name: "several media types, another product's kept as is",
			op:   inlineOps[0],
			want: &viewSummary{
				Params: []string{"path id required", "query q"},
				Body:   "application/json text/plain",
				Responses: []string{
					"200: application/json application/vnd.other.2024-01-01+json",
					"204: ",
					"400: application/problem+json",
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, summarizeView(tt.op.Unversioned)); diff != "" {
				t.Errorf("%s: unversioned view mismatch (-want +got):\n%s", tt.op.Name(), diff)
			}
		})
	}
}
