package diff

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	oasdiff "github.com/oasdiff/oasdiff/diff"
	oasload "github.com/oasdiff/oasdiff/load"
)

// apiver's own checks find what oasdiff's diff holds but none of its
// checks reports (oasdiff lists them as open gaps): a request that stops
// accepting properties it did not declare, a value inside a parameter
// narrowed, and a parameter whose wire format changed. They run with
// oasdiff's, on the same diff, so that the operations oasdiff leaves out
// (below its stability level) are left out of them too.
const (
	// RequestBodyAdditionalPropertiesDisallowed and
	// RequestPropertyAdditionalPropertiesDisallowed: a request object that
	// accepted properties it does not declare (additionalProperties absent,
	// true or a schema) now refuses them (false).
	RequestBodyAdditionalPropertiesDisallowed     = "request-body-additional-properties-disallowed"
	RequestPropertyAdditionalPropertiesDisallowed = "request-property-additional-properties-disallowed"
	// ResponseBodyAdditionalPropertiesAllowed and
	// ResponsePropertyAdditionalPropertiesAllowed: a response object that
	// had no undeclared properties may now have them.
	ResponseBodyAdditionalPropertiesAllowed     = "response-body-additional-properties-allowed"
	ResponsePropertyAdditionalPropertiesAllowed = "response-property-additional-properties-allowed"
	// The same by unevaluatedProperties: false (OpenAPI 3.1), which refuses
	// what nothing else in the schema evaluates, and so undeclared
	// properties where additionalProperties is absent. oasdiff checks the
	// keyword's schema form, not the boolean.
	RequestBodyUnevaluatedPropertiesDisallowed     = "request-body-unevaluated-properties-disallowed"
	RequestPropertyUnevaluatedPropertiesDisallowed = "request-property-unevaluated-properties-disallowed"
	ResponseBodyUnevaluatedPropertiesAllowed       = "response-body-unevaluated-properties-allowed"
	ResponsePropertyUnevaluatedPropertiesAllowed   = "response-property-unevaluated-properties-allowed"
	// And by unevaluatedItems: false, for the items of an array that no
	// items schema evaluates.
	RequestBodyUnevaluatedItemsDisallowed     = "request-body-unevaluated-items-disallowed"
	RequestPropertyUnevaluatedItemsDisallowed = "request-property-unevaluated-items-disallowed"
	ResponseBodyUnevaluatedItemsAllowed       = "response-body-unevaluated-items-allowed"
	ResponsePropertyUnevaluatedItemsAllowed   = "response-property-unevaluated-items-allowed"
	// RequestParameterSerializationChanged: a parameter's style or explode
	// changed the way its value is written on the wire.
	RequestParameterSerializationChanged = "request-parameter-serialization-changed"
	// RequestParameterUniqueItemsSet: an array parameter now refuses
	// repeated items.
	RequestParameterUniqueItemsSet = "request-parameter-unique-items-set"
	// RequestParameterConstAdded and RequestParameterConstChanged: a
	// parameter now takes one value (const), where it took others too, or
	// another one. RequestParameterMultipleOfChanged: its multipleOf
	// changed to one the old is not a multiple of. oasdiff checks these in
	// request bodies, and a parameter's multipleOf set, not these.
	RequestParameterConstAdded        = "request-parameter-const-added"
	RequestParameterConstChanged      = "request-parameter-const-changed"
	RequestParameterMultipleOfChanged = "request-parameter-multiple-of-changed"
	// RequestParameterPropertyNarrowed: a value inside a parameter (an
	// array's items, an object's property) takes fewer values: a bound
	// set or tightened, a pattern set, repeated items refused. oasdiff
	// checks the bounds of a parameter's own schema, not of what it holds.
	RequestParameterPropertyNarrowed = "request-parameter-property-narrowed"
	// RequestParameterPropertyPatternChanged: the pattern of a value
	// inside a parameter changed (oasdiff rates a pattern changed as a
	// warning: it may take more values, or fewer).
	RequestParameterPropertyPatternChanged = "request-parameter-property-pattern-changed"
	// RequestBodyItemsSet, RequestPropertyItemsSet and
	// RequestParameterItemsSet: an array that took any items now takes
	// only those of an items schema.
	RequestBodyItemsSet      = "request-body-items-set"
	RequestPropertyItemsSet  = "request-property-items-set"
	RequestParameterItemsSet = "request-parameter-items-set"
	// RequestBodyNotSet, RequestPropertyNotSet and RequestParameterNotSet:
	// a request value now refuses whatever a not schema matches.
	RequestBodyNotSet      = "request-body-not-set"
	RequestPropertyNotSet  = "request-property-not-set"
	RequestParameterNotSet = "request-parameter-not-set"
	// RequestPropertyEncodingContentTypeNarrowed: a part of a multipart
	// request body no longer takes a content type its encoding took.
	RequestPropertyEncodingContentTypeNarrowed = "request-property-encoding-content-type-narrowed"
	// ResponseHeaderEnumValueAdded, ResponseHeaderPatternRemoved and
	// ResponseHeaderPatternChanged: a response header may hold a value it
	// could not (oasdiff checks a header's type and bounds, not these).
	ResponseHeaderEnumValueAdded = "response-header-enum-value-added"
	ResponseHeaderPatternRemoved = "response-header-pattern-removed"
	ResponseHeaderPatternChanged = "response-header-pattern-changed"
	// ResponseHeaderConstChanged and ResponseHeaderConstRemoved: the one
	// value a response header held (const) changed or is gone; and
	// ResponseHeaderMultipleOfChanged: its multipleOf changed to one that
	// is not a multiple of the old (4 to 2: it may hold 6). Errors, as
	// oasdiff rates them in a response property.
	ResponseHeaderConstChanged      = "response-header-const-changed"
	ResponseHeaderConstRemoved      = "response-header-const-removed"
	ResponseHeaderMultipleOfChanged = "response-header-multiple-of-changed"
	// ResponseHeaderBecameNotEnum: a response header's enum is gone; it
	// may hold any value of its type.
	ResponseHeaderBecameNotEnum = "response-header-became-not-enum"
	// SecurityOAuthFlowRemoved: an OAuth 2 security scheme no longer
	// offers one of its flows; a client that gets its tokens by it is
	// refused.
	SecurityOAuthFlowRemoved = "api-security-component-oauth-flow-removed"
)

