package prune

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/apiver/apiver/versions"
	"go.yaml.in/yaml/v3"
)

// Doc is one document indexed for reduction.
type Doc struct {
	root *yaml.Node
	// json: the text was JSON, which kin-openapi reads without origins; its
	// reduced text is JSON too.
	json bool
	// Why is set when the document is not reduced: it is loaded whole.
	Why string
	// outbound says a mapping of the document has a callbacks or webhooks
	// key: it may hold operations outside its paths.
	outbound bool
	// openapi31: $ref siblings are schemas to kin-openapi.
	global hashValue
	ops    map[string]*unit // "method path", as written
	items  map[string]*pathItem
	comps  map[string]*unit // "kind/name"
	// roots are the components named where nothing is cut: outside paths
	// and components, and inside anchored nodes, which are always kept.
	roots []string
	// emptied are the descriptions and examples the diff does not compare.
	emptied []*yaml.Node

	hashes  map[hashKey]hashValue
	refMemo map[*yaml.Node][]string
}

type hashKey struct {
	n *yaml.Node
	s *shape
}

// unit is an operation, the shared part of a path item, a component or a
// media type: what is kept or cut as one.
type unit struct {
	hash hashValue
	// refs are the components the unit names (through aliases too);
	// skelRefs those its skeleton still names.
	refs, skelRefs []string
	// schemas are the outermost schema positions a skeleton replaces by
	// {}, with their shapes. keepsSchemas says some cannot be replaced (an
	// anchored node, or one reached through an alias, keeps all it holds):
	// the unit is then kept whole in both documents, or the two would
	// compare a schema with {}.
	schemas      []cut
	keepsSchemas bool
	// key and value of a component's or an operation's entry (the key of
	// an operation is its method); removable says the entry can be left
	// out.
	key, value *yaml.Node
	shape      *shape
	removable  bool
	// media are an operation's inline media types, keyed by where they
	// are; bodyRefs the response and request body components it names.
	media    map[string]*unit
	mediaOK  bool
	bodyRefs []string
	// outerRefs are an operation's refs outside its media types' schemas.
	outerRefs []string
	// shared is the path item an operation belongs to.
	shared *unit
	// skip are the entries of an operation that its skeleton may leave
	// out: what no reader of an unchanged operation needs (its versions are
	// read from the media types of its request body and responses that
	// name one); params its parameter list, left out too unless it may name
	// one parameter twice, with the components it names. payloads are its
	// request body and responses, left out where they name no version
	// (Doc.skipPayloads).
	skip       []entry
	params     [2]*yaml.Node
	paramsRefs []string
	payloads   []entry
	// inner are, for an operation or a component of a YAML document, the
	// schemas below it that the validator reads alone (Doc.hashSeeing).
	inner []part
}

// seeInner is what hashSeeing is told of inner schemas to note in list:
// nothing, for a JSON document, whose parts are read whole.
func (d *Doc) seeInner(list *[]part) func(*yaml.Node, hashValue) {
	if d.json {
		return nil
	}
	return func(n *yaml.Node, h hashValue) { *list = append(*list, part{validated{schemaShape, h, false}, n}) }
}

// entry is a part of an operation that its skeleton may leave out.
type entry struct {
	// name tells entries apart across documents: the operation's key, or
	// "responses\x00" and the status of a response.
	name string
	// outer is, for a response, the key of the operation's responses.
	outer, k, v *yaml.Node
	// skelRefs are the components the entry's skeleton names, which the
	// skeleton needs where it keeps the entry.
	skelRefs []string
	// schemas are the entry's schema positions, as a range of its
	// operation's.
	schemas [2]int
}

// cut is a node the reduction replaces or leaves out, with its shape.
type cut struct {
	n *yaml.Node
	s *shape
}

// pathItem is what a path item holds besides its operations: it belongs to
// each of them.
type pathItem struct {
	ops    []string
	shared *unit
}

