// Package versions is apiver's version model: the vendor media types that
// name a resource version (application/vnd.<product>.<yyyy-mm-dd>+json),
// the operations of a document and the versions they carry, stability
// levels, sunset dates, and the versions and dates that file names carry.
// It reads parsed documents and names; reading and loading them is package
// specs's.
package versions

import (
	"cmp"
	"errors"
	"maps"
	"slices"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/getkin/kin-openapi/openapi3"
)

// Direction says who sends an operation's request and who reads it.
type Direction int

const (
	// Inbound is an operation under paths: the client sends the request
	// and reads the response.
	Inbound Direction = iota
	// Webhook is an operation under webhooks: the API sends the request
	// (the payload) and the consumer's server reads it and responds.
	Webhook
	// Callback is an operation of a callback: the API sends the request
	// to a URL the client gave, as for a webhook.
	Callback
)

// Outbound reports whether the API sends the request: what it sends is
// read by a consumer, as a response is.
func (d Direction) Outbound() bool { return d != Inbound }

// Operation is one method on one path with the resource versions it carries;
// or a webhook, whose Path is "webhook:NAME"; or a callback, whose Path is
// its URL expression.
type Operation struct {
	Method string
	Path   string
	// Direction is who sends the request.
	Direction Direction
	// Via is, for a callback, the operation that registers it, and
	// Callback the callback's name.
	Via      *Operation
	Callback string
	// Item is the path item the operation is in, whose parameters it takes.
	Item *openapi3.PathItem
	// Op is the operation as written, for lifecycle facts (deprecated,
	// x-sunset) that are not part of any one version's view.
	Op *openapi3.Operation
	// Versions are the dated versions, oldest first: in the order of
	// their names, YYYY-MM-DD.
	Versions []Version
	// PreRelease versions (preview, .upcoming, or marked x-stability-level
	// draft, alpha or beta) are listed but never gated.
	PreRelease []Version
	// Invalid holds vendor media types whose version is not a real date.
	Invalid []*InvalidVersionError
	// Unversioned is the operation's view when it carries no version.
	Unversioned *openapi3.Operation
	// docLevel is the stability its document declares at its root, for
	// an operation that declares none.
	docLevel string
}

// Unstable reports whether the operation itself is marked draft, alpha or
// beta (x-stability-level, x-snyk-api-stability), or its document is and
// it says nothing: an unversioned one is never gated.
func (o *Operation) Unstable() bool {
	return Unstable(o.Level())
}

// Level is the operation's declared level, else its document's; "" when
// neither declares one.
func (o *Operation) Level() string {
	return cmp.Or(StabilityOf(o.Op.Extensions), o.docLevel)
}

// Name is "METHOD /path", the way findings name an operation; a webhook's
// is "METHOD webhook:NAME", a callback's "METHOD /path callback NAME
// EXPRESSION METHOD", under the operation that registers it.
func (o *Operation) Name() string {
	if o.Via != nil {
		return o.Via.Name() + " callback " + o.Callback + " " + o.Path + " " + o.Method
	}
	return o.Method + " " + o.Path
}

// Key identifies the operation across snapshots: path parameter names do not
// matter, so a renamed parameter still pairs.
func (o *Operation) Key() string {
	if o.Via != nil {
		return o.Via.Key() + " callback " + o.Callback + " " + o.Path + " " + o.Method
	}
	return o.Method + " " + PathTemplate(o.Path)
}

// WebhookPrefix starts the path of a webhook's operation name.
const WebhookPrefix = "webhook:"

// HeadingOf is what the operation a name names is listed under in a
// history: "Webhooks" for a webhook, "" for the others, listed by path.
func HeadingOf(name string) string {
	if _, path, _ := strings.Cut(name, " "); strings.HasPrefix(path, WebhookPrefix) {
		return "Webhooks"
	}
	return ""
}

// DirectionOf is the direction of the operation a name names.
func DirectionOf(name string) Direction {
	_, path, _ := strings.Cut(name, " ")
	switch {
	case strings.HasPrefix(path, WebhookPrefix):
		return Webhook
	case strings.Contains(path, " callback "):
		return Callback
	}
	return Inbound
}

