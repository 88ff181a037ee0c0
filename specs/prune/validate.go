package prune

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	oasyaml "github.com/oasdiff/yaml"
	"go.yaml.in/yaml/v3"
)

// Validator reads what a reduction cuts as the loader reads the whole
// document (the same YAML-to-JSON conversion, the same unmarshalling into
// kin-openapi's types), so that a cut part the loader would refuse makes
// the document load whole, and the whole load report it. Parts equal in
// value are read once: the units cut in one document of a pair are equal
// to those cut in the other, and a history's neighbours share most of
// theirs.
type Validator struct {
	mu   sync.Mutex
	seen map[validated]bool
}

type validated struct {
	s    *shape
	hash hashValue
	json bool
}

// NewValidator returns a Validator with nothing read yet.
func NewValidator() *Validator { return &Validator{seen: map[validated]bool{}} }

// targets are the loader's types for the places a reduction cuts.
var targets = map[*shape]func() any{
	schemaShape:    func() any { return new([]*openapi3.SchemaRef) },
	parameterShape: func() any { return new([]*openapi3.ParameterRef) },
	headerShape:    func() any { return new([]*openapi3.HeaderRef) },
	requestBody:    func() any { return new([]*openapi3.RequestBodyRef) },
	responseShape:  func() any { return new([]*openapi3.ResponseRef) },
	securityScheme: func() any { return new([]*openapi3.SecuritySchemeRef) },
	exampleShape:   func() any { return new([]*openapi3.ExampleRef) },
	linkShape:      func() any { return new([]*openapi3.LinkRef) },
	callbackShape:  func() any { return new([]*openapi3.CallbackRef) },
}

// check reads the cuts of p in d that are not read yet; an error says the
// loader would refuse one.
func (v *Validator) check(d *Doc, p plan) error {
	byShape := map[*shape][]*yaml.Node{}
	var order []*shape
	var read []validated
	local := map[validated]bool{}
	take := func(s *shape, n *yaml.Node, h hashValue) {
		key := validated{s, h, d.json}
		v.mu.Lock()
		done := v.seen[key]
		v.mu.Unlock()
		if done || local[key] {
			return
		}
		local[key] = true
		read = append(read, key)
		if byShape[s] == nil {
			order = append(order, s)
		}
		byShape[s] = append(byShape[s], n)
	}
	for _, c := range p.replace {
		take(c.s, c.n, d.hash(c.n, c.s))
	}
	for _, u := range p.remove {
		take(u.shape, u.value, u.hash)
	}
	for _, s := range order {
		nodes := byShape[s]
		list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: nodes}
		w := &writer{json: d.json, expand: true, line: math.MaxInt}
		w.node(list)
		target := targets[s]()
		var err error
		if d.json {
			err = json.Unmarshal(w.buf.Bytes(), target)
		} else {
			_, err = oasyaml.Unmarshal(w.buf.Bytes(), target, oasyaml.DecodeOpts{DisableTimestamps: true})
		}
		if err != nil {
			return fmt.Errorf("a %s that is cut does not load: %w", s.name, err)
		}
	}
	// Only what loaded is remembered: a document with a part that does not
	// load reads it itself, and fails.
	v.mu.Lock()
	for _, key := range read {
		v.seen[key] = true
	}
	v.mu.Unlock()
	return nil
}
