// Package specs loads dated OpenAPI snapshots and finds the resource versions
// their operations carry.
package specs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/getkin/kin-openapi/openapi3"
	"golang.org/x/sync/errgroup"
)

// Snapshot is one dated OpenAPI document.
type Snapshot struct {
	// Path is the file as the user named it; locations are reported in it.
	Path string
	// Date is the release date: --base-date/--revision-date, or the first
	// YYYY-MM-DD in the file name. Zero when neither gives one.
	Date civil.Date
	Doc  *openapi3.T
}

// LoadOptions control how a snapshot is read.
type LoadOptions struct {
	// Date overrides the date taken from the file name.
	Date civil.Date
	// AllowRemoteRefs lets $refs to http(s) URLs be fetched.
	AllowRemoteRefs bool
}

// Error is an input problem in a snapshot, reported as "file:line: message".
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// LoadPair loads the base and revision snapshots concurrently.
func LoadPair(basePath, revisionPath string, baseOpts, revisionOpts LoadOptions) (base, revision *Snapshot, err error) {
	var g errgroup.Group
	g.Go(func() (err error) { base, err = Load(basePath, baseOpts); return err })
	g.Go(func() (err error) { revision, err = Load(revisionPath, revisionOpts); return err })
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	return base, revision, nil
}

// Load reads and parses one snapshot file. Local $refs are resolved relative
// to the file; remote ones are refused unless opts.AllowRemoteRefs.
func Load(path string, opts LoadOptions) (*Snapshot, error) {
	date := opts.Date
	if date.IsZero() {
		d, found, err := DateFromName(path)
		if err != nil {
			return nil, &Error{File: path, Msg: fmt.Sprintf("file name holds %q, which is not a real date", datePattern.FindString(filepath.Base(path)))}
		}
		if found {
			date = d
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: readProblem(err)}
	}
	doc, err := Parse(path, data, opts.AllowRemoteRefs)
	if err != nil {
		return nil, err
	}
	return &Snapshot{Path: path, Date: date, Doc: doc}, nil
}

// Parse turns the bytes of an OpenAPI 3.x document into a resolved document.
// path names the document in errors and resolves its relative $refs.
func Parse(path string, data []byte, allowRemoteRefs bool) (*openapi3.T, error) {
	if strings.TrimSpace(string(data)) == "" {
		return nil, &Error{File: path, Msg: "the file is empty"}
	}
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true
	loader.IsExternalRefsAllowed = true
	loader.Context = context.Background()
	loader.ReadFromURIFunc = refReader(path, allowRemoteRefs)
	doc, err := loader.LoadFromDataWithPath(data, &url.URL{Path: path})
	if err != nil {
		return nil, describeLoadError(path, data, err)
	}
	switch {
	case strings.HasPrefix(doc.OpenAPI, "3."):
		return doc, nil
	case doc.Extensions["swagger"] != nil:
		return nil, &Error{File: path, Msg: "Swagger/OpenAPI 2.0 is not supported: resource versions live in OpenAPI 3 media type maps; convert the document to OpenAPI 3 first"}
	case doc.OpenAPI == "":
		return nil, &Error{File: path, Msg: "not an OpenAPI document: it has no \"openapi\" field"}
	default:
		return nil, &Error{File: path, Msg: fmt.Sprintf("OpenAPI %s is not supported: only 3.0 and 3.1 are", doc.OpenAPI)}
	}
}

// RemoteRefError refuses a $ref to a URL when remote refs are not allowed;
// nothing is fetched. Load reports it as an *Error naming the spec.
type RemoteRefError struct{ Ref string }

func (e *RemoteRefError) Error() string {
	return fmt.Sprintf("remote $ref %q refused: apiver reads local files only (use --allow-remote-refs to fetch it)", e.Ref)
}

// refReader reads $ref'd files. It refuses URLs unless allowed, before any
// network access, and files outside the root document's directory, so an
// untrusted spec cannot read the machine's files.
func refReader(rootPath string, allowRemote bool) openapi3.ReadFromURIFunc {
	rootDir := realPath(filepath.Dir(rootPath))
	return func(loader *openapi3.Loader, location *url.URL) ([]byte, error) {
		if location.Scheme != "" && location.Scheme != "file" {
			if !allowRemote {
				return nil, &RemoteRefError{Ref: location.String()}
			}
			return openapi3.ReadFromHTTP(http.DefaultClient)(loader, location)
		}
		abs := realPath(filepath.FromSlash(location.Path))
		if rel, err := filepath.Rel(rootDir, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("$ref %q leaves the directory of the spec: refused", location.Path)
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil, fmt.Errorf("$ref %q: %s", location.Path, readProblem(err))
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
		return &Error{File: path, Msg: remote.Error()}
	}
	msg := err.Error()
	const jsonPart, yamlPart = "json error: ", "yaml error: error converting YAML to JSON: "
	if i := strings.Index(msg, jsonPart); i >= 0 && strings.HasPrefix(msg, "failed to unmarshal data") {
		if strings.HasPrefix(strings.TrimSpace(string(data)), "{") {
			j := strings.Index(msg, ", "+yamlPart)
			if j < 0 {
				j = len(msg)
			}
			return &Error{File: path, Msg: "not valid JSON: " + msg[i+len(jsonPart):j]}
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
	return &Error{File: path, Msg: strings.ReplaceAll(msg, "\n", " ")}
}
