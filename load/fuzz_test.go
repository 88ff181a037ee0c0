package load_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/apiver/apiver/internal/spectest"
	"github.com/apiver/apiver/load"
)

// The seed corpora are in testdata/fuzz/<FuzzName>; go test runs them (and
// the f.Add seeds) as ordinary tests, go test -fuzz explores from them.

// FuzzParse feeds the snapshot loader YAML and JSON bytes. Every input gives
// a document or a one-line *specs.Error naming the file, the same twice.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		spectest.MinimalDoc,
		`{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {}}`,
		spectest.DocWithSchemaRef("#/components/schemas/Nope"),
		spectest.DocWithSchemaRef("./other.yaml#/X"),
		spectest.DocWithSchemaRef("https://example.com/x.yaml#/X"),
		"swagger: '2.0'\ninfo: {title: x, version: '1'}\npaths: {}\n",
		"openapi: 3.0.3\ninfo:\n  title: x\n  title: y\n",
		"x-a: &a [1, 2]\nx-b: [*a, *a]\n",
		"\x1f\x8b\x08\x00",
	} {
		f.Add([]byte(s))
	}
	// Relative $refs resolve in an empty directory; remote ones are refused.
	path := filepath.Join(f.TempDir(), "api-2024-01-01.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := load.Parse(path, data, false)
		doc2, err2 := load.Parse(path, data, false)
		if errorString(err) != errorString(err2) {
			t.Fatalf("two parses disagree: %v / %v", err, err2)
		}
		if err != nil {
			if doc != nil {
				t.Fatal("Parse returned a document with an error")
			}
			spectest.SpecError(t, err)
			return
		}
		a, errA := json.Marshal(doc)
		b, errB := json.Marshal(doc2)
		if errA != nil || errB != nil || string(a) != string(b) {
			t.Fatalf("two parses give different documents (%v, %v)", errA, errB)
		}
	})
}

func errorString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