// ownCheckMessages are the messages of apiver's own checks, as oasdiff's
// localizer gives those of its checks (arguments quoted by the caller).
var ownCheckMessages = map[string]string{
	RequestBodyAdditionalPropertiesDisallowed:      "the request body no longer allows additional properties",
	RequestPropertyAdditionalPropertiesDisallowed:  "the request property %s no longer allows additional properties",
	ResponseBodyAdditionalPropertiesAllowed:        "the response body may now have additional properties for the response status %s",
	ResponsePropertyAdditionalPropertiesAllowed:    "the response property %s may now have additional properties for the response status %s",
	RequestBodyUnevaluatedPropertiesDisallowed:     "the request body no longer allows properties it does not declare (unevaluatedProperties: false)",
	RequestPropertyUnevaluatedPropertiesDisallowed: "the request property %s no longer allows properties it does not declare (unevaluatedProperties: false)",
	ResponseBodyUnevaluatedPropertiesAllowed:       "the response body may now have properties it does not declare (unevaluatedProperties: false removed) for the response status %s",
	ResponsePropertyUnevaluatedPropertiesAllowed:   "the response property %s may now have properties it does not declare (unevaluatedProperties: false removed) for the response status %s",
	RequestBodyUnevaluatedItemsDisallowed:          "the request body's array no longer allows items no items schema describes (unevaluatedItems: false)",
	RequestPropertyUnevaluatedItemsDisallowed:      "the request property %s no longer allows items no items schema describes (unevaluatedItems: false)",
	ResponseBodyUnevaluatedItemsAllowed:            "the response body's array may now have items no items schema describes (unevaluatedItems: false removed) for the response status %s",
	ResponsePropertyUnevaluatedItemsAllowed:        "the response property %s may now have items no items schema describes (unevaluatedItems: false removed) for the response status %s",
	RequestParameterConstAdded:                     "the %s request parameter %s now takes only the value %s",
	RequestParameterConstChanged:                   "the value the %s request parameter %s takes (const) changed from %s to %s",
	RequestParameterMultipleOfChanged:              "for the %s request parameter %s, the multipleOf was changed from %s to %s",
	RequestParameterSerializationChanged:           "the serialization of the %s request parameter %s changed from %s to %s",
	RequestParameterUniqueItemsSet:                 "the %s request parameter %s no longer takes repeated items",
	RequestParameterPropertyNarrowed:               "the %s of the property %s of the %s request parameter %s changed from %s to %s",
	RequestParameterPropertyPatternChanged:         "the pattern of the property %s of the %s request parameter %s changed from %s to %s",
	RequestBodyItemsSet:                            "the request body's array items are now restricted by an items schema",
	RequestPropertyItemsSet:                        "the items of the request property %s are now restricted by an items schema",
	RequestParameterItemsSet:                       "the items of the %s request parameter %s are now restricted by an items schema",
	RequestBodyNotSet:                              "the request body now refuses what a not schema matches",
	RequestPropertyNotSet:                          "the request property %s now refuses what a not schema matches",
	RequestParameterNotSet:                         "the %s request parameter %s now refuses what a not schema matches",
	RequestPropertyEncodingContentTypeNarrowed:     "the %s part %s of the request body no longer takes the content type %s (its encoding takes %s)",
	ResponseHeaderEnumValueAdded:                   "added the new enum value %s to the response header %s for the response status %s",
	ResponseHeaderPatternRemoved:                   "removed the pattern %s from the response header %s for the response status %s",
	ResponseHeaderPatternChanged:                   "changed the pattern of the response header %s from %s to %s for the response status %s",
	ResponseHeaderConstChanged:                     "the value of the response header %s (const) changed from %s to %s for the response status %s",
	ResponseHeaderConstRemoved:                     "the response header %s may now hold other values than %s (its const removed) for the response status %s",
	ResponseHeaderMultipleOfChanged:                "the multipleOf of the response header %s changed from %s to %s for the response status %s",
	ResponseHeaderBecameNotEnum:                    "the response header %s is no longer restricted to a list of enum values for the response status %s",
	PayloadBodyBecameOptional:                      "the %s payload may now be sent without a body",
	SecurityOAuthFlowRemoved:                       "the %s flow was removed from the security scheme %s",
}

// localizer is oasdiff's default localizer, which also knows the messages
// of apiver's own checks.
func localizer() checker.Localizer {
	oasdiffs := checker.NewDefaultLocalizer()
	return func(key string, args ...any) string {
		if format, ok := ownCheckMessages[key]; ok {
			return fmt.Sprintf(format, args...)
		}
		return oasdiffs(key, args...)
	}
}

// ownChecks are apiver's checks, run with oasdiff's.
var ownChecks = checker.BackwardCompatibilityChecks{additionalPropertiesCheck, requestSubschemaCheck, encodingContentTypeCheck, responseHeaderCheck, parameterSerializationCheck, parameterSchemaCheck, oauthFlowsCheck}

