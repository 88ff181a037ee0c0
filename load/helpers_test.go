package load_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/specs"
)

// anyLine tells checkSpecError not to check Error.Line (the line is not
// known for that kind of problem).
const anyLine = -1

// writeFile writes data to dir/name (creating parent directories) and
// returns the file's path.
func writeFile(t *testing.T, dir, name, data string) string {
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

// specError asserts that err is a *specs.Error whose Error() is one line
// that names its File, and returns it.
func specError(t *testing.T, err error) *specs.Error {
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

// checkSpecError asserts that err is a *specs.Error (see specError) naming
// file, on line unless line is anyLine, and returns it.
func checkSpecError(t *testing.T, err error, file string, line int) *specs.Error {
	t.Helper()
	se := specError(t, err)
	if se.File != file {
		t.Errorf("Error.File = %q, want %q (error: %v)", se.File, file, err)
	}
	if line != anyLine && se.Line != line {
		t.Errorf("Error.Line = %d, want %d (error: %v)", se.Line, line, err)
	}
	return se
}

// docWithContent is a minimal OpenAPI 3.0 document whose one operation,
// GET /items, answers 200 with the given media types.
func docWithContent(mediaTypes ...string) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths:\n  /items:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n")
	for _, mt := range mediaTypes {
		b.WriteString("            " + mt + ":\n              schema:\n                type: object\n")
	}
	return b.String()
}
