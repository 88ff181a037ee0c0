package diff

import (
	"math"
	"math/big"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
)

// The bounds of a number schema, as the parameter checks and the
// exclusive-bound-form equivalence read them.

// numberBound is a lower or an upper bound of a number schema, set by
// minimum/maximum (exclusive where OpenAPI 3.0's boolean says so) or by
// OpenAPI 3.1's exclusiveMinimum/exclusiveMaximum.
type numberBound struct {
	keyword, exclusiveKeyword string
	upper                     bool
	read                      func(s *openapi3.Schema) (*float64, openapi3.ExclusiveBound)
}

var numberBounds = []numberBound{
	{"minimum", "exclusiveMinimum", false, func(s *openapi3.Schema) (*float64, openapi3.ExclusiveBound) { return s.Min, s.ExclusiveMin }},
	{"maximum", "exclusiveMaximum", true, func(s *openapi3.Schema) (*float64, openapi3.ExclusiveBound) { return s.Max, s.ExclusiveMax }},
}

// limit is the tightest value a bound of a schema allows (value nil:
// none), and the keyword that sets it.
type limit struct {
	value     *float64
	exclusive bool
	keyword   string
}

func (nb numberBound) limit(s *openapi3.Schema) limit {
	inclusive, exclusive := nb.read(s)
	var l limit
	if inclusive != nil {
		l = limit{inclusive, exclusive.IsTrue(), nb.keyword}
	}
	if v := exclusive.Value; v != nil {
		if candidate := (limit{v, true, nb.exclusiveKeyword}); nb.tighter(candidate, l) {
			l = candidate
		}
	}
	return l
}

// tighter reports whether limit a takes fewer values than b.
func (nb numberBound) tighter(a, b limit) bool {
	switch {
	case a.value == nil:
		return false
	case b.value == nil:
		return true
	case *a.value == *b.value:
		return a.exclusive && !b.exclusive
	case nb.upper:
		return *a.value < *b.value
	default:
		return *a.value > *b.value
	}
}

// valueOf is the value s gives keyword, one of the bound's two.
func (nb numberBound) valueOf(s *openapi3.Schema, keyword string) *float64 {
	inclusive, exclusive := nb.read(s)
	if keyword == nb.exclusiveKeyword {
		return exclusive.Value
	}
	return inclusive
}

// multipleOfNarrowing tells whether revision's multipleOf refuses values
// base took: set, or changed to one that the old is not a multiple of
// (2 to 4 refuses 6; 4 to 2 refuses nothing).
func multipleOfNarrowing(base, revision *openapi3.Schema) (narrowing, bool) {
	b, r := base.MultipleOf, revision.MultipleOf
	if r == nil || (b != nil && isMultiple(*b, *r)) {
		return narrowing{}, false
	}
	return narrowing{"multipleOf", bound(b), bound(r)}, true
}

// isMultiple reports whether a is an integer multiple of b, computed on
// the decimal values as written (0.3 is a multiple of 0.1).
func isMultiple(a, b float64) bool {
	ra, okA := new(big.Rat).SetString(strconv.FormatFloat(a, 'g', -1, 64))
	rb, okB := new(big.Rat).SetString(strconv.FormatFloat(b, 'g', -1, 64))
	if !okA || !okB || rb.Sign() == 0 {
		return false
	}
	return new(big.Rat).Quo(ra, rb).IsInt()
}

// boolForm reports a bound made exclusive by OpenAPI 3.0's boolean.
func (nb numberBound) boolForm(s *openapi3.Schema) bool {
	_, exclusive := nb.read(s)
	return exclusive.IsTrue()
}

// numberForm is the bound's inclusive and exclusive values as OpenAPI 3.1
// writes them (nil: none), as oasdiff's diff holds them.
func (nb numberBound) numberForm(s *openapi3.Schema) (inclusive, exclusive any) {
	v, ex := nb.read(s)
	if v != nil && ex.IsTrue() {
		return nil, *v
	}
	if v != nil {
		inclusive = *v
	}
	if ex.Value != nil {
		exclusive = *ex.Value
	}
	return inclusive, exclusive
}

// integers reports a schema whose values are integers only.
func integers(s *openapi3.Schema) bool {
	return s.Type != nil && len(*s.Type) == 1 && (*s.Type)[0] == openapi3.TypeInteger
}

// integral is the limit as the integer it allows last, inclusive: of
// integers, < 6 allows what <= 5 does.
func (nb numberBound) integral(l limit) limit {
	if l.value == nil {
		return l
	}
	v := *l.value
	switch {
	case nb.upper && l.exclusive:
		v = math.Ceil(v) - 1
	case nb.upper:
		v = math.Floor(v)
	case l.exclusive:
		v = math.Floor(v) + 1
	default:
		v = math.Ceil(v)
	}
	return limit{value: &v, keyword: l.keyword}
}

func sameLimit(a, b limit) bool {
	if a.value == nil || b.value == nil {
		return a.value == nil && b.value == nil
	}
	return *a.value == *b.value && a.exclusive == b.exclusive
}