// Index indexes a parsed document. json says the text was JSON.
func Index(root *yaml.Node, json bool) *Doc {
	d := &Doc{root: root, json: json, ops: map[string]*unit{}, items: map[string]*pathItem{}, comps: map[string]*unit{},
		hashes: map[hashKey]hashValue{}, refMemo: map[*yaml.Node][]string{}}
	if root == nil || root.Kind != yaml.MappingNode {
		d.Why = "not a mapping at the top"
		return d
	}
	if why := d.check(root); why != "" {
		d.Why = why
		return d
	}
	if line, unsafe := jsonUnsafe(root); json && unsafe {
		d.Why = fmt.Sprintf("a string with a character JSON cannot escape as YAML reads it (line %d)", line)
		return d
	}
	d.index()
	if d.Why == "" {
		d.Why = d.checkRefs()
	}
	if d.Why == "" {
		d.skipParameters()
		d.skipPayloads()
	}
	return d
}

// check finds what makes a document one this package does not reduce:
// constructs whose parsed value this package would have to interpret
// itself (explicit tags, keys that are not scalars, duplicate keys, which
// the loader refuses).
func (d *Doc) check(root *yaml.Node) string {
	why := ""
	// The parser's nodes form a tree (an alias is a node of its own), so
	// each is walked once.
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if why != "" {
			return
		}
		if n.Style&yaml.TaggedStyle != 0 {
			why = fmt.Sprintf("an explicit YAML tag (line %d)", n.Line)
			return
		}
		if n.Kind == yaml.MappingNode {
			// Most mappings have a few keys: compared with those before
			// them, until there are enough for a map to be cheaper.
			var keys map[string]bool
			if len(n.Content) > 32 {
				keys = make(map[string]bool, len(n.Content)/2)
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				switch {
				case k.Kind != yaml.ScalarNode:
					why = fmt.Sprintf("a mapping key that is not a scalar (line %d)", k.Line)
				case keys == nil && keyBefore(n, i) || keys[k.Value]:
					why = fmt.Sprintf("a duplicate key %q (line %d)", k.Value, k.Line)
				case len(k.Value) > 512:
					why = fmt.Sprintf("a key of more than 512 bytes (line %d)", k.Line)
				}
				if why != "" {
					return
				}
				if keys != nil {
					keys[k.Value] = true
				}
				if k.Value == "callbacks" || k.Value == "webhooks" {
					d.outbound = true
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	return why
}

// keyBefore reports whether the key at i of mapping n is a key before it.
func keyBefore(n *yaml.Node, i int) bool {
	for j := 0; j < i; j += 2 {
		if n.Content[j].Value == n.Content[i].Value {
			return true
		}
	}
	return false
}

// indexer walks the document once, building its units.
type indexer struct {
	d *Doc
	// unit is the unit being walked, nil outside paths and components.
	unit *unit
	// media is the media type being walked inside an operation.
	media *unit
	// skipped collects the components named in an entry an operation's
	// skeleton leaves out, apart from its skelRefs; nil outside one.
	skipped *[]string
}

func (d *Doc) index() {
	ix := &indexer{d: d}
	var global []hashValue
	for i := 0; i+1 < len(d.root.Content); i += 2 {
		k, v := d.root.Content[i], d.root.Content[i+1]
		s := documentShape.child(k.Value)
		switch k.Value {
		case "paths":
			ix.paths(v)
		case "components":
			ix.components(v, &global)
		case "openapi", "jsonSchemaDialect", "security", "servers",
			// The stability every operation that declares none takes, and
			// the document's lifecycle; a merge key may bring any of them.
			versions.StabilityExtension, versions.SnykStabilityExtension, versions.LifecycleExtension, "<<":
			// What every operation's diff may read.
			global = append(global, d.hash(k, data), d.hash(v, s))
			ix.walk(v, s, false)
		default:
			ix.walk(v, s, false)
		}
	}
	d.global = hashOf(0, "", "", global)
}

func (ix *indexer) paths(paths *yaml.Node) {
	d := ix.d
	if paths.Kind != yaml.MappingNode {
		ix.walk(paths, pathsShape, false)
		return
	}
	for i := 0; i+1 < len(paths.Content); i += 2 {
		pk, pv := paths.Content[i], paths.Content[i+1]
		s := pathsShape.child(pk.Value)
		if s != pathItemShape || !plainMapping(pv) {
			ix.walk(pv, s, false)
			continue
		}
		// The path item's own entries (parameters above all) are part of
		// each operation's closure.
		shared := &unit{}
		item := &pathItem{shared: shared}
		var sharedHashes []hashValue
		var ops [][2]*yaml.Node
		for j := 0; j+1 < len(pv.Content); j += 2 {
			k, v := pv.Content[j], pv.Content[j+1]
			if methods[k.Value] {
				ops = append(ops, [2]*yaml.Node{k, v})
				continue
			}
			if k.Value == "$ref" && d.Why == "" {
				d.Why = fmt.Sprintf("a path item $ref (line %d)", k.Line)
			}
			if !pathItemShape.ignored[k.Value] {
				sharedHashes = append(sharedHashes, d.hash(k, data), d.hash(v, pathItemShape.child(k.Value)))
			}
			ix.unit = shared
			ix.entry(k, v, pathItemShape, false)
			ix.unit = nil
		}
		shared.hash = hashOf(0, "", "", sharedHashes)
		for _, op := range ops {
			u := &unit{media: map[string]*unit{}, mediaOK: true}
			u.hash = hashOf(0, "", "", []hashValue{d.hashSeeing(op[1], operationShape, d.seeInner(&u.inner)), shared.hash})
			u.removable = op[0].Anchor == "" && !hasAnchor(op[1])
			ix.unit = u
			ix.operation(u, op[1])
			ix.unit = nil
			u.shared, u.key = shared, op[0]
			// An operation left out is read as the loader reads one.
			u.value, u.shape = op[1], operationShape
			u.refs = append(u.refs, shared.refs...)
			name := op[0].Value + " " + pk.Value
			d.ops[name] = u
			item.ops = append(item.ops, name)
		}
		d.items[pk.Value] = item
	}
}

// operation walks an operation, noting its inline media types apart.
func (ix *indexer) operation(u *unit, op *yaml.Node) {
	if !plainMapping(op) {
		u.mediaOK = false
		ix.walk(op, operationShape, false)
		return
	}
	for i := 0; i+1 < len(op.Content); i += 2 {
		k, v := op.Content[i], op.Content[i+1]
		// Entries are left out of a skeleton only where nothing is shared
		// with other places: no anchor in the operation (removable), no
		// alias in the entry. What they name is not the skeleton's.
		if u.removable && (k.Value == "parameters" || skeletonSkips[k.Value]) && !hasAlias(v) {
			var refs []string
			ix.skipped = &refs
			ix.entry(k, v, operationShape, false)
			ix.skipped = nil
			if k.Value == "parameters" {
				// Left out once the components are known (Doc.skipParameters).
				u.params, u.paramsRefs = [2]*yaml.Node{k, v}, refs
			} else {
				u.skip = append(u.skip, entry{name: k.Value, k: k, v: v})
			}
			continue
		}
		switch k.Value {
		case "requestBody":
			ix.payload(u, entry{name: k.Value, k: k, v: v}, "requestBody", requestBody)
		case "responses":
			if !plainMapping(v) {
				u.mediaOK = false
				ix.walk(v, responsesShape, false)
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				rk, rv := v.Content[j], v.Content[j+1]
				s := responsesShape.child(rk.Value)
				if s != responseShape {
					ix.body(u, "responses\x00"+rk.Value, rv, s)
					continue
				}
				ix.payload(u, entry{name: "responses\x00" + rk.Value, outer: k, k: rk, v: rv}, "responses\x00"+rk.Value, s)
			}
		default:
			ix.entry(k, v, operationShape, false)
		}
	}
}

// payload walks a request body or response of an operation (ix.body) and,
// where the skeleton may leave it out, notes it apart with what its
// skeleton names: those are needed only where it is kept.
func (ix *indexer) payload(u *unit, e entry, where string, s *shape) {
	refs, schemas := len(u.skelRefs), len(u.schemas)
	ix.body(u, where, e.v, s)
	if !u.removable || hasAlias(e.v) {
		return
	}
	e.skelRefs = slices.Clone(u.skelRefs[refs:])
	e.schemas = [2]int{schemas, len(u.schemas)}
	u.skelRefs = u.skelRefs[:refs]
	u.payloads = append(u.payloads, e)
}

// skeletonSkips are the entries of an operation that a skeleton leaves
// out besides its parameters: nothing reads them of an operation that did
// not change, and the diff compares the skeleton with an equal one.
var skeletonSkips = map[string]bool{"summary": true, "description": true, "operationId": true, "tags": true, "externalDocs": true, "security": true, "servers": true}

// skipParameters leaves each operation's parameter list out of its
// skeleton where the loader's check for a parameter named twice could not
// fail on it: every parameter, its $refs followed, has a string location
// and name, and no two have the same. Otherwise the list is kept, and what
// it names stays in the skeleton.
func (d *Doc) skipParameters() {
	for _, u := range d.ops {
		if u.params[0] == nil {
			continue
		}
		if d.distinctParameters(u.params[1]) {
			u.skip = append(u.skip, entry{name: u.params[0].Value, k: u.params[0], v: u.params[1]})
		} else {
			u.skelRefs = append(u.skelRefs, u.paramsRefs...)
		}
		u.params, u.paramsRefs = [2]*yaml.Node{}, nil
	}
}

// skipPayloads marks each request body and response of an operation that
// names no version as one its skeleton may leave out. The others' media
// types are what the operation's versions are read from. A payload left
// out is one whose media types (its $refs followed) are none of the
// vendor media types that name versions, nor carry marks a version
// document's versions are read from (deprecated, x- extensions): then no
// reader of an unchanged operation reads it, and the diff compares two
// skeletons without it.
func (d *Doc) skipPayloads() {
	for _, u := range d.ops {
		for _, e := range u.payloads {
			if d.namesNoVersion(e.v) {
				u.skip = append(u.skip, e)
			} else {
				u.skelRefs = append(u.skelRefs, e.skelRefs...)
			}
		}
		u.payloads = nil
	}
}

// namesNoVersion reports whether a request body or response, its $refs
// followed, has media types that are not vendor media types and have no
// fields but the schema, examples and encoding.
func (d *Doc) namesNoVersion(n *yaml.Node) bool {
	n, ok := d.deref(n, "responses/", "requestBodies/")
	if !ok || !plainMapping(n) || hasAlias(n) {
		return false
	}
	content := mapValue(n, "content")
	if content == nil {
		return true
	}
	if !plainMapping(content) {
		return false
	}
	for i := 0; i+1 < len(content.Content); i += 2 {
		k, v := content.Content[i], content.Content[i+1]
		if k.Kind != yaml.ScalarNode || strings.Contains(strings.ToLower(k.Value), "vnd") || !plainMapping(v) {
			return false
		}
		for j := 0; j < len(v.Content); j += 2 {
			if !plainMediaTypeFields[v.Content[j].Value] {
				return false
			}
		}
	}
	return true
}

// deref follows n's $refs, at most 17, to components whose names start
// with one of kinds: the node that is not a reference; ok is false when a
// $ref names no such component, or the chain is longer.
func (d *Doc) deref(n *yaml.Node, kinds ...string) (_ *yaml.Node, ok bool) {
	for hops := 0; n.Kind == yaml.MappingNode; hops++ {
		ref := mapValue(n, "$ref")
		if ref == nil {
			break
		}
		name, isComponent := componentOf(ref.Value)
		c := d.comps[name]
		if hops > 16 || !isComponent || c == nil || !slices.ContainsFunc(kinds, func(kind string) bool { return strings.HasPrefix(name, kind) }) {
			return nil, false
		}
		n = c.value
	}
	return n, true
}

// plainMediaTypeFields are the fields of a media type object that no
// version is read from.
var plainMediaTypeFields = map[string]bool{"schema": true, "example": true, "examples": true, "encoding": true}

// distinctParameters reports whether list is a list of parameters (or
// references to parameter components) whose locations and names are
// strings, no two the same.
func (d *Doc) distinctParameters(list *yaml.Node) bool {
	if list.Kind != yaml.SequenceNode {
		return false
	}
	seen := map[[2]string]bool{}
	for _, p := range list.Content {
		p, ok := d.deref(p, "parameters/")
		if !ok || p.Kind != yaml.MappingNode {
			return false
		}
		in, name := mapValue(p, "in"), mapValue(p, "name")
		if in == nil || name == nil || in.Kind != yaml.ScalarNode || name.Kind != yaml.ScalarNode || in.Tag != "!!str" || name.Tag != "!!str" {
			return false
		}
		key := [2]string{in.Value, name.Value}
		if seen[key] {
			return false
		}
		seen[key] = true
	}
	return true
}

// hasAlias reports whether n or a node under it is an alias.
func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

// body walks a request body or response of an operation: its inline media
// types are units of their own within the operation.
func (ix *indexer) body(u *unit, where string, n *yaml.Node, s *shape) {
	if s != requestBody && s != responseShape || !plainMapping(n) {
		if s == requestBody || s == responseShape {
			u.mediaOK = false
		}
		ix.walk(n, s, false)
		return
	}
	if ref := mapValue(n, "$ref"); ref != nil {
		if name, ok := componentOf(ref.Value); ok {
			u.bodyRefs = append(u.bodyRefs, name)
		}
		ix.walk(n, s, false)
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != "content" || !plainMapping(v) {
			if k.Value == "content" {
				u.mediaOK = false
			}
			ix.entry(k, v, s, false)
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			mk, mv := v.Content[j], v.Content[j+1]
			if !plainMapping(mv) {
				u.mediaOK = false
				ix.walk(mv, mediaTypeShape, false)
				continue
			}
			m := &unit{hash: ix.d.hash(mv, mediaTypeShape)}
			ix.media = m
			ix.walk(mv, mediaTypeShape, false)
			ix.media = nil
			u.media[where+"\x00"+mk.Value] = m
		}
	}
}

func (ix *indexer) components(n *yaml.Node, global *[]hashValue) {
	d := ix.d
	if n.Kind != yaml.MappingNode || n.Anchor != "" {
		ix.walk(n, componentsShape, false)
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kindShape := componentsKind[k.Value]
		if k.Value == "securitySchemes" {
			*global = append(*global, d.hash(k, data), d.hash(v, componentsShape.child(k.Value)))
		}
		if kindShape == nil || v.Kind != yaml.MappingNode || v.Anchor != "" {
			ix.walk(v, componentsShape.child(k.Value), false)
			continue
		}
		merged := hasMerge(v)
		for j := 0; j+1 < len(v.Content); j += 2 {
			ck, cv := v.Content[j], v.Content[j+1]
			if ck.Value == "<<" && ck.Tag == "!!merge" {
				ix.walk(cv, data, false)
				continue
			}
			if tag := ck.ShortTag(); tag != "!!str" && d.Why == "" {
				// The loader reads the name as the value YAML gives it (0x10
				// is 16, null is no key at all); how a $ref then reaches it is
				// the loader's business.
				d.Why = fmt.Sprintf("a component name that YAML reads as %s, not a string (line %d)", strings.TrimPrefix(tag, "!!"), ck.Line)
			}
			u := &unit{key: ck, value: cv, shape: kindShape}
			u.hash = d.hashSeeing(cv, kindShape, d.seeInner(&u.inner))
			u.removable = !merged && ck.Anchor == "" && !hasAnchor(cv)
			ix.unit = u
			ix.walk(cv, kindShape, false)
			ix.unit = nil
			d.comps[k.Value+"/"+ck.Value] = u
		}
	}
}

// walk visits n, of shape s: it notes the components named, the schema
// positions a skeleton replaces, the descriptions and examples emptied, and
// why the document cannot be reduced. inSchema says an enclosing schema
// position is replaced already; anchored nodes are kept as they are, with
// all they name.
func (ix *indexer) walk(n *yaml.Node, s *shape, inSchema bool) {
	d := ix.d
	if ix.unit != nil && !inSchema && !s.isData() {
		switch {
		case s.schema && n.Kind == yaml.AliasNode:
			// An alias is cut like any schema; its anchor stays where it is.
			ix.cutSchema(n, s)
			inSchema = true
		case n.Anchor != "" || n.Kind == yaml.AliasNode || hasAnchor(n):
			ix.unit.keepsSchemas = true
			if ix.media != nil {
				ix.media.keepsSchemas = true
			}
		}
	}
	if n.Anchor != "" {
		// An anchored node is always kept whole: what it names is a root.
		d.roots = append(d.roots, d.refs(n)...)
		ix.noteRefs(n, inSchema)
		d.checkAnchored(n)
		return
	}
	if n.Kind == yaml.AliasNode {
		ix.noteRefs(n, inSchema)
		return
	}
	if s.schema && !inSchema && ix.unit != nil && !hasAnchor(n) {
		ix.cutSchema(n, s)
		inSchema = true
	}
	switch n.Kind {
	case yaml.MappingNode:
		if ref := mapValue(n, "$ref"); ref != nil && !s.isData() {
			ix.reference(n, ref, s, inSchema)
			return
		}
		if s.schema {
			ix.discriminator(n, inSchema)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			ix.entry(n.Content[i], n.Content[i+1], s, inSchema)
		}
	case yaml.SequenceNode:
		elem := data
		if s.list {
			elem = s.elem
		}
		for _, c := range n.Content {
			ix.walk(c, elem, inSchema)
		}
	}
}

// cutSchema notes n as a schema position a skeleton replaces.
func (ix *indexer) cutSchema(n *yaml.Node, s *shape) {
	ix.unit.schemas = append(ix.unit.schemas, cut{n, s})
	if ix.media != nil {
		ix.media.schemas = append(ix.media.schemas, cut{n, s})
	}
}

// entry walks the value v of key k in a mapping of shape s.
func (ix *indexer) entry(k, v *yaml.Node, s *shape, inSchema bool) {
	switch {
	case s.ignored[k.Value]:
		ix.d.ignoredValue(k, v)
	case k.Value == "<<" && k.Tag == "!!merge":
		// Merged mappings are read as this one.
		ix.walk(v, s, inSchema)
	default:
		ix.walk(v, s.child(k.Value), inSchema)
	}
}

// ignoredValue empties a description or example: a string description, and
// any example, which the loader reads as any value.
func (d *Doc) ignoredValue(k, v *yaml.Node) {
	switch {
	case v.Anchor != "" || v.Kind == yaml.AliasNode || hasAnchor(v):
		if k.Value == "description" && d.Why == "" {
			d.Why = fmt.Sprintf("a description given by a YAML alias or anchor (line %d)", v.Line)
		}
	case k.Value == "description" && (v.Kind != yaml.ScalarNode || v.Tag != "!!str"):
		// The loader refuses it; the whole document reports it.
		if d.Why == "" {
			d.Why = fmt.Sprintf("a description that is not a string (line %d)", v.Line)
		}
	case !d.json && !readsAsJSON(v):
		// The loader reads an example as any value that JSON can hold: one
		// it refuses (an infinity, a key that is not a string) is left to
		// the whole document, which reports it.
		if d.Why == "" {
			d.Why = fmt.Sprintf("an example that JSON cannot hold (line %d)", v.Line)
		}
	default:
		d.emptied = append(d.emptied, v)
	}
}

// readsAsJSON reports whether the loader's YAML-to-JSON conversion takes n:
// what loaderJSON writes, it does; anything else is converted its way.
func readsAsJSON(n *yaml.Node) bool {
	return (&loaderJSON{dry: true}).value(n) || loaderReads(n, new(json.RawMessage)) == nil
}

// reference walks a Reference Object: a $ref where s expects one.
func (ix *indexer) reference(n, ref *yaml.Node, s *shape, inSchema bool) {
	d := ix.d
	name, ok := componentOf(ref.Value)
	if ok {
		ix.add(name, inSchema)
	}
	if d.Why == "" {
		switch {
		case s.component == "":
			d.Why = fmt.Sprintf("a $ref where no reference is resolved as a component (line %d)", ref.Line)
		case ref.Kind != yaml.ScalarNode || !ok:
			d.Why = fmt.Sprintf("the $ref %q (line %d) does not name a component of this document", ref.Value, ref.Line)
		case !strings.HasPrefix(name, s.component+"/"):
			d.Why = fmt.Sprintf("the $ref %q (line %d) is not a %s", ref.Value, ref.Line, s.name)
		case len(n.Content) > 2 && s.schema:
			d.Why = fmt.Sprintf("a schema $ref with fields beside it (line %d)", ref.Line)
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		ix.walk(n.Content[i+1], data, inSchema)
	}
}

// discriminator notes the schemas a discriminator's mapping names.
func (ix *indexer) discriminator(n *yaml.Node, inSchema bool) {
	disc := mapValue(n, "discriminator")
	if disc == nil {
		return
	}
	mapping := mapValue(disc, "mapping")
	if mapping == nil || mapping.Kind != yaml.MappingNode {
		return
	}
	for j := 1; j < len(mapping.Content); j += 2 {
		target := mapping.Content[j].Value
		if !strings.Contains(target, "/") {
			continue // a schema's name, not a reference
		}
		name, ok := componentOf(target)
		if !ok {
			if ix.d.Why == "" {
				ix.d.Why = fmt.Sprintf("the discriminator mapping %q (line %d) does not name a component of this document", target, mapping.Content[j].Line)
			}
			continue
		}
		ix.add(name, inSchema)
	}
}

// noteRefs adds what an alias or anchored node names to the unit walked:
// its value depends on them.
func (ix *indexer) noteRefs(n *yaml.Node, inSchema bool) {
	for _, r := range ix.d.refs(n) {
		ix.add(r, inSchema)
	}
}

// add notes a component named at the current place: inSchema says inside
// a schema position that a skeleton replaces.
func (ix *indexer) add(name string, inSchema bool) {
	u := ix.unit
	if u == nil {
		ix.d.roots = append(ix.d.roots, name)
		return
	}
	u.refs = append(u.refs, name)
	switch {
	case ix.skipped != nil:
		*ix.skipped = append(*ix.skipped, name)
	case !inSchema:
		u.skelRefs = append(u.skelRefs, name)
	}
	if ix.media != nil {
		ix.media.refs = append(ix.media.refs, name)
	}
	if ix.media == nil || !inSchema {
		u.outerRefs = append(u.outerRefs, name)
	}
}

// checkAnchored checks the references inside a node kept whole, which the
// loader resolves wherever the node appears.
func (d *Doc) checkAnchored(n *yaml.Node) {
	if d.Why != "" {
		return
	}
	eachRef(n, func(ref *yaml.Node) {
		if _, ok := componentOf(ref.Value); (!ok || ref.Kind != yaml.ScalarNode) && d.Why == "" {
			d.Why = fmt.Sprintf("the $ref %q (line %d) in an anchored node does not name a component", ref.Value, ref.Line)
		}
	})
}

// refs lists the components a subtree names, through aliases: its $refs
// and discriminator mappings, in any position.
func (d *Doc) refs(n *yaml.Node) []string {
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return nil
		}
		n = n.Alias
	}
	if r, ok := d.refMemo[n]; ok {
		return r
	}
	d.refMemo[n] = nil // a node that contains itself is refused by the parser
	var out []string
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "$ref" && v.Kind == yaml.ScalarNode {
				if name, ok := componentOf(v.Value); ok {
					out = append(out, name)
				}
				continue
			}
			if k.Value == "mapping" && v.Kind == yaml.MappingNode {
				for j := 1; j < len(v.Content); j += 2 {
					if name, ok := componentOf(v.Content[j].Value); ok {
						out = append(out, name)
					}
				}
			}
			out = append(out, d.refs(v)...)
		}
	default:
		for _, c := range n.Content {
			out = append(out, d.refs(c)...)
		}
	}
	d.refMemo[n] = out
	return out
}

