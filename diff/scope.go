package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oasdiff/oasdiff/checker"
)

// oasdiff sees every pair as the one operation of a path of its own, with
// the path-level parameters merged into it. What it says of a removal or
// of a path-level parameter is put back here on what really changed, so
// that a change says only what is true of the two snapshots: a version
// removed while its operation stays is not a path removed, and a
// parameter added to a whole path is reported as oasdiff reports it
// between the original documents.

// VersionRemoved is apiver's change of a version removed while its
// operation stays (other versions remain). Its level is the one oasdiff
// gives the same removal of a whole operation (api-removed-…), so those
// ids' severities apply to it.
const VersionRemoved = "version-removed"

// VersionAdded is apiver's change of a version added to an operation the
// base already had. It is rated as endpoint-added.
const VersionAdded = "version-added"

// VersionReplaced is apiver's change of a version that a newer one
// replaces in a latest-version series: deprecated, not removed. It is
// rated as endpoint-deprecated.
const VersionReplaced = "version-replaced"

// OwnChange is a change id apiver reports itself, beside oasdiff's checks,
// rated as the oasdiff check RatedAs is, or, without one, at Level (then
// configured by its own id).
type OwnChange struct {
	ID, Purpose, RatedAs string
	Level                checker.Level
}

// OwnChanges are listed by `apiver rules` with oasdiff's checks.
var OwnChanges = []OwnChange{
	{ID: VersionRemoved, Purpose: "version deleted while its operation keeps other versions; rated as an endpoint deleted (api-removed-without-deprecation, or -with-deprecation once a newer version or `deprecated` deprecated it, or -before-sunset before its x-sunset)", RatedAs: removedWithoutDeprecation},
	{ID: VersionReplaced, Purpose: "version replaced by a newer one in a latest-version series: deprecated, not removed; rated as endpoint-deprecated", RatedAs: EndpointDeprecated},
	{ID: VersionAdded, Purpose: "version added, with nothing before it, to an operation that already had others (a pre-release, or one older than them); rated as endpoint-added", RatedAs: endpointAdded},
	{ID: RequestBodyAdditionalPropertiesDisallowed, Purpose: "a request body object that took properties it does not declare (additionalProperties absent, true or a schema) refuses them (false)", Level: checker.ERR},
	{ID: RequestPropertyAdditionalPropertiesDisallowed, Purpose: "a request property's object that took properties it does not declare (additionalProperties absent, true or a schema) refuses them (false)", Level: checker.ERR},
	{ID: ResponseBodyAdditionalPropertiesAllowed, Purpose: "a response body object that could not have properties it does not declare (additionalProperties: false) may have them", Level: checker.WARN},
	{ID: ResponsePropertyAdditionalPropertiesAllowed, Purpose: "a response property's object that could not have properties it does not declare (additionalProperties: false) may have them", Level: checker.WARN},
	{ID: RequestBodyUnevaluatedPropertiesDisallowed, Purpose: "a request body object that took properties it does not declare refuses them by unevaluatedProperties: false (where no additionalProperties evaluates them)", Level: checker.ERR},
	{ID: RequestPropertyUnevaluatedPropertiesDisallowed, Purpose: "a request property's object that took properties it does not declare refuses them by unevaluatedProperties: false (where no additionalProperties evaluates them)", Level: checker.ERR},
	{ID: ResponseBodyUnevaluatedPropertiesAllowed, Purpose: "a response body object that could not have properties it does not declare (unevaluatedProperties: false) may have them", Level: checker.WARN},
	{ID: ResponsePropertyUnevaluatedPropertiesAllowed, Purpose: "a response property's object that could not have properties it does not declare (unevaluatedProperties: false) may have them", Level: checker.WARN},
	{ID: RequestBodyUnevaluatedItemsDisallowed, Purpose: "a request body array refuses items no items schema describes (unevaluatedItems: false)", Level: checker.ERR},
	{ID: RequestPropertyUnevaluatedItemsDisallowed, Purpose: "a request property's array refuses items no items schema describes (unevaluatedItems: false)", Level: checker.ERR},
	{ID: ResponseBodyUnevaluatedItemsAllowed, Purpose: "a response body array that could not have items no items schema describes (unevaluatedItems: false) may have them", Level: checker.WARN},
	{ID: ResponsePropertyUnevaluatedItemsAllowed, Purpose: "a response property's array that could not have items no items schema describes (unevaluatedItems: false) may have them", Level: checker.WARN},
	{ID: RequestParameterUniqueItemsSet, Purpose: "an array request parameter refuses repeated items (uniqueItems set)", Level: checker.ERR},
	{ID: RequestParameterConstAdded, Purpose: "a request parameter takes one value only (const) where it took any", Level: checker.ERR},
	{ID: RequestParameterConstChanged, Purpose: "the one value a request parameter takes (const) changed", Level: checker.ERR},
	{ID: RequestParameterMultipleOfChanged, Purpose: "a request parameter's multipleOf changed to one the old is not a multiple of", Level: checker.ERR},
	{ID: RequestParameterPropertyNarrowed, Purpose: "a value inside a request parameter (an array's items, an object's property) takes fewer values: a length, numeric, item or property count bound set or tightened (exclusive bounds included), a multipleOf set or changed to one the old is not a multiple of, a const set or changed, a pattern set, repeated items refused", Level: checker.ERR},
	{ID: RequestParameterPropertyPatternChanged, Purpose: "the pattern of a value inside a request parameter changed", Level: checker.WARN},
	{ID: PayloadBodyBecameOptional, Purpose: "a webhook's or callback's payload that the API may now send without a body (requestBody no longer required)", Level: checker.ERR},
	{ID: SecurityOAuthFlowRemoved, Purpose: "an OAuth 2 security scheme no longer offers one of its flows (implicit, password, clientCredentials, authorizationCode)", Level: checker.ERR},
	{ID: RequestParameterSerializationChanged, Purpose: "a request parameter's style or explode (with their defaults) changed how its value is written, not for a single value where every style writes it alike; or a query parameter no longer takes reserved characters unencoded (allowReserved unset)", Level: checker.ERR},
	{ID: RequestBodyItemsSet, Purpose: "a request body array that took any items takes only those of an items schema it gained", Level: checker.ERR},
	{ID: RequestPropertyItemsSet, Purpose: "a request property's array that took any items takes only those of an items schema it gained", Level: checker.ERR},
	{ID: RequestParameterItemsSet, Purpose: "an array request parameter that took any items takes only those of an items schema it gained", Level: checker.ERR},
	{ID: RequestBodyNotSet, Purpose: "a request body refuses what a not schema it gained matches", Level: checker.ERR},
	{ID: RequestPropertyNotSet, Purpose: "a request property refuses what a not schema it gained matches", Level: checker.ERR},
	{ID: RequestParameterNotSet, Purpose: "a request parameter refuses what a not schema it gained matches", Level: checker.ERR},
	{ID: RequestPropertyEncodingContentTypeNarrowed, Purpose: "a part of a multipart request body no longer takes a content type its encoding took (both sides give the part's contentType)", Level: checker.ERR},
	{ID: ResponseHeaderEnumValueAdded, Purpose: "a value added to the enum of a response header's schema", Level: checker.WARN},
	{ID: ResponseHeaderPatternRemoved, Purpose: "the pattern of a response header's schema removed", Level: checker.WARN},
	{ID: ResponseHeaderPatternChanged, Purpose: "the pattern of a response header's schema changed (it may take more values)", Level: checker.WARN},
	{ID: ResponseHeaderMultipleOfChanged, Purpose: "the multipleOf of a response header's schema changed to one that is not a multiple of the old (it may hold more values)", Level: checker.ERR},
	{ID: ResponseHeaderBecameNotEnum, Purpose: "the enum of a response header's schema removed (it may hold any value of its type)", Level: checker.ERR},
	{ID: ResponseHeaderConstChanged, Purpose: "the one value a response header holds (const) changed", Level: checker.ERR},
	{ID: ResponseHeaderConstRemoved, Purpose: "the const of a response header's schema removed (it may hold other values)", Level: checker.ERR},
}

