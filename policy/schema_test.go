package policy

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

func compileConfigSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := ConfigSchema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(ConfigSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(ConfigSchemaID)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return s
}

// yamlDoc reads YAML as the JSON value an editor's validator sees: YAML 1.2,
// where an unquoted 2026-12-31 is a string, not a timestamp.
func yamlDoc(t *testing.T, src string) any {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	var timestamps func(n *yaml.Node)
	timestamps = func(n *yaml.Node) {
		if n.Tag == "!!timestamp" {
			n.Tag = "!!str"
		}
		for _, c := range n.Content {
			timestamps(c)
		}
	}
	timestamps(&n)
	var v any
	if err := n.Decode(&v); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestConfigSchema: what ParseConfig accepts the schema accepts, and what it
// refuses for a key or a value the schema refuses too.
func TestConfigSchema(t *testing.T) {
	t.Parallel()
	s := compileConfigSchema(t)
	seed, err := os.ReadFile("../testdata/seed-history/exemptions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	valid := map[string]string{
		"seed exemptions": string(seed),
		"empty":           "{}",
		"everything": `product: example
deprecationMonths: 24
snapshot: latest-version
severity:
  response-property-enum-value-removed: error
  sunset-overdue: off
exemptions:
  - rule: breaking-change-without-new-version
    operation: "* /api/v2/orgs/*"
    version: "2023-01-01"
    change: request-property-enum-value-removed
    reason: roles moved
    expires: "2026-06-30"
maxSpecSizeMiB: 64
`,
		"sunset per stability":        "sunset: {stable: 12 months, beta: 91 days, experimental: 1 day, wip: 2 weeks}",
		"sunset in vervet's names":    "sunset: {ga: 1 year, beta: 3 months}",
		"months and unstable periods": "deprecationMonths: 24\nsunset: {beta: 91 days}",
	}
	for name, src := range valid {
		if _, err := ParseConfig(name, []byte(src)); err != nil {
			t.Fatalf("%s: ParseConfig refuses it: %v", name, err)
		}
		if err := s.Validate(yamlDoc(t, src)); err != nil {
			t.Errorf("%s: the schema refuses a valid config: %v", name, err)
		}
	}
	invalid := map[string]string{
		"unknown key":         "deprecationMonth: 12",
		"months below 1":      "deprecationMonths: 0",
		"months above 600":    "deprecationMonths: 9223372036854775807",
		"snapshot mode":       "snapshot: some-versions",
		"severity id":         "severity: {no-such-rule: error}",
		"severity level":      "severity: {sunset-overdue: fatal}",
		"exemption reason":    "exemptions: [{operation: GET /a, expires: \"2026-01-01\"}]",
		"exemption expiry":    "exemptions: [{operation: GET /a, reason: r}]",
		"exemption op":        "exemptions: [{operation: /a, reason: r, expires: \"2026-01-01\"}]",
		"exemption rule":      "exemptions: [{rule: nope, operation: GET /a, reason: r, expires: \"2026-01-01\"}]",
		"exemption date":      "exemptions: [{operation: GET /a, reason: r, expires: tomorrow}]",
		"exemption key":       "exemptions: [{operation: GET /a, reason: r, expires: \"2026-01-01\", until: x}]",
		"product name":        "product: Example",
		"size above maximum":  "maxSpecSizeMiB: 2000000",
		"sunset level":        "sunset: {preview: 91 days}",
		"sunset period":       "sunset: {beta: 91days}",
		"sunset zero":         "sunset: {beta: 0 days}",
		"sunset unit":         "sunset: {beta: 3 fortnights}",
		"sunset level twice":  "sunset: {stable: 12 months, ga: 181 days}",
		"alpha twice":         "sunset: {alpha: 1 day, experimental: 1 day}",
		"stable period twice": "deprecationMonths: 12\nsunset: {ga: 181 days}",
	}
	for name, src := range invalid {
		if _, err := ParseConfig(name, []byte(src)); err == nil {
			t.Fatalf("%s: ParseConfig accepts it: the case is wrong", name)
		}
		if err := s.Validate(yamlDoc(t, src)); err == nil {
			t.Errorf("%s: the schema accepts a config apiver refuses:\n%s", name, src)
		}
	}
}

// TestConfigSchemaDescribesEveryKey: a key added to Config without a
// description fails here, so editors never show a bare key.
func TestConfigSchemaDescribesEveryKey(t *testing.T) {
	t.Parallel()
	data, err := ConfigSchema()
	if err != nil {
		t.Fatal(err)
	}
	type node struct {
		Description string           `json:"description"`
		Properties  map[string]*node `json:"properties"`
		Items       *node            `json:"items"`
	}
	var root node
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, n *node)
	walk = func(path string, n *node) {
		if n.Description == "" {
			t.Errorf("%s has no description (add it to configDescriptions)", path)
		}
		for k, p := range n.Properties {
			walk(path+"."+k, p)
		}
		if n.Items != nil && n.Items.Properties != nil {
			walk(path+"[]", n.Items)
		}
	}
	walk("apiver.yaml", &root)
	if len(root.Properties) == 0 {
		t.Fatal("the schema has no properties")
	}
}
