package policy

import (
	"strings"
	"testing"
)

// Values that decoding would take silently, or that break the calendar,
// are refused with the key and its line.
func TestConfigValuesMakeSense(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, src string
		want      string // the error holds this
	}{
		{"months overflow", "deprecationMonths: 9223372036854775807", "deprecationMonths: must be from 1 to 600"},
		{"months past year 9999", "deprecationMonths: 999999999999", "deprecationMonths: must be from 1 to 600"},
		{"months a float", "deprecationMonths: 1.5", "line 1: deprecationMonths: 1.5 is not an integer"},
		{"months an integral float", "deprecationMonths: 12.0", "line 1: deprecationMonths: 12.0 is not an integer"},
		{"months in octal", "deprecationMonths: 012", "line 1: deprecationMonths: 012 is not written in decimal digits"},
		{"months in hexadecimal", "deprecationMonths: 0x0c", "line 1: deprecationMonths: 0x0c is not written in decimal digits"},
		{"months null", "deprecationMonths: null", "line 1: deprecationMonths: null"},
		// No value stands for a key left out.
		{"months minus one", "deprecationMonths: -1\nsunset: {stable: 3 months}", "line 1: deprecationMonths: must be from 1 to 600"},
		{"months through a merge key", "<<: {deprecationMonths: 0}", "deprecationMonths: must be from 1 to 600"},
		{"snapshot NUL", `snapshot: "\0unset"`, `snapshot: "\x00unset" is not all-versions or latest-version`},
		{"months empty", "deprecationMonths:", "line 1: deprecationMonths: null"},
		{"size a float", "maxSpecSizeMiB: 1e3", "line 1: maxSpecSizeMiB: 1e3 is not an integer"},
		{"two documents", "deprecationMonths: 12\n---\ndeprecationMonths: 1\n", "a config is one document"},
		{"five-digit year", "exemptions:\n  - operation: GET /a\n    reason: r\n    expires: 99999-01-01\n", `line 4: exemptions[0].expires: "99999-01-01" is not a calendar date`},
		{"no such day", "exemptions:\n  - operation: GET /a\n    reason: r\n    expires: 2026-02-30\n", `line 4: exemptions[0].expires: "2026-02-30"`},
		{"version two-digit year", "exemptions:\n  - operation: GET /a\n    version: 24-01-01\n    reason: r\n    expires: 2026-01-01\n", `line 3: exemptions[0].version: "24-01-01"`},
		{"null exemption", "exemptions:\n  - null\n", "line 2: exemptions[0]: null"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseConfig("apiver.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("accepted:\n%s", tt.src)
			}
			if !strings.HasPrefix(err.Error(), "apiver.yaml: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one holding %q", err, tt.want)
			}
		})
	}
	for _, ok := range []string{"", "# no settings\n", "{}", "deprecationMonths: 600", "---\ndeprecationMonths: 1\n", "exemptions:\n  - operation: GET /a\n    version: \"\"\n    reason: r\n    expires: 2026-01-01\n", "exemptions:\n  - operation: GET /a\n    reason: r\n    expires: 2026-01-01\n"} {
		if _, err := ParseConfig("apiver.yaml", []byte(ok)); err != nil {
			t.Errorf("refused %q: %v", ok, err)
		}
	}
	if _, _, err := ParseExemptions("exemptions.yaml", []byte("exemptions:\n  - operation: GET /a\n    reason: r\n    expires: 0-1-1\n")); err == nil || !strings.Contains(err.Error(), "line 4: exemptions[0].expires") {
		t.Errorf("exemptions file: %v", err)
	}
}
