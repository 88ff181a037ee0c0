package specs

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// The byte bound catches what the YAML parser's node-count check lets
// through: a few aliases of long strings.
func TestAliasesExpandTooMuch(t *testing.T) {
	long := `"` + strings.Repeat("x", 10_000) + `"`
	list := func(item string, n int) string { return "[" + strings.Repeat(item+", ", n-1) + item + "]" }
	doc := func(anchor string, aliases int) string {
		return minimalSpec + "x-a: &a " + anchor + "\nx-b: " + list("*a", aliases) + "\n"
	}
	tests := []struct {
		name string
		data string
		want bool
	}{
		{"no aliases", minimalSpec, false},
		{"an anchor reused a few times", doc(list(`"lol"`, 10), 5), false},
		{"100 strings of 10 kB aliased 40 times: 40 MB", doc(list(long, 100), 40), true},
		{"100 strings of 10 kB aliased 30 times: 30 MB", doc(list(long, 100), 30), false},
		{"billion laughs", minimalSpec + "x-a: &a " + list(`"lol"`, 9) + "\nx-b: &b " + list("*a", 9) + "\nx-c: &c " + list("*b", 9) +
			"\nx-d: &d " + list("*c", 9) + "\nx-e: &e " + list("*d", 9) + "\nx-f: &f " + list("*e", 9) + "\nx-g: &g " + list("*f", 9) +
			"\nx-h: &h " + list("*g", 9) + "\n", true},
		// The loader refuses it; measuring it must not recurse forever.
		{"a node that contains itself", minimalSpec + "x-a: &a [*a, *a]\n", false},
		{"not YAML", "x-a: &a [\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := aliasesExpandTooMuch([]byte(tt.data)); got != tt.want {
				t.Errorf("aliasesExpandTooMuch = %v, want %v", got, tt.want)
			}
		})
	}
}

const minimalSpec = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n"

// The scan that skips the YAML parse must find every anchor and alias the
// YAML scanner reads; it may find some that are not.
func TestMayHaveAliases(t *testing.T) {
	tests := []struct {
		data string
		want bool
	}{
		{"a: &x 1\nb: *x\n", true},
		{"a: &x\n  - 1\nb: *x", true},
		{`{"a":&x [1], "b": *x}`, true},
		{`["a",&x [1],*x]`, true},
		{"a: !!seq&x [1]\nb: *x\n", true},
		{"a: &x-1_Z [1]\nb: [*x-1_Z]\n", true},
		{"a: &x\u2028b: *x", true},
		// Look-alikes in text and patterns.
		{"pattern: \"^[a-z(),:&@+']{1,64}$\"\naccept: \"*/*\"\n", false},
		{"description: R&D and *emphasis*, a&b=c\n", false},
		{"a: &x 1\n", false},
		{"b: *x\n", false},
		{"", false},
		// UTF-16, which the YAML parser decodes: the scan cannot read it.
		{string(utf16le("a: 1\n")), true},
	}
	for _, tt := range tests {
		if got := mayHaveAliases([]byte(tt.data)); got != tt.want {
			t.Errorf("mayHaveAliases(%q) = %v, want %v", tt.data, got, tt.want)
		}
	}
}

func utf16le(s string) []byte {
	out := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}
