package policy

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/suggest"
	"github.com/apiver/apiver/versions"
)

// Period is how long a deprecated version keeps working: a whole number of
// days, weeks, months or years.
type Period struct {
	N int
	// Unit is day, week, month or year.
	Unit string
}

// Stability levels, oasdiff's names; the config also takes vervet's.
const (
	LevelStable = "stable"
	LevelBeta   = "beta"
	LevelAlpha  = "alpha"
	LevelDraft  = "draft"
)

// periodPattern is the grammar of a period: "12 months", "91 days",
// "1 day".
var periodPattern = regexp.MustCompile(`^([1-9][0-9]*) (day|week|month|year)s?$`)

// loosePeriod is what a mistyped period looks like, for the suggestion.
var loosePeriod = regexp.MustCompile(`^\s*([0-9]+)\s*([A-Za-z]+)\s*$`)

var periodUnits = []string{"day", "week", "month", "year"}

// ParsePeriod reads "N days", "N weeks", "N months" or "N years" (the
// singular too), N from 1, at most 50 years in all.
func ParsePeriod(s string) (Period, error) {
	m := periodPattern.FindStringSubmatch(s)
	if m == nil {
		return Period{}, fmt.Errorf("%q is not a period: write a whole number from 1 and day(s), week(s), month(s) or year(s), as \"91 days\" or \"12 months\"%s", s, periodHint(s))
	}
	tooLong := fmt.Errorf("%q is longer than 50 years", s)
	// Five digits are more than 50 years of days: a longer count is
	// refused before it is added to any date.
	if len(m[1]) > 5 {
		return Period{}, tooLong
	}
	n, _ := strconv.Atoi(m[1])
	p := Period{N: n, Unit: m[2]}
	// At most what deprecationMonths allows, so every sunset is a real date.
	if start := (civil.Date{Year: 2000, Month: 1, Day: 1}); p.From(start).After(start.AddMonths(largestDeprecationMonths)) {
		return Period{}, tooLong
	}
	return p, nil
}

// periodHint suggests the period a near miss means ("91days", "12 mnths",
// "1 Day"); "" when none is near.
func periodHint(s string) string {
	l := loosePeriod.FindStringSubmatch(s)
	if l == nil || strings.HasPrefix(l[1], "0") {
		return ""
	}
	unit := suggest.Nearest(strings.TrimSuffix(strings.ToLower(l[2]), "s"), periodUnits)
	n, err := strconv.Atoi(l[1])
	if unit == "" || err != nil {
		return ""
	}
	meant := Period{N: n, Unit: unit}.String()
	if _, err := ParsePeriod(meant); err != nil {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", meant)
}

// From is the end of the period that starts on d. Months (and years) are
// calendar months, as civil.Date.AddMonths counts them.
func (p Period) From(d civil.Date) civil.Date {
	switch p.Unit {
	case "day":
		return d.AddDays(p.N)
	case "week":
		return d.AddDays(7 * p.N)
	case "year":
		return d.AddMonths(12 * p.N)
	}
	return d.AddMonths(p.N)
}

// String is the period as the config writes it: "12 months", "1 day".
func (p Period) String() string {
	if p.N == 1 {
		return "1 " + p.Unit
	}
	return fmt.Sprintf("%d %ss", p.N, p.Unit)
}

// Periods are the deprecation periods by stability level (oasdiff's
// names). Stable is always set; an unstable level without one keeps no
// clock: its versions are listed as pre-releases, never deprecated or
// gated.
type Periods map[string]Period

// Of is the period of a level; ok is false when none is configured.
func (p Periods) Of(level string) (Period, bool) {
	period, ok := p[level]
	return period, ok
}

// OrStable is the period of a level, the stable one when none is
// configured for it: an unversioned operation's clock.
func (p Periods) OrStable(level string) Period {
	if period, ok := p[level]; ok {
		return period
	}
	return p[LevelStable]
}

// Unstable reports whether any unstable level has a period: only then do
// pre-release versions have a clock.
func (p Periods) Unstable() bool {
	return len(p) > 1
}

// periodOrder lists the levels most stable first, for what shows them.
var periodOrder = []string{LevelStable, LevelBeta, LevelAlpha, LevelDraft}

// Levels are the configured levels, most stable first.
func (p Periods) Levels() []string {
	return slices.DeleteFunc(slices.Clone(periodOrder), func(l string) bool { _, ok := p[l]; return !ok })
}

// sunsetKeys are the keys sunset: accepts, for the error and the schema.
var sunsetKeys = []string{"stable", "ga", "beta", "alpha", "experimental", "draft", "wip"}

// Periods are the config's deprecation periods: sunset:'s, with
// deprecationMonths as the stable one when sunset: names none. validate
// has checked them.
func (c *Config) Periods() Periods {
	periods, _ := c.periods()
	return periods
}

func (c *Config) periods() (Periods, error) {
	periods := Periods{}
	named := map[string]string{} // level -> the key that set it
	for _, key := range slices.Sorted(maps.Keys(c.Sunset)) {
		level, ok := versions.LevelNamed(key)
		if !ok {
			return nil, fmt.Errorf("sunset: %q is not a stability level (%s)%s", key, strings.Join(sunsetKeys, ", "), didYouMean(key, sunsetKeys))
		}
		if other, twice := named[level]; twice {
			return nil, fmt.Errorf("sunset: %s and %s name one level; keep one", other, key)
		}
		named[level] = key
		p, err := ParsePeriod(c.Sunset[key])
		if err != nil {
			return nil, fmt.Errorf("sunset.%s: %s", key, err)
		}
		periods[level] = p
	}
	if key, ok := named[LevelStable]; ok {
		if c.DeprecationMonths != 0 {
			return nil, fmt.Errorf("deprecationMonths and sunset.%s both set the stable period; keep one", key)
		}
		return periods, nil
	}
	periods[LevelStable] = Period{N: c.DeprecationMonths, Unit: "month"}
	return periods, nil
}
