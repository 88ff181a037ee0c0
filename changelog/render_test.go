package changelog_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/diff"
)

const seedHistory = "../testdata/golden/changelog.json"

func seedReleases(t *testing.T) []changelog.Release {
	t.Helper()
	h, err := changelog.Read(seedHistory)
	if err != nil {
		t.Fatal(err)
	}
	releases, err := h.Releases()
	if err != nil {
		t.Fatal(err)
	}
	return releases
}

// section is the Markdown of one release date.
func section(t *testing.T, releases []changelog.Release, date string) string {
	t.Helper()
	var b strings.Builder
	if err := changelog.Render(&b, "markdown", releases); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	start := strings.Index(md, "\n## "+date+"\n")
	if start < 0 {
		t.Fatalf("no section for %s", date)
	}
	rest := md[start+1:]
	if end := strings.Index(rest[3:], "\n## "); end >= 0 {
		rest = rest[:end+4]
	}
	return rest
}

// TestSeedRelease20260209 holds the Markdown of the seed's 2026-02-09
// release to the length of its hand-written history (section 9.3) while it
// still names every item of 9.3 and section 6 for that date.
func TestSeedRelease20260209(t *testing.T) {
	t.Parallel()
	md := section(t, seedReleases(t), "2026-02-09")
	nonBlank := 0
	for _, l := range strings.Split(md, "\n") {
		if strings.TrimSpace(l) != "" {
			nonBlank++
		}
	}
	if nonBlank > 40 {
		t.Errorf("2026-02-09 takes %d non-blank lines, want at most 40", nonBlank)
	}
	for _, want := range []string{
		// Role names removed from request and response properties.
		"GROUP_BACKUP_MANAGER", "GROUP_CLUSTER_MANAGER", "GROUP_DATABASE_ACCESS_ADMIN", "GROUP_DATA_ACCESS_ADMIN",
		"GROUP_DATA_ACCESS_READ_ONLY", "GROUP_DATA_ACCESS_READ_WRITE", "GROUP_OBSERVABILITY_VIEWER", "GROUP_OWNER",
		"GROUP_READ_ONLY", "GROUP_SEARCH_INDEX_EDITOR", "GROUP_STREAM_PROCESSING_OWNER", "ORG_BILLING_ADMIN",
		"ORG_BILLING_READ_ONLY", "ORG_GROUP_CREATOR", "ORG_MEMBER", "ORG_OWNER", "ORG_READ_ONLY", "ORG_STREAM_PROCESSING_ADMIN",
		"`apiKey/roles/items/roleName`", "`roles/items/roleName`", "`roles/items/`", "`groupRoleAssignments/items/groupRole`",
		// minItems of notifications in the alert configuration variants.
		"`notifications`", "minItems", "alert configuration variants", "Any Other", "Billing Threshold", "Cluster",
		"Host", "Host Metric", "Replica Set", "Stream Processor",
		// Region names.
		"US_GOV_ARIZONA", "US_GOV_TEXAS", "US_GOV_VIRGINIA", "`replicationSpecs/items/regionConfigs/items/regionName`",
		"`providerSettings/regionName`", "`copySettings/items/regionName`", "`regionName`",
		"AZURE_US_GOVERNMENT", "`azureKeyVault/azureEnvironment`",
		"MODIFY_STREAM_PROCESSOR", "`actions/items/action`",
		// Clusters and backup.
		"Use-Effective-Fields-Replication-Specs", "effectiveReplicationSpecs", "deleteAfterCreationHours", "deleteAfterDate",
		"copyPolicyItemsEnabled", "`copySettings/items/copyPolicyItems`", "`copySettings/items/lastNumberOfSnapshots`",
		"deleteCopySnapshots", "updateCopySnapshots",
		// Log integrations.
		"`logTypes`", "became required", "AZURE_BLOB_LOG_EXPORT", "DATADOG_LOG_EXPORT", "OTEL_LOG_EXPORT", "S3_LOG_EXPORT",
		"SPLUNK_LOG_EXPORT", "`MONGOD`", "`MONGOD_AUDIT`", "`MONGOS`", "`MONGOS_AUDIT`", "`bucketName`", "`iamRoleId`",
		"`kmsKey`", "`prefixPath`", "discriminator",
		// Private endpoints, errors (section 7) and events (section 6).
		"portMappingEnabled", "`connections/items/region`", "`405`",
		"ADMIN_OVERRIDE_PAYMENT_METHOD_EXPIRED", "MARKETPLACE_REFUND_ISSUED", "PAYMENT_METHOD_FLAGGED", "PAYMENT_METHOD_UNFLAGGED",
		"`results/items/eventTypeName`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("2026-02-09 does not name %s", want)
		}
	}
}

