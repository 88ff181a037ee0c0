package diff

import (
	"fmt"
	"github.com/oasdiff/oasdiff/flatten/allof"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apiver/apiver/load"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/rogpeppe/go-internal/txtar"
)

// rootSchemas and eachSchema stand in for kin-openapi's WalkSchemas in the
// merge, whose results depend on the order it visits schemas in: they must
// visit what it visits, in its order, on every document the tests have
// (oasdiff's fixtures, with callbacks, webhooks and cycles, and apiver's).
func TestWalksAsKinOpenAPIDoes(t *testing.T) {
	docs := 0
	for name, data := range walkFixtures(t) {
		doc, err := load.Parse(name, data, false)
		if err != nil {
			continue // not a document this test is about
		}
		docs++
		var kinRoots []*openapi3.SchemaRef
		_ = doc.WalkSchemas(func(_ string, s *openapi3.SchemaRef) error {
			kinRoots = append(kinRoots, s)
			return openapi3.SkipSubtree
		})
		roots := rootSchemas(doc)
		if !samePointers(kinRoots, roots) {
			t.Errorf("%s: rootSchemas visits %d schema references, WalkSchemas %d, or in another order", name, len(roots), len(kinRoots))
		}
		var kinAll, all []*openapi3.Schema
		_ = doc.WalkSchemas(func(_ string, s *openapi3.SchemaRef) error {
			kinAll = append(kinAll, s.Value)
			return nil
		})
		eachSchema(roots, func(s *openapi3.Schema) { all = append(all, s) })
		if !samePointers(kinAll, all) {
			t.Errorf("%s: eachSchema visits %d schemas, WalkSchemas %d, or in another order", name, len(all), len(kinAll))
		}
	}
	t.Logf("%d documents", docs)
	if docs < 100 {
		t.Errorf("only %d documents loaded", docs)
	}
}

func samePointers[T any](a, b []*T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// walkFixtures are the documents of oasdiff's fixtures and of apiver's rule
// cases, by name.
func walkFixtures(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	if dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/oasdiff/oasdiff").Output(); err == nil && len(dir) > 0 {
		data := filepath.Join(strings.TrimSpace(string(dir)), "data")
		_ = filepath.WalkDir(data, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".json")) {
				if b, err := os.ReadFile(path); err == nil {
					out[path] = b
				}
			}
			return nil
		})
	}
	_ = filepath.WalkDir("../testdata/rules", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".txtar") {
			return nil
		}
		archive, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range archive.Files {
			if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".json") {
				out[path+"/"+f.Name] = f.Data
			}
		}
		return nil
	})
	return out
}

// The merge shown mergeView of a document merges it as it merges the
// document itself: the same schemas, the same names for recursive ones, the
// same errors.
func TestMergeViewMergesAsTheDocument(t *testing.T) {
	merged := 0
	for name, data := range walkFixtures(t) {
		doc, err := load.Parse(name, data, false)
		if err != nil {
			continue
		}
		viewed, _ := load.Parse(name, data, false)
		var before openapi3.Schemas
		if doc.Components != nil {
			before = maps.Clone(doc.Components.Schemas)
		}
		_, wantErr := allof.MergeSpec(doc)
		if doc.Components != nil {
			// mergeDoc takes out what the merge adds
			maps.DeleteFunc(doc.Components.Schemas, func(name string, _ *openapi3.SchemaRef) bool {
				_, ok := before[name]
				return !ok
			})
			if before == nil && len(doc.Components.Schemas) == 0 {
				doc.Components.Schemas = before
			}
		}
		gotErr := mergeDoc(viewed)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: merge error %v, want %v", name, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		merged++
		if !reflect.DeepEqual(doc, viewed) {
			t.Errorf("%s: the view merges otherwise than the document", name)
		}
	}
	t.Logf("%d documents merged", merged)
}