// oauthFlowsCheck reports an OAuth 2 flow that a security scheme no
// longer offers (oasdiff checks a flow's URLs and scopes, not the flow).
func oauthFlowsCheck(report *oasdiff.Diff, _ *oasdiff.OperationsSourcesMap, config *checker.Config) checker.Changes {
	var out checker.Changes
	if report == nil || report.ComponentsDiff == nil || report.ComponentsDiff.SecuritySchemesDiff == nil {
		return out
	}
	schemes := report.ComponentsDiff.SecuritySchemesDiff
	for _, name := range slices.Sorted(maps.Keys(schemes.Modified)) {
		flows := schemes.Modified[name].OAuthFlowsDiff
		if flows == nil {
			continue
		}
		for _, flow := range []struct {
			name string
			diff *oasdiff.OAuthFlowDiff
		}{{"implicit", flows.ImplicitDiff}, {"password", flows.PasswordDiff}, {"clientCredentials", flows.ClientCredentialsDiff}, {"authorizationCode", flows.AuthorizationCodeDiff}} {
			if flow.diff == nil || !flow.diff.Deleted {
				continue
			}
			var base *checker.Source
			if ref := schemes.Base[name]; ref != nil && ref.Value != nil && ref.Value.Flows != nil {
				base = sourceAt(fieldLocation(ref.Value.Flows.Origin, flow.name), nil, nil)
			}
			out = append(out, checker.ComponentChange{
				Id: SecurityOAuthFlowRemoved, Level: config.LogLevels[SecurityOAuthFlowRemoved],
				Args: []any{flow.name, name}, Component: "securitySchemes",
			}.WithSources(base, nil))
		}
	}
	return out
}

// additionalPropertiesCheck reports, in every request and response body
// schema oasdiff found modified, an object that changed whether it takes
// properties it does not declare (by additionalProperties or
// unevaluatedProperties), or an array whether it takes items no items
// schema describes (unevaluatedItems): refused in a request is an error
// (a client sending one is now turned away), allowed in a response a
// warning (a response widened within its type, as a bound removed is).
func additionalPropertiesCheck(report *oasdiff.Diff, sources *oasdiff.OperationsSourcesMap, config *checker.Config) checker.Changes {
	var out checker.Changes
	forEachOperation(report, func(path, method string, op *oasdiff.MethodDiff) {
		change := func(body, property, keyword string, sd *oasdiff.SchemaDiff, propertyPath string, args ...any) {
			id, args := placedChange(body, property, propertyPath, args)
			c := ownChange(id, config, sources, path, method, op, args)
			out = append(out, c.WithSources(sourceAt(fieldLocation(sd.Base.Origin, keyword), op.Base, sources),
				sourceAt(fieldLocation(sd.Revision.Origin, keyword), op.Revision, sources)))
		}
		forEachRequestSchema(op, func(sd *oasdiff.SchemaDiff, property string) {
			// A schema on one side only is oasdiff's to tell (a schema
			// added or removed).
			if sd.Base == nil || sd.Revision == nil {
				return
			}
			if takesUndeclared(sd.Base) && !takesUndeclared(sd.Revision) && mayBeObject(sd.Revision) {
				if allowsAdditional(sd.Revision) {
					change(RequestBodyUnevaluatedPropertiesDisallowed, RequestPropertyUnevaluatedPropertiesDisallowed, "unevaluatedProperties", sd, property)
				} else {
					change(RequestBodyAdditionalPropertiesDisallowed, RequestPropertyAdditionalPropertiesDisallowed, "additionalProperties", sd, property)
				}
			}
			if takesUnevaluatedItems(sd.Base) && !takesUnevaluatedItems(sd.Revision) && mayBeArray(sd.Revision) {
				change(RequestBodyUnevaluatedItemsDisallowed, RequestPropertyUnevaluatedItemsDisallowed, "unevaluatedItems", sd, property)
			}
		})
		if op.ResponsesDiff == nil {
			return
		}
		for _, status := range slices.Sorted(maps.Keys(op.ResponsesDiff.Modified)) {
			response := op.ResponsesDiff.Modified[status]
			if response.ContentDiff == nil {
				continue
			}
			for _, mt := range slices.Sorted(maps.Keys(response.ContentDiff.MediaTypeModified)) {
				walkSchemaDiff(response.ContentDiff.MediaTypeModified[mt].SchemaDiff, func(sd *oasdiff.SchemaDiff, property string) {
					if sd.Base == nil || sd.Revision == nil {
						return
					}
					if !takesUndeclared(sd.Base) && takesUndeclared(sd.Revision) && mayBeObject(sd.Revision) {
						if allowsAdditional(sd.Base) {
							change(ResponseBodyUnevaluatedPropertiesAllowed, ResponsePropertyUnevaluatedPropertiesAllowed, "unevaluatedProperties", sd, property, status)
						} else {
							change(ResponseBodyAdditionalPropertiesAllowed, ResponsePropertyAdditionalPropertiesAllowed, "additionalProperties", sd, property, status)
						}
					}
					if !takesUnevaluatedItems(sd.Base) && takesUnevaluatedItems(sd.Revision) && mayBeArray(sd.Revision) {
						change(ResponseBodyUnevaluatedItemsAllowed, ResponsePropertyUnevaluatedItemsAllowed, "unevaluatedItems", sd, property, status)
					}
				})
			}
		}
	})
	return out
}

// forEachRequestSchema calls visit on every schema diff of op's request
// body, as walkSchemaDiff does.
func forEachRequestSchema(op *oasdiff.MethodDiff, visit func(sd *oasdiff.SchemaDiff, property string)) {
	body := op.RequestBodyDiff
	if body == nil || body.ContentDiff == nil {
		return
	}
	for _, mt := range slices.Sorted(maps.Keys(body.ContentDiff.MediaTypeModified)) {
		walkSchemaDiff(body.ContentDiff.MediaTypeModified[mt].SchemaDiff, visit)
	}
}

