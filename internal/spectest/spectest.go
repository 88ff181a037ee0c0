// Package spectest holds the test helpers of the packages that read and
// load snapshots: files written for a test, and the assertions on their
// input errors.
package spectest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/specs"
)

// AnyLine tells CheckSpecError not to check Error.Line (the line is not
// known for that kind of problem).
const AnyLine = -1

// WriteFile writes data to dir/name (creating parent directories) and
// returns the file's path.
func WriteFile(t testing.TB, dir, name, data string) string {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// SpecError asserts that err is a *specs.Error whose Error() is one line
// that names its File, and returns it.
func SpecError(t testing.TB, err error) *specs.Error {
	t.Helper()
	if err == nil {
		t.Fatal("got no error, want a *specs.Error")
	}
	var se *specs.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v is a %T, want a *specs.Error", err, err)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\r\n") {
		t.Errorf("Error() spans several lines: %q", msg)
	}
	if se.File == "" || !strings.Contains(msg, se.File) {
		t.Errorf("Error() = %q does not name the file %q", msg, se.File)
	}
	return se
}

// CheckSpecError asserts that err is a *specs.Error (see SpecError) naming
// file, on line unless line is AnyLine, and returns it.
func CheckSpecError(t testing.TB, err error, file string, line int) *specs.Error {
	t.Helper()
	se := SpecError(t, err)
	if se.File != file {
		t.Errorf("Error.File = %q, want %q (error: %v)", se.File, file, err)
	}
	if line != AnyLine && se.Line != line {
		t.Errorf("Error.Line = %d, want %d (error: %v)", se.Line, line, err)
	}
	return se
}

// DocWithContent is a minimal OpenAPI 3.0 document whose one operation,
// GET /items, answers 200 with the given media types.
func DocWithContent(mediaTypes ...string) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths:\n  /items:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n")
	for _, mt := range mediaTypes {
		b.WriteString("            " + mt + ":\n              schema:\n                type: object\n")
	}
	return b.String()
}

// DocWithSchemaRef is a document whose one response schema is a $ref to ref.
func DocWithSchemaRef(ref string) string {
	return `openapi: 3.0.3
info:
  title: x
  version: '1'
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: '` + ref + `'
`
}

// MinimalDoc is the smallest valid OpenAPI 3.0 document.
const MinimalDoc = "openapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths: {}\n"
