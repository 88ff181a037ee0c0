package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apiver/apiver/internal/corpus"
	"go.yaml.in/yaml/v3"
)

// TestPipelinesAgreeOnCorpusMutations revises real snapshots as their
// authors might (the mutations below, a few at a time) and runs check,
// diff and changelog build on each pair through both pipelines. The base
// is the snapshot itself, or the snapshot before it in the corpus; the
// pair is written in the snapshot's own text (the base as published, the
// revision re-encoded), re-encoded with yaml.v3, or as JSON, in turn.
//
//	APIVER_DIFF_MUTATIONS  how many mutations in all (default 6)
//	APIVER_DIFF_SEED       the seed (default 1); revision i depends only on it and i
//	APIVER_DIFF_SNAPSHOTS  how many snapshots, oldest (smallest) first, to draw from (default 2; 0: all)
//
// scripts/differential.sh runs it long.
func TestPipelinesAgreeOnCorpusMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: each revision loads two large snapshots six times")
	}
	t.Parallel()
	mutations := envCount(t, "APIVER_DIFF_MUTATIONS", 6)
	seed := uint64(envCount(t, "APIVER_DIFF_SEED", 1))
	names := corpus.Names(t)
	if n := envCount(t, "APIVER_DIFF_SNAPSHOTS", 2); n > 0 && n < len(names) {
		names = names[:n]
	}
	config, err := filepath.Abs("testdata/atlas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	all := corpus.Names(t)
	unpacked := corpus.Unpack(t, withPredecessors(all, names)...)
	work := t.TempDir()

	var documents, applied, commands, differences int
	for i := 0; applied < mutations; i++ {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		name := names[rng.IntN(len(names))]
		baseName, revDate := name, addDays(t, dateOf(name), 14)
		if k := slices.Index(all, name); k > 0 && rng.IntN(4) == 0 {
			// Real changes beside the mutations: the corpus's previous snapshot as the base.
			baseName, revDate = all[k-1], dateOf(name)
		}
		text, err := os.ReadFile(filepath.Join(unpacked, name))
		if err != nil {
			t.Fatal(err)
		}
		baseText, err := os.ReadFile(filepath.Join(unpacked, baseName))
		if err != nil {
			t.Fatal(err)
		}
		revision := parseDocument(t, name, text)
		m := &mutator{root: revision.Content[0], c: rng, newDate: revDate}
		var done []string
		for range min(1+rng.IntN(3), mutations-applied) {
			done = append(done, m.apply(corpusMutations))
		}
		applied += len(done)

		form := []string{"published", "yaml", "json"}[i%3]
		var baseOut, revOut []byte
		ext := ".yaml"
		switch form {
		case "published":
			baseOut, revOut = baseText, encodeYAML(t, revision)
		case "yaml":
			baseOut, revOut = encodeYAML(t, parseDocument(t, baseName, baseText)), encodeYAML(t, revision)
		case "json":
			baseOut, revOut, ext = encodeJSON(parseDocument(t, baseName, baseText), true), encodeJSON(revision, true), ".json"
		}
		dir := fmt.Sprintf("rev%d", i)
		basePath := filepath.Join(dir, "atlas-api-"+dateOf(baseName)+ext)
		revPath := filepath.Join(dir, "atlas-api-"+revDate+ext)
		writeCaseFile(t, filepath.Join(work, basePath), baseOut)
		writeCaseFile(t, filepath.Join(work, revPath), revOut)
		caseName := fmt.Sprintf("seed %d revision %d (%s → %s, %s): %s", seed, i, baseName, revDate, form, strings.Join(done, "; "))
		t.Logf("%s", caseName)
		agreed := true
		for _, args := range [][]string{
			{"check", "--config", config, "--format", "json", basePath, revPath},
			{"diff", "--config", config, "--format", "json", basePath, revPath},
			{"changelog", "build", "--config", config, dir},
		} {
			_, ok := agreeAsProcesses(t, work, caseName, args)
			agreed = agreed && ok
			commands++
		}
		documents += 2
		if agreed {
			os.RemoveAll(filepath.Join(work, dir))
		} else {
			differences++
			keepPair(t, work, dir)
		}
	}
	t.Logf("compared %d documents (%d pairs) carrying %d mutations, %d commands through both pipelines; %d pairs differed (seed %d)",
		documents, documents/2, applied, commands, differences, seed)
}

// envCount reads a count from the environment, def when unset.
func envCount(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("$%s=%q: want a count", name, v)
	}
	return n
}

