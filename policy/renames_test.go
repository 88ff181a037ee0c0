package policy_test

import (
	"strings"
	"testing"

	"github.com/apiver/apiver/policy"
)

func TestOldCheckIDsInConfig(t *testing.T) {
	t.Parallel()
	cfg, err := policy.ParseConfig("apiver.yaml", []byte(`
severity:
  added-required-request-body: warning
  request-parameter-min-length-decreased: error
  request-property-min-items-decreased: error
  request-property-min-items-unset: info
`))
	if err != nil {
		t.Fatal(err)
	}
	levels := cfg.ChangeLevels()
	for id, want := range map[string]string{
		"request-body-added-required":            "warning", // renamed
		"request-parameter-min-length-unset":     "error",   // a removed limit, once reported as decreased
		"request-parameter-min-length-decreased": "error",
		"request-property-min-items-unset":       "info", // named itself: keeps its own level
	} {
		if got := levels[id]; got != want {
			t.Errorf("level of %s = %q, want %q", id, got, want)
		}
	}
	if _, ok := levels["added-required-request-body"]; ok {
		t.Error("the old id reached oasdiff's levels")
	}
	if len(cfg.Warnings) != 2 {
		t.Fatalf("warnings = %q, want one line for each old id applied to another", cfg.Warnings)
	}
	for i, id := range []string{"request-body-added-required", "request-parameter-min-length-unset"} {
		if w := cfg.Warnings[i]; !strings.Contains(w, id) || strings.Contains(w, "\n") {
			t.Errorf("warning %q does not name %s on one line", w, id)
		}
	}
}

func TestUnknownCheckIDIsRefused(t *testing.T) {
	t.Parallel()
	_, err := policy.ParseConfig("apiver.yaml", []byte("severity:\n  no-such-check: error\n"))
	if err == nil || !strings.Contains(err.Error(), "no-such-check") {
		t.Fatalf("err = %v, want a refusal naming the id", err)
	}
	_, _, err = policy.ParseExemptions("exemptions.yaml", []byte(`
exemptions:
  - operation: GET /a
    change: no-such-check
    reason: r
    expires: 2030-01-01
`))
	if err == nil || !strings.Contains(err.Error(), "no-such-check") {
		t.Fatalf("err = %v, want a refusal naming the id", err)
	}
}
