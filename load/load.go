// Package load loads snapshots for a comparison: the sources package specs
// read, parsed by kin-openapi into Snapshots, whole or reduced to only what
// can differ between the documents compared, as the fast pass (package
// prune) plans it; a pair of snapshots, a snapshot for its neighbours in a
// history, and folders of version documents for their comparisons
// (DocumentPair) or their operations alone (LoadDocumentSet).
package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"sync"

	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/specs/prune"
	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
)

// LoadPair loads the base and revision snapshots concurrently.
func LoadPair(basePath, revisionPath string, baseOpts, revisionOpts specs.LoadOptions) (base, revision *specs.Snapshot, err error) {
	if err := both(func() (err error) { base, err = Load(basePath, baseOpts); return err },
		func() (err error) { revision, err = Load(revisionPath, revisionOpts); return err }); err != nil {
		return nil, nil, err
	}
	return base, revision, nil
}

// Load reads and parses one snapshot file, or REF:PATH from git when no file
// has that name. Local $refs are resolved relative to the file; remote ones
// are refused unless opts.AllowRemoteRefs.
func Load(path string, opts specs.LoadOptions) (*specs.Snapshot, error) {
	src, err := specs.Read(path, opts)
	if err != nil {
		return nil, err
	}
	return loadSource(src)
}

// loadSource parses the whole document. After Index, it reuses its
// structure check instead of parsing the YAML once more.
func loadSource(s *specs.Source) (*specs.Snapshot, error) {
	return parseSource(s, prune.Reduced{}, s.RefReader(), s.Checked())
}

// loadReduced parses a reduced copy of the source s, every node on its line,
// sets its origins and puts back the skeletons it left out
// (prune.Reduction.Reduce).
// Only documents that name no other file are reduced, so a $ref that
// kin-openapi would read from a file is one the reduction lost: an error,
// which makes the caller load the whole text instead.
func loadReduced(s *specs.Source, reduced prune.Reduced) (*specs.Snapshot, error) {
	lost := func(_ *openapi3.Loader, location *url.URL) ([]byte, error) {
		return nil, fmt.Errorf("a $ref into %s lost its target", location)
	}
	return parseSource(s, reduced, lost, true)
}

// originFile is the name kin-openapi gives the file at path in origins.
func originFile(path string) string { return (&url.URL{Path: path}).String() }

// parseSource parses the reduced text in place of the source's own (its
// own when that is nil), reading $ref'd files with read; errors are those
// of the source's own text. checked says the source's structure was
// checked already.
func parseSource(s *specs.Source, reduced prune.Reduced, read openapi3.ReadFromURIFunc, checked bool) (*specs.Snapshot, error) {
	files := map[string]string{originFile(s.Path()): s.Path()}
	var mu sync.Mutex
	recorded := func(loader *openapi3.Loader, location *url.URL) ([]byte, error) {
		data, err := read(loader, location)
		if err == nil {
			mu.Lock()
			files[location.String()] = s.RefFileName(location.Path)
			mu.Unlock()
		}
		return data, err
	}
	doc, err := parse(s.Path(), s.Data(), reduced, recorded, checked, s.MaxNodes())
	if err != nil {
		// Name the input as given: PATH alone would read as the work tree file.
		if e, ok := errors.AsType[*specs.Error](err); ok && s.Ref() != "" {
			e.File = s.Arg()
		}
		return nil, err
	}
	// A checked source's name was checked with its structure (Index).
	if why := versions.NameDisagrees(s.Version(), versions.StabilityOf(doc.Extensions)); why != "" && !checked {
		file := s.Path()
		if s.Ref() != "" {
			file = s.Arg()
		}
		return nil, &specs.Error{File: file, Msg: why}
	}
	text := reduced.Text
	if text == nil {
		text = s.Data()
	}
	return s.Snapshot(doc, text, files), nil
}

// Parse turns the bytes of an OpenAPI 3.x document into a resolved document.
// path names the document in errors and resolves its relative $refs.
func Parse(path string, data []byte, allowRemoteRefs bool) (*openapi3.T, error) {
	return parse(path, data, prune.Reduced{}, specs.RefReader(path, allowRemoteRefs), false, 0)
}

