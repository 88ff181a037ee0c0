package diff

import (
	"reflect"
	"testing"
)

func TestEditOf(t *testing.T) {
	t.Parallel()
	const removed, pattern = "request-property-enum-value-removed", "request-property-pattern-added"
	for _, c := range []struct {
		id, message string
		want        Edit
	}{
		{removed, "removed the enum value `GROUP_OWNER` of the request property `roles/items/roleName`",
			Edit{Key: "removed the enum value `…` of the request property `roleName`", Value: "GROUP_OWNER", Valued: true, Property: "roleName", Place: "roles/items"}},
		{removed, "removed the enum value `MONGOD` of the request property `oneOf[#/components/schemas/S3LogIntegrationRequest]/logTypes/items/`",
			Edit{Key: "removed the enum value `…` of the request property `logTypes`", Value: "MONGOD", Valued: true, Property: "logTypes", Place: "oneOf[#/components/schemas/S3LogIntegrationRequest]"}},
		{"response-property-enum-value-removed", "removed the `A` enum value from the `results/items/state` response property for the response status `200`",
			Edit{Key: "removed the `…` enum value from the `state` response property", Value: "A", Valued: true, Property: "state", Place: "results/items"}},
		{pattern, "added the pattern `^([a-f0-9]{24})$` to the request property `oneOf[subschema #1: Any]/notifications/items/oneOf[subschema #2: Email Notification]/notifierId` (shared schema: `Root`, also at `x` and 11 more)",
			Edit{Key: "added the pattern `^([a-f0-9]{24})$` to the request property `notifierId`", Property: "notifierId", Place: "oneOf[subschema #1: Any]/notifications/items/oneOf[subschema #2: Email Notification]"}},
		// The empty string is a value too.
		{removed, "removed the enum value `` of the request property `kind`",
			Edit{Key: "removed the enum value `…` of the request property `kind`", Valued: true, Property: "kind"}},
		{pattern, "added the pattern `^a$` to the request property `name`",
			Edit{Key: "added the pattern `^a$` to the request property `name`", Property: "name"}},
		// Ids oasdiff does not know keep their root message.
		{"version-removed", "removed `x/y`", Edit{Key: "removed `x/y`"}},
	} {
		if got := EditOf(c.id, c.message); got != c.want {
			t.Errorf("EditOf(%q)\n got %+v\nwant %+v", c.message, got, c.want)
		}
	}
}

func TestSchemaName(t *testing.T) {
	t.Parallel()
	for place, want := range map[string]string{
		"oneOf[subschema #1: Any]/notifications/items/oneOf[subschema #2: Email Notification]": "Email Notification",
		"oneOf[#/components/schemas/HostAlertConfig]":                                          "HostAlertConfig",
		"oneOf[#/components/schemas/Host]/config/items":                                        "Host",
		"cloudProviderConfig/azure":                                                            "cloudProviderConfig/azure",
		"copySettings/items":                                                                   "copySettings",
		"allOf[subschema #2]":                                                                  "allOf[subschema #2]",
		// A branch known by its position only is not what a reader calls it.
		"oneOf[#/components/schemas/AzureBucket]/allOf[subschema #2]": "AzureBucket",
	} {
		if got := SchemaName(place); got != want {
			t.Errorf("SchemaName(%q) = %q, want %q", place, got, want)
		}
	}
}

func TestGatherEdits(t *testing.T) {
	t.Parallel()
	parts := []EditPart{
		// The values of one enum: one node, two values.
		{Key: "removed `…` of `role`", Node: "POST /a:roles", Values: []string{"A"}},
		{Key: "removed `…` of `role`", Node: "POST /a:roles", Values: []string{"B"}},
		// The same values removed from an enum of another schema: a sibling.
		{Key: "removed `…` of `role`", Node: "POST /a:admins", Values: []string{"B", "A"}},
		// Another enum under the same name, losing other values: its own edit.
		{Key: "removed `…` of `role`", Node: "POST /b:roles", Values: []string{"C"}},
		// One pattern added at two places.
		{Key: "added the pattern `p` to `id`", Node: "x"},
		{Key: "added the pattern `p` to `id`", Node: "y"},
	}
	want := [][][]int{{{0, 1}, {2}}, {{3}}, {{4}, {5}}}
	if got := GatherEdits(parts); !reflect.DeepEqual(got, want) {
		t.Errorf("GatherEdits = %v, want %v", got, want)
	}
}

