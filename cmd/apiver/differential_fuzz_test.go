package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/longtest"
	"go.yaml.in/yaml/v3"
)

// FuzzPipelinesAgree generates a small OpenAPI 3.0 document and a revision
// of it from the fuzz input, writes both in a YAML or JSON style of their
// own, and runs check (with its fix offer), fix, diff and changelog build
// through both pipelines.
// The input's first bytes say how many mutations make the revision, which
// ones, and the styles; the rest drive the generator and the mutations
// (past its end, a fixed pseudo-random stream: any input is a pair).
func FuzzPipelinesAgree(f *testing.F) {
	fuzzPipelines(f, func(t *testing.T, p fuzzPair, _ chooser) (commands [][]string, written string) {
		writeCaseFile(t, p.baseName, p.base)
		writeCaseFile(t, p.revisionName, p.revision)
		return [][]string{
			{"check", p.baseName, p.revisionName},
			{"check", "--format", "markdown", p.baseName, p.revisionName}, // with the fix offer
			{"fix", p.baseName, p.revisionName},
			{"diff", "--format", "json", p.baseName, p.revisionName},
			{"changelog", "build", "."},
		}, fmt.Sprintf("-- %s --\n%s\n-- %s --\n%s", p.baseName, p.base, p.revisionName, p.revision)
	})
}

// fuzzPipelines runs, in a folder of its own, the commands write gives for
// each generated pair (after writing the pair its way) through both
// pipelines; what it wrote is logged when they differ.
func fuzzPipelines(f *testing.F, write func(t *testing.T, p fuzzPair, c chooser) (commands [][]string, written string)) {
	for _, seed := range fuzzSeeds() {
		f.Add(seed)
	}
	fastPipelineOnly(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newFuzzInput(data)
		p := newFuzzPair(c)
		t.Chdir(t.TempDir())
		commands, written := write(t, p, c)
		agreed := true
		for _, args := range commands {
			_, ok := agree(t, p.name, args)
			agreed = agreed && ok
		}
		if !agreed {
			t.Log(written)
		}
	})
}

// fuzzInput makes choices from the fuzz input's bytes, then from a fixed
// stream: zeros past the end would choose the first of everything.
type fuzzInput struct {
	data []byte
	rest *rand.Rand
}

func newFuzzInput(data []byte) *fuzzInput {
	return &fuzzInput{data: data, rest: rand.New(rand.NewPCG(1, 2))}
}

func (in *fuzzInput) IntN(n int) int {
	if len(in.data) == 0 {
		return in.rest.IntN(n)
	}
	v := int(in.data[0])
	in.data = in.data[1:]
	if n > 256 && len(in.data) > 0 {
		v = v<<8 | int(in.data[0])
		in.data = in.data[1:]
	}
	return v % n
}

// fuzzMutations are the corpus's mutations and those only a generated
// document can afford: an input error in every pair.
var fuzzMutations = append(slices.Clone(corpusMutations), mutation{"object-made-null-or-scalar", breakObject})

// fuzzPair is a generated pair, written out.
type fuzzPair struct {
	name                   string // the mutations and styles
	baseName, revisionName string
	base, revision         []byte
	// baseDoc and revisionDoc are the two documents before they are
	// written.
	baseDoc, revisionDoc *yaml.Node
}

func newFuzzPair(c chooser) fuzzPair {
	kinds := make([]int, c.IntN(4))
	for i := range kinds {
		kinds[i] = c.IntN(len(fuzzMutations))
	}
	baseStyle, revStyle := pick(c, docStyles), pick(c, docStyles)
	baseBreak, revBreak := pick(c, lineBreaks), pick(c, lineBreaks)
	shared := make([]int, c.IntN(2))
	for i := range shared {
		shared[i] = c.IntN(len(fuzzMutations))
	}
	doc := generateDocument(c)
	const revisionDate = "2023-06-01"
	var inBoth []string
	for _, k := range shared {
		inBoth = append(inBoth, (&mutator{root: doc.Content[0], c: c, newDate: revisionDate}).applyFrom(fuzzMutations, k))
	}
	revision := deepCopy(doc)
	m := &mutator{root: revision.Content[0], c: c, newDate: revisionDate}
	var done []string
	for _, k := range kinds {
		done = append(done, m.applyFrom(fuzzMutations, k))
	}
	p := fuzzPair{baseDoc: doc, revisionDoc: revision, name: fmt.Sprintf("in both [%s], in the revision [%s]; base %s/%s, revision %s/%s",
		strings.Join(inBoth, "; "), strings.Join(done, "; "), baseStyle.name, baseBreak.name, revStyle.name, revBreak.name)}
	p.base, p.baseName = render(doc, baseStyle, baseBreak, c, "x-2023-01-01")
	p.revision, p.revisionName = render(revision, revStyle, revBreak, c, "x-"+revisionDate)
	return p
}