// withPredecessors is names and, for each, the snapshot before it in all,
// which a revision may take as its base.
func withPredecessors(all, names []string) []string {
	var out []string
	for _, name := range names {
		if k := slices.Index(all, name); k > 0 {
			out = append(out, all[k-1])
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func addDays(t *testing.T, date string, days int) string {
	t.Helper()
	d, err := time.Parse(time.DateOnly, date)
	if err != nil {
		t.Fatal(err)
	}
	return d.AddDate(0, 0, days).Format(time.DateOnly)
}

func parseDocument(t *testing.T, name string, text []byte) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		t.Fatalf("%s: not a mapping at the top", name)
	}
	return &doc
}

func encodeYAML(t testing.TB, doc *yaml.Node) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// keepPair copies a pair the pipelines disagree on, the folder dir of work,
// to the test's artifact folder (go test -artifacts keeps it), to be cut
// down to a case of testdata/exact.
func keepPair(t *testing.T, work, dir string) {
	t.Helper()
	out := filepath.Join(t.ArtifactDir(), dir)
	if err := os.CopyFS(out, os.DirFS(filepath.Join(work, dir))); err != nil {
		t.Error(err)
		return
	}
	t.Logf("the pair is kept in %s", out)
}

// The mutations. Each edits a document's tree in place as a revision of it
// might, and says what it did; it says "" when the document holds nothing
// it applies to. They serve the corpus test and FuzzPipelinesAgree alike.

type mutation struct {
	name string
	edit func(m *mutator) string
}

// chooser makes a generator's or a mutation's choices: *rand.Rand for the
// corpus, the fuzz input's bytes for the fuzz target.
type chooser interface {
	IntN(n int) int
}

func pick[T any](c chooser, xs []T) T { return xs[c.IntN(len(xs))] }

// mutator is a document being revised.
type mutator struct {
	root *yaml.Node // the top mapping
	c    chooser
	// newDate is the revision's date: of the versions it adds, and the
	// base of the sunsets it declares.
	newDate string
	fresh   int // numbers the names it makes
}

// apply makes one mutation of those given, chosen at random; when the
// document holds nothing the chosen one applies to, the next one that
// applies.
func (m *mutator) apply(from []mutation) string {
	return m.applyFrom(from, m.c.IntN(len(from)))
}

func (m *mutator) applyFrom(from []mutation, first int) string {
	for k := range from {
		mu := from[(first+k)%len(from)]
		if what := mu.edit(m); what != "" {
			return mu.name + ": " + what
		}
	}
	return "nothing applied"
}

func (m *mutator) freshName(prefix string) string {
	m.fresh++
	return fmt.Sprintf("%s%d", prefix, m.fresh)
}

var corpusMutations = []mutation{
	{"operation-removed", removeOperation},
	{"operation-added", addOperation},
	{"required-parameter-added", addRequiredParameter},
	{"schema-type-changed", changeSchemaType},
	{"enum-value-removed", removeEnumValue},
	{"enum-value-added", addEnumValue},
	{"required-property-added", addRequiredProperty},
	{"schema-bound-changed", changeSchemaBound},
	{"property-removed", removeProperty},
	{"property-added", addProperty},
	{"pattern-changed", changePattern},
	{"moved-behind-ref", moveBehindRef},
	{"component-renamed", renameComponent},
	{"media-type-version-added", addMediaTypeVersion},
	{"media-type-version-replaced", replaceMediaTypeVersion},
	{"operation-deprecated", deprecateOperation},
	{"sunset-declared", declareSunset},
	{"stability-level-set", setStabilityLevel},
	{"description-edited", editDescription},
	{"example-edited", editExample},
	{"servers-edited", editServers},
	{"security-edited", editSecurity},
	{"tags-edited", editTags},
	{"path-level-parameter", addPathLevelParameter},
	{"schema-inlined", inlineSchema},
	{"schema-outlined", outlineSchema},
}

// Tree helpers.

var methodNames = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// lookup is the value of key in the mapping n, nil when there is none.
func lookup(n *yaml.Node, key string) *yaml.Node {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return deref(n.Content[i+1])
		}
	}
	return nil
}

// setKey sets key's value in the mapping n, adding the key at the end.
func setKey(n *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content[i+1] = v
			return
		}
	}
	n.Content = append(n.Content, str(key), v)
}

func deleteKey(n *yaml.Node, key string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content = slices.Delete(n.Content, i, i+2)
			return
		}
	}
}

