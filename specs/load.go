// Package specs reads apiver's inputs (files, git REF:PATH, folders of
// version documents) and loads them as dated OpenAPI snapshots and pairs,
// whole or reduced. What the versions their operations carry mean is
// package versions's model.
package specs

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/specs/prune"
	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
)

// Snapshot is one dated OpenAPI document.
type Snapshot struct {
	// Path is the file as the user named it (PATH of a git input REF:PATH);
	// locations are reported in it.
	Path string
	// Ref is the git ref a REF:PATH input was read at, "" for a file on
	// disk: a location in it is not a line of the work tree's file.
	Ref string
	// Date is the release date: --base-date/--revision-date, or the first
	// YYYY-MM-DD in the file name, or the commit date of a git input. Zero
	// when none gives one.
	Date civil.Date
	Doc  *openapi3.T
	// Data is the file's bytes as read: to map a line of it onto another
	// snapshot (Anchor), and for commands that edit it.
	Data []byte
	// Reduced is set when Doc was loaded for a comparison from a reduced
	// copy of the document (see LoadReducedPair): without descriptions and
	// examples, and operations whose closure is the same in both snapshots
	// have no schemas. Such a document is for diff.Compare and the rules,
	// not for reading the schemas of unchanged operations.
	Reduced bool
	// loaded is the text kin-openapi read: Data, or the reduced copy, every
	// node on its line. Every location in Doc is a line of it that holds
	// the same node as in Data, and the Anchorer parses it: much less than
	// Data when few operations changed.
	loaded []byte
	// files name the files Doc was read from, by what kin-openapi records
	// as a location's file (a URL: my%20api.yaml), as the user named them.
	files map[string]string
}

// FileOf names the file a location of Doc names, as the user named it:
// the snapshot's Path or a file it $refs; shown is what a reader of
// locations makes of kin-openapi's record of the file (oasdiff cuts what
// looks like a git ref from it). ok is false for a file Doc was not read
// from.
func (s *Snapshot) FileOf(file string, shown func(string) string) (name string, ok bool) {
	for _, origin := range slices.Sorted(maps.Keys(s.files)) {
		if shown(origin) == file {
			return s.files[origin], true
		}
	}
	return "", false
}

// renamed is s standing for the document of the same bytes at path and
// ref: its locations name that file.
func (s *Snapshot) renamed(path, ref string) *Snapshot {
	c := *s
	c.Path, c.Ref = path, ref
	c.files = map[string]string{}
	for origin, name := range s.files {
		if name == s.Path {
			name = path
		}
		c.files[origin] = name
	}
	return &c
}

// LoadOptions control how a snapshot is read.
type LoadOptions struct {
	// Date overrides the date taken from the file name.
	Date civil.Date
	// AllowRemoteRefs lets $refs to http(s) URLs be fetched.
	AllowRemoteRefs bool
	// MaxSize is the largest file read, the snapshot and each $ref'd file
	// alike, in bytes; 0 means sizelimit.Default.
	MaxSize int64
	// MaxNodes is the most nodes a document may have, the snapshot and
	// each $ref'd file alike; 0 means DefaultMaxNodes.
	MaxNodes int64
	// Paths restricts the snapshot to some of its paths.
	Paths PathFilter
	// Root is the folder no $ref may leave: the snapshot's, for a version
	// document; "" for the document's own folder.
	Root string
	// Layout is how a folder's documents are read (ReadDocumentSet).
	Layout Layout
}

// Error is an input problem in a snapshot, reported as "file:line: message".
type Error struct {
	File string
	Line int
	Msg  string
}

// Error is one line whatever the file's name holds.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", escape.Text(e.File), e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", escape.Text(e.File), e.Msg)
}

// LoadPair loads the base and revision snapshots concurrently.
func LoadPair(basePath, revisionPath string, baseOpts, revisionOpts LoadOptions) (base, revision *Snapshot, err error) {
	if err := both(func() (err error) { base, err = Load(basePath, baseOpts); return err },
		func() (err error) { revision, err = Load(revisionPath, revisionOpts); return err }); err != nil {
		return nil, nil, err
	}
	return base, revision, nil
}

// Load reads and parses one snapshot file, or REF:PATH from git when no file
// has that name. Local $refs are resolved relative to the file; remote ones
// are refused unless opts.AllowRemoteRefs.
func Load(path string, opts LoadOptions) (*Snapshot, error) {
	src, err := Read(path, opts)
	if err != nil {
		return nil, err
	}
	return src.Load()
}

