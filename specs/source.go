// Package specs reads apiver's inputs: files, git REF:PATH, folders of
// version documents and resource trees, each read once and, for the fast
// pass, parsed once into a YAML tree and indexed (package prune); the
// limits and structure checks every input passes, and the input errors
// (Error, file and line) of a document apiver refuses. Package load loads
// what it reads for a comparison; what the versions their operations carry
// mean is package versions's model.
package specs

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/specs/prune"
	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
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
	// copy of the document (see load.LoadReducedPair): without descriptions and
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

// Renamed is s standing for the document of the same bytes at path and
// ref: its locations name that file.
func (s *Snapshot) Renamed(path, ref string) *Snapshot {
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

// Reloaded is known, a snapshot loaded from text, standing for src's
// document loaded from the same text: src holds the same bytes as known's
// document (or text is a copy of both that keeps every node on its line)
// and kin-openapi read no other file for known, so that a load of text as
// src's would give the same document, its locations naming src's file. Nil
// when it would not.
func Reloaded(known *Snapshot, text []byte, src *Source) *Snapshot {
	if known == nil || len(known.files) != 1 || !bytes.Equal(known.loaded, text) {
		return nil
	}
	c := known.Renamed(src.path, src.ref)
	c.Date, c.Data = src.date, src.data
	return c
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
	// The text is parsed once until Release, before it is indexed: root
	// is its tree until then, chunks what a text parsed after it may copy
	// (ShareParse), until DropTree (which may run while a partner's parse
	// reads them).
	parseOnce sync.Once
	root      *yaml.Node
	isJSON    bool
	chunks    atomic.Pointer[Chunks]
	partners  []*Source
	parsed    atomic.Bool
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

// ShareData has s hold other's bytes when they are its own, so that two
// sources of the same text (a document a pull request did not change, in
// the base and in the revision) hold it once.
func (s *Source) ShareData(other *Source) {
	if bytes.Equal(s.data, other.data) {
		s.data = other.data
	}
}

// Index runs the fast pass over the source, once: load.PlanPair and
// load.LoadReducedPair run it when they need it; running it before a whole
// load saves that load a YAML parse.
func (s *Source) Index() { s.prepare() }

// RemoteRefError refuses a $ref to a URL when remote refs are not allowed;
// nothing is fetched. A load reports it as an *Error naming the spec.
type RemoteRefError struct{ Ref string }

func (e *RemoteRefError) Error() string {
	return fmt.Sprintf("remote $ref %q refused: apiver reads local files only (use --allow-remote-refs to fetch it)", e.Ref)
}

// RefReader reads the $ref'd files of the document at rootPath, up to the
// default size limit, as Read's sources read theirs.
func RefReader(rootPath string, allowRemote bool) openapi3.ReadFromURIFunc {
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
		why, unparsed := checkParsed(data, maxNodes)
		if why != "" {
			return nil, &refError{location: location.Path, msg: fmt.Sprintf("$ref %q: %s", shown, why)}
		}
		if unparsed {
			if e := yamlSyntax(filepath.Join(filepath.Dir(rootPath), filepath.FromSlash(shown)), data); e != nil {
				// The loader's message would name the document that refers to it.
				return nil, e
			}
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
	if _, tooBig := errors.AsType[*sizelimit.Error](err); tooBig {
		return err.Error() + " (maxSpecSizeMiB in the config raises it)"
	}
	return sizelimit.Problem(err)
}

var (
	yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)
	// typeMismatch is the decoder's refusal of a value of the wrong kind:
	// the kind, the struct field (Response.description; none for the
	// document itself) and the Go type wanted.
	typeMismatch  = regexp.MustCompile(`cannot unmarshal (\w+) into (?:Go struct )?(?:field ([\w$.-]+)|value) of type ([^,]+)`)
	unmarshalLine = regexp.MustCompile(`unmarshal errors:\s+line (\d+): ([^\n]*)`)
)

// yamlError is the YAML parser's refusal ("yaml: line 3: …") as one error
// naming the file and, where the parser says, the line.
func yamlError(file, detail string) *Error {
	if strings.HasPrefix(strings.TrimPrefix(detail, "yaml: "), "invalid map key") {
		// The conversion's text holds the key's whole value, as Go writes it.
		return &Error{File: file, Msg: complexKey}
	}
	if m := yamlLine.FindStringSubmatch(detail); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: file, Line: line, Msg: "not valid YAML: " + detail[len(m[0]):]}
	}
	return &Error{File: file, Msg: "not valid YAML: " + strings.TrimPrefix(detail, "yaml: ")}
}

