package prune

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"github.com/apiver/apiver/internal/jsonscan"
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
	// parent, for a fork, is what it knows besides its own (Fork).
	parent *Validator
}

type validated struct {
	s    *shape
	hash hashValue
	json bool
}

// NewValidator returns a Validator with nothing read yet.
func NewValidator() *Validator { return &Validator{seen: map[validated]bool{}} }

// Fork is a Validator that knows what v has read, and keeps what it reads
// or is told (Loads) apart from v until Commit: what a load that gives up
// was told must not count for another.
func (v *Validator) Fork() *Validator { return &Validator{seen: map[validated]bool{}, parent: v} }

// Commit adds what the fork read, and was told, to its parent.
func (v *Validator) Commit() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.parent.mu.Lock()
	defer v.parent.mu.Unlock()
	for key := range v.seen {
		v.parent.seen[key] = true
	}
}

// has reports whether v, or what it was forked from, has read key.
func (v *Validator) has(key validated) bool {
	for ; v != nil; v = v.parent {
		v.mu.Lock()
		done := v.seen[key]
		v.mu.Unlock()
		if done {
			return true
		}
	}
	return false
}

// targets are the loader's types for the places a reduction cuts.
var targets = map[*shape]func() any{
	schemaShape:    func() any { return new([]*openapi3.SchemaRef) },
	boolSchema:     func() any { return new([]openapi3.BoolSchema) },
	parameterShape: func() any { return new([]*openapi3.ParameterRef) },
	headerShape:    func() any { return new([]*openapi3.HeaderRef) },
	requestBody:    func() any { return new([]*openapi3.RequestBodyRef) },
	responseShape:  func() any { return new([]*openapi3.ResponseRef) },
	securityScheme: func() any { return new([]*openapi3.SecuritySchemeRef) },
	exampleShape:   func() any { return new([]*openapi3.ExampleRef) },
	linkShape:      func() any { return new([]*openapi3.LinkRef) },
	callbackShape:  func() any { return new([]*openapi3.CallbackRef) },
	operationShape: func() any { return new([]*openapi3.Operation) },
}

// part is one cut to read: a node of a document, with its shape.
type part struct {
	key validated
	n   *yaml.Node
}

// check reads the cuts of the plans, each plan with its document, that are
// not read yet, each value once, on two cores; an error says the loader
// would refuse one.
func (v *Validator) check(docs []*Doc, plans []plan) error {
	var parts []part
	local := map[validated]bool{}
	// The schemas inside a part are read as parts of their own, each value
	// once, and written as {} where the part is read: what a part reads
	// fails or not as its own fields and each schema in it do, so a deep
	// schema is not read again at every level above it, as the loader's
	// unmarshalling does. A JSON document's parts are read whole.
	blank := map[*yaml.Node]bool{}
	// A description or example the diff does not compare reads as ""
	// does: a string where the loader reads a string, and any value where
	// it reads any (Doc.ignoredValue).
	emptied := map[*yaml.Node]bool{}
	// take adds a part not read yet with the schemas inside it; inner
	// gives those, of a YAML document (Doc.hashSeeing).
	take := func(d *Doc, s *shape, n *yaml.Node, h hashValue, inner func() []part) {
		key := validated{s, h, d.json}
		if v.has(key) || local[key] {
			return
		}
		local[key] = true
		parts = append(parts, part{key, n})
		if d.json {
			return
		}
		for _, p := range inner() {
			blank[p.n] = true
			if !v.has(p.key) && !local[p.key] {
				local[p.key] = true
				parts = append(parts, p)
			}
		}
	}
	seeing := func(d *Doc, s *shape, n *yaml.Node) func() []part {
		return func() []part {
			var inner []part
			d.hashSeeing(n, s, d.seeInner(&inner))
			return inner
		}
	}
	for i, d := range docs {
		if !d.json {
			for _, n := range d.emptied {
				emptied[n] = true
			}
		}
		for _, c := range plans[i].replace {
			take(d, c.s, c.n, d.hash(c.n, c.s), seeing(d, c.s, c.n))
		}
		for _, u := range plans[i].remove {
			take(d, u.shape, u.value, u.hash, func() []part { return u.inner })
		}
		// An entry left out of an operation is read as an operation that
		// has only it; a response, as one that has only it of its
		// responses.
		for _, e := range plans[i].skip {
			n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{e.k, e.v}}
			var h hashValue
			if e.outer == nil {
				h = hashOf(yaml.MappingNode, "!!map", "", []hashValue{d.hash(e.k, data), d.hash(e.v, operationShape.child(e.k.Value))})
			} else {
				h = hashOf(yaml.MappingNode, "!!map", "", []hashValue{d.hash(e.k, data), d.hash(e.v, responsesShape.child(e.k.Value))})
				n = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{e.outer, n}}
				h = hashOf(yaml.MappingNode, "!!map", "", []hashValue{d.hash(e.outer, data), h})
			}
			take(d, operationShape, n, h, seeing(d, operationShape, n))
		}
	}
	var halves [2][]part
	for i, p := range parts {
		halves[i%2] = append(halves[i%2], p)
	}
	var errs [2]error
	var wg sync.WaitGroup
	for i := range halves {
		wg.Go(func() { errs[i] = read(halves[i], blank, emptied) })
	}
	wg.Wait()
	if err := cmp.Or(errs[0], errs[1]); err != nil {
		return err
	}
	// Only what loaded is remembered: a document with a part that does not
	// load reads it itself, and fails.
	v.mu.Lock()
	for _, p := range parts {
		v.seen[p.key] = true
	}
	v.mu.Unlock()
	return nil
}