// child is the mapping under key in n, made when absent.
func child(n *yaml.Node, key string) *yaml.Node {
	if c := lookup(n, key); c != nil && c.Kind == yaml.MappingNode {
		return c
	}
	c := mapping()
	setKey(n, key, c)
	return c
}

// list is the sequence under key in n, made when absent.
func list(n *yaml.Node, key string) *yaml.Node {
	if l := lookup(n, key); l != nil && l.Kind == yaml.SequenceNode {
		return l
	}
	l := sequence()
	setKey(n, key, l)
	return l
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func scalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// mapping makes a mapping of keys and values; a value is a *yaml.Node or
// a string.
func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		v, ok := kv[i+1].(*yaml.Node)
		if !ok {
			v = str(kv[i+1].(string))
		}
		n.Content = append(n.Content, str(kv[i].(string)), v)
	}
	return n
}

func sequence(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

func deepCopy(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = deepCopy(x)
	}
	return &c
}

// pairs are a mapping's entries, keys and values, aliases resolved.
func pairs(n *yaml.Node) [][2]*yaml.Node {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]*yaml.Node{n.Content[i], deref(n.Content[i+1])})
	}
	return out
}

func refTo(kind, name string) *yaml.Node {
	return mapping("$ref", "#/components/"+kind+"/"+name)
}

// refTarget is the "kind/name" a local component $ref names.
func refTarget(n *yaml.Node) (kind, name string, ok bool) {
	ref := lookup(n, "$ref")
	if ref == nil {
		return "", "", false
	}
	rest, ok := strings.CutPrefix(ref.Value, "#/components/")
	if !ok {
		return "", "", false
	}
	kind, name, ok = strings.Cut(rest, "/")
	return kind, name, ok
}

// eachNode calls fn on every node under n, keys too, each once.
func eachNode(n *yaml.Node, fn func(n *yaml.Node)) {
	fn(n)
	for _, c := range n.Content {
		eachNode(c, fn)
	}
}

// operationAt is an operation with where it is.
type operationAt struct {
	path, method string
	item, op     *yaml.Node
}

func (m *mutator) operations() []operationAt {
	var out []operationAt
	for _, p := range pairs(lookup(m.root, "paths")) {
		for _, mp := range pairs(p[1]) {
			if slices.Contains(methodNames, mp[0].Value) && mp[1].Kind == yaml.MappingNode {
				out = append(out, operationAt{p[0].Value, mp[0].Value, p[1], mp[1]})
			}
		}
	}
	return out
}

func (m *mutator) components(kind string) *yaml.Node {
	return child(child(m.root, "components"), kind)
}

// bodies are the request bodies and responses written out (not $refs), in
// operations and in components.
func (m *mutator) bodies() []*yaml.Node {
	var out []*yaml.Node
	add := func(n *yaml.Node) {
		if n != nil && n.Kind == yaml.MappingNode && lookup(n, "$ref") == nil {
			out = append(out, n)
		}
	}
	for _, o := range m.operations() {
		add(lookup(o.op, "requestBody"))
		for _, r := range pairs(lookup(o.op, "responses")) {
			add(r[1])
		}
	}
	for _, kind := range []string{"requestBodies", "responses"} {
		for _, c := range pairs(lookup(lookup(m.root, "components"), kind)) {
			add(c[1])
		}
	}
	return out
}

// mediaTypeAt is a media type object in a content map.
type mediaTypeAt struct {
	content  *yaml.Node
	index    int // of its key in content.Content
	key, obj *yaml.Node
}

var versionedMediaType = regexp.MustCompile(`^(application/vnd\.[a-z0-9-]+\.)(\d{4}-\d{2}-\d{2})(\+json.*)$`)

// versionedMediaTypes are the media types whose name carries a version.
func (m *mutator) versionedMediaTypes() []mediaTypeAt {
	var out []mediaTypeAt
	for _, body := range m.bodies() {
		content := lookup(body, "content")
		if content == nil || content.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(content.Content); i += 2 {
			k, v := content.Content[i], deref(content.Content[i+1])
			if versionedMediaType.MatchString(k.Value) && v.Kind == yaml.MappingNode {
				out = append(out, mediaTypeAt{content, i, k, v})
			}
		}
	}
	return out
}