var code = regexp.MustCompile("`([^`]*)`")

// TestEveryChangeStaysInTheMarkdown: each entry's operation and the last
// name of each of its quoted values are in its release's section, and the
// lines stand for every entry.
func TestEveryChangeStaysInTheMarkdown(t *testing.T) {
	t.Parallel()
	releases := seedReleases(t)
	history := changelog.NewLifecycles(releases)
	for _, r := range releases {
		md := section(t, releases, r.Date)
		n := 0
		for _, l := range changelog.Lines(r, history) {
			n += l.Entries
		}
		if n != len(r.Changes) {
			t.Errorf("%s: lines stand for %d entries, want %d", r.Date, n, len(r.Changes))
		}
		for _, e := range r.Changes {
			if !strings.Contains(md, "`"+e.Operation+"`") {
				t.Errorf("%s: %s is not named", r.Date, e.Operation)
			}
			for _, m := range code.FindAllStringSubmatch(e.Text, -1) {
				for _, name := range strings.Split(m[1], ", ") {
					name = name[strings.LastIndexAny(name, "/]")+1:]
					if name != "" && name != "items" && !strings.Contains(md, name) {
						t.Errorf("%s: %q of %q is not in the Markdown", r.Date, name, e.Text)
					}
				}
			}
		}
	}
}

func TestInvisibleValuesAreQuoted(t *testing.T) {
	t.Parallel()
	r := changelog.Release{Date: "2026-01-01", Changes: []changelog.Entry{
		{Operation: "GET /a", Version: "2023-01-01", ID: "response-property-enum-value-added", Text: "added the new `` enum value to the `kind` response property for the response status `200`"},
		{Operation: "GET /a", Version: "2023-01-01", ID: "response-property-enum-value-added", Text: "added the new ` ` enum value to the `kind` response property for the response status `200`"},
	}}
	ls := changelog.Lines(r, nil)
	if len(ls) != 1 {
		t.Fatalf("got %d lines, want 1", len(ls))
	}
	if !strings.Contains(ls[0].Text, "`\"\"`") || !strings.Contains(ls[0].Text, "`\" \"`") {
		t.Errorf("line %q does not quote the empty and blank values", ls[0].Text)
	}
}

func TestStatusesMerge(t *testing.T) {
	t.Parallel()
	r := changelog.Release{Date: "2026-01-01", Changes: []changelog.Entry{
		{Operation: "GET /a", Version: "2023-01-01", ID: "response-optional-property-became-read-only", Text: "the response optional property `errorCode` became read-only for the status `401`"},
		{Operation: "GET /a", Version: "2023-01-01", ID: "response-optional-property-became-read-only", Text: "the response optional property `errorCode` became read-only for the status `500`"},
	}}
	ls := changelog.Lines(r, nil)
	if len(ls) != 1 || !strings.Contains(ls[0].Text, "for the 401 and 500 responses") {
		t.Errorf("lines %+v, want one for the 401 and 500 responses", ls)
	}
}

func entry(op, id, text string) changelog.Entry {
	return changelog.Entry{Operation: op, Version: "2023-01-01", ID: id, Text: text}
}