// PathTemplate is path with every parameter's name left out: "{id}" and
// "{orgId}" are both "{}". A "{" with no "}" after it stays as written.
// (The policy pairs operations by Key many times a check: no regexp.)
func PathTemplate(path string) string {
	if strings.IndexByte(path, '{') < 0 {
		return path
	}
	var b strings.Builder
	b.Grow(len(path))
	for {
		open := strings.IndexByte(path, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(path[open:], '}')
		if end < 0 {
			break
		}
		b.WriteString(path[:open])
		b.WriteString("{}")
		path = path[open+end+1:]
	}
	b.WriteString(path)
	return b.String()
}

// Versioned reports whether the operation carries any vendor version.
func (o *Operation) Versioned() bool {
	return len(o.Versions)+len(o.PreRelease)+len(o.Invalid) > 0
}

// Version returns the dated version with the given name, or nil. It
// searches Versions in name order, which is their dates': the policy asks
// for every version of an operation, which in thousands of version
// documents is thousands of times.
func (o *Operation) Version(name string) *Version {
	if i, found := slices.BinarySearchFunc(o.Versions, name, func(v Version, name string) int { return strings.Compare(v.Name, name) }); found {
		return &o.Versions[i]
	}
	return nil
}

// Version is one resource version of an operation.
type Version struct {
	Name string
	// Date is the version's date; for a pre-release, the date it names, if any.
	Date       civil.Date
	PreRelease bool
	// Retired says the version is marked sunset (LifecycleExtension): no
	// longer served, so removing it breaks no client.
	Retired bool
	// Stability is a pre-release's level, draft, alpha or beta, for the
	// clock of that level; "" for a released version, and for a
	// pre-release nothing gives a level (.upcoming, preview).
	Stability string
	// View is the operation restricted to this version: its parameters, and
	// its request body and responses with only this version's media types
	// (renamed to their version-free form) and the unversioned ones. For a
	// version document, the operation as the document writes it.
	View *openapi3.Operation
	// Document is, for a version read from a version document, where it
	// comes from; nil for a version of a media type.
	Document *InDocument
	// Line is, for a version document's version, where the operation
	// starts in it: the view may be another document's, where the
	// operation reads the same.
	Line int
}

// InDocument is where a version read from a version document comes from.
type InDocument struct {
	// File and Ref name the document, as a Snapshot's Path and Ref do.
	File, Ref string
	// Sunset is the document's info.x-sunset, zero when none.
	Sunset civil.Date
	// Next is the released document after this one, which deprecates it
	// whether or not it holds the operation (in a resource tree, the next
	// released version of the operation); nil for the newest. Only its
	// Name and Date are set.
	Next *Version
}

// AnyVersion is the dated or pre-release version with the given name, or
// nil (also for a nil operation).
func (o *Operation) AnyVersion(name string) *Version {
	if o == nil {
		return nil
	}
	if v := o.Version(name); v != nil {
		return v
	}
	for i := range o.PreRelease {
		if o.PreRelease[i].Name == name {
			return &o.PreRelease[i]
		}
	}
	return nil
}

// inDocument is the version document a version was read from, nil for a
// version of a media type.
func (o *Operation) inDocument(version string) (*Version, *InDocument) {
	if v := o.AnyVersion(version); v != nil && v.Document != nil {
		return v, v.Document
	}
	return nil, nil
}

// VersionFile is the file and ref a version was read from when it is a
// version document's; ok is false for a version of a media type, which
// lives in the snapshot's own file.
func (o *Operation) VersionFile(version string) (file, ref string, ok bool) {
	if _, d := o.inDocument(version); d != nil {
		return d.File, d.Ref, true
	}
	return "", "", false
}

// ProductOfInvalid is the product a vendor media type names whose version
// is not a real date (an *InvalidVersionError): its Product only.
func ProductOfInvalid(name string) MediaType {
	sub := strings.TrimPrefix(name, "application/vnd.")
	product, _, _ := strings.Cut(sub, ".")
	return MediaType{Product: product}
}

// Operations lists the operations of a snapshot, sorted by path and method,
// with the versions of product they carry: those under paths, each followed
// by its callbacks', then the webhooks'.
func Operations(doc *openapi3.T, product string) []*Operation {
	var ops []*Operation
	docLevel := StabilityOf(doc.Extensions)
	each := func(item *openapi3.PathItem, fn func(method string, op *openapi3.Operation)) {
		for _, method := range slices.Sorted(maps.Keys(item.Operations())) {
			fn(method, item.GetOperation(method))
		}
	}
	for _, path := range slices.Sorted(maps.Keys(doc.Paths.Map())) {
		item := doc.Paths.Value(path)
		each(item, func(method string, op *openapi3.Operation) {
			parent := newOperation(method, path, item, op, product, docLevel)
			ops = append(ops, parent)
			for _, name := range slices.Sorted(maps.Keys(op.Callbacks)) {
				cb := op.Callbacks[name]
				if cb == nil || cb.Value == nil {
					continue
				}
				for _, expr := range slices.Sorted(maps.Keys(cb.Value.Map())) {
					cbItem := cb.Value.Value(expr)
					each(cbItem, func(m string, cbOp *openapi3.Operation) {
						o := newOperation(m, expr, cbItem, cbOp, product, docLevel)
						o.Direction, o.Via, o.Callback = Callback, parent, name
						ops = append(ops, o)
					})
				}
			}
		})
	}
	for _, name := range slices.Sorted(maps.Keys(doc.Webhooks)) {
		item := doc.Webhooks[name]
		if item == nil {
			continue
		}
		each(item, func(method string, op *openapi3.Operation) {
			o := newOperation(method, WebhookPrefix+name, item, op, product, docLevel)
			o.Direction = Webhook
			ops = append(ops, o)
		})
	}
	// Each callback after the operations of its parent's path, as names sort.
	slices.SortStableFunc(ops, func(a, b *Operation) int { return CompareOperationNames(a.Name(), b.Name()) })
	return ops
}

func newOperation(method, path string, item *openapi3.PathItem, op *openapi3.Operation, product, docLevel string) *Operation {
	o := &Operation{Method: method, Path: path, Op: op, Item: item, docLevel: docLevel}
	byName := map[string]MediaType{}
	invalid := map[string]*InvalidVersionError{}
	visit := func(name string) {
		mt, ok, err := ParseMediaType(name)
		var bad *InvalidVersionError
		if errors.As(err, &bad) && ProductOfInvalid(name).Product == product {
			invalid[name] = bad
		}
		if ok && mt.Product == product {
			byName[mt.Version] = mt
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		for name := range op.RequestBody.Value.Content {
			visit(name)
		}
	}
	if op.Responses != nil {
		for _, resp := range op.Responses.Map() {
			if resp.Value != nil {
				for name := range resp.Value.Content {
					visit(name)
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(invalid)) {
		o.Invalid = append(o.Invalid, invalid[name])
	}
	if len(byName) == 0 && len(invalid) == 0 {
		o.Unversioned = view(item, op, func(name string) (string, bool) { return name, true })
		withStability(o.Unversioned, o.Level())
		return o
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		mt := byName[name]
		level := versionStability(op, product, name, docLevel)
		v := Version{Name: name, PreRelease: mt.PreRelease || Unstable(level)}
		if Unstable(level) {
			v.Stability = level
		}
		if d, err := civil.ParseDate(strings.TrimSuffix(name, ".upcoming")); err == nil {
			v.Date = d
		}
		v.View = view(item, op, keepVersion(product, name))
		withStability(v.View, level)
		if v.PreRelease {
			o.PreRelease = append(o.PreRelease, v)
		} else {
			o.Versions = append(o.Versions, v)
		}
	}
	return o
}

// keepVersion decides, for each media type name, whether a version's view
// keeps it and under which name (ViewName).
func keepVersion(product, version string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		viewName, _, ok := ViewName(product, version, name)
		return viewName, ok
	}
}

// ViewName is the name under which the view of a product's version keeps
// a media type: the version's own media types (own) lose their version so
// they pair with another version's; unversioned media types and other
// products' belong to every version; other versions' media types and
// names that do not parse are dropped (ok false).
func ViewName(product, version, name string) (viewName string, own, ok bool) {
	mt, versioned, err := ParseMediaType(name)
	switch {
	case err != nil:
		return "", false, false
	case !versioned || mt.Product != product:
		return name, false, true
	case mt.Version == version:
		return mt.Normalized(), true, true
	}
	return "", false, false
}

// view builds an operation restricted by keep. It copies only the parts it
// changes: schemas stay shared with the document.
func view(item *openapi3.PathItem, op *openapi3.Operation, keep func(string) (string, bool)) *openapi3.Operation {
	v := *op
	v.Parameters = mergeParameters(item.Parameters, op.Parameters)
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		content, emptied := filterContent(op.RequestBody.Value.Content, keep)
		if emptied {
			v.RequestBody = nil
		} else {
			body := *op.RequestBody.Value
			body.Content = content
			v.RequestBody = &openapi3.RequestBodyRef{Value: &body, Extensions: op.RequestBody.Extensions, Origin: op.RequestBody.Origin}
		}
	}
	if op.Responses != nil {
		responses := openapi3.NewResponsesWithCapacity(op.Responses.Len())
		responses.Extensions = op.Responses.Extensions
		responses.Origin = op.Responses.Origin
		for status, ref := range op.Responses.Map() {
			if ref.Value == nil {
				continue
			}
			content, emptied := filterContent(ref.Value.Content, keep)
			if emptied {
				continue
			}
			resp := *ref.Value
			resp.Content = content
			responses.Set(status, &openapi3.ResponseRef{Value: &resp, Extensions: ref.Extensions, Origin: ref.Origin})
		}
		v.Responses = responses
	}
	return &v
}

// filterContent keeps the media types keep accepts; emptied reports that a
// non-empty content map lost every entry, so the body or response does not
// belong to this view at all.
func filterContent(content openapi3.Content, keep func(string) (string, bool)) (kept openapi3.Content, emptied bool) {
	if len(content) == 0 {
		return content, false
	}
	kept = openapi3.Content{}
	for name, mt := range content {
		if newName, ok := keep(name); ok {
			kept[newName] = mt
		}
	}
	return kept, len(kept) == 0
}

// mergeParameters puts path-level parameters into the operation's list unless
// the operation overrides them, as OpenAPI specifies.
func mergeParameters(pathLevel, opLevel openapi3.Parameters) openapi3.Parameters {
	if len(pathLevel) == 0 {
		return opLevel
	}
	merged := slices.Clone(opLevel)
	for _, p := range pathLevel {
		if p.Value == nil || opLevel.GetByInAndName(p.Value.In, p.Value.Name) != nil {
			continue
		}
		merged = append(merged, p)
	}
	return merged
}

// Line is where the operation starts in its file, 0 when unknown.
func (o *Operation) Line() int {
	if o.Op.Origin != nil && o.Op.Origin.Key != nil {
		return o.Op.Origin.Key.Line
	}
	return 0
}

// VersionLine is the line of the first media type that names the version:
// in the request body, else in the lowest response status. 0 when unknown.
func (o *Operation) VersionLine(version string) int {
	if v, _ := o.inDocument(version); v != nil {
		return v.Line
	}
	if o.Op.RequestBody != nil && o.Op.RequestBody.Value != nil {
		if line := contentLine(o.Op.RequestBody.Value.Content, version); line > 0 {
			return line
		}
	}
	if o.Op.Responses == nil {
		return 0
	}
	responses := o.Op.Responses.Map()
	for _, status := range slices.Sorted(maps.Keys(responses)) {
		if r := responses[status]; r.Value != nil {
			if line := contentLine(r.Value.Content, version); line > 0 {
				return line
			}
		}
	}
	return 0
}

func contentLine(content openapi3.Content, version string) int {
	for _, name := range slices.Sorted(maps.Keys(content)) {
		mt, ok, err := ParseMediaType(name)
		var bad *InvalidVersionError
		if (ok && mt.Version == version) || (errors.As(err, &bad) && bad.Version == version) {
			if m := content[name]; m.Origin != nil && m.Origin.Key != nil {
				return m.Origin.Key.Line
			}
		}
	}
	return 0
}

// Sunset is the x-sunset date declared for a version: on one of its media
// type objects, or on the operation when the operation has at most one
// version (an unversioned operation has none).
// Zero when none is declared or it is not a date.
func (o *Operation) Sunset(version string) civil.Date {
	var found civil.Date
	if v, d := o.inDocument(version); v != nil {
		// The document's, the operation's or a media type's there.
		found = d.Sunset
		for _, ext := range append([]map[string]any{v.View.Extensions}, mediaTypeExtensions(v.View)...) {
			if s := SunsetOf(ext); s.After(found) {
				found = s
			}
		}
		return found
	}
	o.eachMediaTypeOf(version, func(mt *openapi3.MediaType) {
		if d := SunsetOf(mt.Extensions); d.After(found) {
			found = d
		}
	})
	if found.IsZero() && len(o.Versions)+len(o.PreRelease) <= 1 {
		found = SunsetOf(o.Op.Extensions)
	}
	return found
}

// Deprecated reports whether a version is marked deprecated itself, not by a
// successor: the operation says `deprecated: true`, or one of the version's
// media type objects says `deprecated: true` or `x-deprecated: true` (OpenAPI
// has no deprecated field there; both spellings are in use).
func (o *Operation) Deprecated(version string) bool {
	if v, _ := o.inDocument(version); v != nil {
		return v.View.Deprecated || slices.ContainsFunc(mediaTypeExtensions(v.View), markedDeprecated)
	}
	if o.Op.Deprecated {
		return true
	}
	marked := false
	o.eachMediaTypeOf(version, func(mt *openapi3.MediaType) {
		for _, key := range []string{"deprecated", "x-deprecated"} {
			if b, ok := mt.Extensions[key].(bool); ok && b {
				marked = true
			}
		}
	})
	return marked
}

// markedDeprecated reports whether a media type object's extensions mark
// it deprecated.
func markedDeprecated(extensions map[string]any) bool {
	for _, key := range []string{"deprecated", "x-deprecated"} {
		if b, ok := extensions[key].(bool); ok && b {
			return true
		}
	}
	return false
}

// mediaTypeExtensions are the extensions of every media type object of an
// operation's request body and responses.
func mediaTypeExtensions(op *openapi3.Operation) []map[string]any {
	var out []map[string]any
	visit := func(content openapi3.Content) {
		for _, name := range slices.Sorted(maps.Keys(content)) {
			if mt := content[name]; mt != nil {
				out = append(out, mt.Extensions)
			}
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		visit(op.RequestBody.Value.Content)
	}
	if op.Responses != nil {
		for _, r := range op.Responses.Map() {
			if r.Value != nil {
				visit(r.Value.Content)
			}
		}
	}
	return out
}

// eachMediaTypeOf calls fn with every media type object of the request body
// and responses that names version.
func (o *Operation) eachMediaTypeOf(version string, fn func(*openapi3.MediaType)) {
	visit := func(content openapi3.Content) {
		for name, mt := range content {
			if parsed, ok, _ := ParseMediaType(name); ok && parsed.Version == version && mt != nil {
				fn(mt)
			}
		}
	}
	if o.Op.RequestBody != nil && o.Op.RequestBody.Value != nil {
		visit(o.Op.RequestBody.Value.Content)
	}
	if o.Op.Responses != nil {
		for _, r := range o.Op.Responses.Map() {
			if r.Value != nil {
				visit(r.Value.Content)
			}
		}
	}
}

// SunsetOf reads x-sunset as a date (YYYY-MM-DD or an RFC 3339 date-time;
// loading refuses anything else).
func SunsetOf(extensions map[string]any) civil.Date {
	s, ok := extensions["x-sunset"].(string)
	if !ok {
		return civil.Date{}
	}
	d, _ := ParseSunset(s)
	return d
}

// CompareOperationNames orders "METHOD /path" names by path, then method, so
// that listings read path by path.
func CompareOperationNames(a, b string) int {
	_, pathA, _ := strings.Cut(a, " ")
	_, pathB, _ := strings.Cut(b, " ")
	return cmp.Or(cmp.Compare(pathA, pathB), cmp.Compare(a, b))
}
