package changelog

import (
	"strings"
	"testing"
)

// TestParseRefusesChangesItCannotShow: a change that render and site could
// only show wrong is refused with its release and place.
func TestParseRefusesChangesItCannotShow(t *testing.T) {
	release := func(change string) string {
		return `[{"date": "2024-03-01", "changes": [` + change + `]}]`
	}
	cases := map[string]string{
		"null, not a change":           `null`,
		"no operation":                 `{"version": "2024-01-01", "id": "x", "text": "t"}`,
		"no text":                      `{"operation": "GET /a", "id": "x", "text": ""}`,
		`sunset "../../x" is not YYYY`: `{"operation": "GET /a", "id": "version-deprecated", "text": "t", "sunset": "../../x"}`,
	}
	for want, change := range cases {
		if _, err := Parse([]byte(release(change))); err == nil || !strings.Contains(err.Error(), "release 2024-03-01: change 0: "+want) {
			t.Errorf("%s: Parse = %v, want a refusal saying %q", change, err, want)
		}
	}
	if _, err := Parse([]byte(release(`{"operation": "GET /a", "version": "2024-01-01", "id": "version-deprecated", "text": "t", "sunset": "2025-03-01"}`))); err != nil {
		t.Errorf("a valid change refused: %v", err)
	}
}