// ByteOrderMark is UTF-8's, which a text may start with: the parser reads
// past it.
const ByteOrderMark = "\xef\xbb\xbf"

const complexKey = "not valid YAML: a mapping or a list used as a mapping key (JSON, which the loader reads, has only string keys)"

// complexKeyLine is the line of the first mapping key under n that is a
// mapping or a list (or an alias of one), 0 when there is none.
func complexKeyLine(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			target := k
			if k.Kind == yaml.AliasNode && k.Alias != nil {
				target = k.Alias
			}
			if target.Kind == yaml.MappingNode || target.Kind == yaml.SequenceNode {
				return k.Line
			}
		}
	}
	for _, c := range n.Content {
		if line := complexKeyLine(c); line > 0 {
			return line
		}
	}
	return 0
}

// DescribeLoadError turns kin-openapi's errors in loading data, the
// document at path, into one line naming the file and, for syntax errors,
// the line.
func DescribeLoadError(path string, data []byte, err error) error {
	var named *Error
	if errors.As(err, &named) {
		return named // a $ref'd file's own, named by the reader
	}
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
		if bytes.HasPrefix(bytes.TrimSpace(bytes.TrimPrefix(data, []byte(ByteOrderMark))), []byte("{")) {
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
			if e := yamlError(path, detail); e.Msg != complexKey {
				return e
			}
			return &Error{File: path, Line: complexKeyLine(ParseNode(data)), Msg: complexKey}
		}
	}
	if m := typeMismatch.FindStringSubmatch(msg); m != nil {
		return wrongKind(path, data, m[1], m[2], m[3])
	}
	if strings.HasSuffix(msg, " not found") {
		if line, what, ok := brokenLocalRef(data); ok {
			return &Error{File: path, Line: line, Msg: what}
		}
	}
	return &Error{File: path, Msg: strings.Join(strings.Fields(msg), " ")}
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

// Arg is the input as the user named it: REF:PATH for a git input.
func (s *Source) Arg() string { return s.arg }

// Version is, for a version document, its version as its name gives it,
// which the stability it declares must agree with; "" otherwise.
func (s *Source) Version() string { return s.version }

// MaxNodes is the most nodes the document may have (0: DefaultMaxNodes).
func (s *Source) MaxNodes() int64 { return s.maxNodes }

// Paths is the filter that restricts a snapshot of the source to some of
// its paths.
func (s *Source) Paths() PathFilter { return s.paths }

// RefReader reads the document's $ref'd files: from disk, or at the git
// ref, within the limits it was read with.
func (s *Source) RefReader() openapi3.ReadFromURIFunc { return s.read }

// Checked says Index found the document's structure sound: a load of its
// text need not check it again.
func (s *Source) Checked() bool { return s.checked }

// Structure is why the structure checks refuse the document, once Index
// ran: nil when it passes (or Index has not run).
func (s *Source) Structure() *Error { return s.structure }

// Indexed is the document as Index parsed and indexed it; nil before Index,
// when the structure checks refuse it, and once its tree is let go.
func (s *Source) Indexed() *prune.Doc { return s.doc }

// Snapshot is the snapshot of doc, which kin-openapi loaded from text (the
// source's own bytes, or a copy of them that keeps every node on its
// line), without the paths the source's filter drops; files names the
// files doc was read from, by kin-openapi's record of a location's file,
// as the user named them.
func (s *Source) Snapshot(doc *openapi3.T, text []byte, files map[string]string) *Snapshot {
	s.paths.apply(doc)
	return &Snapshot{Path: s.path, Ref: s.ref, Date: s.date, Doc: doc, Data: s.data, loaded: text, files: files}
}

// Tree is the source's parsed YAML tree, what yaml.Unmarshal makes of its
// text, for a caller that edits the text (apiver fix) and would otherwise
// parse it again: nil when the text is JSON (which the fast pass reads
// with a parser of its own) or fails the structure check. The tree is
// shared: only read it. It is parsed once until the source is released
// (load.PairOptions.Keep keeps it).
func (s *Source) Tree() *yaml.Node {
	s.prepare()
	if s.doc == nil || s.doc.JSON() {
		return nil
	}
	return s.doc.Root()
}