// Source is a snapshot file read but not parsed: a reduced load of a pair
// looks at both documents before kin-openapi parses either.
type Source struct {
	arg       string // as the user named it, for errors
	path, ref string
	date      civil.Date
	data      []byte
	read      openapi3.ReadFromURIFunc
	// doc is the parsed document indexed for reduction, built once, for
	// the first reduced load that needs it.
	indexOnce sync.Once
	doc       *prune.Doc
	// structure is why checkStructure refuses the text, nil when it passes;
	// checked says it passed.
	structure *Error
	checked   bool
	// paths restricts the loaded snapshot to some of its paths.
	paths PathFilter
	// maxNodes bounds the document's nodes (0: DefaultMaxNodes).
	maxNodes int64
	// version is, for a version document, its version as its name gives
	// it, which the stability it declares must agree with; "" otherwise.
	version string
}

// Path is the file as a Snapshot of it names it.
func (s *Source) Path() string { return s.path }

// Size is how many bytes the file holds.
func (s *Source) Size() int64 { return int64(len(s.data)) }

// Read reads one snapshot file, or REF:PATH from git when no file has that
// name, without parsing it.
func Read(path string, opts LoadOptions) (*Source, error) {
	if ref, file, ok := gitInput(path); ok {
		return readGit(path, ref, file, opts)
	}
	date := opts.Date
	if date.IsZero() {
		d, found, err := versions.DateFromName(path)
		if err != nil {
			return nil, &Error{File: path, Msg: fmt.Sprintf("file name holds %q, which is not a real date", versions.DatePattern.FindString(filepath.Base(path)))}
		}
		if found {
			date = d
		}
	}
	data, err := sizelimit.ReadFile(path, opts.MaxSize)
	if err != nil {
		return nil, &Error{File: path, Msg: readProblem(err)}
	}
	return &Source{arg: path, path: path, date: date, data: data, read: limitedRefReader(path, opts.Root, opts.AllowRemoteRefs, opts.MaxSize, opts.MaxNodes), paths: opts.Paths, maxNodes: opts.MaxNodes}, nil
}

// WithData is a source like s, read from the same place with the same
// date and limits, holding data instead: an edited version of the file
// (apiver fix's result) to compare before it is written.
func (s *Source) WithData(data []byte) *Source {
	return &Source{arg: s.arg, path: s.path, ref: s.ref, date: s.date, data: data, read: s.read, paths: s.paths, maxNodes: s.maxNodes, version: s.version}
}

// Load parses the whole document. After Index, it reuses its structure
// check instead of parsing the YAML once more.
func (s *Source) Load() (*Snapshot, error) {
	return s.load(s.data, s.read, s.checked)
}

// Index runs the fast pass over the source, once: PlanPair and
// LoadReducedPair run it when they need it; running it before Load saves
// Load a YAML parse.
func (s *Source) Index() { s.prepare() }

// loadReduced parses a reduced copy of the source, every node on its line.
// Only documents that name no other file are reduced, so a $ref that
// kin-openapi would read from a file is one the reduction lost: an error,
// which makes the caller load the whole text instead.
func (s *Source) loadReduced(text []byte) (*Snapshot, error) {
	lost := func(_ *openapi3.Loader, location *url.URL) ([]byte, error) {
		return nil, fmt.Errorf("a $ref into %s lost its target", location)
	}
	return s.load(text, lost, true)
}

// load parses text in place of the source's own, reading $ref'd files
// with read; errors are those of the source's own text. checked says the
// source's structure was checked already.
func (s *Source) load(text []byte, read openapi3.ReadFromURIFunc, checked bool) (*Snapshot, error) {
	files := map[string]string{(&url.URL{Path: s.path}).String(): s.path}
	var mu sync.Mutex
	recorded := func(loader *openapi3.Loader, location *url.URL) ([]byte, error) {
		data, err := read(loader, location)
		if err == nil {
			mu.Lock()
			files[location.String()] = location.Path
			mu.Unlock()
		}
		return data, err
	}
	doc, err := parse(s.path, s.data, text, recorded, checked, s.maxNodes)
	if err != nil {
		// Name the input as given: PATH alone would read as the work tree file.
		if e, ok := errors.AsType[*Error](err); ok && s.ref != "" {
			e.File = s.arg
		}
		return nil, err
	}
	// A checked source's name was checked with its structure (prepare).
	if why := versions.NameDisagrees(s.version, versions.StabilityOf(doc.Extensions)); why != "" && !checked {
		file := s.path
		if s.ref != "" {
			file = s.arg
		}
		return nil, &Error{File: file, Msg: why}
	}
	s.paths.apply(doc)
	return &Snapshot{Path: s.path, Ref: s.ref, Date: s.date, Doc: doc, Data: s.data, loaded: text, files: files}, nil
}