// Sibling oneOf branches of one schema merge into one line that names them.
func TestVariantsMerge(t *testing.T) {
	t.Parallel()
	var changes []changelog.Entry
	for _, v := range []string{"AnyOtherAlertConfig", "HostAlertConfig", "ClusterAlertConfig"} {
		for _, op := range []string{"POST /alertConfigs", "PUT /alertConfigs/{id}"} {
			changes = append(changes, entry(op, "request-property-min-items-set", "the `oneOf[#/components/schemas/"+v+"]/notifications` request property's minItems was set to `1`"))
		}
	}
	ls := changelog.Lines(changelog.Release{Date: "2026-01-01", Changes: changes}, nil)
	if len(ls) != 1 {
		t.Fatalf("got %d lines, want 1: %+v", len(ls), ls)
	}
	want := "The `notifications` request property's minItems was set to `1` in 3 alert configuration variants: Any Other, Cluster, Host"
	if ls[0].Text != want || len(ls[0].Uses) != 2 || ls[0].Entries != 6 {
		t.Errorf("line %q with %d uses, %d entries; want %q with 2 uses, 6 entries", ls[0].Text, len(ls[0].Uses), ls[0].Entries, want)
	}
}

// The same edit of sibling branches nested in another branch (a pattern
// added to `notifierId` in each notification type of a shared schema) is
// one line, though oasdiff lists other paths to each branch.
func TestNestedVariantsMerge(t *testing.T) {
	t.Parallel()
	var changes []changelog.Entry
	for _, v := range []string{"Datadog Notification", "Email Notification", "Slack Notification"} {
		changes = append(changes, entry("POST /alertConfigs", "request-property-pattern-added",
			"added the pattern `^a$` to the request property `oneOf[subschema #1: Any Other Alert Configurations]/notifications/items/oneOf[subschema #1: "+v+
				"]/notifierId` (shared schema: `Root`, also at `oneOf[subschema #2: Host Alert Configuration]/notifications/items/oneOf[subschema #1: "+v+"]/notifierId` and 11 more)"))
	}
	ls := changelog.Lines(changelog.Release{Date: "2026-01-01", Changes: changes}, nil)
	if len(ls) != 1 {
		t.Fatalf("got %d lines, want 1: %+v", len(ls), ls)
	}
	// The outer branch is named by its title, without its position.
	want := "Added the pattern `^a$` to the request property `oneOf[Any Other Alert Configurations]/notifications/items/notifierId` (shared schema: `Root`) in 3 notification variants: Datadog, Email, Slack"
	if ls[0].Text != want || ls[0].Entries != 3 {
		t.Errorf("line %q, %d entries; want %q, 3 entries", ls[0].Text, ls[0].Entries, want)
	}
}

// A migration guide lists each edit once: the values of one enum together,
// the same edit of sibling schemas together, other changes one a line.
func TestGuideLines(t *testing.T) {
	t.Parallel()
	change := func(id, message string) diff.Change {
		return diff.Change{Operation: "POST /orgs", Version: "2024-01-01", ID: id, Level: diff.Error, Message: message}
	}
	got := changelog.GuideLines([]diff.Change{
		change("request-property-enum-value-removed", "removed the enum value `A` of the request property `roles/items/role`"),
		change("request-property-enum-value-removed", "removed the enum value `B` of the request property `roles/items/role`"),
		change("request-property-pattern-added", "added the pattern `^a$` to the request property `oneOf[#/components/schemas/EmailNotification]/notifierId`"),
		change("request-property-pattern-added", "added the pattern `^a$` to the request property `oneOf[#/components/schemas/SlackNotification]/notifierId`"),
		change("request-property-removed", "removed the request property `x`"),
		change("request-property-removed", "removed the request property `y`"),
	})
	want := []changelog.GuideLine{
		{Text: "Removed the enum values `A`, `B` of the request property `roles/items/role`", Breaking: true},
		{Text: "Added the pattern `^a$` to the request property `notifierId` in 2 notification schemas: Email, Slack", Breaking: true},
		{Text: "Removed the request property `x`", Breaking: true},
		{Text: "Removed the request property `y`", Breaking: true},
	}
	if !slices.Equal(got, want) {
		t.Errorf("guide lines:\n%+v\nwant:\n%+v", got, want)
	}
}