// eachRef calls fn with each $ref value node under n, not through aliases.
func eachRef(n *yaml.Node, fn func(ref *yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "$ref" {
				fn(n.Content[i+1])
			}
		}
	}
	for _, c := range n.Content {
		eachRef(c, fn)
	}
}

// componentOf is the component "kind/name" a local $ref names. JSON
// pointer escapes are decoded after the URI's percent-encoding, as the
// loader decodes them.
func componentOf(ref string) (string, bool) {
	fragment, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", false
	}
	if strings.Contains(fragment, "%") {
		unescaped, err := url.PathUnescape(fragment)
		if err != nil {
			return "", false
		}
		fragment = unescaped
	}
	rest, ok := strings.CutPrefix(fragment, "/components/")
	if !ok {
		return "", false
	}
	kind, name, ok := strings.Cut(rest, "/")
	if !ok || name == "" || strings.Contains(name, "/") || componentsKind[kind] == nil {
		return "", false
	}
	name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
	return kind + "/" + name, true
}

// checkRefs makes sure every component named exists: a broken $ref is
// left to the whole load to report.
func (d *Doc) checkRefs() string {
	check := func(refs []string) string {
		for _, r := range refs {
			if _, ok := d.comps[r]; !ok {
				return fmt.Sprintf("the $ref to %s points to nothing", r)
			}
		}
		return ""
	}
	if why := check(d.roots); why != "" {
		return why
	}
	// A component that is a $ref leading back to itself resolves to
	// nothing, which the loader and the diff report as they find it.
	for _, name := range sortedKeys(d.comps) {
		seen := map[string]bool{}
		for at := name; ; {
			seen[at] = true
			ref := mapValue(d.comps[at].value, "$ref")
			if ref == nil {
				break
			}
			next, isComponent := componentOf(ref.Value)
			if !isComponent || d.comps[next] == nil {
				break
			}
			if seen[next] {
				return fmt.Sprintf("the $ref of %s leads back to itself", name)
			}
			at = next
		}
	}
	for _, units := range []map[string]*unit{d.ops, d.comps} {
		for _, name := range sortedKeys(units) {
			if why := check(units[name].refs); why != "" {
				return why
			}
		}
	}
	for _, path := range sortedKeys(d.items) {
		if why := check(d.items[path].shared.refs); why != "" {
			return why
		}
	}
	return ""
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// plainMapping reports whether n is a mapping whose entries can be taken
// one by one: no anchor that other places share, no merge key.
func plainMapping(n *yaml.Node) bool {
	return n.Kind == yaml.MappingNode && n.Anchor == "" && !hasMerge(n)
}

func hasMerge(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Value == "<<" && k.Tag == "!!merge" {
			return true
		}
	}
	return false
}

// hasAnchor reports whether n or a node under it (not through aliases)
// defines an anchor.
func hasAnchor(n *yaml.Node) bool {
	if n.Anchor != "" {
		return true
	}
	for _, c := range n.Content {
		if hasAnchor(c) {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