// parse is Parse with read reading the $ref'd files. kin-openapi reads
// data itself, or the reduced copy of it (every node on its line), whose
// origins and skeletons are then set; data is checked (unless checked says
// it was), with at most maxNodes nodes (0: DefaultMaxNodes), and named in
// errors.
func parse(path string, data []byte, reduced prune.Reduced, read openapi3.ReadFromURIFunc, checked bool, maxNodes int64) (*openapi3.T, error) {
	if len(bytes.TrimSpace(data)) == 0 { // not a string: that would copy the whole document
		return nil, &specs.Error{File: path, Msg: "the file is empty"}
	}
	if !checked {
		if bad := specs.CheckText(data, maxNodes); bad != nil {
			bad.File = path
			return nil, bad
		}
	}
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true
	loader.IsExternalRefsAllowed = true
	loader.Context = context.Background()
	loader.ReadFromURIFunc = read
	text := reduced.Text
	if text == nil {
		text = data
	}
	location := &url.URL{Path: path}
	doc, err := loader.LoadFromDataWithPath(text, location)
	if err != nil {
		return nil, specs.DescribeLoadError(path, data, err)
	}
	origins := reduced.Origins
	if origins == nil && json.Valid(text) {
		// The loader reads JSON without origins: they are read here, so
		// that a change in a JSON document has its line too. A text the
		// position reading gives up on (a UTF-16 surrogate escape, which
		// the YAML parser refuses) gives its lines as the JSON reading
		// sees them.
		tree := specs.PositionTree(text)
		if tree == nil {
			tree = prune.JSONTree(text)
		}
		origins = prune.TreeOrigins(tree)
	}
	if origins != nil {
		origins.Apply(doc, location.String())
	}
	// Before the checks of the whole document, which see them too.
	for _, sk := range reduced.Skeletons {
		item := doc.Paths.Value(sk.Path)
		if item == nil {
			return nil, fmt.Errorf("the reduced text lost the path item of %s %s", sk.Method, sk.Path)
		}
		item.SetOperation(sk.Method, sk.Op)
	}
	switch {
	case supportedVersion.MatchString(doc.OpenAPI):
		if err := checkPathTemplates(path, doc); err != nil {
			return nil, err
		}
		if err := checkDuplicateParameters(path, doc); err != nil {
			return nil, err
		}
		if err := checkSchemaRefs(path, doc); err != nil {
			return nil, err
		}
		return doc, nil
	case doc.Extensions["swagger"] != nil:
		return nil, &specs.Error{File: path, Msg: "Swagger/OpenAPI 2.0 is not supported: resource versions live in OpenAPI 3 media type maps; convert the document to OpenAPI 3 first"}
	case doc.OpenAPI == "":
		return nil, &specs.Error{File: path, Msg: "not an OpenAPI document: it has no \"openapi\" field"}
	default:
		return nil, &specs.Error{File: path, Msg: fmt.Sprintf("OpenAPI %q is not supported: only 3.0 and 3.1 are", doc.OpenAPI)}
	}
}

// supportedVersion is an OpenAPI 3.0 or 3.1 version: major.minor, then
// perhaps the patch and a pre-release.
var supportedVersion = regexp.MustCompile(`^3\.[01](\.\d+(-[0-9A-Za-z.-]+)?)?$`)

// checkDuplicateParameters refuses a parameter list (a path item's or an
// operation's) that names one parameter, by location and name, twice: the
// OpenAPI specification forbids it, and oasdiff, pairing parameters by
// location and name, then reports changes between identical documents.
func checkDuplicateParameters(path string, doc *openapi3.T) error {
	if doc.Paths == nil {
		return nil
	}
	type parameterList struct {
		where  string
		params openapi3.Parameters
		origin *openapi3.Origin
	}
	for _, p := range slices.Sorted(maps.Keys(doc.Paths.Map())) {
		item := doc.Paths.Value(p)
		lists := []parameterList{{"the path item " + p, item.Parameters, item.Origin}}
		for _, method := range slices.Sorted(maps.Keys(item.Operations())) {
			op := item.GetOperation(method)
			lists = append(lists, parameterList{method + " " + p, op.Parameters, op.Origin})
		}
		for _, list := range lists {
			seen := map[[2]string]bool{}
			for _, ref := range list.params {
				if ref == nil || ref.Value == nil {
					continue
				}
				key := [2]string{ref.Value.In, ref.Value.Name}
				if !seen[key] {
					seen[key] = true
					continue
				}
				e := &specs.Error{File: path, Msg: fmt.Sprintf("duplicate parameter: %s lists the %s parameter %q twice, which the OpenAPI specification forbids", list.where, key[0], key[1])}
				if list.origin != nil && list.origin.Key != nil {
					e.Line = list.origin.Key.Line
				}
				return e
			}
		}
	}
	return nil
}

// checkSchemaRefs refuses a schema component whose $ref leads to no schema:
// one that names itself, a loop of $refs, "#". The loader accepts it, and
// every comparison would fail on it without saying where.
func checkSchemaRefs(path string, doc *openapi3.T) error {
	if doc.Components == nil {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(doc.Components.Schemas)) {
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value != nil {
			continue
		}
		e := &specs.Error{File: path, Msg: fmt.Sprintf("components/schemas/%s: its $ref %q leads to no schema (a $ref that names itself, or a loop of $refs)", name, ref.Ref)}
		if ref.Origin != nil && ref.Origin.Key != nil {
			e.Line = ref.Origin.Key.Line
		}
		return e
	}
	return nil
}

// checkPathTemplates refuses one method under two templated paths that
// differ only in their parameters' names (GET /pet/{a} and GET /pet/{b}):
// a client cannot tell them apart, and the OpenAPI specification forbids
// such paths. Different methods under such paths are accepted, as oasdiff
// accepts them (real APIs publish them).
func checkPathTemplates(path string, doc *openapi3.T) error {
	if doc.Paths == nil {
		return nil
	}
	seen := map[string]string{}
	for _, p := range slices.Sorted(maps.Keys(doc.Paths.Map())) {
		item := doc.Paths.Value(p)
		template := versions.PathTemplate(p)
		for _, method := range slices.Sorted(maps.Keys(item.Operations())) {
			key := method + " " + template
			other, dup := seen[key]
			if !dup {
				seen[key] = p
				continue
			}
			e := &specs.Error{File: path, Msg: fmt.Sprintf("duplicate endpoint: %s %s and %s %s differ only in their path parameter names, which the OpenAPI specification forbids", method, other, method, p)}
			if op := item.GetOperation(method); op != nil && op.Origin != nil && op.Origin.Key != nil {
				e.Line = op.Origin.Key.Line
			}
			return e
		}
	}
	return nil
}
