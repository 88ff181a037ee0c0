package policy

import (
	"strings"
	"testing"
)

func TestOldCheckIDInExemption(t *testing.T) {
	t.Parallel()
	list, warnings, err := ParseExemptions("exemptions.yaml", []byte(`
exemptions:
  - operation: POST /a
    change: added-required-request-body
    reason: migration
    expires: 2030-01-01
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "request-body-added-required") {
		t.Fatalf("warnings = %q, want one naming the new id", warnings)
	}
	finding := Finding{Rule: BreakingChangeWithoutNewVersion, Operation: "POST /a", Change: "request-body-added-required"}
	if !list[0].matches(&finding) {
		t.Error("the exemption naming the old id does not exempt a finding of the new id")
	}
}

// TestExemptionOperationMatching: the documented syntax, and only it. The
// method is literal (any case) or *; the path is literal, except that a
// segment * matches any one segment.
func TestExemptionOperationMatching(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern, operation string
		match              bool
	}{
		{"GET /a/b", "GET /a/b", true},
		{"get /a/b", "GET /a/b", true},
		{"POST /a/b", "GET /a/b", false},
		{"* /a/b", "DELETE /a/b", true},
		{"GET /a/*", "GET /a/b", true},
		{"GET /a/*", "GET /a/{id}", true},
		{"GET /a/*", "GET /a/b/c", false},
		{"GET /a/*", "GET /a", false},
		{"GET /*/b/*", "GET /x/b/y", true},
		{"GET /a/b", "GET /a/b/", false},
		{"GET /a/{id}", "GET /a/{id}", true},
		{"GET /a/{id}", "GET /a/7", false},
	}
	for _, c := range cases {
		e := Exemption{Rule: BreakingChangeWithoutNewVersion, Operation: c.pattern, Reason: "r"}
		if _, err := e.validate(); err != nil && !strings.Contains(err.Error(), "expires") {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		f := Finding{Rule: BreakingChangeWithoutNewVersion, Operation: c.operation}
		if got := e.matches(&f); got != c.match {
			t.Errorf("%q matches %q: %v, want %v", c.pattern, c.operation, got, c.match)
		}
	}
}

// TestExemptionOperationGlobRefused: glob syntax beyond a whole-segment *
// (classes, ?, a * inside a segment) is refused with the exemption named,
// not read as a pattern in silence.
func TestExemptionOperationGlobRefused(t *testing.T) {
	t.Parallel()
	for _, op := range []string{"GET /[a-z]", "GET /a?", "GET /v*", "GET /a/**", `GET /a\*`, "GET /a/[!b]"} {
		_, _, err := ParseExemptions("exemptions.yaml", []byte("exemptions:\n  - operation: \""+strings.ReplaceAll(op, `\`, `\\`)+"\"\n    reason: r\n    expires: 2030-01-01\n"))
		if err == nil || !strings.Contains(err.Error(), "exemptions[0]: operation") {
			t.Errorf("%q: err = %v, want a refusal naming exemptions[0]: operation", op, err)
		}
	}
}