// Parse turns the bytes of an OpenAPI 3.x document into a resolved document.
// path names the document in errors and resolves its relative $refs.
func Parse(path string, data []byte, allowRemoteRefs bool) (*openapi3.T, error) {
	return parse(path, data, data, refReader(path, allowRemoteRefs), false, 0)
}

// parse is Parse with read reading the $ref'd files. kin-openapi reads text,
// which is data itself or a reduced copy of it, every node on its line;
// data is checked (unless checked says it was), with at most maxNodes nodes
// (0: DefaultMaxNodes), and named in errors.
func parse(path string, data, text []byte, read openapi3.ReadFromURIFunc, checked bool, maxNodes int64) (*openapi3.T, error) {
	if strings.TrimSpace(string(data)) == "" {
		return nil, &Error{File: path, Msg: "the file is empty"}
	}
	if !checked {
		if _, _, bad := parseChecked(data, maxNodes); bad != nil {
			bad.File = path
			return nil, bad
		}
	}
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true
	loader.IsExternalRefsAllowed = true
	loader.Context = context.Background()
	loader.ReadFromURIFunc = read
	doc, err := loader.LoadFromDataWithPath(text, &url.URL{Path: path})
	if err != nil {
		return nil, describeLoadError(path, data, err)
	}
	switch {
	case strings.HasPrefix(doc.OpenAPI, "3."):
		if err := checkPathTemplates(path, doc); err != nil {
			return nil, err
		}
		if err := checkDuplicateParameters(path, doc); err != nil {
			return nil, err
		}
		return doc, nil
	case doc.Extensions["swagger"] != nil:
		return nil, &Error{File: path, Msg: "Swagger/OpenAPI 2.0 is not supported: resource versions live in OpenAPI 3 media type maps; convert the document to OpenAPI 3 first"}
	case doc.OpenAPI == "":
		return nil, &Error{File: path, Msg: "not an OpenAPI document: it has no \"openapi\" field"}
	default:
		return nil, &Error{File: path, Msg: fmt.Sprintf("OpenAPI %q is not supported: only 3.0 and 3.1 are", doc.OpenAPI)}
	}
}

// RemoteRefError refuses a $ref to a URL when remote refs are not allowed;
// nothing is fetched. Load reports it as an *Error naming the spec.
type RemoteRefError struct{ Ref string }

func (e *RemoteRefError) Error() string {
	return fmt.Sprintf("remote $ref %q refused: apiver reads local files only (use --allow-remote-refs to fetch it)", e.Ref)
}

// refReader reads $ref'd files up to the default size limit.
func refReader(rootPath string, allowRemote bool) openapi3.ReadFromURIFunc {
	return limitedRefReader(rootPath, "", allowRemote, 0, 0)
}

// limitedRefReader reads $ref'd files. It refuses URLs unless allowed,
// before any network access, files outside confine (the root document's
// directory when ""), so an untrusted spec cannot read the machine's
// files, and files above maxSize bytes (0: sizelimit.Default) or maxNodes
// nodes (0: DefaultMaxNodes).
func limitedRefReader(rootPath, confine string, allowRemote bool, maxSize, maxNodes int64) openapi3.ReadFromURIFunc {
	if confine == "" {
		confine = filepath.Dir(rootPath)
	}
	rootDir := realPath(confine)
	return func(loader *openapi3.Loader, location *url.URL) ([]byte, error) {
		if location.Scheme != "" && location.Scheme != "file" {
			if !allowRemote {
				return nil, &RemoteRefError{Ref: location.String()}
			}
			return fetchRef(location, maxSize)
		}
		shown := fromDir(filepath.Dir(rootPath), filepath.FromSlash(location.Path))
		abs := realPath(filepath.FromSlash(location.Path))
		if rel, err := filepath.Rel(rootDir, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			how := "leaves"
			if shown != ".." && !strings.HasPrefix(shown, "../") {
				how = "is a symlink that leads out of"
			}
			return nil, &refError{location: location.Path, msg: fmt.Sprintf("$ref %q %s the directory of the spec: refused", shown, how)}
		}
		data, err := sizelimit.ReadFile(abs, maxSize)
		if err != nil {
			return nil, &refError{location: location.Path, msg: fmt.Sprintf("$ref %q: %s", shown, readProblem(err))}
		}
		if why := checkStructure(data, maxNodes); why != "" {
			return nil, &refError{location: location.Path, msg: fmt.Sprintf("$ref %q: %s", shown, why)}
		}
		return data, nil
	}
}