// Operations that differ in the property or status they name share a line,
// each with its own detail; nothing is claimed for an operation that did
// not have it.
func TestOperationsKeepTheirDetails(t *testing.T) {
	t.Parallel()
	ls := changelog.Lines(changelog.Release{Date: "2026-01-01", Changes: []changelog.Entry{
		entry("POST /orgs", "response-optional-property-added", "added the optional property `roleName` to the response with the `201` status"),
		entry("GET /orgs/{id}", "response-optional-property-added", "added the optional property `roles/items/roleName` to the response with the `200` status"),
	}}, nil)
	if len(ls) != 1 {
		t.Fatalf("got %d lines, want 1: %+v", len(ls), ls)
	}
	details := map[string]string{}
	for _, u := range ls[0].Uses {
		details[u.Operation] = u.Detail
	}
	if details["POST /orgs"] != "`roleName`, 201 response" || details["GET /orgs/{id}"] != "`roles/items/roleName`, 200 response" {
		t.Errorf("details %q", details)
	}
}

// Two properties changed in two operations each merge only when every
// combination happened.
func TestMergesAreCrossProducts(t *testing.T) {
	t.Parallel()
	ls := changelog.Lines(changelog.Release{Date: "2026-01-01", Changes: []changelog.Entry{
		entry("POST /a", "request-property-removed", "removed the request property `x`"),
		entry("POST /a", "request-property-removed", "removed the request property `y`"),
		entry("POST /b", "request-property-removed", "removed the request property `x`"),
	}}, nil)
	claimed := map[string]bool{}
	for _, l := range ls {
		for _, u := range l.Uses {
			for _, p := range []string{"`x`", "`y`"} {
				if strings.Contains(l.Text, p) || strings.Contains(u.Detail, p) {
					claimed[u.Operation+" "+p] = true
				}
			}
		}
	}
	if claimed["POST /b `y`"] || !claimed["POST /a `x`"] || !claimed["POST /a `y`"] || !claimed["POST /b `x`"] {
		t.Errorf("lines claim %v", claimed)
	}
}

func TestLifecycleLines(t *testing.T) {
	t.Parallel()
	releases := []changelog.Release{
		{Date: "2024-03-01", Changes: []changelog.Entry{{Operation: "GET /clusters", Version: "2023-01-01", ID: changelog.VersionRemoved, Breaking: true, Text: "Version 2023-01-01 removed"}}},
		{Date: "2023-02-01", Changes: []changelog.Entry{
			{Operation: "GET /clusters", Version: "2023-01-01", ID: changelog.VersionDeprecated, Sunset: "2024-02-01", Text: "Version 2023-01-01 deprecated"},
			{Operation: "GET /clusters", Version: "2023-02-01", ID: changelog.VersionReleased, Replaces: "2023-01-01", Text: "Version 2023-02-01 released"},
		}},
	}
	var b strings.Builder
	if err := changelog.Render(&b, "markdown", releases); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- `GET /clusters` 2023-01-01 removed (deprecated 2023-02-01, sunset 2024-02-01)\n",
		"- `GET /clusters` 2023-01-01 deprecated in favour of 2023-02-01, sunset 2024-02-01\n",
		"- `GET /clusters` 2023-02-01 released, replacing 2023-01-01\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, b.String())
		}
	}
}

func TestSummaryAndNotesAreShown(t *testing.T) {
	t.Parallel()
	e := entry("POST /a", "request-property-removed", "removed the request property `x`")
	e.Note = "Send `y` instead."
	releases := []changelog.Release{{Date: "2026-01-01", Summary: "One property goes.", Changes: []changelog.Entry{e}}}
	for format, want := range map[string][]string{
		"markdown": {"## 2026-01-01\n\nOne property goes.\n", "\n  > Send `y` instead.\n"},
		"text":     {"2026-01-01\n==========\n\nOne property goes.\n", "\n  Note: Send `y` instead.\n"},
	} {
		var b strings.Builder
		if err := changelog.Render(&b, format, releases); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q:\n%s", format, w, b.String())
			}
		}
	}
}

// TestDeepChangelog: valid JSON nested deeper than the decoder reads is
// refused for its depth, not as invalid JSON.
func TestDeepChangelog(t *testing.T) {
	t.Parallel()
	data := []byte("[" + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "]")
	_, err := changelog.Parse(data)
	if err == nil || !strings.Contains(err.Error(), "nested deeper than 128 levels") {
		t.Errorf("Parse = %v, want a refusal for the depth", err)
	}
}

