package policy

import (
	"strings"
	"testing"
)

func TestOldCheckIDInExemption(t *testing.T) {
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