func TestEditMessage(t *testing.T) {
	t.Parallel()
	const removed = "request-property-enum-value-removed"
	for _, c := range []struct {
		name, id                 string
		messages, values, places []string
		want                     string
	}{
		{"one enum", removed,
			[]string{"removed the enum value `A` of the request property `roles/items/roleName`", "removed the enum value `B` of the request property `roles/items/roleName`"},
			[]string{"A", "B"}, []string{"roles/items"},
			"removed the enum values `A`, `B` of the request property `roles/items/roleName`"},
		{"response enum", "response-property-enum-value-added",
			[]string{"added the new `A` enum value to the `state` response property for the response status `200`", "added the new `B` enum value to the `state` response property for the response status `200`"},
			[]string{"A", "B"}, nil,
			"added the new `A`, `B` enum values to the `state` response property for the response status `200`"},
		{"seen from two operations", removed,
			[]string{"removed the enum value `A` of the request property `role`", "removed the enum value `A` of the request property `roles/items/role`"},
			[]string{"A"}, []string{""},
			"removed the enum value `A` of the request property `role`"},
		{"siblings", "request-property-min-items-set",
			[]string{"the `oneOf[#/components/schemas/HostAlertConfig]/notifications` request property's minItems was set to `1`",
				"the `oneOf[#/components/schemas/ClusterAlertConfig]/notifications` request property's minItems was set to `1`",
				"the `oneOf[#/components/schemas/AnyOtherAlertConfig]/notifications` request property's minItems was set to `1`"},
			nil, []string{"oneOf[#/components/schemas/HostAlertConfig]", "oneOf[#/components/schemas/ClusterAlertConfig]", "oneOf[#/components/schemas/AnyOtherAlertConfig]"},
			"the `notifications` request property's minItems was set to `1` in 3 alert configuration schemas: Any Other, Cluster, Host"},
	} {
		if got := EditMessage(c.id, c.messages, c.values, c.places, 0); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	names := []string{"A Notification", "B Notification", "C Notification", "D Notification"}
	if got, want := SiblingsPhrase(names, "schemas", 2), "in 4 notification schemas: A, B and 2 more"; got != want {
		t.Errorf("SiblingsPhrase = %q, want %q", got, want)
	}
}

func TestSplitBranch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ path, prefix, name, rest string }{
		{"oneOf[subschema #1: Any]/notifications/items/oneOf[subschema #2: Email Notification]/notifierId",
			"oneOf[subschema #1: Any]/notifications/items/", "Email Notification", "notifierId"},
		{"oneOf[#/components/schemas/AzureBucket]/allOf[subschema #2]/tenantId", "", "AzureBucket", "allOf[subschema #2]/tenantId"},
		{"allOf[subschema #2]/tenantId", "", "#2", "tenantId"},
	} {
		prefix, name, rest, found := SplitBranch(c.path)
		if !found || prefix != c.prefix || name != c.name || rest != c.rest {
			t.Errorf("SplitBranch(%q) = %q, %q, %q, %v; want %q, %q, %q", c.path, prefix, name, rest, found, c.prefix, c.name, c.rest)
		}
	}
	if _, _, _, found := SplitBranch("oneOf[subschema #1: A]"); found {
		t.Errorf("a branch that nothing follows splits")
	}
}

// TestTemplateReadsLineBreaks: an enum value holding a line break is read
// from its message as any other, so that it joins its edit.
func TestTemplateReadsLineBreaks(t *testing.T) {
	t.Parallel()
	tmpl := TemplateOf("request-property-enum-value-removed")
	args, _, ok := tmpl.Args("removed the enum value `BLUE\r\n::warning::x` of the request property `color`")
	if !ok || len(args) < 1 || args[tmpl.Value] != "BLUE\r\n::warning::x" {
		t.Errorf("Args = %q, %v; want the value with its line break", args, ok)
	}
}

func TestApartByName(t *testing.T) {
	t.Parallel()
	names := [][]string{{"A"}, {"B"}, {""}, {""}, {"A"}, {"C", "B"}}
	got := ApartByName([][][]int{{{0}, {1}, {2}, {3}, {4}, {5}}, {{1}}}, func(node []int) []string { return names[node[0]] })
	want := [][][]int{{{0}, {1}, {2}}, {{3}, {4}, {5}}, {{1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ApartByName = %v, want %v", got, want)
	}
}
