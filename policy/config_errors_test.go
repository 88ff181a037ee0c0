package policy

import (
	"strings"
	"testing"
)

// TestConfigErrorsNameTheKey: a value of the wrong type names its key (and
// line); an unknown key near a known one suggests it.
func TestConfigErrorsNameTheKey(t *testing.T) {
	t.Parallel()
	for config, want := range map[string][]string{
		"deprecationMonths: \"24\"\n":                         {"apiver.yaml", "line 1", "deprecationMonths"},
		"product: example\nmaxSpecSizeMiB: [1]\n":             {"line 2", "maxSpecSizeMiB"},
		"deprecationMonth: 24\n":                              {"line 1", `"deprecationMonth"`, `"deprecationMonths"`},
		"versioning:\n  by: document\n  select: {heder: X}\n": {"line 3", `"heder"`, `"header"`},
	} {
		_, err := ParseConfig("apiver.yaml", []byte(config))
		if err == nil {
			t.Errorf("%q: no error", config)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %v, want it to name %s", config, err, w)
			}
		}
	}
	if _, err := ParseConfig("apiver.yaml", []byte("zzz: 1\n")); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("a key near none: %v, want an error without a suggestion", err)
	}
}
