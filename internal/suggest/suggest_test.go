package suggest

import "testing"

func TestNearest(t *testing.T) {
	t.Parallel()
	known := []string{"deprecationMonths", "product", "snapshot", "format"}
	for name, want := range map[string]string{
		"deprecationMonth": "deprecationMonths",
		"formt":            "format",
		"Product":          "product",
		"sunset":           "",
		"":                 "",
	} {
		if got := Nearest(name, known); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", name, got, want)
		}
	}
}