// Release drops the parse tree: a later load of the source (a fix's)
// parses its text again.
func (s *Source) Release() {
	s.doc, s.indexOnce, s.parseOnce, s.partners = nil, sync.Once{}, sync.Once{}, nil
	s.chunks.Store(nil)
	s.parsed.Store(false)
}

// DropTree lets the parse tree and its index go, the source staying
// indexed: Indexed is nil from then on, and Index does not parse the text
// again.
func (s *Source) DropTree() {
	s.doc = nil
	s.chunks.Store(nil)
}

// ShareParse has s's parse copy the chunks of its text that from's text
// holds too (specs.ParseReusing), parsing from first, once, if it is not
// parsed yet: a pull request's revision, or a fixed text, shares all but a
// few chunks with its base. Of several partners, the last is parsed if it
// is not yet, and those before it lend the chunks they hold already (a
// fixed text copies its restored parts from the base, the rest from the
// revision). A source parsed already keeps no partner (it would hold it,
// and so a history's every snapshot before it).
func (s *Source) ShareParse(from *Source) {
	if !s.parsed.Load() && !slices.Contains(s.partners, from) {
		s.partners = append(s.partners, from)
	}
}

// parse parses the source and checks its structure, once until Release.
func (s *Source) parse() {
	s.parseOnce.Do(func() {
		var from *Chunks
		if n := len(s.partners); n > 0 {
			last := s.partners[n-1]
			last.parse()
			from = last.chunks.Load()
			// Partners named before it lend what they hold already.
			for _, p := range s.partners[:n-1] {
				if p.parsed.Load() {
					from = from.With(p.chunks.Load())
				}
			}
		}
		s.partners = nil
		var chunks *Chunks
		s.root, s.isJSON, s.structure, chunks = parseChecked(s.data, s.maxNodes, from)
		s.chunks.Store(chunks)
		s.parsed.Store(true)
	})
}

// prepare parses the source, checks its structure and indexes it, once
// until Release.
func (s *Source) prepare() {
	s.indexOnce.Do(func() {
		s.parse()
		root := s.root
		s.root = nil // the index holds it
		if why := versions.NameDisagrees(s.version, rootLevel(root)); s.structure == nil && why != "" {
			s.structure = &Error{Msg: why}
		}
		s.checked = s.structure == nil
		if s.checked {
			s.doc = prune.Index(root, s.isJSON)
		}
	})
}

// wrongKind describes the decoder's refusal of a value of the wrong kind
// (kind, as JSON names it) at a struct field (Response.description, ""
// for the whole document) that wants goType: the first key of that name
// in data holding such a value gives the line.
func wrongKind(path string, data []byte, kind, field, goType string) *Error {
	words := map[string]string{"number": "a number", "string": "a string", "array": "a list", "object": "a mapping", "bool": "a boolean"}
	what := cmp.Or(words[kind], kind)
	if field == "" {
		return &Error{File: path, Line: 1, Msg: fmt.Sprintf("not an OpenAPI document: its top level is %s, not a mapping", what)}
	}
	key := field[strings.LastIndex(field, ".")+1:]
	line := 0
	var find func(n *yaml.Node)
	find = func(n *yaml.Node) {
		for i := 0; line == 0 && i < len(n.Content); i++ {
			if c := n.Content[i]; n.Kind == yaml.MappingNode && i%2 == 0 && c.Value == key && i+1 < len(n.Content) && nodeKind(n.Content[i+1]) == kind {
				line = c.Line
			} else {
				find(c)
			}
		}
	}
	if root := ParseNode(data); root != nil {
		find(root)
	}
	wants := cmp.Or(words[strings.TrimPrefix(goType, "*")], "a "+goType)
	switch {
	case strings.HasPrefix(goType, "[]"):
		wants = "a list"
	case strings.HasPrefix(goType, "map["):
		wants = "a mapping"
	}
	return &Error{File: path, Line: line, Msg: fmt.Sprintf("%s is %s where OpenAPI has %s", key, what, wants)}
}

// nodeKind is the JSON kind of a parsed YAML value, as the decoder names
// it.
func nodeKind(n *yaml.Node) string {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch {
	case n.Kind == yaml.MappingNode:
		return "object"
	case n.Kind == yaml.SequenceNode:
		return "array"
	case n.Tag == "!!int" || n.Tag == "!!float":
		return "number"
	case n.Tag == "!!bool":
		return "bool"
	}
	return "string"
}
