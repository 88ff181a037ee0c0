package versions_test

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apiver/apiver/versions"
)

// The seed corpora are in testdata/fuzz/<FuzzName>; go test runs them (and
// the f.Add seeds) as ordinary tests, go test -fuzz explores from them.

var productPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

func FuzzParseMediaType(f *testing.F) {
	for _, s := range []string{
		"application/vnd.example.2023-02-01+json",
		"application/vnd.example.2024-09-01.upcoming+json",
		"application/vnd.example.preview+json",
		"application/vnd.example.2024-02-30+json",
		"application/vnd.example.2023-02-01+json; charset=utf-8",
		"application/json",
		"text/plain",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		mt, ok, err := versions.ParseMediaType(name)
		mt2, ok2, err2 := versions.ParseMediaType(name)
		if mt != mt2 || ok != ok2 || errorString(err) != errorString(err2) {
			t.Fatalf("ParseMediaType(%q) differs between two calls", name)
		}
		if err != nil {
			var invalid *versions.InvalidVersionError
			if !errors.As(err, &invalid) || ok {
				t.Fatalf("ParseMediaType(%q) = %v, %v: want an *InvalidVersionError and not ok", name, ok, err)
			}
			checkOneLine(t, err)
			return
		}
		if !ok {
			return
		}
		if !productPattern.MatchString(mt.Product) || mt.Version == "" {
			t.Fatalf("ParseMediaType(%q) = %+v: bad product or version", name, mt)
		}
		if !strings.HasPrefix(mt.Normalized(), "application/vnd."+mt.Product) {
			t.Fatalf("Normalized() = %q does not name the product %q", mt.Normalized(), mt.Product)
		}
		// The parts make the media type again.
		again := "application/vnd." + mt.Product + "." + mt.Version
		if mt.Suffix != "" {
			again += "+" + mt.Suffix
		}
		if mt3, ok3, err3 := versions.ParseMediaType(again); mt3 != mt || !ok3 || err3 != nil {
			t.Fatalf("ParseMediaType(%q) = %+v, %v, %v; want %+v from %q", again, mt3, ok3, err3, mt, name)
		}
	})
}

func FuzzDateFromName(f *testing.F) {
	for _, s := range []string{
		"example-2023-02-01.yaml",
		"history/api-2024-02-30.json",
		"2023-01-01/example.yaml",
		"no-date.yaml",
		"9999-99-99-0000-00-00.yaml",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		date, found, err := versions.DateFromName(path)
		switch {
		case !found && (err != nil || !date.IsZero()):
			t.Fatalf("DateFromName(%q) = %v, %v, %v: nothing found but a result", path, date, found, err)
		case found && err == nil && !date.IsValid():
			t.Fatalf("DateFromName(%q) = %v: not a valid date", path, date)
		case found && err == nil && !strings.Contains(filepath.Base(path), date.String()):
			t.Fatalf("DateFromName(%q) = %v: not in the base name", path, date)
		}
	})
}

func errorString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func checkOneLine(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); strings.ContainsAny(msg, "\r\n") {
		t.Fatalf("error spans several lines: %q", msg)
	}
}
