package diff

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
)

// sentStatus is the status under which a turned operation's response holds
// what the API sends.
const sentStatus = "200"

// turned presents an outbound operation (a webhook's or a callback's) to
// oasdiff the other way round, so that its checks judge each part from the
// side that reads it: what the API sends (the request body and
// parameters) becomes a response, which oasdiff's response rules judge as
// a consumer reads it; what the consumer answers (its responses) becomes
// the request, which the request rules judge as the API reads it. The
// parts keep their origins, so changes are located where they are written.
func turned(op *openapi3.Operation) *openapi3.Operation {
	t := *op
	t.Callbacks = nil
	if t.Security == nil {
		// The document's security is what a client shows the API; what the
		// API shows the consumer is only the operation's own.
		t.Security = &openapi3.SecurityRequirements{}
	}
	sent := &openapi3.Response{Description: new(string), Headers: openapi3.Headers{}}
	ref := &openapi3.ResponseRef{Value: sent}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		sent.Content = op.RequestBody.Value.Content
		sent.Origin, ref.Origin = op.RequestBody.Value.Origin, op.RequestBody.Origin
	}
	for _, p := range op.Parameters {
		if p == nil || p.Value == nil {
			continue
		}
		sent.Headers[sentHeaderName(p.Value.In, p.Value.Name)] = &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: *p.Value}, Origin: p.Origin}
	}
	t.Responses = openapi3.NewResponses(openapi3.WithStatus(200, ref))
	t.Parameters, t.RequestBody = nil, nil
	if op.Responses == nil {
		return &t
	}
	// The consumer's answers: each status's media types and headers, the
	// lowest status first where two name the same header.
	answers := op.Responses.Map()
	content := openapi3.Content{}
	seen := map[string]bool{}
	// The answers' body is where the first answer with a body is.
	var body *openapi3.ResponseRef
	for _, status := range slices.Sorted(maps.Keys(answers)) {
		r := answers[status]
		if r == nil || r.Value == nil {
			continue
		}
		for name, mt := range r.Value.Content {
			content[answerMediaType(status, name)] = mt
		}
		if body == nil && len(r.Value.Content) > 0 {
			body = r
		}
		for _, name := range slices.Sorted(maps.Keys(r.Value.Headers)) {
			h := r.Value.Headers[name]
			if h == nil || h.Value == nil || seen[name] {
				continue
			}
			seen[name] = true
			p := h.Value.Parameter
			p.In, p.Name = openapi3.ParameterInHeader, name
			t.Parameters = append(t.Parameters, &openapi3.ParameterRef{Value: &p, Origin: h.Origin})
		}
	}
	if len(content) > 0 {
		// A response has no optional body: an answer that has one must
		// send it, so a body added to it is a required one.
		t.RequestBody = &openapi3.RequestBodyRef{Value: &openapi3.RequestBody{Required: true, Content: content, Origin: body.Value.Origin}, Origin: body.Origin}
	}
	return &t
}

// sentHeaderName is the response header a parameter the API sends stands
// as: a header by its name, another parameter by where it is and its name.
func sentHeaderName(in, name string) string {
	if in == openapi3.ParameterInHeader {
		return name
	}
	return in + " parameter " + name
}

// answerMediaType is the request media type a consumer's answer of one
// status stands as: the status and the media type, so that answers of
// several statuses stay apart.
func answerMediaType(status, name string) string { return status + " " + name }

// outboundWording are the rewrites that tell, in a turned operation's
// messages, what each part is to the consumer: oasdiff words them as the
// response and the request it was shown. What the API sends is rewritten
// first: the consumer's answer's wording says "response" too.
var outboundWording = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\s*for (?:the )?(?:response )?status ` + oasdiffQuoted(sentStatus)), ""},
	{regexp.MustCompile(`\bthe response with the (?:status ` + oasdiffQuoted(sentStatus) + `|` + oasdiffQuoted(sentStatus) + ` status)`), "the PAYLOAD"},
	{regexp.MustCompile(`\bof (?:the )?response ` + oasdiffQuoted(sentStatus)), "of the PAYLOAD"},
	{regexp.MustCompile("\\bresponse header ([`'])(path|query|cookie) parameter ([^`']*)[`']"), "PAYLOAD $2 parameter $1$3$1"},
	{regexp.MustCompile(`\b(?:the )?response body\b`), "the PAYLOAD"},
	{regexp.MustCompile(`\bresponse\b`), "PAYLOAD"},
	{regexp.MustCompile(`\bheader request parameter\b`), "consumer's response header"},
	{regexp.MustCompile(`\brequest (body|property|properties|parameter|discriminator)\b`), "consumer's response $1"},
	{regexp.MustCompile(`\brequest\b`), "consumer's response"},
	{regexp.MustCompile("([`'])(\\d{3}|[1-5]XX|default) ([^`' ]+)[`']"), "$1$3$1 (status $2)"},
}

// oasdiffQuoted matches s as oasdiff quotes an argument, or bare.
func oasdiffQuoted(s string) string { return "[`'\"]?" + regexp.QuoteMeta(s) + "[`'\"]?" }

