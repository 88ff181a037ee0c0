package policy

import (
	"encoding/json"
	"reflect"
	"strconv"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/invopop/jsonschema"
)

// ConfigSchemaID is the schema's $id: a name, not a URL that is fetched.
const ConfigSchemaID = "https://github.com/apiver/apiver/apiver.schema.json"

// configDescriptions describe the fields of Config and Exemption for
// editors; TestConfigSchema fails when a field has none.
var configDescriptions = map[string]string{
	"Config":                   "apiver's config file, apiver.yaml.",
	"Config.Product":           "The product name of the vendor media types, application/vnd.PRODUCT.YYYY-MM-DD+json; detected from the documents when unset.",
	"Config.DeprecationMonths": "Months from a stable version's deprecation (the date of its successor) to its sunset; the same as sunset.stable, which it may not be set with.",
	"Config.Sunset":            "The deprecation period of each stability level, from a version's deprecation to its sunset: N days, weeks, months or years (\"12 months\", \"91 days\", \"1 day\"). Levels: stable (or ga), beta, alpha (or experimental), draft (or wip). stable defaults to deprecationMonths, 12 months; a pre-release level without a period keeps no clock (listed, never deprecated or gated).",
	"Config.Snapshot":          "all-versions: every supported version is in each snapshot, so a missing version was removed. latest-version: each snapshot publishes only the newest version of each operation, so a replaced version is deprecated, not removed. Unset: latest-version when no operation of any snapshot carries two versions while versions change between snapshots (a note on stderr says so), else all-versions.",
	"Config.FailOnPreexisting": "Let findings already true of the base (an overdue sunset, a sunset set too early long ago) fail the check, as --fail-on-preexisting does; by default only findings the revision introduced fail it.",
	"Config.Severity":          "apiver rule ids and oasdiff check ids mapped to error, warning, info or off.",
	"Config.Exemptions":        "Findings allowed to pass until a date.",
	"Config.MaxSpecSizeMiB":    "The largest snapshot or $ref'd file read, in MiB; a bigger one is refused before it is read.",
	"Config.MaxSpecNodes":      "The most nodes (mappings, lists, keys and values, YAML aliases expanded) a snapshot or $ref'd file may have; each costs about 2.4 KB of memory, and a bigger document is refused before it is built.",
	"Config.Versioning":        "How versions are published and how clients choose one.",
	"Versioning":               "How versions are published and how clients choose one.",
	"Versioning.By":            "media-type: one document, each operation's versions in vendor media types application/vnd.PRODUCT.YYYY-MM-DD+json. document: one OpenAPI document per version, named with its date (api.2026-03-10.yaml, 2026-03-10/spec.yaml; pre-release marks ~beta, ~experimental, .upcoming, preview), in a folder given as the snapshot. Unset: a folder is read as version documents, a file as media types.",
	"Versioning.Select":        "How a client asks for a version: a request header or a query parameter, named in messages, migration guides and the site (\"send `X-GitHub-Api-Version: 2026-03-10`\").",
	"Selection":                "The request header or query parameter that names the version; at most one is set.",
	"Selection.Header":         "The request header that names the version, e.g. X-GitHub-Api-Version.",
	"Selection.Query":          "The query parameter that names the version, e.g. api-version or version.",
	"Exemption":                "Lets the matching findings pass until it expires.",
	"Exemption.Rule":           "The apiver rule id exempted.",
	"Exemption.Operation":      "METHOD /path: the method, or * for any; the path is literal, except that a segment * matches any one segment (/api/*/orgs). No other glob syntax.",
	"Exemption.Version":        "The resource version (YYYY-MM-DD); every version when unset.",
	"Exemption.Change":         "The oasdiff check id; every change when unset.",
	"Exemption.Reason":         "Why the finding may pass; shown with the exempted finding.",
	"Exemption.Expires":        "The last day the exemption applies (YYYY-MM-DD); after it, it is itself an error (exemption-expired).",
}

