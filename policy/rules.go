// Package policy judges the changes between two snapshots against the
// versioning policy: rules declared as data, config, exemptions, and the
// check date (always injected, never read from the wall clock here).
package policy

import (
	"slices"

	"github.com/apiver/apiver/diff"
)

// Severity is how a finding counts: an error fails the check.
type Severity = diff.Level

const (
	Error   = diff.Error
	Warning = diff.Warning
	Info    = diff.Info
)

// Rule is one versioning rule. A retired rule keeps its id.
type Rule struct {
	ID       string
	Purpose  string
	Severity Severity
}

// Rule ids.
const (
	BreakingChangeWithoutNewVersion = "breaking-change-without-new-version"
	NewVersionWithoutBreakingChange = "new-version-without-breaking-change"
	VersionOutOfOrder               = "version-out-of-order"
	InvalidVersion                  = "invalid-version"
	OperationRemoved                = "operation-removed"
	ExemptionExpired                = "exemption-expired"
	VersionRemovedBeforeSunset      = "version-removed-before-sunset"
	SunsetTooEarly                  = "sunset-too-early"
	SunsetOverdueRule               = "sunset-overdue"
)

// Rules is the catalogue, in the order `apiver rules` prints it.
var Rules = []Rule{
	{BreakingChangeWithoutNewVersion, "A breaking change (one oasdiff rates as an error) was made inside an existing version or an unversioned operation; it needs a new version.", Error},
	{NewVersionWithoutBreakingChange, "A new version was released whose diff against its predecessor has no breaking change; a version is exposed only for a breaking change.", Warning},
	{VersionOutOfOrder, "A new version is dated after the revision's date, or is not newer than every existing version of its operation.", Error},
	{InvalidVersion, "A vendor media type names a version that is not a real date.", Error},
	{OperationRemoved, "An unversioned operation was removed.", Error},
	{VersionRemovedBeforeSunset, "A version was removed from the revision while not deprecated, or before its sunset.", Error},
	{SunsetTooEarly, "A version's x-sunset is earlier than its deprecation date plus the deprecation period.", Error},
	{SunsetOverdueRule, "A version is still present after its sunset.", Warning},
	{ExemptionExpired, "An exemption's expires date is before the check date; it no longer exempts anything.", Error},
}

// LookupRule returns the rule with the given id.
func LookupRule(id string) (Rule, bool) {
	i := slices.IndexFunc(Rules, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return Rules[i], true
}

// DefaultChangeLevels are apiver's departures from oasdiff's levels.
//
// Date-versioned APIs widen responses in place and expect clients to
// tolerate it (Stripe's compatibility policy, and the seed's provider): a
// value added to a response enum, a branch added to a response oneOf or
// anyOf, and a response length, numeric bound or pattern removed or widened
// (opaque strings such as ids may change length) are warnings, not errors.
// A response may then return values the old contract excluded, but within
// its declared type. Request-side tightenings keep oasdiff's level.
//
// info.version is not how these APIs version (resources carry dated
// versions), so oasdiff's checks that it was bumped are off.
var DefaultChangeLevels = defaultChangeLevels()

// responseRelaxations are the check id suffixes of a response bound removed
// or widened, for each place a response schema sits.
var responseRelaxations = []string{
	"max-length-increased", "max-length-unset", "min-length-decreased", "min-length-unset",
	"max-increased", "max-unset", "min-decreased", "min-unset",
	"exclusive-max-increased", "exclusive-max-unset", "exclusive-min-decreased", "exclusive-min-unset",
}

func defaultChangeLevels() map[string]string {
	levels := map[string]string{
		"response-property-enum-value-added":  string(Warning),
		"response-mediatype-enum-value-added": string(Warning),
		"response-property-one-of-added":      string(Warning),
		"response-body-one-of-added":          string(Warning),
		"response-property-any-of-added":      string(Warning),
		"response-body-any-of-added":          string(Warning),
		// oasdiff's name for a primitive branch added to a response oneOf
		// (and a type added to a 3.1 type list): the same relaxation.
		"response-property-list-of-types-widened": string(Warning),
		"response-body-list-of-types-widened":     string(Warning),
		"response-property-pattern-removed":       string(Warning),
		"response-property-pattern-changed":       string(Warning),
		"api-version-not-bumped":                  diff.LevelOff,
		"api-major-version-not-bumped":            diff.LevelOff,
	}
	for _, place := range []string{"response-body-", "response-property-", "response-header-"} {
		for _, relaxation := range responseRelaxations {
			levels[place+relaxation] = string(Warning)
		}
	}
	return levels
}
