package versions

import "testing"

func TestParseSunset(t *testing.T) {
	t.Parallel()
	valid := map[string]string{
		"2026-03-01":                "2026-03-01",
		"2026-03-01T10:00:00Z":      "2026-03-01",
		"2026-03-01t10:00:00z":      "2026-03-01",
		"2026-03-01T23:30:00-05:00": "2026-03-01",
		"2026-03-01T10:00:00.5Z":    "2026-03-01",
	}
	for in, want := range valid {
		if d, ok := ParseSunset(in); !ok || d.String() != want {
			t.Errorf("ParseSunset(%q) = %v, %v; want %s", in, d, ok, want)
		}
	}
	for _, in := range []string{"", "2026-03-01\n::error::x", "2026-03-01 ", " 2026-03-01", "2026-3-1", "2026-02-30",
		"2026-03-01 10:00:00", "2026-03-01T10:00:00", "2026-03-01T25:00:00Z", "20260-03-01", "2026-03-01T10:00:00+0500", "next year"} {
		if d, ok := ParseSunset(in); ok {
			t.Errorf("ParseSunset(%q) = %v, want refused", in, d)
		}
	}
}
