package diff

import (
	"math"
	"regexp/syntax"
)

// lengthBounds is the range of string lengths, in characters, that a schema
// accepts: max is unbounded when it is math.MaxUint64.
type lengthBounds struct{ min, max uint64 }

var unbounded = lengthBounds{0, math.MaxUint64}

// patternBounds is the length range every match of an anchored pattern
// falls in, and false when the pattern is not understood (not valid Go
// syntax, or not anchored at both ends): then the pattern bounds nothing
// that apiver can rely on.
func patternBounds(pattern string) (lengthBounds, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return unbounded, false
	}
	if !anchored(re) {
		return unbounded, false
	}
	return matchLength(re), true
}

// anchored reports whether every match of re spans the whole string: the
// pattern starts with ^ and ends with $, or is an alternation of such.
func anchored(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpCapture:
		return anchored(re.Sub[0])
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !anchored(sub) {
				return false
			}
		}
		return true
	case syntax.OpConcat:
		return len(re.Sub) >= 2 && startsText(re.Sub[0]) && endsText(re.Sub[len(re.Sub)-1])
	}
	return false
}

func startsText(re *syntax.Regexp) bool {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	return re.Op == syntax.OpBeginText
}

func endsText(re *syntax.Regexp) bool {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	return re.Op == syntax.OpEndText
}

// matchLength is the length range of the strings re matches.
func matchLength(re *syntax.Regexp) lengthBounds {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return lengthBounds{0, 0}
	case syntax.OpLiteral:
		n := uint64(len(re.Rune))
		return lengthBounds{n, n}
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return lengthBounds{1, 1}
	case syntax.OpCapture:
		return matchLength(re.Sub[0])
	case syntax.OpConcat:
		total := lengthBounds{0, 0}
		for _, sub := range re.Sub {
			b := matchLength(sub)
			total = lengthBounds{addBound(total.min, b.min), addBound(total.max, b.max)}
		}
		return total
	case syntax.OpAlternate:
		out := lengthBounds{math.MaxUint64, 0}
		for _, sub := range re.Sub {
			b := matchLength(sub)
			out = lengthBounds{min(out.min, b.min), max(out.max, b.max)}
		}
		return out
	case syntax.OpStar:
		return lengthBounds{0, repeatBound(matchLength(re.Sub[0]).max, -1)}
	case syntax.OpPlus:
		b := matchLength(re.Sub[0])
		return lengthBounds{b.min, repeatBound(b.max, -1)}
	case syntax.OpQuest:
		return lengthBounds{0, matchLength(re.Sub[0]).max}
	case syntax.OpRepeat:
		b := matchLength(re.Sub[0])
		return lengthBounds{mulBound(b.min, uint64(re.Min)), repeatBound(b.max, re.Max)}
	}
	// OpNoMatch and anything newer: claim nothing.
	return unbounded
}

// repeatBound is the longest of up to times repetitions (-1: unlimited) of
// a match at most longest long.
func repeatBound(longest uint64, times int) uint64 {
	switch {
	case longest == 0:
		return 0
	case times < 0:
		return math.MaxUint64
	}
	return mulBound(longest, uint64(times))
}

func addBound(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

func mulBound(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}
