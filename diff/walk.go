package diff

import (
	"maps"
	"net/http"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// kin-openapi's WalkSchemas builds the JSON pointer of every schema it
// visits, and a strings.Replacer for every key with a "/" in it (each path
// and media type): on a release's documents most of the merge's garbage.
// rootSchemas and eachSchema visit what it visits, in its order, without
// them (TestWalksAsKinOpenAPIDoes holds them to that).

// rootSchemas is every schema reference WalkSchemas meets outside a schema,
// in its order, but for one whose schema an earlier one holds: what
// WalkSchemas visits when its function skips every subtree.
func rootSchemas(doc *openapi3.T) []*openapi3.SchemaRef {
	roots, _ := rootsAndComponents(doc)
	return roots
}

// rootsAndComponents is rootSchemas with how many of them, first, are
// component schemas.
func rootsAndComponents(doc *openapi3.T) ([]*openapi3.SchemaRef, int) {
	w := rootWalker{seen: map[*openapi3.Schema]bool{}, seenCallbacks: map[*openapi3.Callback]bool{}}
	components := w.document(doc)
	return w.roots, components
}

type rootWalker struct {
	roots         []*openapi3.SchemaRef
	seen          map[*openapi3.Schema]bool
	seenCallbacks map[*openapi3.Callback]bool
}

// document walks doc; it tells how many roots are component schemas.
func (w *rootWalker) document(doc *openapi3.T) int {
	components := 0
	if c := doc.Components; c != nil {
		for _, name := range slices.Sorted(maps.Keys(c.Schemas)) {
			w.schemaRef(c.Schemas[name])
		}
		components = len(w.roots)
		for _, name := range slices.Sorted(maps.Keys(c.Parameters)) {
			w.parameter(c.Parameters[name])
		}
		for _, name := range slices.Sorted(maps.Keys(c.Headers)) {
			w.header(c.Headers[name])
		}
		for _, name := range slices.Sorted(maps.Keys(c.RequestBodies)) {
			if rb := c.RequestBodies[name]; rb != nil && rb.Value != nil {
				w.content(rb.Value.Content)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Responses)) {
			w.response(c.Responses[name])
		}
		for _, name := range slices.Sorted(maps.Keys(c.Callbacks)) {
			if cb := c.Callbacks[name]; cb != nil && cb.Value != nil {
				w.callback(cb.Value)
			}
		}
	}
	if doc.Paths != nil {
		items := doc.Paths.Map()
		for _, path := range slices.Sorted(maps.Keys(items)) {
			w.pathItem(items[path])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(doc.Webhooks)) {
		w.pathItem(doc.Webhooks[name])
	}
	return components
}

func (w *rootWalker) pathItem(item *openapi3.PathItem) {
	if item == nil {
		return
	}
	for _, p := range item.Parameters {
		w.parameter(p)
	}
	// The operations of the fixed fields first, by method, then the
	// additional ones, by method.
	fixed := map[string]*openapi3.Operation{}
	for method, op := range map[string]*openapi3.Operation{
		http.MethodConnect: item.Connect, http.MethodDelete: item.Delete, http.MethodGet: item.Get,
		http.MethodHead: item.Head, http.MethodOptions: item.Options, http.MethodPatch: item.Patch,
		http.MethodPost: item.Post, http.MethodPut: item.Put, http.MethodTrace: item.Trace, openapi3.MethodQuery: item.Query,
	} {
		if op != nil {
			fixed[method] = op
		}
	}
	for _, method := range slices.Sorted(maps.Keys(fixed)) {
		w.operation(fixed[method])
	}
	for _, method := range slices.Sorted(maps.Keys(item.AdditionalOperations)) {
		if op := item.AdditionalOperations[method]; op != nil && fixed[method] == nil {
			w.operation(op)
		}
	}
}

func (w *rootWalker) operation(op *openapi3.Operation) {
	for _, p := range op.Parameters {
		w.parameter(p)
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		w.content(op.RequestBody.Value.Content)
	}
	if op.Responses != nil {
		responses := op.Responses.Map()
		for _, code := range slices.Sorted(maps.Keys(responses)) {
			w.response(responses[code])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(op.Callbacks)) {
		if cb := op.Callbacks[name]; cb != nil && cb.Value != nil {
			w.callback(cb.Value)
		}
	}
}

func (w *rootWalker) callback(cb *openapi3.Callback) {
	if w.seenCallbacks[cb] {
		return
	}
	w.seenCallbacks[cb] = true
	items := cb.Map()
	for _, expr := range slices.Sorted(maps.Keys(items)) {
		w.pathItem(items[expr])
	}
}

func (w *rootWalker) parameter(p *openapi3.ParameterRef) {
	if p == nil || p.Value == nil {
		return
	}
	w.schemaRef(p.Value.Schema)
	w.content(p.Value.Content)
}

func (w *rootWalker) header(h *openapi3.HeaderRef) {
	if h == nil || h.Value == nil {
		return
	}
	w.schemaRef(h.Value.Schema)
	w.content(h.Value.Content)
}

func (w *rootWalker) response(r *openapi3.ResponseRef) {
	if r == nil || r.Value == nil {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(r.Value.Headers)) {
		w.header(r.Value.Headers[name])
	}
	w.content(r.Value.Content)
}

func (w *rootWalker) content(content openapi3.Content) {
	for _, name := range slices.Sorted(maps.Keys(content)) {
		if media := content[name]; media != nil {
			w.schemaRef(media.Schema)
			w.schemaRef(media.ItemSchema)
		}
	}
}

func (w *rootWalker) schemaRef(ref *openapi3.SchemaRef) {
	if ref == nil || ref.Value == nil || w.seen[ref.Value] {
		return
	}
	w.seen[ref.Value] = true
	w.roots = append(w.roots, ref)
}

// eachSchema calls visit for every schema that roots reach, each once, in
// WalkSchemas's order; a schema's subschemas are read after visit returns.
func eachSchema(roots []*openapi3.SchemaRef, visit func(*openapi3.Schema)) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		visit(s)
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			walk(s.Properties[name])
		}
		walk(s.Items)
		walk(s.AdditionalProperties.Schema)
		for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, r := range refs {
				walk(r)
			}
		}
		walk(s.Not)
		for _, r := range s.PrefixItems {
			walk(r)
		}
		walk(s.Contains)
		for _, name := range slices.Sorted(maps.Keys(s.PatternProperties)) {
			walk(s.PatternProperties[name])
		}
		for _, name := range slices.Sorted(maps.Keys(s.DependentSchemas)) {
			walk(s.DependentSchemas[name])
		}
		for _, r := range []*openapi3.SchemaRef{s.PropertyNames, s.If, s.Then, s.Else, s.UnevaluatedItems.Schema, s.UnevaluatedProperties.Schema, s.ContentSchema} {
			walk(r)
		}
		for _, name := range slices.Sorted(maps.Keys(s.Defs)) {
			walk(s.Defs[name])
		}
	}
	for _, root := range roots {
		walk(root)
	}
}