const endpointAdded = "endpoint-added"

// Removal ids: oasdiff's, for a path removed and for an operation removed
// from a path that stays.
const (
	pathRemovedWithoutDeprecation = "api-path-removed-without-deprecation"
	pathRemovedWithDeprecation    = "api-path-removed-with-deprecation"
	removedWithoutDeprecation     = "api-removed-without-deprecation"
	removedWithDeprecation        = "api-removed-with-deprecation"
)

// operationRemovals maps oasdiff's id of a path removed to its id of an
// operation removed from a path that stays.
var operationRemovals = map[string]string{
	pathRemovedWithoutDeprecation: removedWithoutDeprecation,
	pathRemovedWithDeprecation:    removedWithDeprecation,
	RemovedBeforeSunset:           apiRemovedBeforeSunset,
}

// Parameter ids: oasdiff's, for a parameter added to one operation and for
// one added to every operation of a path that existed.
const (
	newRequiredParameter       = "new-required-request-parameter"
	newOptionalParameter       = "new-optional-request-parameter"
	parameterRemoved           = "request-parameter-removed"
	newRequiredCommonParameter = "new-required-request-default-parameter-to-existing-path"
	newOptionalCommonParameter = "new-optional-request-default-parameter-to-existing-path"
)

var commonParameterAdditions = map[string]string{
	newRequiredParameter: newRequiredCommonParameter,
	newOptionalParameter: newOptionalCommonParameter,
}

// rescoped are the ids whose changes scope may turn into others: oasdiff
// reports them at their own level (levelsForOasdiff), and scope gives each
// the level of what it becomes.
var rescoped = []string{pathRemovedWithoutDeprecation, pathRemovedWithDeprecation, newRequiredParameter, newOptionalParameter}