// fuzzSeeds are inputs that make each mutation once in the revision and
// once in both documents, that write each style and line break once with
// no mutation, and, in the long suite, random ones. Their headers are read as newFuzzPair
// reads them: mutations in the revision (a count, then each), the two
// styles, the two line breaks, mutations in both.
func fuzzSeeds() [][]byte {
	tail := func(i int) []byte {
		r := rand.New(rand.NewPCG(uint64(i), 7))
		b := make([]byte, 64)
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		return b
	}
	var seeds [][]byte
	n := len(fuzzMutations)
	for k := range n {
		header := []byte{1, byte(k), byte(k % len(docStyles)), byte((k + 1) % len(docStyles)), byte(k % len(lineBreaks)), 0, 0}
		seeds = append(seeds, append(header, tail(k)...))
		header = []byte{1, byte((k + 7) % n), byte((k + 2) % len(docStyles)), byte((k + 2) % len(docStyles)), 0, 0, 1, byte(k)}
		seeds = append(seeds, append(header, tail(50+k)...))
	}
	for s := range max(len(docStyles), len(lineBreaks)) {
		header := []byte{0, byte(s % len(docStyles)), byte(s % len(docStyles)), byte(s % len(lineBreaks)), byte((s + 3) % len(lineBreaks)), 0}
		seeds = append(seeds, append(header, tail(100+s)...))
	}
	seeds = append(seeds, nil)
	// Random inputs: every choice drawn from bytes of no structure.
	if longtest.Enabled() {
		for i := range 40 {
			seeds = append(seeds, tail(200+i))
		}
	}
	return seeds
}

// The generator.

// docGenerator builds a small document: a few paths and operations whose
// parameters, request bodies, responses, headers and schemas are written
// out or behind $ref chains of one to three steps, sharing component
// schemas.
type docGenerator struct {
	c       chooser
	comps   *yaml.Node // the components mapping
	fresh   int
	schemas []string // the component schemas made so far
}

var (
	versionDates  = []string{"2023-01-01", "2022-06-01", "2023-03-01", "2023-06-01", "2024-01-01"}
	propertyNames = []string{"id", "name", "amount", "description", "example", "status", "tags"}
	paramNames    = []string{"limit", "description", "example", "pageNum", "X-Request-Id"}
	schemeNames   = []string{"apiKey", "description", "example"}
	headerNames   = []string{"X-Rate-Limit", "description", "example"}
	resourceNames = []string{"widgets", "gadgets", "orders"}
)

