package printer

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCutRowRenders: a row cut to fit ends outside any code span, escape or
// character.
func TestCutRowRenders(t *testing.T) {
	t.Parallel()
	row := "| `rule` | removed `a`, ``b`c``, `é` and \\| more |\n"
	for limit := 0; limit <= len(row); limit++ {
		got := cutRow(row, limit)
		if limit >= len(row) {
			if got != row {
				t.Errorf("cutRow(%d) = %q, want the row whole", limit, got)
			}
			continue
		}
		kept := strings.TrimSuffix(got, " … (cut; `apiver check` shows it whole) |\n")
		if !strings.HasPrefix(row, kept) || !utf8.ValidString(kept) || strings.HasSuffix(kept, "\\") {
			t.Errorf("cutRow(%d) = %q: not a clean start of the row", limit, got)
		}
		// Each cut point inside a span falls back to the span's start.
		for _, span := range []string{"`rule`", "`a`", "``b`c``", "`é`"} {
			start := strings.Index(row, span)
			if limit > start && limit < start+len(span) && kept != row[:start] {
				t.Errorf("cutRow(%d) = %q: cut inside %s", limit, got, span)
			}
		}
	}
}