// levelsForOasdiff are the levels oasdiff runs with: the configured ones,
// but none that would hide a change scope turns into another, and every
// other id at oasdiff's own level. The documents reach oasdiff with their
// allOf merged (flattenAllOf); what is left is an allOf that cannot be
// merged. oasdiff lowers a change under an allOf to a warning unless its
// level was set ("all-of-not-flattened": a sibling branch might still
// require what one dropped). A change inside a branch keeps its level, so
// that a request enum value removed through an allOf stays an error: a gate
// does not pass a breaking change on a doubt. An allOf member added or
// removed stays lowered unless configured: oasdiff pairs members by their
// $ref names, so a renamed component reads as one member removed and
// another added.
func levelsForOasdiff(levels map[string]checker.Level, defaults map[string]checker.Level) map[string]checker.Level {
	out := map[string]checker.Level{}
	for id, level := range defaults {
		if !strings.Contains(id, "-all-of-") {
			out[id] = level
		}
	}
	for id, level := range levels {
		if !slices.Contains(rescoped, id) {
			out[id] = level
		}
	}
	return out
}

// commonParameter reports a parameter that a pair's operation takes from
// its path item as oasdiff does between the original documents: one added
// to the path item of a path that existed is a default parameter added to
// an existing path, and one removed from the path item is not reported
// (oasdiff compares path-level parameters only to find additions).
func (j judge) commonParameter(c checker.Change, p pairing) (checker.Change, bool) {
	id := c.GetId()
	if id != newRequiredParameter && id != newOptionalParameter && id != parameterRemoved {
		return c, true
	}
	api, ok := c.(checker.ApiChange)
	if !ok || len(api.Args) < 2 {
		return c, true
	}
	in, _ := api.Args[0].(string)
	name, _ := api.Args[1].(string)
	key := paramKey{in, name}
	if id == parameterRemoved {
		return c, p.base == nil || !p.base.common[key]
	}
	if p.base != nil && p.revision != nil && p.revision.common[key] && in != "path" {
		api.Id = commonParameterAdditions[id]
	}
	api.Level = j.level(api.Id)
	return api, api.Level != checker.NONE
}

// scope names an addition or a removal by what the other snapshot has of
// it. A version added to an operation that existed is version-added, not
// an endpoint added. A path removed stays so; an operation removed from a
// path that stays is oasdiff's api-removed-…; a version removed while its
// operation stays is version-removed or version-replaced
// (lifecycleChanges), so oasdiff's path removal goes.
func (j judge) scope(p pairing, changes []Change) []Change {
	if p.Kind == Added && p.existing {
		for i, c := range changes {
			if c.ID == endpointAdded {
				changes[i].ID, changes[i].Message = VersionAdded, fmt.Sprintf("version %s added to the existing operation", p.Version)
			}
		}
		return changes
	}
	if p.Kind != Removed {
		return changes
	}
	out := changes[:0]
	for _, c := range changes {
		id, ok := operationRemovals[c.ID]
		switch {
		case !ok:
			out = append(out, c)
			continue
		case p.remains == sameOperation:
			continue
		case p.remains == nothing:
			id = c.ID
		}
		level := j.level(id)
		if level == checker.NONE {
			continue
		}
		if id != c.ID {
			c.ID, c.Message = id, j.localize(id)
			if id == apiRemovedBeforeSunset {
				c.Message = j.localize(id, p.base.sunset)
			}
		}
		c.Level = LevelOf(level)
		out = append(out, c)
	}
	return out
}

// versionRemoval judges a version removed while its operation stays as
// oasdiff judges an operation removed (the verdict is the id whose level
// it takes), and states it, naming the version that succeeds it. A version
// was deprecated when its operation was, or when the base already had a
// newer version. In a latest-version series, a version that a newer one
// replaces here is deprecated by it, not removed. A newer version dated
// after the check's date is upcoming: it deprecates nothing yet, as the
// policy's clock (Clock.lifecycle) says.
func (j judge) versionRemoval(p pairing) (id, verdict, message string) {
	base := p.base
	superseded := !p.supersededOn.IsZero() && (j.date.IsZero() || !j.date.Before(p.supersededOn))
	switch {
	case j.latestVersion && !superseded && p.Successor != "":
		return VersionReplaced, EndpointDeprecated, fmt.Sprintf("version %s replaced by version %s: deprecated, not removed, as the snapshots publish only the latest version", p.Version, p.Successor)
	case !base.op.Deprecated && !superseded:
		verdict, message = removedWithoutDeprecation, fmt.Sprintf("version %s removed without deprecation", p.Version)
	case !base.sunset.IsZero() && j.date.Before(base.sunset):
		verdict, message = apiRemovedBeforeSunset, fmt.Sprintf("version %s removed before its sunset date %s", p.Version, base.sunset)
	default:
		verdict, message = removedWithDeprecation, fmt.Sprintf("version %s removed after its deprecation", p.Version)
	}
	if p.Successor != "" {
		message += fmt.Sprintf("; version %s succeeds it", p.Successor)
	}
	return VersionRemoved, verdict, message
}
