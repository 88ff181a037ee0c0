package specs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apiver/apiver/versions"
	"go.yaml.in/yaml/v3"
)

// httpMethods are the keys of a path item that hold operations.
var httpMethods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true}

// checkSunsets finds the first x-sunset, of an operation or of a media
// type object (in a request body or a response, inline or among the
// components), that is not exactly a date or an RFC 3339 date-time: read
// loosely, "2026-03-01 and more" would pass as a date. It returns its line
// and what is wrong, "" when nothing is.
func checkSunsets(root *yaml.Node) (line int, msg string) {
	var found *yaml.Node
	check := func(m *yaml.Node) {
		if found != nil {
			return
		}
		if v := field(m, "x-sunset"); v != nil && !validSunset(v) {
			found = v
		}
	}
	eachOperationPart(root, check)
	components := field(root, "components")
	eachValue(field(components, "requestBodies"), func(_ string, b *yaml.Node) { eachMediaTypeNode(b, check) })
	eachValue(field(components, "responses"), func(_ string, r *yaml.Node) { eachMediaTypeNode(r, check) })
	if found == nil {
		return 0, ""
	}
	return found.Line, fmt.Sprintf("x-sunset %s is not a date: want YYYY-MM-DD or an RFC 3339 date-time", shownValue(found))
}

func validSunset(v *yaml.Node) bool {
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!timestamp") {
		return false
	}
	_, ok := versions.ParseSunset(v.Value)
	return ok
}

// shownValue is a value as an error shows it: a scalar quoted (its line
// breaks escaped, so the error stays one line), else its kind.
func shownValue(v *yaml.Node) string {
	switch {
	case v.Kind == yaml.MappingNode:
		return "(a mapping)"
	case v.Kind == yaml.SequenceNode:
		return "(a list)"
	case v.Tag == "!!null":
		return "null"
	}
	return strconv.Quote(v.Value)
}

// deref is the node an alias names.
func deref(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode {
		return n.Alias
	}
	return n
}

// field is the value of key in mapping m, nil when m is not a mapping or
// has no such key.
func field(m *yaml.Node, key string) *yaml.Node {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return deref(m.Content[i+1])
		}
	}
	return nil
}

// eachValue calls fn with each key and mapping value of mapping m.
func eachValue(m *yaml.Node, fn func(key string, v *yaml.Node)) {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if v := deref(m.Content[i+1]); v != nil && v.Kind == yaml.MappingNode {
			fn(m.Content[i].Value, v)
		}
	}
}

// eachOperationPart calls fn with every operation under paths and each
// media type object of its request body and responses: where a version's
// lifecycle (x-sunset, stability) is written.
func eachOperationPart(root *yaml.Node, fn func(*yaml.Node)) {
	eachValue(field(root, "paths"), func(_ string, item *yaml.Node) {
		eachValue(item, func(method string, op *yaml.Node) {
			if !httpMethods[strings.ToLower(method)] {
				return
			}
			fn(op)
			eachMediaTypeNode(field(op, "requestBody"), fn)
			eachValue(field(op, "responses"), func(_ string, r *yaml.Node) { eachMediaTypeNode(r, fn) })
		})
	})
}

// eachMediaTypeNode calls fn with each media type object of a request body's or
// response's content.
func eachMediaTypeNode(holder *yaml.Node, fn func(*yaml.Node)) {
	eachValue(field(holder, "content"), func(_ string, mt *yaml.Node) { fn(mt) })
}