// requestSubschemaCheck reports a request schema that gained a subschema
// that refuses values it took: items where an array took any items, or a
// not schema.
func requestSubschemaCheck(report *oasdiff.Diff, sources *oasdiff.OperationsSourcesMap, config *checker.Config) checker.Changes {
	var out checker.Changes
	forEachOperation(report, func(path, method string, op *oasdiff.MethodDiff) {
		forEachRequestSchema(op, func(sd *oasdiff.SchemaDiff, property string) {
			if sd.Base == nil || sd.Revision == nil {
				return
			}
			for _, n := range subschemasSet(sd.Base, sd.Revision) {
				ids := subschemaIDs[n.keyword]
				id, args := placedChange(ids.body, ids.property, property, nil)
				c := ownChange(id, config, sources, path, method, op, args)
				out = append(out, c.WithSources(sourceAt(fieldLocation(sd.Base.Origin, ""), op.Base, sources),
					sourceAt(fieldLocation(sd.Revision.Origin, n.keyword), op.Revision, sources)))
			}
		})
	})
	return out
}

// placedChange is the id and arguments of a change to the schema at
// propertyPath: body's for the body's own schema, property's below it,
// with the path as its first argument.
func placedChange(body, property, propertyPath string, args []any) (string, []any) {
	if propertyPath == "" {
		return body, args
	}
	return property, append([]any{propertyPath}, args...)
}

// subschemaIDs are the ids of a subschema set (subschemasSet), by its
// keyword, in a request body, a request property and a parameter.
var subschemaIDs = map[string]struct{ body, property, parameter string }{
	"items": {RequestBodyItemsSet, RequestPropertyItemsSet, RequestParameterItemsSet},
	"not":   {RequestBodyNotSet, RequestPropertyNotSet, RequestParameterNotSet},
}

// subschemasSet are the subschemas revision has and base had not that
// refuse values base took: items that constrain the items of what was and
// is an array (where the type changed, oasdiff tells that), and a not
// schema. A boolean items schema is left to oasdiff (false is its
// schema-became-false; true takes every item), as is not: false, which
// refuses nothing.
func subschemasSet(base, revision *openapi3.Schema) []narrowing {
	var out []narrowing
	if base.Items == nil && revision.Items != nil && mayBeArray(base) && mayBeArray(revision) && !boolean(revision.Items) && constrains(revision.Items) {
		out = append(out, narrowing{"items", "none", "a schema"})
	}
	if base.Not == nil && revision.Not != nil && !isBoolean(revision.Not, false) {
		out = append(out, narrowing{"not", "none", "a schema"})
	}
	return out
}

// responseHeaderCheck reports a response header's schema widened where
// oasdiff's checks of headers (type, format, nullable, bounds) do not
// look: an enum value added or the enum removed, a pattern removed or
// changed, a multipleOf changed to one that is not a multiple of the old,
// a const changed or removed. A client that reads the header may get a
// value it does not know.
func responseHeaderCheck(report *oasdiff.Diff, sources *oasdiff.OperationsSourcesMap, config *checker.Config) checker.Changes {
	var out checker.Changes
	forEachOperation(report, func(path, method string, op *oasdiff.MethodDiff) {
		if op.ResponsesDiff == nil {
			return
		}
		for _, status := range slices.Sorted(maps.Keys(op.ResponsesDiff.Modified)) {
			headers := op.ResponsesDiff.Modified[status].HeadersDiff
			if headers == nil {
				continue
			}
			for _, name := range slices.Sorted(maps.Keys(headers.Modified)) {
				sd := headers.Modified[name].SchemaDiff
				if sd == nil || sd.Base == nil || sd.Revision == nil {
					continue
				}
				add := func(id, keyword string, args ...any) {
					c := ownChange(id, config, sources, path, method, op, args)
					out = append(out, c.WithSources(sourceAt(headerSchemaLocation(op.Base, status, name, sd.Base, keyword), op.Base, sources),
						sourceAt(headerSchemaLocation(op.Revision, status, name, sd.Revision, keyword), op.Revision, sources)))
				}
				// (An enum given where none was is a narrowing; from a
				// const, the values added are the enum's: const-as-enum.)
				switch {
				case sd.EnumDiff == nil || sd.EnumDiff.EnumAdded:
				case sd.EnumDiff.EnumDeleted:
					add(ResponseHeaderBecameNotEnum, "enum", name, status)
				default:
					for _, v := range sd.EnumDiff.Added {
						add(ResponseHeaderEnumValueAdded, "enum", v, name, status)
					}
				}
				switch b, r := sd.Base.Pattern, sd.Revision.Pattern; {
				case b == "" || b == r:
				case r == "":
					add(ResponseHeaderPatternRemoved, "pattern", b, name, status)
				default:
					add(ResponseHeaderPatternChanged, "pattern", name, b, r, status)
				}
				// Widened: the base's multipleOf narrows the revision's. (A
				// multipleOf removed is oasdiff's response-header-multiple-of-unset.)
				if _, widened := multipleOfNarrowing(sd.Revision, sd.Base); widened && sd.MultipleOfDiff != nil && sd.Revision.MultipleOf != nil {
					add(ResponseHeaderMultipleOfChanged, "multipleOf", name, bound(sd.Base.MultipleOf), bound(sd.Revision.MultipleOf), status)
				}
				switch b, r := sd.Base.Const, sd.Revision.Const; {
				case sd.ConstDiff == nil || b == nil:
				case r == nil:
					add(ResponseHeaderConstRemoved, "const", name, valueText(b), status)
				default:
					add(ResponseHeaderConstChanged, "const", name, valueText(b), valueText(r), status)
				}
			}
		}
	})
	return out
}

// headerSchemaLocation is where keyword is in the schema of the response
// header name; kin-openapi records no origin in a header's schema, so
// there it is the header's schema key.
func headerSchemaLocation(op *openapi3.Operation, status, name string, schema *openapi3.Schema, keyword string) *openapi3.Location {
	if schema.Origin != nil {
		return fieldLocation(schema.Origin, keyword)
	}
	if op == nil || op.Responses == nil {
		return nil
	}
	response := op.Responses.Value(status)
	if response == nil || response.Value == nil {
		return nil
	}
	header := response.Value.Headers[name]
	if header == nil || header.Value == nil {
		return nil
	}
	return fieldLocation(header.Value.Origin, "schema")
}

