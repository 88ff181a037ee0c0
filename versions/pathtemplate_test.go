package versions

import (
	"regexp"
	"testing"
)

// parameterName is the regexp PathTemplate replaced: it must read every
// path as this did.
var parameterName = regexp.MustCompile(`\{[^}]*\}`)

func FuzzPathTemplate(f *testing.F) {
	for _, path := range []string{
		"", "/orgs", "/orgs/{orgId}/users/{userId}", "/a{b{c}d", "/{", "/}{", "/{}{x}",
		"/{a}}", "/x/{y", "{{}}", "/{a}/{b", "/files/{name}.{ext}", "/\xff{\xfe}",
	} {
		f.Add(path)
	}
	f.Fuzz(func(t *testing.T, path string) {
		if got, want := PathTemplate(path), parameterName.ReplaceAllString(path, "{}"); got != want {
			t.Errorf("PathTemplate(%q) = %q, want %q", path, got, want)
		}
	})
}
