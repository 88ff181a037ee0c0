package diff

import (
	"math"
	"testing"
)

func TestPatternBounds(t *testing.T) {
	t.Parallel()
	const inf = math.MaxUint64
	tests := []struct {
		pattern  string
		min, max uint64
		ok       bool
	}{
		{`^([a-f0-9]{24})$`, 24, 24, true},
		{`^[a-z]{2,5}$`, 2, 5, true},
		{`^[a-f0-9]+$`, 1, inf, true},
		{`^[a-z]*$`, 0, inf, true},
		{`^[A-Z]{2}(-[A-Z]{1,3})?$`, 2, 6, true},
		{`^(ab|cde)$`, 2, 3, true},
		{`^abc$|^d$`, 1, 3, true},
		{`^\d{4}-\d{2}-\d{2}$`, 10, 10, true},
		{`^é{2}$`, 2, 2, true},
		{`^[a-z]{3,}$`, 3, inf, true},
		// Not anchored at both ends: a match may be part of a longer value.
		{`[a-f0-9]{24}`, 0, inf, false},
		{`^[a-f0-9]{24}`, 0, inf, false},
		{`[a-f0-9]{24}$`, 0, inf, false},
		{`^a$|b`, 0, inf, false},
		// Not Go syntax (ECMAScript lookahead).
		{`^(?=a).{3}$`, 0, inf, false},
	}
	for _, tt := range tests {
		got, ok := patternBounds(tt.pattern)
		if ok != tt.ok || (ok && (got.min != tt.min || got.max != tt.max)) {
			t.Errorf("patternBounds(%q) = %d..%d, %v; want %d..%d, %v", tt.pattern, got.min, got.max, ok, tt.min, tt.max, tt.ok)
		}
	}
}
