// Package suggest finds the known name nearest to a mistyped one, for the
// "did you mean" of unknown config keys and flags.
package suggest

import "strings"

// Nearest is the name of known within two edits of name (case aside),
// the nearest first; "" when none is that near.
func Nearest(name string, known []string) string {
	best, bestDistance := "", 3
	for _, k := range known {
		if d := distance(strings.ToLower(name), strings.ToLower(k)); d < bestDistance {
			best, bestDistance = k, d
		}
	}
	return best
}

// distance is the Levenshtein distance of two strings.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