// read unmarshals parts as the loader would, in one list per shape and
// source format, the nodes of blank that parts hold written as {}, and
// those of emptied as "".
func read(parts []part, blank, emptied map[*yaml.Node]bool) error {
	type group struct {
		s    *shape
		json bool
	}
	byGroup := map[group][]*yaml.Node{}
	var order []group
	for _, p := range parts {
		g := group{p.key.s, p.key.json}
		if byGroup[g] == nil {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], p.n)
	}
	for _, g := range order {
		nodes := byGroup[g]
		if !g.json {
			// What the loader's reading converts as loaderJSON does is read
			// as that JSON; the rest, and a list that fails (for the
			// loader's own message), the loader's way.
			var err error
			if nodes, err = readConverted(nodes, g.s, blank, emptied); err != nil {
				nodes = byGroup[g]
			}
			if len(nodes) == 0 {
				continue
			}
		}
		list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: nodes}
		var err error
		if g.json {
			w := &writer{json: true, expand: true, line: math.MaxInt}
			w.node(list)
			err = readJSON(w.buf.Bytes(), targets[g.s])
		} else {
			err = loaderReadsBoth(list, targets[g.s])
		}
		if err != nil {
			return fmt.Errorf("a %s that is cut does not load: %w", g.s.name, err)
		}
	}
	return nil
}

// A part is read alone, but the loader reads it inside the document: as
// it is (a component), or, below the map-like types (paths, responses,
// callbacks), after reading it into Go values and writing it again, which
// rounds integers past 2^53 to float64 (and an unsigned maximum past it).
// A part is read both ways, and must pass both: no part passes that the
// loader refuses where it sits.

// readJSON unmarshals the JSON text into a value of target both ways.
// Numbers of 15 digits or fewer do not change on the way back, so only a
// text with a longer one is read the second way.
func readJSON(text []byte, target func() any) error {
	if err := json.Unmarshal(text, target()); err != nil || !longDigits(text) {
		return err
	}
	var values any
	if err := json.Unmarshal(text, &values); err != nil {
		return err
	}
	return writtenBack(values, target)
}

// writtenBack unmarshals into a value of target the JSON of values, as a
// map-like type reads what it holds.
func writtenBack(values any, target func() any) error {
	again, err := json.Marshal(values)
	if err != nil {
		return err
	}
	return json.Unmarshal(again, target())
}

// longDigits reports whether the JSON text has a number of more than 15
// digits: a run of digits outside its strings.
func longDigits(text []byte) bool {
	run, long := 0, false
	jsonscan.Outside(text, func(b byte) {
		if b < '0' || b > '9' {
			run = 0
		} else if run++; run > 15 {
			long = true
		}
	})
	return long
}