func generateDocument(c chooser) *yaml.Node {
	g := &docGenerator{c: c, comps: mapping()}
	root := mapping("openapi", pick(c, []string{"3.0.3", "3.0.1"}), "info", mapping("title", "x", "version", "1"))
	if c.IntN(3) == 0 {
		setKey(root, "servers", sequence(mapping("url", "https://api.example.com", "description", "production")))
	}
	if c.IntN(3) == 0 {
		scheme := pick(c, schemeNames)
		setKey(child(g.comps, "securitySchemes"), scheme, mapping("type", "apiKey", "in", "header", "name", "X-Key", "description", "a key"))
		setKey(root, "security", sequence(mapping(scheme, sequence())))
	}
	if c.IntN(3) == 0 {
		setKey(root, "tags", sequence(mapping("name", "Widgets", "description", "Widget things")))
	}
	for range 1 + c.IntN(3) {
		name := g.name("Shared")
		setKey(child(g.comps, "schemas"), name, g.object(1))
		g.schemas = append(g.schemas, name)
	}
	paths := mapping()
	for i := range 1 + c.IntN(3) {
		resource := resourceNames[i]
		path := "/api/x/" + resource
		item := mapping()
		templated := c.IntN(2) == 0
		if templated {
			path += "/{" + resource + "Id}"
		}
		pathParam := mapping("name", resource+"Id", "in", "path", "required", scalar("!!bool", "true"), "schema", mapping("type", "string"))
		atPathLevel := templated && c.IntN(2) == 0
		if atPathLevel || c.IntN(4) == 0 {
			params := sequence()
			if atPathLevel {
				params.Content = append(params.Content, g.behind("parameters", "PathParam", pathParam))
			}
			if c.IntN(3) == 0 {
				params.Content = append(params.Content, g.parameter(pick(c, paramNames)))
			}
			setKey(item, "parameters", params)
		}
		for _, method := range methodNames[:1+c.IntN(3)] {
			op := g.operation(resource, method)
			if templated && !atPathLevel {
				params := list(op, "parameters")
				params.Content = append(params.Content, deepCopy(pathParam))
			}
			setKey(item, method, op)
		}
		setKey(paths, path, item)
	}
	setKey(root, "paths", paths)
	if len(g.comps.Content) > 0 {
		setKey(root, "components", g.comps)
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
}

func (g *docGenerator) name(prefix string) string {
	g.fresh++
	return fmt.Sprintf("%s%d", prefix, g.fresh)
}

func (g *docGenerator) chance(in int) bool { return g.c.IntN(in) == 0 }

// behind puts obj behind a chain of zero to three $refs to components of
// kind: what to write in its place.
func (g *docGenerator) behind(kind, prefix string, obj *yaml.Node) *yaml.Node {
	steps := g.c.IntN(4)
	comps := child(g.comps, kind)
	for range steps {
		name := g.name(prefix)
		setKey(comps, name, obj)
		obj = refTo(kind, name)
	}
	return obj
}

func (g *docGenerator) operation(resource, method string) *yaml.Node {
	op := mapping("operationId", method+resource)
	if g.chance(3) {
		setKey(op, "description", str("Does things to "+resource))
	}
	if g.chance(4) {
		setKey(op, "tags", sequence(str("Widgets")))
	}
	if g.chance(5) {
		setKey(op, "deprecated", scalar("!!bool", "true"))
	}
	if g.chance(5) {
		setKey(op, "x-stability-level", str(pick(g.c, []string{"beta", "stable", "alpha"})))
	}
	if g.chance(6) {
		setKey(op, "x-sunset", pick(g.c, []*yaml.Node{str("2024-01-01"), scalar("!!timestamp", "2023-03-01")}))
	}
	if g.chance(2) {
		// Distinct names: a name listed twice is an input error.
		params := sequence()
		names := slices.Clone(paramNames)
		for range 1 + g.c.IntN(2) {
			i := g.c.IntN(len(names))
			params.Content = append(params.Content, g.parameter(names[i]))
			names = slices.Delete(names, i, i+1)
		}
		setKey(op, "parameters", params)
	}
	if method != "get" && method != "delete" {
		body := mapping("description", "the new "+resource, "content", g.content(), "required", scalar("!!bool", strconv.FormatBool(g.chance(2))))
		setKey(op, "requestBody", g.behind("requestBodies", "Body", body))
	}
	responses := mapping()
	setKey(responses, pick(g.c, []string{"200", "201"}), g.behind("responses", "Response", g.response(true)))
	if g.chance(3) {
		setKey(responses, "404", g.behind("responses", "NotFound", g.response(false)))
	}
	setKey(op, "responses", responses)
	if g.chance(6) {
		setKey(op, "security", sequence())
	}
	return op
}

func (g *docGenerator) parameter(name string) *yaml.Node {
	p := mapping("name", name, "in", pick(g.c, []string{"query", "header"}),
		"required", scalar("!!bool", strconv.FormatBool(g.chance(3))), "schema", g.schema(2))
	if g.chance(3) {
		setKey(p, "description", str("a parameter"))
	}
	if g.chance(4) {
		setKey(p, "example", str("10"))
	}
	if g.chance(6) {
		setKey(p, "deprecated", scalar("!!bool", "true"))
	}
	return g.behind("parameters", "Param", p)
}

// response is a response with versioned media types, or an error one
// with application/json.
func (g *docGenerator) response(versioned bool) *yaml.Node {
	r := mapping("description", pick(g.c, []string{"OK", "Not found"}))
	if versioned {
		setKey(r, "content", g.content())
	} else {
		setKey(r, "content", mapping("application/json", mapping("schema", g.schema(1))))
	}
	if g.chance(4) {
		header := mapping("description", "how many are left", "schema", mapping("type", "integer"))
		if g.chance(3) {
			setKey(header, "example", str("10"))
		}
		setKey(r, "headers", mapping(pick(g.c, headerNames), g.behind("headers", "Header", header)))
	}
	return r
}

// content holds one or two versioned media types.
func (g *docGenerator) content() *yaml.Node {
	content := mapping()
	first := g.c.IntN(len(versionDates) - 1)
	for i := range 1 + g.c.IntN(2) {
		mt := mapping("schema", g.schema(0))
		if g.chance(5) {
			setKey(mt, "x-stability-level", str(pick(g.c, []string{"beta", "stable"})))
		}
		if g.chance(5) {
			setKey(mt, "x-sunset", str(pick(g.c, []string{"2023-02-01", "2025-01-01"})))
		}
		if g.chance(5) {
			setKey(mt, "example", mapping("id", "w1"))
		}
		setKey(content, "application/vnd.x."+versionDates[first+i]+"+json", mt)
	}
	return content
}

// schema is a schema of any kind, shallower as depth grows: written out,
// or naming a component schema directly or through a chain.
func (g *docGenerator) schema(depth int) *yaml.Node {
	if len(g.schemas) > 0 && g.chance(2) {
		target := refTo("schemas", pick(g.c, g.schemas))
		if g.chance(3) {
			// A chain: a component that is only a $ref.
			return g.behind("schemas", "Alias", target)
		}
		return target
	}
	if depth >= 2 {
		return g.leaf()
	}
	switch g.c.IntN(4) {
	case 0:
		return g.object(depth + 1)
	case 1:
		return mapping("type", "array", "items", g.schema(depth+1), "minItems", scalar("!!int", strconv.Itoa(g.c.IntN(3))))
	}
	return g.leaf()
}

func (g *docGenerator) object(depth int) *yaml.Node {
	props := mapping()
	required := sequence()
	names := slices.Clone(propertyNames)
	for range 1 + g.c.IntN(3) {
		i := g.c.IntN(len(names))
		name := names[i]
		names = slices.Delete(names, i, i+1)
		var s *yaml.Node
		if depth < 2 && g.chance(3) {
			s = g.schema(depth + 1)
		} else {
			s = g.leaf()
		}
		setKey(props, name, s)
		if g.chance(2) {
			required.Content = append(required.Content, str(name))
		}
	}
	o := mapping("type", "object", "properties", props)
	if len(required.Content) > 0 {
		setKey(o, "required", required)
	}
	if g.chance(3) {
		setKey(o, "description", str("An object"))
	}
	if g.chance(4) {
		setKey(o, "example", mapping("id", "e1", "description", "an example"))
	}
	return o
}

func (g *docGenerator) leaf() *yaml.Node {
	var s *yaml.Node
	switch g.c.IntN(5) {
	case 0:
		s = mapping("type", "string")
		if g.chance(2) {
			s = mapping("type", "string", "enum", sequence(str("RED"), str("GREEN"), str("BLUE")))
		}
		if g.chance(3) {
			setKey(s, "maxLength", scalar("!!int", "16"))
		}
		if g.chance(3) {
			setKey(s, "pattern", str("^[A-Z]+$"))
		}
	case 1:
		s = mapping("type", "integer", "format", "int32")
		if g.chance(2) {
			setKey(s, "enum", sequence(scalar("!!int", "1"), scalar("!!int", "2")))
		}
	case 2:
		s = mapping("type", "number", "minimum", scalar("!!int", "0"))
	case 3:
		s = mapping("type", "boolean")
	default:
		s = mapping("type", "string", "format", "date-time")
	}
	if g.chance(4) {
		setKey(s, "description", str("a value"))
	}
	if g.chance(5) {
		setKey(s, "example", pick(g.c, []*yaml.Node{str("RED"), scalar("!!int", "3"), scalar("!!null", "null")}))
	}
	if g.chance(8) {
		setKey(s, "deprecated", scalar("!!bool", "true"))
	}
	return s
}

// breakObject puts null or a scalar where OpenAPI requires an object: a
// media type, a response, an operation, a schema or a parameter.
func breakObject(m *mutator) string {
	type place struct {
		what   string
		parent *yaml.Node
		index  int // of the value in parent.Content
	}
	var places []place
	eachNode(m.root, func(n *yaml.Node) {
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			switch {
			case k == "schema" || strings.HasPrefix(k, "application/") || slices.Contains(methodNames, k) || k == "200" || k == "201" || k == "404":
				places = append(places, place{k, n, i + 1})
			case k == "parameters" && n.Content[i+1].Kind == yaml.SequenceNode && len(n.Content[i+1].Content) > 0:
				places = append(places, place{"a parameter", n.Content[i+1], -1})
			}
		}
	})
	if len(places) == 0 {
		return ""
	}
	p := pick(m.c, places)
	v := pick(m.c, []*yaml.Node{scalar("!!null", "null"), scalar("!!null", "~"), str("text"), scalar("!!int", "1"), scalar("!!bool", "true")})
	if p.index < 0 {
		p.parent.Content[m.c.IntN(len(p.parent.Content))] = v
	} else {
		p.parent.Content[p.index] = v
	}
	return fmt.Sprintf("%s is %s", p.what, v.Value)
}