// ConfigSchema is the JSON Schema (draft 2020-12) of apiver.yaml, reflected
// from Config, with the enums and bounds that validate enforces, so that an
// editor completes and checks the file.
func ConfigSchema() ([]byte, error) {
	r := &jsonschema.Reflector{
		FieldNameTag: "yaml",
		// Config is decoded strictly: an unknown key is an error.
		AllowAdditionalProperties: false,
		// No key is required: a missing one takes the default.
		RequiredFromJSONSchemaTags: true,
		DoNotReference:             true,
		ExpandedStruct:             true,
		BaseSchemaID:               ConfigSchemaID,
		Anonymous:                  true,
		LookupComment: func(t reflect.Type, field string) string {
			if field == "" {
				return configDescriptions[t.Name()]
			}
			return configDescriptions[t.Name()+"."+field]
		},
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			if t == reflect.TypeFor[civil.Date]() {
				return &jsonschema.Schema{Type: "string", Format: "date"}
			}
			return nil
		},
	}
	s := r.Reflect(Config{})
	s.ID = ConfigSchemaID
	s.Title = "apiver.yaml"

	def := DefaultConfig()
	prop := func(s *jsonschema.Schema, name string) *jsonschema.Schema {
		p, _ := s.Properties.Get(name)
		return p
	}
	p := prop(s, "product")
	p.Pattern = productName.String()
	p = prop(s, "deprecationMonths")
	p.Minimum, p.Maximum, p.Default = "1", json.Number(strconv.Itoa(largestDeprecationMonths)), def.DeprecationMonths
	p = prop(s, "sunset")
	p.PropertyNames = &jsonschema.Schema{Enum: anys(sunsetKeys)}
	p.AdditionalProperties = &jsonschema.Schema{Type: "string", Pattern: periodPattern.String()}
	// Two names of one level, or the stable period set twice, are refused.
	for _, pair := range [][]string{{"stable", "ga"}, {"alpha", "experimental"}, {"draft", "wip"}} {
		p.AllOf = append(p.AllOf, &jsonschema.Schema{Not: &jsonschema.Schema{Required: pair}})
	}
	s.Not = &jsonschema.Schema{Required: []string{"deprecationMonths", "sunset"}, Properties: jsonschema.NewProperties()}
	s.Not.Properties.Set("sunset", &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Required: []string{"stable"}}, {Required: []string{"ga"}}}})
	p = prop(s, "snapshot")
	p.Enum, p.Default = []any{AllVersions, LatestVersion}, def.Snapshot
	p = prop(s, "maxSpecNodes")
	p.Minimum, p.Maximum, p.Default = "1", json.Number(strconv.Itoa(largestSpecNodes)), def.MaxSpecNodes
	p = prop(s, "maxSpecSizeMiB")
	p.Minimum, p.Maximum, p.Default = "1", json.Number(strconv.Itoa(largestSpecSizeMiB)), def.MaxSpecSizeMiB

	v := prop(s, "versioning")
	prop(v, "by").Enum = []any{ByMediaType, ByDocument, ByResource}
	sel := prop(v, "select")
	prop(sel, "header").Pattern = headerName.String()
	prop(sel, "query").Pattern = queryName.String()
	// One of header and query, not both.
	sel.Not = &jsonschema.Schema{Required: []string{"header", "query"}}

	ruleIDs, checkIDs := ids()
	levels := []any{string(Error), string(Warning), string(Info), diff.LevelOff}
	p = prop(s, "severity")
	p.PropertyNames = &jsonschema.Schema{Enum: append(append([]any{}, ruleIDs...), checkIDs...)}
	p.AdditionalProperties = &jsonschema.Schema{Type: "string", Enum: levels}

	e := prop(s, "exemptions").Items
	e.Required = []string{"operation", "reason", "expires"}
	p = prop(e, "rule")
	p.Enum, p.Default = ruleIDs, BreakingChangeWithoutNewVersion
	prop(e, "operation").Pattern = operationSchemaPattern.String()
	prop(e, "version").Format = "date"
	prop(e, "change").Enum = checkIDs
	prop(e, "reason").MinLength = ptr(uint64(1))

	data, err := json.MarshalIndent(s, "", "  ")
	return append(data, '\n'), err
}

// ids are apiver's rule ids and oasdiff's check ids, each sorted.
func ids() (rules, checks []any) {
	cat := BuildCatalogue(DefaultConfig())
	for _, r := range cat.Rules {
		rules = append(rules, r.ID)
	}
	for _, c := range cat.Checks {
		checks = append(checks, c.ID)
	}
	return rules, checks
}

func anys(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

func ptr[T any](v T) *T { return &v }