// loaderReadsBoth is loaderReads both ways.
func loaderReadsBoth(n *yaml.Node, target func() any) error {
	if err := loaderReads(n, target()); err != nil {
		return err
	}
	var values any
	if err := loaderReads(n, &values); err != nil {
		return err
	}
	return writtenBack(values, target)
}

// loaderReads unmarshals the YAML tree n into target as the loader reads
// a YAML text: written as text, and read by the loader's YAML reading.
func loaderReads(n *yaml.Node, target any) error {
	w := &writer{expand: true, line: math.MaxInt}
	w.node(n)
	_, err := oasyaml.Unmarshal(w.buf.Bytes(), target, oasyaml.DecodeOpts{DisableTimestamps: true})
	return err
}

// readConverted unmarshals into shape s's target, as one list, the JSON
// that the loader's reading makes of each of nodes (loaderJSON), the nodes
// of blank they hold written as {} and those of emptied as "", but for
// what a rule accepts, and returns the nodes whose JSON that cannot tell.
func readConverted(nodes []*yaml.Node, s *shape, blank, emptied map[*yaml.Node]bool) (rest []*yaml.Node, err error) {
	c := &loaderJSON{buf: []byte{'['}, blank: blank, emptied: emptied}
	for _, n := range nodes {
		c.top = n
		mark := len(c.buf)
		if mark > 1 {
			c.buf = append(c.buf, ',')
		}
		start := len(c.buf)
		if !c.value(n) {
			rest = append(rest, n)
			c.buf = c.buf[:mark]
		} else if accepts(s, c.buf[start:]) {
			c.buf = c.buf[:mark]
		}
	}
	c.buf = append(c.buf, ']')
	if len(c.buf) == 2 {
		return rest, nil
	}
	return rest, readJSON(c.buf, targets[s])
}

// CheckAll reads all of d as the loader reads the whole document: each
// operation and component as a part (a value read already, in d or in
// another document, is not read again), and what lies around them at
// once. It is for a document nothing loads, whose operations are read
// from another where they read the same: an error says the loader would
// refuse it, and it must be loaded whole, to report it.
func (v *Validator) CheckAll(d *Doc) error {
	var parts, around plan
	for _, units := range []map[string]*unit{d.ops, d.comps} {
		for _, name := range sortedKeys(units) {
			u := units[name]
			parts.remove = append(parts.remove, u)
			if u.removable {
				around.remove = append(around.remove, u)
			}
		}
	}
	if err := v.check([]*Doc{d}, []plan{parts}); err != nil {
		return err
	}
	if !d.json && aroundConverted(d, around) {
		return nil
	}
	text := d.text(around)
	var err error
	if d.json {
		err = json.Unmarshal(text, new(openapi3.T))
	} else {
		_, err = oasyaml.Unmarshal(text, new(openapi3.T), oasyaml.DecodeOpts{DisableTimestamps: true})
	}
	if err != nil {
		return fmt.Errorf("the document without its operations and components does not load: %w", err)
	}
	return nil
}

// aroundConverted reports whether the YAML document d without the units of
// around, its descriptions and examples emptied (as Doc.text writes it),
// reads as the loader's JSON of it (loaderJSON) into the loader's type.
// False says nothing: the text is then read the loader's way.
func aroundConverted(d *Doc, around plan) bool {
	c := &loaderJSON{remove: map[*yaml.Node]bool{}, emptied: d.emptiedSet()}
	for _, u := range around.remove {
		c.remove[u.key] = true
	}
	return c.value(d.root) && json.Unmarshal(c.buf, new(openapi3.T)) == nil
}

// emptiedSet holds the values d's texts write as "" (Doc.emptied).
func (d *Doc) emptiedSet() map[*yaml.Node]bool {
	set := make(map[*yaml.Node]bool, len(d.emptied))
	for _, n := range d.emptied {
		set[n] = true
	}
	return set
}

// Loads records that d is loaded: each of its parts is in a text the
// loader reads, or was cut from it and read by v (Reduction.Texts, called
// before), so a document holding the same parts need not read them again.
// A load of that text that fails must make its comparisons load whole.
func (v *Validator) Loads(d *Doc) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, units := range []map[string]*unit{d.ops, d.comps} {
		for _, u := range units {
			v.seen[validated{u.shape, u.hash, d.json}] = true
		}
	}
}