// schemasIn lists the schema objects (not $refs) of s and its subschemas,
// not through $refs.
func schemasIn(s *yaml.Node, out []*yaml.Node) []*yaml.Node {
	s = deref(s)
	if s == nil || s.Kind != yaml.MappingNode || lookup(s, "$ref") != nil {
		return out
	}
	out = append(out, s)
	for _, key := range []string{"items", "additionalProperties", "not"} {
		out = schemasIn(lookup(s, key), out)
	}
	for _, p := range pairs(lookup(s, "properties")) {
		out = schemasIn(p[1], out)
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		if list := lookup(s, key); list != nil && list.Kind == yaml.SequenceNode {
			for _, item := range list.Content {
				out = schemasIn(item, out)
			}
		}
	}
	return out
}

// referenced is every component "kind/name" a $ref names.
func (m *mutator) referenced() map[string]bool {
	out := map[string]bool{}
	eachNode(m.root, func(n *yaml.Node) {
		if kind, name, ok := refTarget(n); ok {
			out[kind+"/"+name] = true
		}
	})
	return out
}

// schemas lists the schema objects a schema edit may change: in a shared
// component schema that something names (half the time), else in a media
// type of an operation.
func (m *mutator) schemas(fits func(s *yaml.Node) bool) []*yaml.Node {
	var roots []*yaml.Node
	if m.c.IntN(2) == 0 {
		refs := m.referenced()
		for _, c := range pairs(lookup(lookup(m.root, "components"), "schemas")) {
			if refs["schemas/"+c[0].Value] {
				roots = append(roots, c[1])
			}
		}
	} else {
		for _, mt := range m.versionedMediaTypes() {
			roots = append(roots, lookup(mt.obj, "schema"))
		}
	}
	var out []*yaml.Node
	for _, r := range roots {
		for _, s := range schemasIn(r, nil) {
			if fits(s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// editSchema applies edit to one schema that fits, chosen at random.
func (m *mutator) editSchema(fits func(s *yaml.Node) bool, edit func(s *yaml.Node) string) string {
	found := m.schemas(fits)
	if len(found) == 0 {
		return ""
	}
	s := pick(m.c, found)
	return edit(s) + at(s)
}

// at says where a node was in the document as read, for the log; nothing
// for one the generator or a mutation made.
func at(n *yaml.Node) string {
	if n.Line == 0 {
		return ""
	}
	return fmt.Sprintf(" (line %d)", n.Line)
}

func hasType(s *yaml.Node, types ...string) bool {
	t := lookup(s, "type")
	return t != nil && slices.Contains(types, t.Value)
}

// Operations and parameters.

func removeOperation(m *mutator) string {
	ops := m.operations()
	if len(ops) == 0 {
		return ""
	}
	o := pick(m.c, ops)
	deleteKey(o.item, o.method)
	remaining := false
	for _, p := range pairs(o.item) {
		remaining = remaining || slices.Contains(methodNames, p[0].Value)
	}
	if !remaining {
		deleteKey(lookup(m.root, "paths"), o.path)
	}
	return o.method + " " + o.path
}

func addOperation(m *mutator) string {
	ops := m.operations()
	if len(ops) == 0 {
		return ""
	}
	o := pick(m.c, ops)
	op := deepCopy(o.op)
	if id := lookup(op, "operationId"); id != nil {
		id.Value = m.freshName(id.Value + "Copy")
	}
	for _, method := range methodNames[:3] {
		if lookup(o.item, method) == nil && m.c.IntN(2) == 0 {
			setKey(o.item, method, op)
			return method + " " + o.path
		}
	}
	// A new path under the old one keeps its template's parameters.
	item := deepCopy(o.item)
	for _, method := range methodNames {
		deleteKey(item, method)
	}
	setKey(item, o.method, op)
	path := strings.TrimSuffix(o.path, "/") + "/" + m.freshName("added")
	setKey(lookup(m.root, "paths"), path, item)
	return o.method + " " + path
}

func addRequiredParameter(m *mutator) string {
	ops := m.operations()
	if len(ops) == 0 {
		return ""
	}
	o := pick(m.c, ops)
	in := pick(m.c, []string{"query", "header"})
	name := m.freshName("mutated")
	param := mapping("name", name, "in", in, "required", scalar("!!bool", "true"), "schema", mapping("type", "string"))
	if m.c.IntN(3) == 0 {
		setKey(m.components("parameters"), name, param)
		param = refTo("parameters", name)
	}
	params := list(o.op, "parameters")
	params.Content = append(params.Content, param)
	return fmt.Sprintf("%s %s: %s in %s", o.method, o.path, name, in)
}

func addPathLevelParameter(m *mutator) string {
	ops := m.operations()
	if len(ops) == 0 {
		return ""
	}
	o := pick(m.c, ops)
	params := list(o.item, "parameters")
	// Hoist an operation's path parameter to its path item, half the time.
	if own := lookup(o.op, "parameters"); own != nil && own.Kind == yaml.SequenceNode && m.c.IntN(2) == 0 {
		for i, p := range own.Content {
			if in := lookup(p, "in"); in != nil && in.Value == "path" {
				own.Content = slices.Delete(own.Content, i, i+1)
				params.Content = append(params.Content, p)
				return fmt.Sprintf("%s: hoisted from %s", o.path, o.method)
			}
		}
	}
	name := m.freshName("pathLevel")
	required := pick(m.c, []string{"true", "false"})
	params.Content = append(params.Content, mapping("name", name, "in", "query", "required", scalar("!!bool", required), "schema", mapping("type", "integer")))
	return fmt.Sprintf("%s: %s, required %s", o.path, name, required)
}

// Schema edits.

var schemaTypes = []string{"string", "integer", "number", "boolean", "object", "array"}

func changeSchemaType(m *mutator) string {
	return m.editSchema(func(s *yaml.Node) bool { return lookup(s, "type") != nil }, func(s *yaml.Node) string {
		t := lookup(s, "type")
		from := t.Value
		others := slices.DeleteFunc(slices.Clone(schemaTypes), func(x string) bool { return x == from })
		*t = *str(pick(m.c, others))
		return from + " → " + t.Value
	})
}

func enumOf(s *yaml.Node) *yaml.Node {
	if e := lookup(s, "enum"); e != nil && e.Kind == yaml.SequenceNode {
		return e
	}
	return nil
}

func removeEnumValue(m *mutator) string {
	return m.editSchema(func(s *yaml.Node) bool { e := enumOf(s); return e != nil && len(e.Content) > 1 }, func(s *yaml.Node) string {
		e := enumOf(s)
		i := m.c.IntN(len(e.Content))
		v := e.Content[i].Value
		e.Content = slices.Delete(e.Content, i, i+1)
		return "removed " + v
	})
}

func addEnumValue(m *mutator) string {
	return m.editSchema(func(s *yaml.Node) bool { return enumOf(s) != nil }, func(s *yaml.Node) string {
		e := enumOf(s)
		v := str(m.freshName("ADDED_"))
		if len(e.Content) > 0 && e.Content[0].Tag == "!!int" {
			v = scalar("!!int", strconv.Itoa(1000+m.c.IntN(1000)))
		}
		e.Content = append(e.Content, v)
		return "added " + v.Value
	})
}

func addRequiredProperty(m *mutator) string {
	notRequired := func(s *yaml.Node) []string {
		var out []string
		req := lookup(s, "required")
		for _, p := range pairs(lookup(s, "properties")) {
			listed := false
			if req != nil {
				for _, r := range req.Content {
					listed = listed || r.Value == p[0].Value
				}
			}
			if !listed {
				out = append(out, p[0].Value)
			}
		}
		return out
	}
	return m.editSchema(func(s *yaml.Node) bool { return len(notRequired(s)) > 0 }, func(s *yaml.Node) string {
		name := pick(m.c, notRequired(s))
		req := lookup(s, "required")
		if req == nil || req.Kind != yaml.SequenceNode {
			req = sequence()
			setKey(s, "required", req)
		}
		req.Content = append(req.Content, str(name))
		return "required " + name
	})
}

func changeSchemaBound(m *mutator) string {
	return m.editSchema(func(s *yaml.Node) bool { return hasType(s, "array", "string") }, func(s *yaml.Node) string {
		key := "minItems"
		if hasType(s, "string") {
			key = pick(m.c, []string{"maxLength", "minLength"})
		}
		n := 1 + m.c.IntN(64)
		if old := lookup(s, key); old != nil {
			if v, err := strconv.Atoi(old.Value); err == nil && v > 1 {
				n = v + pick(m.c, []int{-1, 1})
			}
		}
		setKey(s, key, scalar("!!int", strconv.Itoa(n)))
		return fmt.Sprintf("%s %d", key, n)
	})
}

func removeProperty(m *mutator) string {
	return m.editSchema(func(s *yaml.Node) bool { return len(pairs(lookup(s, "properties"))) > 0 }, func(s *yaml.Node) string {
		props := lookup(s, "properties")
		name := pick(m.c, pairs(props))[0].Value
		deleteKey(props, name)
		if req := lookup(s, "required"); req != nil {
			req.Content = slices.DeleteFunc(req.Content, func(r *yaml.Node) bool { return r.Value == name })
		}
		return "removed " + name
	})
}

func addProperty(m *mutator) string {
	return m.editSchema(func(s *yaml.Node) bool { return lookup(s, "properties") != nil || hasType(s, "object") }, func(s *yaml.Node) string {
		name := m.freshName("added")
		setKey(child(s, "properties"), name, mapping("type", pick(m.c, schemaTypes[:4])))
		return "added " + name
	})
}

func changePattern(m *mutator) string {
	return m.editSchema(func(s *yaml.Node) bool { return hasType(s, "string") }, func(s *yaml.Node) string {
		p := pick(m.c, []string{"^[a-z0-9]+$", "^[A-Z]{2,8}$", `^\d{4}-\d{2}-\d{2}$`})
		if old := lookup(s, "pattern"); old != nil && old.Value == p {
			p += "|^$"
		}
		setKey(s, "pattern", str(p))
		return "pattern " + p
	})
}

// References and components.

// moveBehindRef moves a response, request body or parameter of an
// operation into components, behind a chain of one or two $refs; one
// already behind a $ref gets one more step.
func moveBehindRef(m *mutator) string {
	type place struct {
		kind string
		obj  *yaml.Node
		set  func(*yaml.Node)
	}
	var places []place
	for _, o := range m.operations() {
		if body := lookup(o.op, "requestBody"); body != nil {
			places = append(places, place{"requestBodies", body, func(n *yaml.Node) { setKey(o.op, "requestBody", n) }})
		}
		responses := lookup(o.op, "responses")
		for _, r := range pairs(responses) {
			code := r[0].Value
			places = append(places, place{"responses", r[1], func(n *yaml.Node) { setKey(responses, code, n) }})
		}
		if params := lookup(o.op, "parameters"); params != nil && params.Kind == yaml.SequenceNode {
			for i, p := range params.Content {
				places = append(places, place{"parameters", deref(p), func(n *yaml.Node) { params.Content[i] = n }})
			}
		}
	}
	if len(places) == 0 {
		return ""
	}
	p := pick(m.c, places)
	steps := 1 + m.c.IntN(2)
	if _, _, ok := refTarget(p.obj); ok {
		steps = 1
	}
	obj := p.obj
	for range steps {
		name := m.freshName("Moved")
		setKey(m.components(p.kind), name, obj)
		obj = refTo(p.kind, name)
	}
	p.set(obj)
	return fmt.Sprintf("%s behind %d $ref(s)%s", p.kind, steps, at(p.obj))
}

// renameComponent renames a component and every reference to it.
func renameComponent(m *mutator) string {
	var kinds []string
	for _, k := range pairs(lookup(m.root, "components")) {
		if len(pairs(k[1])) > 0 {
			kinds = append(kinds, k[0].Value)
		}
	}
	if len(kinds) == 0 {
		return ""
	}
	kind := pick(m.c, kinds)
	entry := pick(m.c, pairs(lookup(lookup(m.root, "components"), kind)))
	old := entry[0].Value
	renamed := m.freshName(old + "Renamed")
	entry[0].Value = renamed
	if kind == "securitySchemes" {
		// Security requirements name schemes by key.
		eachNode(m.root, func(n *yaml.Node) {
			if sec := lookup(n, "security"); sec != nil && sec.Kind == yaml.SequenceNode {
				for _, req := range sec.Content {
					for _, p := range pairs(req) {
						if p[0].Value == old {
							p[0].Value = renamed
						}
					}
				}
			}
		})
		return kind + "/" + old + " → " + renamed
	}
	from, to := "#/components/"+kind+"/"+old, "#/components/"+kind+"/"+renamed
	eachNode(m.root, func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && n.Value == from {
			n.Value = to
		}
	})
	return kind + "/" + old + " → " + renamed
}

// newVersion picks a versioned media type and names its version of the
// revision's date; false when there is none, or the content has it.
func (m *mutator) newVersion() (mt mediaTypeAt, name string, ok bool) {
	mts := m.versionedMediaTypes()
	if len(mts) == 0 {
		return mt, "", false
	}
	mt = pick(m.c, mts)
	name = versionedMediaType.ReplaceAllString(mt.key.Value, "${1}"+m.newDate+"${3}")
	return mt, name, name != mt.key.Value && lookup(mt.content, name) == nil
}

// addMediaTypeVersion adds a version of a media type, dated the
// revision's, beside the one it copies.
func addMediaTypeVersion(m *mutator) string {
	mt, name, ok := m.newVersion()
	if !ok {
		return ""
	}
	mt.content.Content = slices.Insert(mt.content.Content, mt.index+2, str(name), deepCopy(mt.obj))
	return fmt.Sprintf("%s beside %s%s", name, mt.key.Value, at(mt.key))
}

// replaceMediaTypeVersion renames a versioned media type to the
// revision's date: the new version replaces the old.
func replaceMediaTypeVersion(m *mutator) string {
	mt, name, ok := m.newVersion()
	if !ok {
		return ""
	}
	old := mt.key.Value
	mt.key.Value = name
	return fmt.Sprintf("%s replaces %s%s", name, old, at(mt.key))
}

// Lifecycle.

func deprecateOperation(m *mutator) string {
	ops := m.operations()
	if len(ops) == 0 {
		return ""
	}
	o := pick(m.c, ops)
	setKey(o.op, "deprecated", scalar("!!bool", "true"))
	if m.c.IntN(2) == 0 {
		setKey(o.op, "x-sunset", m.sunsetDate())
	}
	return o.method + " " + o.path
}

// sunsetDate is an x-sunset value: a year after the revision, or before
// it; quoted or a plain date (a YAML timestamp), or not a date at all.
func (m *mutator) sunsetDate() *yaml.Node {
	year, _ := strconv.Atoi(m.newDate[:4])
	date := fmt.Sprintf("%d%s", year+pick(m.c, []int{1, -1, 2}), m.newDate[4:])
	switch m.c.IntN(4) {
	case 0:
		return scalar("!!timestamp", date)
	case 1:
		return str(date + "T00:00:00Z")
	case 2:
		return str("soon")
	}
	return str(date)
}

func declareSunset(m *mutator) string {
	mts := m.versionedMediaTypes()
	if len(mts) == 0 {
		return ""
	}
	mt := pick(m.c, mts)
	setKey(mt.obj, "x-sunset", m.sunsetDate())
	return mt.key.Value + at(mt.key)
}

func setStabilityLevel(m *mutator) string {
	level := pick(m.c, []string{"beta", "alpha", "draft", "stable"})
	if mts := m.versionedMediaTypes(); len(mts) > 0 && m.c.IntN(2) == 0 {
		mt := pick(m.c, mts)
		setKey(mt.obj, "x-stability-level", str(level))
		return fmt.Sprintf("%s on %s%s", level, mt.key.Value, at(mt.key))
	}
	ops := m.operations()
	if len(ops) == 0 {
		return ""
	}
	o := pick(m.c, ops)
	setKey(o.op, "x-stability-level", str(level))
	return fmt.Sprintf("%s on %s %s", level, o.method, o.path)
}

// Text the diff does not compare, and what every operation reads.

// keyed lists the values of key that satisfy fits, anywhere.
func (m *mutator) keyed(key string, fits func(v *yaml.Node) bool) []*yaml.Node {
	var out []*yaml.Node
	eachNode(m.root, func(n *yaml.Node) {
		for _, p := range pairs(n) {
			if p[0].Value == key && fits(p[1]) {
				out = append(out, p[1])
			}
		}
	})
	return out
}

func editDescription(m *mutator) string {
	found := m.keyed("description", func(v *yaml.Node) bool { return v.Kind == yaml.ScalarNode && v.Tag == "!!str" })
	if len(found) == 0 || m.c.IntN(4) == 0 {
		schemas := m.schemas(func(*yaml.Node) bool { return true })
		if len(schemas) == 0 {
			return ""
		}
		s := pick(m.c, schemas)
		setKey(s, "description", str("Added by a revision."))
		return "added on a schema" + at(s)
	}
	d := pick(m.c, found)
	d.Value += " Edited."
	d.Style = yaml.DoubleQuotedStyle
	return "edited" + at(d)
}

func editExample(m *mutator) string {
	found := m.keyed("example", func(v *yaml.Node) bool { return v.Kind != yaml.AliasNode })
	if len(found) == 0 || m.c.IntN(4) == 0 {
		schemas := m.schemas(func(*yaml.Node) bool { return true })
		if len(schemas) == 0 {
			return ""
		}
		s := pick(m.c, schemas)
		setKey(s, "example", pick(m.c, []*yaml.Node{str("edited"), scalar("!!int", "42"), mapping("edited", "yes")}))
		return "added on a schema" + at(s)
	}
	e := pick(m.c, found)
	where := at(e)
	switch e.Kind {
	case yaml.ScalarNode:
		*e = *str(e.Value + " edited")
	case yaml.MappingNode:
		setKey(e, "edited", str("yes"))
	case yaml.SequenceNode:
		e.Content = append(e.Content, str("edited"))
	}
	return "edited" + where
}

func editServers(m *mutator) string {
	servers := list(m.root, "servers")
	if len(servers.Content) == 0 || m.c.IntN(2) == 0 {
		url := "https://" + m.freshName("mirror") + ".example.com"
		servers.Content = append(servers.Content, mapping("url", url))
		return "added " + url
	}
	s := pick(m.c, servers.Content)
	setKey(s, "url", str("https://edited.example.com"))
	return "edited a url"
}

func editSecurity(m *mutator) string {
	var schemes []string
	for _, s := range pairs(lookup(lookup(m.root, "components"), "securitySchemes")) {
		schemes = append(schemes, s[0].Value)
	}
	if len(schemes) == 0 || m.c.IntN(3) == 0 {
		name := m.freshName("mutatedAuth")
		setKey(m.components("securitySchemes"), name, mapping("type", "apiKey", "in", "header", "name", "X-Key"))
		schemes = append(schemes, name)
	}
	requirement := mapping(pick(m.c, schemes), sequence())
	if ops := m.operations(); len(ops) > 0 && m.c.IntN(2) == 0 {
		o := pick(m.c, ops)
		setKey(o.op, "security", pick(m.c, []*yaml.Node{sequence(requirement), sequence()}))
		return o.method + " " + o.path
	}
	sec := list(m.root, "security")
	sec.Content = append(sec.Content, requirement)
	return "the document's requirements"
}

func editTags(m *mutator) string {
	if ops := m.operations(); len(ops) > 0 && m.c.IntN(2) == 0 {
		o := pick(m.c, ops)
		tags := list(o.op, "tags")
		tags.Content = append(tags.Content, str("Mutated"))
		return o.method + " " + o.path
	}
	tags := list(m.root, "tags")
	tags.Content = append(tags.Content, mapping("name", m.freshName("Mutated"), "description", "A tag a revision added."))
	return "the document's tags"
}

// Inline and outline.

// schemaPlace is a schema position of a media type or a property, with
// how to replace what it holds.
type schemaPlace struct {
	schema *yaml.Node
	set    func(*yaml.Node)
}

func (m *mutator) schemaPlaces() []schemaPlace {
	var out []schemaPlace
	within := func(s *yaml.Node) {
		props := lookup(s, "properties")
		for _, p := range pairs(props) {
			name := p[0].Value
			out = append(out, schemaPlace{p[1], func(n *yaml.Node) { setKey(props, name, n) }})
		}
		if items := lookup(s, "items"); items != nil {
			out = append(out, schemaPlace{items, func(n *yaml.Node) { setKey(s, "items", n) }})
		}
	}
	for _, mt := range m.versionedMediaTypes() {
		if s := lookup(mt.obj, "schema"); s != nil {
			obj := mt.obj
			out = append(out, schemaPlace{s, func(n *yaml.Node) { setKey(obj, "schema", n) }})
			for _, sub := range schemasIn(s, nil) {
				within(sub)
			}
		}
	}
	for _, c := range pairs(lookup(lookup(m.root, "components"), "schemas")) {
		for _, sub := range schemasIn(c[1], nil) {
			within(sub)
		}
	}
	return out
}

// inlineSchema writes out a component schema where a $ref named it.
func inlineSchema(m *mutator) string {
	schemas := lookup(lookup(m.root, "components"), "schemas")
	var refs []schemaPlace
	for _, p := range m.schemaPlaces() {
		if kind, name, ok := refTarget(p.schema); ok && kind == "schemas" && lookup(schemas, name) != nil {
			refs = append(refs, p)
		}
	}
	if len(refs) == 0 {
		return ""
	}
	p := pick(m.c, refs)
	_, name, _ := refTarget(p.schema)
	p.set(deepCopy(lookup(schemas, name)))
	return name + at(p.schema)
}

// outlineSchema moves a schema written out into a new component.
func outlineSchema(m *mutator) string {
	var inline []schemaPlace
	for _, p := range m.schemaPlaces() {
		if _, _, ok := refTarget(p.schema); !ok && p.schema.Kind == yaml.MappingNode {
			inline = append(inline, p)
		}
	}
	if len(inline) == 0 {
		return ""
	}
	p := pick(m.c, inline)
	name := m.freshName("Outlined")
	setKey(m.components("schemas"), name, p.schema)
	p.set(refTo("schemas", name))
	return "as " + name + at(p.schema)
}
