package diff

import (
	"regexp"
	"strings"
)

// RootMessage is a change's message without the parts that depend on how
// an operation reaches the changed node, so that one edit of a shared
// schema reads alike in every operation, version and oneOf branch that
// reaches it: a property path keeps only its last property
// (`results/items/oneOf[subschema #2: AZURE]/azureDirectoryId` is
// `azureDirectoryId`), the response status, the media type it was seen
// through, a version's media type date and
// oasdiff's list of the other properties that share the schema go.
// Two changes with the same root message at the same place of the same
// file are one edit.
func RootMessage(message string) string {
	return rootMessage(message, lastProperty)
}

// RootKey is RootMessage as a key that changes of one edit share: a
// webhook's or a callback's change worded as oasdiff words it for an
// operation (inboundWording), so that one edit of a schema that paths,
// callbacks and webhooks share is one. A key, not a statement: a webhook's
// change is no response's.
func RootKey(message string) string {
	return RootMessage(inboundWording(message))
}

// MessageShape is RootKey with the last property taken out too: a schema
// shared through components is reached through properties of other names
// (`role` in one operation, `roleName` in another), so one edit at one
// place can read differently by its property name alone.
func MessageShape(message string) string {
	return rootMessage(inboundWording(message), func(string) string { return "…" })
}

func rootMessage(message string, property func(path string) string) string {
	message = sharedDetail.ReplaceAllString(message, "")
	message = statusPart.ReplaceAllString(message, "")
	message = mediaTypePart.ReplaceAllString(message, "")
	message = versionedMediaType.ReplaceAllString(message, "$1")
	var b strings.Builder
	last := 0
	for _, m := range quoted.FindAllStringIndex(message, -1) {
		inner := message[m[0]+1 : m[1]-1]
		if !namesProperty(message[:m[0]], message[m[1]:]) || !pathChars.MatchString(brackets.ReplaceAllString(inner, "")) {
			continue
		}
		b.WriteString(message[last:m[0]])
		b.WriteString("`" + property(inner) + "`")
		last = m[1]
	}
	b.WriteString(message[last:])
	return b.String()
}

// inboundWording words a webhook's or a callback's change as oasdiff words
// the same change of an operation (outboundMessage, undone): one edit of a
// schema that paths, callbacks and webhooks share reads alike in all of
// them. Quoted names and values stay as they are.
func inboundWording(message string) string {
	if !strings.Contains(message, " payload") && !strings.Contains(message, "consumer's response") {
		return message
	}
	var b strings.Builder
	last := 0
	for _, m := range quoted.FindAllStringIndex(message, -1) {
		b.WriteString(outboundTerms.Replace(message[last:m[0]]))
		b.WriteString(message[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(outboundTerms.Replace(message[last:]))
	return b.String()
}

var outboundTerms = strings.NewReplacer("webhook payload", "response", "callback payload", "response", "consumer's response", "request")

// WithoutElsewhere drops from a message oasdiff's list of the other paths
// at which an operation reaches the changed shared schema, keeping the
// schema's name: " (shared schema: `S`, also at `a`, `b` and 11 more)"
// reads " (shared schema: `S`)". The list differs between sibling schemas
// changed alike, and says nothing of the change itself.
func WithoutElsewhere(message string) string {
	loc := sharedDetail.FindStringIndex(message)
	if loc == nil {
		return message
	}
	m := sharedName.FindStringSubmatch(message[loc[0]:])
	if m == nil {
		return message[:loc[0]]
	}
	return message[:loc[0]] + " (" + m[1] + ")"
}

// namesProperty tells whether a quoted value between before and after is a
// property's name in oasdiff's wording: "the request property `x`", "the
// `x` response property", "the `x` response's property".
func namesProperty(before, after string) bool {
	return strings.HasSuffix(before, "property ") ||
		strings.HasPrefix(after, " request property") || strings.HasPrefix(after, " response property") ||
		strings.HasPrefix(after, " response's property") || strings.HasPrefix(after, " property")
}

var (
	// sharedDetail is oasdiff's " (shared schema: X, also at a, b and 3 more)".
	sharedDetail = regexp.MustCompile(` \((?:shared schema: |also at )[^\n]*\)$`)
	sharedName   = regexp.MustCompile("^ \\((shared schema: `[^`]*`)")
	// statusPart is " for the response status `200`", " for the status
	// `201`" or " for status `200`".
	statusPart = regexp.MustCompile(" for (?:the )?(?:response )?status `[^`]*`")
	// mediaTypePart is oasdiff's " (media type: application/vnd.x+csv)" on a
	// change seen through a media type other than the first: one edit of a
	// schema that +json and +csv share.
	mediaTypePart      = regexp.MustCompile(` \(media type: [^()\s]*\)`)
	versionedMediaType = regexp.MustCompile(`(application/vnd\.[a-z0-9][a-z0-9-]*)\.\d{4}-\d{2}-\d{2}(?:\.upcoming)?`)
	quoted             = regexp.MustCompile("`[^`]*`")
	brackets           = regexp.MustCompile(`\[[^\]]*\]`)
	// pathChars are those of a property path once its oneOf[...] branches
	// are taken out.
	pathChars = regexp.MustCompile(`^[\w.\-$@{}#/]*$`)
)

// lastProperty is the last step of a property path that names a
// property: not "items", not a oneOf/anyOf/allOf branch, not empty.
func lastProperty(path string) string {
	_, name := splitProperty(path)
	return name
}
