package policy_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/apiver/apiver/policy"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.yaml.in/yaml/v3"
)

// The seed corpora are in testdata/fuzz/<FuzzName>; go test runs them (and
// the f.Add seeds) as ordinary tests, go test -fuzz explores from them.

const exemption = `  - rule: breaking-change-without-new-version
    operation: "POST /api/v2/orgs"
    version: "2023-01-01"
    change: request-property-enum-value-removed
    reason: "roles moved to the new role API"
    expires: 2026-06-30
`

// FuzzParseConfig: every input is a config or a one-line error naming the
// file, the same twice; a config written back as YAML reads the same.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"",
		"product: example\ndeprecationMonths: 12\nsnapshot: latest-version\nmaxSpecSizeMiB: 64\n",
		"severity:\n  response-property-enum-value-removed: error\n  sunset-overdue: off\n",
		"exemptions:\n" + exemption,
		"deprecationMonths: 0\n",
		"sunset:\n  ga: 181 days\n  beta: 91 days\n  experimental: 1 day\n",
		"deprecationMonths: 6\nsunset: {wip: 2 weeks}\n",
		"deprecationMonths: 6\nsunset: {stable: 1 year}\n",
		"sunset: {beta: 91days}\n",
		"maxSpecSizeMiB: 99999999999\n",
		"unknownKey: 1\n",
		"product: [1, 2]\n",
		"a: &a [*a]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := policy.ParseConfig("apiver.yaml", data)
		cfg2, err2 := policy.ParseConfig("apiver.yaml", data)
		if errorString(err) != errorString(err2) || !reflect.DeepEqual(cfg, cfg2) {
			t.Fatalf("two parses disagree: %v / %v", err, err2)
		}
		if err != nil {
			checkNamedLine(t, err, "apiver.yaml: ")
			return
		}
		out, err := yaml.Marshal(cfg)
		if err != nil {
			t.Fatalf("yaml.Marshal: %v", err)
		}
		again, err := policy.ParseConfig("apiver.yaml", out)
		if err != nil {
			t.Fatalf("the config written back does not parse: %v\n%s", err, out)
		}
		// yaml.Marshal writes every key: the copy declares snapshot:
		// whether or not the original did.
		if diff := cmp.Diff(cfg, again, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(policy.Config{}, "Warnings", "SnapshotDeclared")); diff != "" {
			t.Fatalf("the config written back reads differently (-first +again):\n%s", diff)
		}
	})
}

// FuzzParseExemptions: the same for an exemptions file.
func FuzzParseExemptions(f *testing.F) {
	for _, s := range []string{
		"",
		"exemptions:\n" + exemption,
		"exemptions:\n  - operation: \"* /api/v2/groups/*\"\n    reason: r\n    expires: 2026-01-01\n",
		"exemptions:\n  - operation: GET\n    reason: r\n    expires: 2026-01-01\n",
		"exemptions:\n  - operation: \"GET /a\"\n    reason: \" \"\n    expires: 2026-02-30\n",
		"exemptions: {}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		list, _, err := policy.ParseExemptions("exemptions.yaml", data)
		list2, _, err2 := policy.ParseExemptions("exemptions.yaml", data)
		if errorString(err) != errorString(err2) || !reflect.DeepEqual(list, list2) {
			t.Fatalf("two parses disagree: %v / %v", err, err2)
		}
		if err != nil {
			checkNamedLine(t, err, "exemptions.yaml: ")
			return
		}
		out, err := yaml.Marshal(map[string]any{"exemptions": list})
		if err != nil {
			t.Fatalf("yaml.Marshal: %v", err)
		}
		again, _, err := policy.ParseExemptions("exemptions.yaml", out)
		if err != nil {
			t.Fatalf("the exemptions written back do not parse: %v\n%s", err, out)
		}
		if diff := cmp.Diff(list, again, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("the exemptions written back read differently (-first +again):\n%s", diff)
		}
	})
}

func errorString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkNamedLine asserts that err is one line starting with prefix.
func checkNamedLine(t *testing.T, err error, prefix string) {
	t.Helper()
	msg := err.Error()
	if strings.ContainsAny(msg, "\r\n") {
		t.Fatalf("error spans several lines: %q", msg)
	}
	if !strings.HasPrefix(msg, prefix) {
		t.Fatalf("error %q does not start with %q", msg, prefix)
	}
}
