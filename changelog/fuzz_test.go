package changelog_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/changelog"
)

// The seed corpus is in testdata/fuzz/FuzzParse; go test runs it (and the
// f.Add seeds) as ordinary tests, go test -fuzz explores from it.

// FuzzParse: every input is a history or a one-line error; a history's
// dates are unique and newest first, and its encoding reads back to the
// same encoding, so an update never rewrites what it does not change.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[]",
		`[{"date": "2024-02-01", "changes": [{"operation": "GET /a", "version": "2024-01-01", "id": "version-released", "breaking": false, "text": "x", "note": "hand-written"}]},
		  {"date": "2024-01-01", "changes": []}]`,
		`[{"date": "2024-01-01", "changes": []}, {"date": "2024-01-01", "changes": []}]`,
		`[{"date": "2024-02-30", "changes": []}]`,
		`[{"date": "2024-01-01", "changes": {}}]`,
		`{"date": "2024-01-01"}`,
		"[\n  {\"date\": \"2024-01-01\",\n",
		`[{"date": "2024-01-01", "changes": [], "text": "\u2028<b>&amp;</b>"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := changelog.Parse(data)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error spans several lines: %q", msg)
			}
			return
		}
		dates := h.Dates()
		if !slices.IsSortedFunc(dates, func(a, b string) int { return strings.Compare(b, a) }) || len(slices.Compact(slices.Clone(dates))) != len(dates) {
			t.Fatalf("dates not unique and newest first: %v", dates)
		}
		enc, err := h.Encode()
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		h2, err := changelog.Parse(enc)
		if err != nil {
			t.Fatalf("the encoding does not parse: %v\n%s", err, enc)
		}
		enc2, err := h2.Encode()
		if err != nil {
			t.Fatalf("Encode again: %v", err)
		}
		if string(enc) != string(enc2) {
			t.Fatalf("the encoding changes when read back:\n%s\n---\n%s", enc, enc2)
		}
		if !slices.Equal(h2.Dates(), dates) {
			t.Fatalf("dates %v read back as %v", dates, h2.Dates())
		}
	})
}