// Styles. Each writes the same values; the anchors and merge keys share
// subtrees equal in value.

type docStyle struct {
	name string
	json bool
	// prepare restyles a copy of the tree before it is encoded.
	prepare func(root *yaml.Node, c chooser)
	// indent is YAML's; JSON is indented when it is not 0.
	indent int
}

var docStyles = []docStyle{
	{name: "block", indent: 2},
	{name: "block-indent-4", indent: 4},
	{name: "quoted-keys", indent: 2, prepare: quoteKeys},
	{name: "flow", indent: 2, prepare: func(root *yaml.Node, _ chooser) { flowFrom(root, 0) }},
	{name: "flow-inside", indent: 2, prepare: func(root *yaml.Node, c chooser) { flowFrom(root, 2+c.IntN(4)) }},
	{name: "anchors", indent: 2, prepare: func(root *yaml.Node, _ chooser) { shareEqual(root, false) }},
	{name: "merge-keys", indent: 2, prepare: func(root *yaml.Node, _ chooser) { shareEqual(root, true) }},
	{name: "json", json: true},
	{name: "json-indented", json: true, indent: 2},
}

// lineBreak puts, in a YAML text, a comment holding a line break of its
// own kind, or ends its lines with CRLF.
type lineBreak struct {
	name string
	// mark is the break; beforeKey: the comment ends with it, on the line
	// of a key; else the comment goes on, a comment still, past it.
	mark      string
	beforeKey bool
}