// encodingContentTypeCheck reports a part of a request body (multipart)
// whose encoding no longer takes a content type it took: a client that
// sends the part so is turned away. Only where both sides give the part's
// contentType: the default of one that gives none depends on the part's
// schema (oasdiff diffs an encoding added or removed, and checks neither).
func encodingContentTypeCheck(report *oasdiff.Diff, sources *oasdiff.OperationsSourcesMap, config *checker.Config) checker.Changes {
	var out checker.Changes
	forEachOperation(report, func(path, method string, op *oasdiff.MethodDiff) {
		body := op.RequestBodyDiff
		if body == nil || body.ContentDiff == nil || op.Base.RequestBody == nil || op.Base.RequestBody.Value == nil || op.Revision.RequestBody == nil || op.Revision.RequestBody.Value == nil {
			return
		}
		for _, mt := range slices.Sorted(maps.Keys(body.ContentDiff.MediaTypeModified)) {
			encodings := body.ContentDiff.MediaTypeModified[mt].EncodingsDiff
			base, revision := op.Base.RequestBody.Value.Content.Get(mt), op.Revision.RequestBody.Value.Content.Get(mt)
			if encodings == nil || base == nil || revision == nil {
				continue
			}
			for _, part := range slices.Sorted(maps.Keys(encodings.Modified)) {
				b, r := base.Encoding[part], revision.Encoding[part]
				if encodings.Modified[part].ContentTypeDiff == nil || b == nil || r == nil || b.ContentType == "" || r.ContentType == "" {
					continue
				}
				for _, refused := range contentTypesRefused(b.ContentType, r.ContentType) {
					c := ownChange(RequestPropertyEncodingContentTypeNarrowed, config, sources, path, method, op, []any{mt, part, refused, r.ContentType})
					out = append(out, c.WithSources(sourceAt(fieldLocation(b.Origin, "contentType"), op.Base, sources),
						sourceAt(fieldLocation(r.Origin, "contentType"), op.Revision, sources)))
				}
			}
		}
	})
	return out
}

// contentTypesRefused are the content types of the list base (an
// encoding's contentType: types or ranges, comma-separated) that none of
// the list revision covers: the same type, or a range that holds it
// (image/* holds image/png, */* every type). Parameters (;charset=…) are
// not compared.
func contentTypesRefused(base, revision string) []string {
	var out []string
	taken := contentTypes(revision)
	for _, t := range contentTypes(base) {
		if !slices.ContainsFunc(taken, func(r string) bool { return coversContentType(r, t) }) {
			out = append(out, t)
		}
	}
	return out
}