// outboundMessage words a turned operation's change for the consumer:
// "webhook payload" or "callback payload" for what the API sends, "the
// consumer's response" for what it answers.
func outboundMessage(message string, d versions.Direction) string {
	payload := "webhook payload"
	if d == versions.Callback {
		payload = "callback payload"
	}
	for _, w := range outboundWording {
		message = w.re.ReplaceAllString(message, w.with)
	}
	return strings.ReplaceAll(message, "PAYLOAD", payload)
}

// outboundChange is a change of a turned operation, of pair p, as the
// consumer sees it. A webhook added or removed whole is oasdiff's
// webhook-added or webhook-removed, at its level, as oasdiff reports one
// between two documents; false when that level is off. A version added
// to an operation that has others, or removed while others stay, is
// named as for any operation (judge.scope).
func (j judge) outboundChange(c Change, d versions.Direction, p pairing) (Change, bool) {
	added := p.Kind == Added && !p.existing && c.ID == endpointAdded
	removed := p.Kind == Removed && p.remains == nothing && strings.HasPrefix(c.ID, "api-path-removed-")
	id := ""
	switch {
	case d == versions.Webhook && added:
		id = checker.WebhookAddedId
	case d == versions.Webhook && removed:
		id = checker.WebhookRemovedId
	case d == versions.Callback && added:
		c.Message = "callback added"
		return c, true
	case d == versions.Callback && removed:
		c.Message = "callback removed"
		return c, true
	default:
		c.Message = outboundMessage(c.Message, d)
		return c, true
	}
	level := j.level(id)
	c.ID, c.Level, c.Message = id, LevelOf(level), j.localize(id, "'"+webhookOf(c.Operation)+"'")
	return c, level != checker.NONE
}

// webhookOf is the webhook's name in an operation name "METHOD webhook:NAME".
func webhookOf(operation string) string {
	_, path, _ := strings.Cut(operation, " ")
	return strings.TrimPrefix(path, versions.WebhookPrefix)
}

// PayloadBodyBecameOptional is apiver's change of a webhook's or a
// callback's payload that the API may now send without a body: a
// consumer that reads the body then gets none. (The payload is judged as a
// response, which has no optional body, so no check of oasdiff sees it.)
const PayloadBodyBecameOptional = "payload-body-became-optional"

// payloadChanges are the changes of an outbound pair's payload that its
// turned diff cannot show: its body made optional.
func (j judge) payloadChanges(p pairing) []Change {
	d := p.direction()
	if !d.Outbound() || p.base == nil || p.revision == nil || !bodyRequired(p.base.op) || bodyRequired(p.revision.op) || p.revision.op.RequestBody == nil {
		return nil
	}
	level := j.level(PayloadBodyBecameOptional)
	if level == checker.NONE {
		return nil
	}
	c := Change{Operation: p.Operation, Version: p.Version, ID: PayloadBodyBecameOptional, Level: LevelOf(level), Message: j.localize(PayloadBodyBecameOptional, outboundName(d))}
	body := p.revision.op.RequestBody
	var at *openapi3.Location
	if body.Value != nil {
		at = fieldLocation(body.Value.Origin, "required")
	}
	if at == nil {
		at = fieldLocation(body.Origin, "")
	}
	if at != nil && at.Line > 0 {
		c.Location = &Location{File: p.revision.file, Line: at.Line, Column: at.Column, Ref: j.revisionRef}
	}
	return []Change{c}
}

func outboundName(d versions.Direction) string {
	if d == versions.Webhook {
		return "webhook"
	}
	return "callback"
}

func bodyRequired(op *openapi3.Operation) bool {
	return op.RequestBody != nil && op.RequestBody.Value != nil && op.RequestBody.Value.Required
}