var lineBreaks = []lineBreak{
	{name: "lf"},
	{name: "crlf", mark: "\r\n"},
	{name: "cr-in-comment", mark: "\r"},
	{name: "u2028-in-comment", mark: "\u2028"},
	{name: "u2029-in-comment", mark: "\u2029"},
	{name: "nel-in-comment", mark: "\u0085"},
	{name: "cr-before-key", mark: "\r", beforeKey: true},
	{name: "u2028-before-key", mark: "\u2028", beforeKey: true},
	{name: "nel-before-key", mark: "\u0085", beforeKey: true},
}

// render writes doc in a style, as stem plus the style's extension.
func render(doc *yaml.Node, s docStyle, lb lineBreak, c chooser, stem string) ([]byte, string) {
	if s.json {
		return encodeJSON(doc, s.indent > 0), stem + ".json"
	}
	doc = deepCopy(doc)
	if s.prepare != nil {
		s.prepare(doc.Content[0], c)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(s.indent)
	if err := enc.Encode(doc); err != nil {
		panic(err) // a tree the generator made: a bug of the test
	}
	text := b.String()
	lines := strings.SplitAfter(text, "\n")
	n := 1 + c.IntN(len(lines)-1)
	indent := lines[n][:len(lines[n])-len(strings.TrimLeft(lines[n], " "))]
	switch {
	case lb.mark == "":
	case lb.mark == "\r\n":
		text = strings.ReplaceAll(text, "\n", "\r\n")
	case lb.beforeKey:
		lines[n] = indent + "# a note" + lb.mark + lines[n]
		text = strings.Join(lines, "")
	default:
		lines[n] = indent + "# generated" + lb.mark + "# by hand\n" + lines[n]
		text = strings.Join(lines, "")
	}
	return []byte(text), stem + ".yaml"
}

func quoteKeys(root *yaml.Node, c chooser) {
	styles := []yaml.Style{yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle, 0}
	first := c.IntN(len(styles))
	i := 0
	eachNode(root, func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for j := 0; j < len(n.Content); j += 2 {
				n.Content[j].Style = styles[(first+i)%len(styles)]
				i++
			}
		}
	})
}

