package prune

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// Skeleton is an unchanged operation that a reduced text leaves out and
// the caller puts back into the loaded document: its skeleton read from
// the tree as the loader would read it from the text, origins and all
// that the version model reads of them, so that kin-openapi loads only
// what may have changed.
type Skeleton struct {
	// Path is the path as written; Method as kin-openapi's PathItem names
	// it (GET).
	Path, Method string
	Op           *openapi3.Operation
}

// builtMethods are the methods whose skeletons are built: those every
// OpenAPI 3 version has.
var builtMethods = map[string]string{"get": "GET", "put": "PUT", "post": "POST", "delete": "DELETE", "options": "OPTIONS", "head": "HEAD", "patch": "PATCH", "trace": "TRACE"}

// builds reports whether the skeleton of d's pruned operation u, without
// the entries of skipped, can be built from the tree. It must hold only
// what the reading below reproduces: no anchor or alias, no $ref left once
// its schemas are {} (the loader would resolve it), no entry but its
// request body, responses, deprecated and x- marks (parameters and
// callbacks stay in the text, which the loader checks and resolves), and
// the document is YAML (JSON is read without origins).
func (d *Doc) builds(u *unit, skipped map[string]bool) bool {
	if d.json || !u.removable || u.key == nil || builtMethods[u.key.Value] == "" || !plainMapping(u.value) || hasAlias(u.value) {
		return false
	}
	for i := 0; i+1 < len(u.value.Content); i += 2 {
		k := u.value.Content[i]
		switch {
		case skipped[k.Value] || k.Value == "requestBody" || k.Value == "responses" || k.Value == "deprecated" || strings.HasPrefix(k.Value, "x-"):
		default:
			return false
		}
	}
	removed, blank := d.skeletonCuts(u, skipped)
	return !refLeft(u.value, removed, blank)
}

// skeletonCuts are the keys of the entries u's skeleton leaves out and
// the schema positions it writes as {}.
func (d *Doc) skeletonCuts(u *unit, skipped map[string]bool) (removed, blank map[*yaml.Node]bool) {
	removed, blank = map[*yaml.Node]bool{}, make(map[*yaml.Node]bool, len(u.schemas))
	for _, e := range u.skip {
		if skipped[e.name] {
			removed[e.k] = true
		}
	}
	for _, c := range u.schemas {
		blank[c.n] = true
	}
	return removed, blank
}

// refLeft reports whether n holds a $ref outside the entries removed and
// the positions blanked.
func refLeft(n *yaml.Node, removed, blank map[*yaml.Node]bool) bool {
	if blank[n] {
		return false
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if removed[n.Content[i]] {
				continue
			}
			if n.Content[i].Value == "$ref" || refLeft(n.Content[i+1], removed, blank) {
				return true
			}
		}
		return false
	}
	for _, c := range n.Content {
		if refLeft(c, removed, blank) {
			return true
		}
	}
	return false
}

// skeleton reads the skeleton of d's operation u as the loader reads the
// reduced text: the JSON the loader's YAML reading makes of it,
// unmarshalled into kin-openapi's types, with the origins of the nodes
// the version model and the rules read (where the operation, its fields,
// request body, responses and media types are), in file.
func (d *Doc) skeleton(u *unit, skipped map[string]bool, emptied map[*yaml.Node]bool, file string, reads *readings) (*openapi3.Operation, error) {
	removed, blank := d.skeletonCuts(u, skipped)
	c := &loaderJSON{remove: removed, emptied: emptied, blank: blank}
	if !c.value(u.value) {
		return nil, fmt.Errorf("the skeleton of %s at line %d is not read as JSON", u.key.Value, u.key.Line)
	}
	op, err := reads.operation(c.buf)
	if err != nil {
		return nil, err
	}
	o := origins{file: file, removed: removed}
	op.Origin = o.of(u.key, u.value)
	if n := mapValue(u.value, "requestBody"); n != nil && op.RequestBody != nil && op.RequestBody.Value != nil && !removed[keyOf(u.value, "requestBody")] {
		origin := o.of(keyOf(u.value, "requestBody"), n)
		op.RequestBody.Origin, op.RequestBody.Value.Origin = origin, origin
		o.content(op.RequestBody.Value.Content, n)
	}
	if n := mapValue(u.value, "responses"); n != nil && op.Responses != nil {
		op.Responses.Origin = o.of(keyOf(u.value, "responses"), n)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			key, _ := loaderKey(k)
			ref := op.Responses.Value(key)
			if removed[k] || ref == nil || ref.Value == nil {
				continue
			}
			origin := o.of(k, v)
			ref.Origin, ref.Value.Origin = origin, origin
			o.content(ref.Value.Content, v)
		}
	}
	return op, nil
}

// origins writes kin-openapi's origins from the tree: a node's Key is
// where its key is, its Fields where each of its keys is.
type origins struct {
	file    string
	removed map[*yaml.Node]bool
}

func (o origins) location(k *yaml.Node) *openapi3.Location {
	return &openapi3.Location{File: o.file, Line: k.Line, Column: k.Column, Name: k.Value}
}

func (o origins) of(k, v *yaml.Node) *openapi3.Origin {
	origin := &openapi3.Origin{Key: o.location(k)}
	for i := 0; i+1 < len(v.Content); i += 2 {
		if f := v.Content[i]; !o.removed[f] {
			origin.Fields = append(origin.Fields, *o.location(f))
		}
	}
	return origin
}

// content gives the media types of content the origins of those of n.
func (o origins) content(content openapi3.Content, n *yaml.Node) {
	node := mapValue(n, "content")
	if node == nil || node.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		k, v := node.Content[i], node.Content[i+1]
		key, _ := loaderKey(k)
		if mt := content[key]; mt != nil && v.Kind == yaml.MappingNode {
			mt.Origin = o.of(k, v)
		}
	}
}

// keyOf is the key node of an entry of a mapping, nil when it has none.
func keyOf(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}