func contentTypes(list string) []string {
	var out []string
	for t := range strings.SplitSeq(list, ",") {
		t, _, _ = strings.Cut(t, ";")
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// coversContentType reports whether the type or range r takes every
// content type that t (a type or a range) names.
func coversContentType(r, t string) bool {
	if r == t || r == "*/*" {
		return true
	}
	rType, rSub, _ := strings.Cut(r, "/")
	tType, _, _ := strings.Cut(t, "/")
	return rSub == "*" && rType == tType
}

// constrains reports whether a subschema refuses some value: it has a
// keyword that constrains (kin-openapi's IsEmpty), or a not schema, which
// IsEmpty passes over where it is empty although it then refuses all.
func constrains(s *openapi3.SchemaRef) bool {
	return s.Value == nil || !s.Value.IsEmpty() || s.Value.Not != nil
}

// boolean reports whether s is a boolean schema (true or false).
func boolean(s *openapi3.SchemaRef) bool { return s.Value != nil && s.Value.Always != nil }

// isBoolean reports whether s is the boolean schema value.
func isBoolean(s *openapi3.SchemaRef, value bool) bool {
	return boolean(s) && *s.Value.Always == value
}

// mayBeArray reports whether a value of schema s may be an array, which
// is all items applies to.
func mayBeArray(s *openapi3.Schema) bool {
	return s.Type == nil || len(*s.Type) == 0 || s.Type.Includes(openapi3.TypeArray)
}

// allowsAdditional reports whether an object of schema s may have
// properties it does not declare: unless additionalProperties is false.
func allowsAdditional(s *openapi3.Schema) bool {
	return s == nil || s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has
}

// takesUndeclared reports whether an object of schema s may have
// properties it does not declare: not where additionalProperties is
// false, nor where unevaluatedProperties is false and no
// additionalProperties (true or a schema) evaluates them first.
func takesUndeclared(s *openapi3.Schema) bool {
	if !allowsAdditional(s) {
		return false
	}
	additional := s.AdditionalProperties.Has != nil || s.AdditionalProperties.Schema != nil
	return additional || s.UnevaluatedProperties.Has == nil || *s.UnevaluatedProperties.Has
}

// takesUnevaluatedItems reports whether an array of schema s may have
// items that unevaluatedItems judges: unless it is false where no items
// schema evaluates them first. (items: false is oasdiff's to tell.)
func takesUnevaluatedItems(s *openapi3.Schema) bool {
	return s.Items != nil || s.UnevaluatedItems.Has == nil || *s.UnevaluatedItems.Has
}

// mayBeObject reports whether a value of schema s may be an object, which
// is all additionalProperties applies to.
func mayBeObject(s *openapi3.Schema) bool {
	return s != nil && (s.Type == nil || len(*s.Type) == 0 || s.Type.Includes(openapi3.TypeObject))
}

// walkSchemaDiff calls visit on sd and on every schema diff below it that
// one value of the body is read through: properties, items, the values of
// additionalProperties and the branches of allOf, anyOf and oneOf, with
// the property's path as oasdiff writes it ("a/b", "a/items/b").
func walkSchemaDiff(sd *oasdiff.SchemaDiff, visit func(*oasdiff.SchemaDiff, string)) {
	seen := map[*oasdiff.SchemaDiff]bool{}
	var walk func(sd *oasdiff.SchemaDiff, property string)
	walk = func(sd *oasdiff.SchemaDiff, property string) {
		if sd == nil || seen[sd] {
			return
		}
		seen[sd] = true
		visit(sd, property)
		if sd.PropertiesDiff != nil {
			for _, name := range slices.Sorted(maps.Keys(sd.PropertiesDiff.Modified)) {
				walk(sd.PropertiesDiff.Modified[name], joinProperty(property, name))
			}
		}
		walk(sd.ItemsDiff, joinProperty(property, "items"))
		walk(sd.AdditionalPropertiesDiff, joinProperty(property, "additionalProperties"))
		for _, branches := range []*oasdiff.SubschemasDiff{sd.AllOfDiff, sd.AnyOfDiff, sd.OneOfDiff} {
			if branches == nil {
				continue
			}
			for _, m := range branches.Modified {
				walk(m.Diff, property)
			}
		}
	}
	walk(sd, "")
}

func joinProperty(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "/" + name
}

// parameterSerializationCheck reports a parameter whose style or explode,
// with their defaults for where it is sent, changed how its value is
// written: a client writing it as before is then misread. Where every
// style writes the value alike (a single value in a query or a cookie;
// explode, for a single value anywhere) nothing changed.
func parameterSerializationCheck(report *oasdiff.Diff, sources *oasdiff.OperationsSourcesMap, config *checker.Config) checker.Changes {
	var out checker.Changes
	forEachParameter(report, func(path, method string, op *oasdiff.MethodDiff, in, name string, pd *oasdiff.ParameterDiff) {
		if pd.StyleDiff == nil && pd.ExplodeDiff == nil && pd.ContentDiff == nil && pd.AllowReservedDiff == nil || pd.Base == nil || pd.Revision == nil {
			return
		}
		from, to, changed := serializationChange(pd.Base, pd.Revision)
		if !changed && reservedRefused(pd.Base, pd.Revision) {
			from, to, changed = "reserved characters unencoded", "reserved characters percent-encoded", true
		}
		if !changed {
			return
		}
		c := ownChange(RequestParameterSerializationChanged, config, sources, path, method, op, []any{in, name, from, to})
		out = append(out, c.WithSources(sourceAt(fieldLocation(pd.Base.Origin, ""), op.Base, sources), sourceAt(fieldLocation(pd.Revision.Origin, ""), op.Revision, sources)))
	})
	return out
}

// parameterSchemaCheck reports what oasdiff's parameter checks leave out:
// repeated items refused by a parameter, and the values inside a
// parameter narrowed (their bounds, pattern and uniqueItems).
func parameterSchemaCheck(report *oasdiff.Diff, sources *oasdiff.OperationsSourcesMap, config *checker.Config) checker.Changes {
	var out checker.Changes
	forEachParameter(report, func(path, method string, op *oasdiff.MethodDiff, in, name string, pd *oasdiff.ParameterDiff) {
		if pd.SchemaDiff == nil {
			return
		}
		add := func(id, keyword string, sd *oasdiff.SchemaDiff, args ...any) {
			c := ownChange(id, config, sources, path, method, op, args)
			out = append(out, c.WithSources(sourceAt(fieldLocation(sd.Base.Origin, keyword), op.Base, sources), sourceAt(fieldLocation(sd.Revision.Origin, keyword), op.Revision, sources)))
		}
		walkSchemaDiff(pd.SchemaDiff, func(sd *oasdiff.SchemaDiff, property string) {
			if sd.Base == nil || sd.Revision == nil {
				return
			}
			if property == "" {
				if !sd.Base.UniqueItems && sd.Revision.UniqueItems {
					add(RequestParameterUniqueItemsSet, "uniqueItems", sd, in, name)
				}
				for _, n := range subschemasSet(sd.Base, sd.Revision) {
					add(subschemaIDs[n.keyword].parameter, n.keyword, sd, in, name)
				}
				if n, ok := constNarrowing(sd.Base, sd.Revision); ok {
					if n.from == "none" {
						add(RequestParameterConstAdded, "const", sd, in, name, n.to)
					} else {
						add(RequestParameterConstChanged, "const", sd, in, name, n.from, n.to)
					}
				}
				// A multipleOf set is oasdiff's request-parameter-multiple-of-set.
				if n, ok := multipleOfNarrowing(sd.Base, sd.Revision); ok && n.from != "none" {
					add(RequestParameterMultipleOfChanged, "multipleOf", sd, in, name, n.from, n.to)
				}
				return
			}
			for _, n := range append(narrowings(sd.Base, sd.Revision), subschemasSet(sd.Base, sd.Revision)...) {
				if n.keyword == "maxItems" && sd == pd.SchemaDiff.ItemsDiff && itemsMaxItemsReported(pd.SchemaDiff) {
					continue
				}
				add(RequestParameterPropertyNarrowed, n.keyword, sd, n.keyword, property, in, name, n.from, n.to)
			}
			if b, r := sd.Base.Pattern, sd.Revision.Pattern; b != "" && r != "" && b != r && r != ".*" {
				add(RequestParameterPropertyPatternChanged, "pattern", sd, property, in, name, b, r)
			}
		})
	})
	return out
}

// forEachParameter calls f on every parameter oasdiff found modified, in
// operation, location and name order.
func forEachParameter(report *oasdiff.Diff, f func(path, method string, op *oasdiff.MethodDiff, in, name string, pd *oasdiff.ParameterDiff)) {
	forEachOperation(report, func(path, method string, op *oasdiff.MethodDiff) {
		if op.ParametersDiff == nil {
			return
		}
		for _, in := range slices.Sorted(maps.Keys(op.ParametersDiff.Modified)) {
			byName := op.ParametersDiff.Modified[in]
			for _, name := range slices.Sorted(maps.Keys(byName)) {
				f(path, method, op, in, name, byName[name])
			}
		}
	})
}

// itemsMaxItemsReported reports whether oasdiff's maxItems check of a
// parameter reports its items' maxItems, as it does where the parameter's
// own did not change and the items' changed from one bound to another.
func itemsMaxItemsReported(sd *oasdiff.SchemaDiff) bool {
	items := sd.ItemsDiff
	return sd.MaxItemsDiff == nil && items != nil && items.MaxItemsDiff != nil && items.MaxItemsDiff.From != nil && items.MaxItemsDiff.To != nil
}

type narrowing struct{ keyword, from, to string }

// narrowings are the keywords by which revision takes fewer values than
// base: a bound set or tightened, a pattern set, repeated items refused.
func narrowings(base, revision *openapi3.Schema) []narrowing {
	var out []narrowing
	upper := func(keyword string, b, r *float64) {
		if r != nil && (b == nil || *r < *b) {
			out = append(out, narrowing{keyword, bound(b), bound(r)})
		}
	}
	lower := func(keyword string, b, r *float64) {
		if r != nil && (b == nil || *r > *b) {
			out = append(out, narrowing{keyword, bound(b), bound(r)})
		}
	}
	count := func(n *uint64) *float64 {
		if n == nil {
			return nil
		}
		f := float64(*n)
		return &f
	}
	least := func(n uint64) *float64 {
		if n == 0 {
			return nil // 0 bounds nothing
		}
		return count(&n)
	}
	lower("minLength", least(base.MinLength), least(revision.MinLength))
	upper("maxLength", count(base.MaxLength), count(revision.MaxLength))
	for _, nb := range numberBounds {
		b, r := nb.limit(base), nb.limit(revision)
		tighter := nb.tighter(r, b)
		if integers(base) && integers(revision) {
			tighter = nb.tighter(nb.integral(r), nb.integral(b)) // < 6 takes what <= 5 does
		}
		if tighter {
			n := narrowing{r.keyword, bound(nb.valueOf(base, r.keyword)), bound(r.value)}
			if n.from == n.to {
				// OpenAPI 3.0: the same bound made exclusive.
				n = narrowing{nb.exclusiveKeyword, "false", "true"}
			}
			out = append(out, n)
		}
	}
	lower("minItems", least(base.MinItems), least(revision.MinItems))
	upper("maxItems", count(base.MaxItems), count(revision.MaxItems))
	lower("minProperties", least(base.MinProps), least(revision.MinProps))
	upper("maxProperties", count(base.MaxProps), count(revision.MaxProps))
	if base.Pattern == "" && revision.Pattern != "" && revision.Pattern != ".*" {
		out = append(out, narrowing{"pattern", "none", revision.Pattern})
	}
	if !base.UniqueItems && revision.UniqueItems {
		out = append(out, narrowing{"uniqueItems", "false", "true"})
	}
	if n, ok := multipleOfNarrowing(base, revision); ok {
		out = append(out, n)
	}
	if n, ok := constNarrowing(base, revision); ok {
		out = append(out, n)
	}
	return out
}

// constNarrowing tells whether revision's const refuses values base took:
// a const given where base took any value, or changed. Where base had an
// enum, the values a const leaves out are the enum's changes
// (normalizeConstEnum).
func constNarrowing(base, revision *openapi3.Schema) (narrowing, bool) {
	switch {
	case revision.Const == nil || len(base.Enum) > 0 || reflect.DeepEqual(base.Const, revision.Const):
		return narrowing{}, false
	case base.Const != nil:
		return narrowing{"const", valueText(base.Const), valueText(revision.Const)}, true
	}
	return narrowing{"const", "none", valueText(revision.Const)}, true
}

// valueText writes a schema value as JSON, a string as it is.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	text, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(text)
}

func bound(f *float64) string {
	if f == nil {
		return "none"
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

// serializationChange tells how two versions of a parameter write its
// value, and whether that changed for the values it takes.
func serializationChange(base, revision *openapi3.Parameter) (from, to string, changed bool) {
	if bm, rm := contentForm(base), contentForm(revision); bm != "" || rm != "" {
		// A parameter serialized by a content map is written as its
		// media type says, whatever its style.
		if bm == rm {
			return "", "", false
		}
		return describeForm(base, bm), describeForm(revision, rm), true
	}
	b, errB := base.SerializationMethod()
	r, errR := revision.SerializationMethod()
	if errB != nil || errR != nil || *b == *r {
		return "", "", false
	}
	if single(base) && single(revision) {
		styleMatters := base.In == openapi3.ParameterInPath
		if !styleMatters || b.Style == r.Style {
			return "", "", false
		}
	}
	return describeSerialization(b), describeSerialization(r), true
}

// reservedRefused reports whether a query parameter that took reserved
// characters as they are (allowReserved) now wants them percent-encoded:
// a client that sends one as before (a "/" or a "?" in the value) is
// misread or refused. allowReserved applies to query parameters only, and
// not to one serialized by a content map.
func reservedRefused(base, revision *openapi3.Parameter) bool {
	return revision.In == openapi3.ParameterInQuery && contentForm(revision) == "" && base.AllowReserved && !revision.AllowReserved
}

// single reports whether a parameter takes one primitive value (not an
// array or an object, nor a schema that may be one).
func single(p *openapi3.Parameter) bool {
	if p.Schema == nil || p.Schema.Value == nil || p.Schema.Value.Type == nil || len(*p.Schema.Value.Type) == 0 {
		return false
	}
	for _, t := range *p.Schema.Value.Type {
		if t == openapi3.TypeArray || t == openapi3.TypeObject {
			return false
		}
	}
	return true
}

// contentForm is the media type of a parameter serialized by a content
// map, "" for one serialized by its style.
func contentForm(p *openapi3.Parameter) string {
	for name := range p.Content {
		return name // one entry: the grammar allows no more
	}
	return ""
}

// describeForm names how a parameter is written: by its media type, or
// by its style.
func describeForm(p *openapi3.Parameter, mediaType string) string {
	if mediaType != "" {
		return "content " + mediaType
	}
	if m, err := p.SerializationMethod(); err == nil {
		return describeSerialization(m)
	}
	return p.Style
}

// withContentSchemas presents each parameter and each response header
// serialized by a content map (`content: {application/json: {schema: …}}`)
// with that schema as its own, so that oasdiff's parameter and header
// checks, which read their own schema only, judge the values they take
// (oasdiff leaves the content form unchecked). The content stays, for the
// serialization check. op is not changed: a copy has the new parameters
// and responses.
func withContentSchemas(op *openapi3.Operation) *openapi3.Operation {
	var params openapi3.Parameters
	for i, p := range op.Parameters {
		if p == nil || p.Value == nil {
			continue
		}
		schema := contentSchema(p.Value)
		if schema == nil {
			continue
		}
		if params == nil {
			params = slices.Clone(op.Parameters)
		}
		v := *p.Value
		v.Schema = schema
		params[i] = &openapi3.ParameterRef{Ref: p.Ref, Value: &v, Origin: p.Origin}
	}
	responses := headersWithContentSchemas(op.Responses)
	if params == nil && responses == nil {
		return op
	}
	c := *op
	if params != nil {
		c.Parameters = params
	}
	if responses != nil {
		c.Responses = responses
	}
	return &c
}

// headersWithContentSchemas is a copy of responses whose headers
// serialized by a content map have that schema as their own, nil where
// none is.
func headersWithContentSchemas(responses *openapi3.Responses) *openapi3.Responses {
	if responses == nil {
		return nil
	}
	var out *openapi3.Responses
	all := responses.Map()
	for _, status := range slices.Sorted(maps.Keys(all)) {
		r := all[status]
		if r == nil || r.Value == nil {
			continue
		}
		var headers openapi3.Headers
		for _, name := range slices.Sorted(maps.Keys(r.Value.Headers)) {
			h := r.Value.Headers[name]
			if h == nil || h.Value == nil {
				continue
			}
			schema := contentSchema(&h.Value.Parameter)
			if schema == nil {
				continue
			}
			if headers == nil {
				headers = maps.Clone(r.Value.Headers)
			}
			v := *h.Value
			v.Schema = schema
			headers[name] = &openapi3.HeaderRef{Ref: h.Ref, Value: &v, Origin: h.Origin, Extensions: h.Extensions}
		}
		if headers == nil {
			continue
		}
		if out == nil {
			out = openapi3.NewResponsesWithCapacity(len(all))
			out.Extensions, out.Origin = responses.Extensions, responses.Origin
			for s, ref := range all {
				out.Set(s, ref)
			}
		}
		resp := *r.Value
		resp.Headers = headers
		out.Set(status, &openapi3.ResponseRef{Ref: r.Ref, Value: &resp, Origin: r.Origin, Extensions: r.Extensions})
	}
	return out
}

// contentSchema is the schema of a parameter's (or a header's) one content
// media type, nil where it has its own schema or none.
func contentSchema(p *openapi3.Parameter) *openapi3.SchemaRef {
	if p.Schema != nil || len(p.Content) != 1 {
		return nil
	}
	for _, mt := range p.Content {
		if mt != nil {
			return mt.Schema
		}
	}
	return nil
}

func describeSerialization(m *openapi3.SerializationMethod) string {
	if m.Explode {
		return m.Style + ", exploded"
	}
	return m.Style
}

// forEachOperation calls f on every operation oasdiff found modified, in
// path and method order.
func forEachOperation(report *oasdiff.Diff, f func(path, method string, op *oasdiff.MethodDiff)) {
	if report == nil || report.PathsDiff == nil {
		return
	}
	for _, path := range slices.Sorted(maps.Keys(report.PathsDiff.Modified)) {
		pathDiff := report.PathsDiff.Modified[path]
		if pathDiff.OperationsDiff == nil {
			continue
		}
		for _, method := range slices.Sorted(maps.Keys(pathDiff.OperationsDiff.Modified)) {
			if op := pathDiff.OperationsDiff.Modified[method]; op != nil && op.Revision != nil {
				f(path, method, op)
			}
		}
	}
}

func ownChange(id string, config *checker.Config, sources *oasdiff.OperationsSourcesMap, path, method string, op *oasdiff.MethodDiff, args []any) checker.ApiChange {
	return checker.ApiChange{
		Id: id, Level: config.LogLevels[id], Args: args,
		OperationId: op.Revision.OperationID, Operation: method, Path: path,
		Source: oasload.NewSource((*sources)[op.Revision]),
	}
}

// fieldLocation is where origin records field, else its key (field ""
// reads the key); nil when there is no origin.
func fieldLocation(origin *openapi3.Origin, field string) *openapi3.Location {
	if origin == nil {
		return nil
	}
	if loc, ok := origin.Fields.Lookup(field); ok {
		return &loc
	}
	return origin.Key
}

// sourceAt is a change's source at loc, in op's file where loc names none
// (op nil: no file); nil where loc is.
func sourceAt(loc *openapi3.Location, op *openapi3.Operation, sources *oasdiff.OperationsSourcesMap) *checker.Source {
	if loc == nil {
		return nil
	}
	file := oasload.NewSource(loc.File).DisplayPath()
	if strings.TrimSpace(file) == "" && op != nil {
		file = (*sources)[op]
	}
	return &checker.Source{File: file, Line: loc.Line, Column: loc.Column}
}