// realPath is the absolute path with symlinks resolved, so that a link
// cannot lead a $ref out of the spec's directory; as much as exists of it.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

func readProblem(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no such file"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	var pathErr *os.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err.Error()
	}
	var tooBig *sizelimit.Error
	if errors.As(err, &tooBig) {
		return err.Error() + " (maxSpecSizeMiB in the config raises it)"
	}
	return err.Error()
}

var (
	yamlLine      = regexp.MustCompile(`^yaml: line (\d+): `)
	unmarshalLine = regexp.MustCompile(`unmarshal errors:\s+line (\d+): ([^\n]*)`)
)

// describeLoadError turns kin-openapi's errors into one line naming the
// file and, for syntax errors, the line.
func describeLoadError(path string, data []byte, err error) error {
	var remote *RemoteRefError
	if errors.As(err, &remote) {
		return &Error{File: path, Line: refLine(data, refersTo(path, remote.Ref)), Msg: remote.Error()}
	}
	var refErr *refError
	if errors.As(err, &refErr) {
		return &Error{File: path, Line: refLine(data, refersTo(path, refErr.location)), Msg: refErr.msg}
	}
	if what, binary := notText(data); binary {
		return &Error{File: path, Msg: what}
	}
	msg := err.Error()
	if strings.Contains(msg, "excessive aliasing") {
		return &Error{File: path, Msg: "refused: its YAML aliases expand too much (document contains excessive aliasing)"}
	}
	const jsonPart, yamlPart = "json error: ", "yaml error: error converting YAML to JSON: "
	if i := strings.Index(msg, jsonPart); i >= 0 && strings.HasPrefix(msg, "failed to unmarshal data") {
		if strings.HasPrefix(strings.TrimSpace(string(data)), "{") {
			j := strings.Index(msg, ", "+yamlPart)
			if j < 0 {
				j = len(msg)
			}
			return &Error{File: path, Line: jsonErrorLine(data), Msg: "not valid JSON: " + msg[i+len(jsonPart):j]}
		}
		if j := strings.Index(msg, yamlPart); j >= 0 {
			detail := msg[j+len(yamlPart):]
			if m := unmarshalLine.FindStringSubmatch(detail); m != nil {
				line, _ := strconv.Atoi(m[1])
				return &Error{File: path, Line: line, Msg: "not valid YAML: " + m[2]}
			}
			if m := yamlLine.FindStringSubmatch(detail); m != nil {
				line, _ := strconv.Atoi(m[1])
				return &Error{File: path, Line: line, Msg: "not valid YAML: " + detail[len(m[0]):]}
			}
			return &Error{File: path, Msg: "not valid YAML: " + strings.TrimPrefix(detail, "yaml: ")}
		}
	}
	if strings.HasSuffix(msg, " not found") {
		if line, what, ok := brokenLocalRef(data); ok {
			return &Error{File: path, Line: line, Msg: what}
		}
	}
	return &Error{File: path, Msg: strings.Join(strings.Fields(msg), " ")}
}

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
				e := &Error{File: path, Msg: fmt.Sprintf("duplicate parameter: %s lists the %s parameter %q twice, which the OpenAPI specification forbids", list.where, key[0], key[1])}
				if list.origin != nil && list.origin.Key != nil {
					e.Line = list.origin.Key.Line
				}
				return e
			}
		}
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
			e := &Error{File: path, Msg: fmt.Sprintf("duplicate endpoint: %s %s and %s %s differ only in their path parameter names, which the OpenAPI specification forbids", method, other, method, p)}
			if op := item.GetOperation(method); op != nil && op.Origin != nil && op.Origin.Key != nil {
				e.Line = op.Origin.Key.Line
			}
			return e
		}
	}
	return nil
}

// Ref is the git ref the file is read at, "" on disk.
func (s *Source) Ref() string { return s.ref }

// Data is the file's bytes as read.
func (s *Source) Data() []byte { return s.data }

// WithFile is a source like s, holding data, read from another file of the
// same folder: a new version document (apiver fix's) to compare before it
// is written.
func (s *Source) WithFile(file string, data []byte) *Source {
	n := s.WithData(data)
	n.path = file
	if s.ref != "" {
		n.arg = s.ref + ":" + file
	} else {
		n.arg = file
	}
	return n
}
