package specs

import (
	"strings"
	"testing"
)

func TestCheckStructure(t *testing.T) {
	t.Parallel()
	const spec = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n"
	long := `"` + strings.Repeat("x", 10_000) + `"`
	list := func(item string, n int) string { return "[" + strings.Repeat(item+", ", n-1) + item + "]" }
	// nested is a value of n nested one-element lists around a leaf.
	nested := func(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }
	// block is n nested block mappings, one key each.
	block := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
		b.WriteString(strings.Repeat(" ", n) + "b: 1\n")
		return b.String()
	}
	tests := []struct {
		name string
		data string
		want string
	}{
		{"a plain spec", spec, ""},
		{"JSON", `{"openapi": "3.0.3", "x": "[[[[{{{{\"[["}`, ""},
		// The root mapping, x-deep, 126 lists and the leaf: 128 levels.
		{"YAML at the depth limit", spec + "x-deep: " + nested(126) + "\n", ""},
		{"YAML one level deeper", spec + "x-deep: " + nested(127) + "\n", tooDeepMsg},
		{"block mappings too deep", block(200), tooDeepMsg},
		{"JSON at the depth limit", `{"x": ` + nested(126) + `}`, ""},
		{"JSON one level deeper", `{"x": ` + nested(127) + `}`, tooDeepMsg},
		{"deep through an alias", spec + "x-a: &a " + nested(100) + "\nx-b: " + nested(50)[:50] + "*a" + nested(50)[51:] + "\n", tooDeepMsg},
		{"an anchor reused a few times", spec + "x-a: &a " + list(`"lol"`, 10) + "\nx-b: " + list("*a", 5) + "\n", ""},
		{"100 strings of 10 kB aliased 40 times: 40 MB", spec + "x-a: &a " + list(long, 100) + "\nx-b: " + list("*a", 40) + "\n", aliasesExpandMsg},
		{"100 strings of 10 kB aliased 30 times: 30 MB", spec + "x-a: &a " + list(long, 100) + "\nx-b: " + list("*a", 30) + "\n", ""},
		{"billion laughs", spec + "x-a: &a " + list(`"lol"`, 9) + "\nx-b: &b " + list("*a", 9) + "\nx-c: &c " + list("*b", 9) +
			"\nx-d: &d " + list("*c", 9) + "\nx-e: &e " + list("*d", 9) + "\nx-f: &f " + list("*e", 9) + "\nx-g: &g " + list("*f", 9) +
			"\nx-h: &h " + list("*g", 9) + "\n", aliasesExpandMsg},
		// The loader refuses it; measuring it must not recurse forever,
		// and nothing after may walk it.
		{"a node that contains itself", spec + "x-a: &a [*a, *a]\n", "not valid YAML: anchor 'a' value contains itself (line 4)"},
		{"not YAML", "x-a: &a [\n", ""},
		// The spec with x-n and its list is 13 nodes; 87 items make 100.
		{"YAML at the node limit", spec + "x-n: " + list("1", 87) + "\n", ""},
		{"YAML one node over", spec + "x-n: " + list("1", 88) + "\n", tooManyNodesMsg(100)},
		{"JSON at the node limit", `{"openapi": "3.0.3", "x": ` + list("1", 95) + `}`, ""},
		{"JSON one node over", `{"openapi": "3.0.3", "x": ` + list(`"s"`, 96) + `}`, tooManyNodesMsg(100)},
		{"nodes through aliases", spec + "x-a: &a " + list("1", 20) + "\nx-b: " + list("*a", 4) + "\n", tooManyNodesMsg(100)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			limit := int64(0)
			if strings.Contains(tt.name, "node") {
				limit = 100
			}
			if got := checkStructure([]byte(tt.data), limit); got != tt.want {
				t.Errorf("checkStructure = %q, want %q", got, tt.want)
			}
		})
	}
}