// TestHandWrittenTextStartsNoWorkflowCommand: a summary or a note cannot
// start a line with "::" in either format, even after spaces or a lone CR,
// and shows its control characters escaped.
func TestHandWrittenTextStartsNoWorkflowCommand(t *testing.T) {
	t.Parallel()
	h, err := changelog.Parse([]byte(`[{"date": "2024-02-01", "summary": "Fine\n::error::owned\r::warning::cr\n  ::notice::indented \u001b[31m\u202e",
		"changes": [{"operation": "GET /a", "version": "2024-01-01", "id": "x", "breaking": false, "text": "changed", "note": "::error::note\r::error::cr"}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	releases, err := h.Releases()
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range changelog.RenderFormats {
		var b strings.Builder
		if err := changelog.Render(&b, format, releases); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
				t.Errorf("%s: a line starts a workflow command: %q\n%s", format, line, out)
			}
		}
		if strings.ContainsAny(out, "\x1b\u202e\r") {
			t.Errorf("%s: raw control characters in\n%q", format, out)
		}
		if !strings.Contains(out, "owned") || !strings.Contains(out, "note") {
			t.Errorf("%s: the hand-written text is missing:\n%s", format, out)
		}
	}
}

// TestOperationsCountedOnce: an operation named for two of its properties,
// or for two of its versions, counts once in "in N operations".
func TestOperationsCountedOnce(t *testing.T) {
	t.Parallel()
	line := &changelog.Line{Text: "removed the enum value `X`", Uses: []changelog.Use{
		{Operation: "GET /a", Version: "2024-01-01", Detail: "`color`"},
		{Operation: "GET /b", Version: "2024-01-01", Detail: "`color`"},
		{Operation: "GET /a", Version: "2024-01-01", Detail: "`shade`"},
		{Operation: "GET /c", Version: "2024-01-01", Detail: "`tint`"},
		{Operation: "GET /c", Version: "2024-02-01", Detail: "`tint`"},
	}}
	if n := line.Operations(); n != 3 {
		t.Errorf("Operations() = %d, want 3", n)
	}
}

// TestRenamedBranchNamedOnce: a branch whose title changed is called by its
// new title; one edit reached through it at another position in another
// operation is the same line.
func TestRenamedBranchNamedOnce(t *testing.T) {
	t.Parallel()
	changes := []changelog.Entry{
		entry("POST /idps", "request-property-removed", "removed the request property `oneOf[subschema #1: OIDC -> subschema #1: OIDC WORKFORCE]/audienceClaim`"),
		entry("PATCH /idps/{id}", "request-property-removed", "removed the request property `oneOf[subschema #2: OIDC -> subschema #2: OIDC WORKFORCE]/audienceClaim`"),
	}
	ls := changelog.Lines(changelog.Release{Date: "2026-01-01", Changes: changes}, nil)
	if len(ls) != 1 {
		t.Fatalf("got %d lines, want 1: %+v", len(ls), ls)
	}
	if want := "Removed the request property `audienceClaim` in the `OIDC WORKFORCE` variant"; ls[0].Text != want {
		t.Errorf("line %q, want %q", ls[0].Text, want)
	}
}

// TestOneOperationInTwoVersions: a change of one operation in two of its
// versions names the operation once, with both versions.
func TestOneOperationInTwoVersions(t *testing.T) {
	t.Parallel()
	a, b := entry("POST /widgets", "request-property-enum-value-added", "added the new `GREEN` enum value to the request property `color`"), entry("POST /widgets", "request-property-enum-value-added", "added the new `GREEN` enum value to the request property `color`")
	b.Version = "2024-02-01"
	var out strings.Builder
	if err := changelog.Render(&out, "markdown", []changelog.Release{{Date: "2024-03-01", Changes: []changelog.Entry{a, b}}}); err != nil {
		t.Fatal(err)
	}
	if want := "- `POST /widgets` 2023-01-01, 2024-02-01: Added the new `GREEN` enum value to the request property `color`\n"; !strings.Contains(out.String(), want) {
		t.Errorf("got:\n%s\nwant a line %q", out.String(), want)
	}
}
