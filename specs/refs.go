package specs

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/apiver/apiver/internal/sizelimit"
)

// refError is a problem with one $ref'd file. location is the file as
// kin-openapi resolved it, to find the line of the $ref that names it.
type refError struct {
	location string
	msg      string
}

func (e *refError) Error() string { return e.msg }

// fromDir shows path relative to dir (both as the user gave them), as the
// $ref that names it would say it: ../../etc/passwd, not a cleaned form.
func fromDir(dir, path string) string {
	absDir, err1 := filepath.Abs(dir)
	absPath, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	rel, err := filepath.Rel(absDir, absPath)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// remoteClient fetches remote $refs when they are allowed; a server that
// never answers must not hang a CI job.
var remoteClient = &http.Client{Timeout: time.Minute}

// fetchRef reads a remote $ref, up to the size limit.
func fetchRef(location *url.URL, limit int64) ([]byte, error) {
	resp, err := remoteClient.Get(location.String())
	if err != nil {
		return nil, &refError{location: location.String(), msg: fmt.Sprintf("$ref %q: %v", location, err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		return nil, &refError{location: location.String(), msg: fmt.Sprintf("$ref %q: the server answered %s", location, resp.Status)}
	}
	data, err := sizelimit.Read(resp.Body, limit)
	if err != nil {
		return nil, &refError{location: location.String(), msg: fmt.Sprintf("$ref %q: %v", location, err)}
	}
	return data, nil
}

// refersTo matches the $refs of the document at docPath that name the file
// at location (as kin-openapi resolved it: joined to the document's
// directory, or a URL).
func refersTo(docPath, location string) func(string) bool {
	return func(ref string) bool {
		target, _, _ := strings.Cut(ref, "#")
		if target == "" {
			return false
		}
		if strings.Contains(target, "://") {
			return strings.HasPrefix(location, target) || target == "file://"+location
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(docPath), target)
		}
		return filepath.Clean(target) == filepath.Clean(location)
	}
}