// flowFrom writes the collections from depth on in flow style.
func flowFrom(n *yaml.Node, depth int) {
	if depth <= 0 && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		flowFrom(c, depth-1)
	}
}

// shareEqual anchors the first of collections equal in value and makes the
// later ones aliases of it, or, with merge, mappings that merge it.
func shareEqual(root *yaml.Node, merge bool) {
	first := map[string]*yaml.Node{}
	anchors := 0
	var walk func(parent *yaml.Node)
	walk = func(parent *yaml.Node) {
		for i, n := range parent.Content {
			if parent.Kind == yaml.MappingNode && i%2 == 0 || len(n.Content) < 2 {
				walk(n)
				continue
			}
			key := canonical(n)
			a, seen := first[key]
			if !seen {
				first[key] = n
				walk(n)
				continue
			}
			if a.Anchor == "" {
				anchors++
				a.Anchor = fmt.Sprintf("a%d", anchors)
			}
			alias := &yaml.Node{Kind: yaml.AliasNode, Value: a.Anchor, Alias: a}
			if merge && n.Kind == yaml.MappingNode {
				// No tag on the key: the encoder would write it (!!merge <<).
				merged := &yaml.Node{Kind: yaml.ScalarNode, Value: "<<"}
				parent.Content[i] = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{merged, alias}}
			} else {
				parent.Content[i] = alias
			}
		}
	}
	walk(root)
}

// canonical is a text equal for trees equal in value.
func canonical(n *yaml.Node) string {
	var b strings.Builder
	var write func(n *yaml.Node)
	write = func(n *yaml.Node) {
		n = deref(n)
		fmt.Fprintf(&b, "%d%s%q(", n.Kind, n.ShortTag(), n.Value)
		for _, c := range n.Content {
			write(c)
		}
		b.WriteString(")")
	}
	write(n)
	return b.String()
}

// encodeJSON writes a tree as JSON, aliases expanded, compact or indented.
func encodeJSON(doc *yaml.Node, indented bool) []byte {
	var b bytes.Buffer
	var write func(n *yaml.Node)
	write = func(n *yaml.Node) {
		n = deref(n)
		switch n.Kind {
		case yaml.DocumentNode:
			write(n.Content[0])
		case yaml.MappingNode:
			b.WriteByte('{')
			for i := 0; i+1 < len(n.Content); i += 2 {
				if i > 0 {
					b.WriteByte(',')
				}
				writeJSONString(&b, n.Content[i].Value)
				b.WriteByte(':')
				write(n.Content[i+1])
			}
			b.WriteByte('}')
		case yaml.SequenceNode:
			b.WriteByte('[')
			for i, c := range n.Content {
				if i > 0 {
					b.WriteByte(',')
				}
				write(c)
			}
			b.WriteByte(']')
		default:
			switch tag := n.ShortTag(); {
			case tag == "!!null":
				b.WriteString("null")
			case tag == "!!bool":
				b.WriteString(strconv.FormatBool(strings.EqualFold(n.Value, "true")))
			case (tag == "!!int" || tag == "!!float") && json.Valid([]byte(n.Value)):
				b.WriteString(n.Value)
			default:
				writeJSONString(&b, n.Value)
			}
		}
	}
	write(doc)
	if !indented {
		return append(b.Bytes(), '\n')
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		panic(err) // written above: a bug of the test
	}
	return append(out.Bytes(), '\n')
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}
