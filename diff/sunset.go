package diff

import (
	"fmt"

	"cloud.google.com/go/civil"
	"github.com/oasdiff/oasdiff/checker"
)

// Ids of the checks apiver judges itself against the policy's date.
const (
	EndpointDeprecated       = "endpoint-deprecated"
	endpointDeprecatedSunset = "endpoint-deprecated-with-sunset"
	RemovedBeforeSunset      = "api-path-removed-before-sunset"
	SunsetChangedTooSmall    = "api-sunset-date-changed-too-small"
	apiRemovedBeforeSunset   = "api-removed-before-sunset"
)

// clockDependent are oasdiff's checks whose verdict depends on the wall
// clock (they compare x-sunset with time.Now()). The operation-level ones
// are judged again by lifecycleChanges against the policy's date; the
// others are dropped, so that the same input always gives the same output.
var clockDependent = map[string]bool{
	EndpointDeprecated:                                 true,
	endpointDeprecatedSunset:                           true,
	"api-sunset-date-too-small":                        true,
	RemovedBeforeSunset:                                true,
	apiRemovedBeforeSunset:                             true,
	SunsetChangedTooSmall:                              true,
	"request-parameter-removed-before-sunset":          true,
	"request-parameter-sunset-date-changed-too-small":  true,
	"request-property-removed-before-sunset":           true,
	"response-required-property-removed-before-sunset": true,
}

// tooSmallSunsets are oasdiff's "sunset too early" ids of a parameter or
// property deprecation, which depend on the clock, mapped to the plain
// deprecation that oasdiff reports on a later day.
var tooSmallSunsets = map[string]string{
	"request-parameter-sunset-date-too-small": "request-parameter-deprecated",
	"request-property-sunset-date-too-small":  "request-property-deprecated-with-sunset",
	"response-property-sunset-date-too-small": "response-property-deprecated-with-sunset",
}

// judge rates what oasdiff cannot without the wall clock.
type judge struct {
	localize             checker.Localizer
	levels               map[string]checker.Level
	date                 civil.Date
	latestVersion        bool
	baseRef, revisionRef string
}

// clockFree turns a change that depends on the clock into the one that does
// not, or drops it (false).
func (j judge) clockFree(c checker.Change) (checker.Change, bool) {
	id := c.GetId()
	if clockDependent[id] {
		return nil, false
	}
	deprecated, ok := tooSmallSunsets[id]
	if !ok {
		return c, true
	}
	api, isAPI := c.(checker.ApiChange)
	if !isAPI || len(api.Args) < 2 {
		return nil, false
	}
	level := j.level(deprecated)
	if level == checker.NONE {
		return nil, false
	}
	// A parameter is named by location and name, its sunset a detail; a
	// property by name, then its sunset.
	if deprecated == "request-parameter-deprecated" && len(api.Args) > 2 {
		api.Details = fmt.Sprintf("(sunset: %v)", api.Args[2])
	}
	api.Id, api.Args, api.Level = deprecated, api.Args[:2], level
	return api, true
}

// level is the configured level of a check id, else its default.
func (j judge) level(id string) checker.Level {
	if l, ok := j.levels[id]; ok {
		return l
	}
	return DefaultLevel(id)
}

// lifecycleChanges are the operation-level deprecation and sunset changes of
// a pair, judged against the policy's date.
func (j judge) lifecycleChanges(p pairing) []Change {
	var out []Change
	// add places the change at the operation's field (deprecated,
	// x-sunset), else at the operation.
	// add rates the change as the check levelID: its own id, or for
	// apiver's own changes the check they are rated as.
	add := func(id, levelID string, s *side, ref, field, message string) *Change {
		level := j.level(levelID)
		if level == checker.NONE {
			return nil
		}
		c := Change{Operation: p.Operation, Version: p.Version, ID: id, Level: LevelOf(level), Message: message}
		if at := fieldLocation(s.op.Origin, field); at != nil && at.Line > 0 {
			c.Location = &Location{File: s.file, Line: at.Line, Column: at.Column, Ref: ref}
		}
		out = append(out, c)
		return &out[len(out)-1]
	}
	base, revision := p.base, p.revision
	switch {
	case base != nil && revision != nil && p.Kind != Bump:
		if !base.op.Deprecated && revision.op.Deprecated {
			message := j.localize(EndpointDeprecated)
			if !revision.sunset.IsZero() {
				message = j.localize(endpointDeprecatedSunset, revision.sunset)
			}
			if c := add(EndpointDeprecated, EndpointDeprecated, revision, j.revisionRef, "deprecated", message); c != nil && !revision.sunset.IsZero() {
				c.Sunset = revision.sunset.String()
			}
		}
		if base.op.Deprecated && revision.op.Deprecated && !base.sunset.IsZero() && !revision.sunset.IsZero() &&
			revision.sunset.Before(base.sunset) && revision.sunset.Before(j.date) {
			add(SunsetChangedTooSmall, SunsetChangedTooSmall, revision, j.revisionRef, "x-sunset", j.localize(SunsetChangedTooSmall, base.sunset, revision.sunset, base.sunset, 0))
		}
	case base != nil && revision == nil && p.remains == sameOperation:
		id, verdict, message := j.versionRemoval(p)
		add(id, verdict, base, j.baseRef, "", message)
	case base != nil && revision == nil:
		if base.op.Deprecated && !base.sunset.IsZero() && j.date.Before(base.sunset) {
			add(RemovedBeforeSunset, RemovedBeforeSunset, base, j.baseRef, "", j.localize(RemovedBeforeSunset, base.sunset))
		}
	}
	return out
}

// DocumentChecks are oasdiff's checks of what lies outside any operation:
// their changes have an empty operation and version.
var DocumentChecks = []string{
	"api-global-security-added", "api-global-security-removed", "api-global-security-scope-added", "api-global-security-scope-removed",
	"api-major-version-not-bumped", "api-schema-removed",
	"api-security-component-added", "api-security-component-api-key-in-changed", "api-security-component-api-key-name-changed",
	"api-security-component-bearer-format-changed", "api-security-component-http-scheme-changed",
	"api-security-component-oauth-refresh-url-changed", "api-security-component-oauth-scope-added",
	"api-security-component-oauth-scope-changed", "api-security-component-oauth-scope-removed",
	"api-security-component-oauth-token-url-changed", "api-security-component-oauth-url-changed",
	"api-security-component-openid-connect-url-changed", "api-security-component-removed", "api-security-component-type-changed",
	"api-version-decreased", "api-version-not-bumped", SecurityOAuthFlowRemoved,
}

// JudgedByDate reports the checks apiver rates itself against the policy's
// date instead of oasdiff's wall clock.
func JudgedByDate(id string) bool {
	return id == EndpointDeprecated || id == RemovedBeforeSunset || id == apiRemovedBeforeSunset || id == SunsetChangedTooSmall
}

// DroppedForClock reports oasdiff's checks apiver never reports because
// their verdict depends on the wall clock.
func DroppedForClock(id string) bool {
	_, mapped := tooSmallSunsets[id]
	return (clockDependent[id] && !JudgedByDate(id)) || mapped
}
