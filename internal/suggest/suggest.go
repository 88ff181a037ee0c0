// Package suggest finds the known name nearest to a mistyped one, for the
// "did you mean" of unknown config keys and flags.
package suggest

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// Nearest is the name of known within two edits of name (case aside),
// the nearest first; "" when none is that near.
func Nearest(name string, known []string) string {
	best, bestDistance := "", 3
	for _, k := range known {
		if d := levenshtein.ComputeDistance(strings.ToLower(name), strings.ToLower(k)); d < bestDistance {
			best, bestDistance = k, d
		}
	}
	return best
}
