package main

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/benchspec"
	"go.yaml.in/yaml/v3"
)

// FuzzDocumentPipelinesAgree is FuzzPipelinesAgree for version documents:
// the generated pair is split into one document per version
// (splitVersionDocuments), each written in a YAML or JSON style of its own,
// and check and diff run on the two folders through both pipelines.
func FuzzDocumentPipelinesAgree(f *testing.F) {
	fuzzPipelines(f, func(t *testing.T, p fuzzPair, c chooser) (commands [][]string, written string) {
		var texts []string
		// Names that a URL escapes, that read as REF:PATH, that must be
		// shown escaped; one for all documents of the pair.
		stem := pick(c, []string{"api.", "my api.", "c:d.", "x%20y.", "a\u202eb.", "q\nr::error::x."})
		for _, side := range []struct {
			folder string
			doc    *yaml.Node
		}{{"base", p.baseDoc}, {"revision", p.revisionDoc}} {
			for _, d := range splitVersionDocuments(side.doc, "x") {
				text, name := render(d.doc, pick(c, docStyles), pick(c, lineBreaks), c, stem+d.version)
				name = filepath.Join(side.folder, name)
				writeCaseFile(t, name, text)
				texts = append(texts, "-- "+name+" --\n"+string(text))
			}
		}
		return [][]string{
			{"check", "base", "revision", "--base-date", "2023-01-01", "--revision-date", "2023-06-01", "--date", "2023-06-01"},
			{"diff", "--format", "json", "base", "revision"},
		}, strings.Join(texts, "\n")
	})
}

// FuzzResourcePipelinesAgree is FuzzPipelinesAgree for resource trees: the
// generated pair is split into one (benchspec.SplitResources: a resource
// version declares the operations with that version, the others carry
// forward), and check and diff run on the two trees through both
// pipelines.
func FuzzResourcePipelinesAgree(f *testing.F) {
	fuzzPipelines(f, func(t *testing.T, p fuzzPair, c chooser) (commands [][]string, written string) {
		writeCaseFile(t, "resource.yaml", []byte("versioning:\n  by: resource\n"))
		var texts []string
		for _, side := range []struct {
			folder string
			doc    *yaml.Node
		}{{"base", p.baseDoc}, {"revision", p.revisionDoc}} {
			tree, err := benchspec.SplitResources(encodeYAML(t, side.doc), "x")
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range slices.Sorted(maps.Keys(tree)) {
				file := filepath.Join(side.folder, filepath.FromSlash(name))
				writeCaseFile(t, file, tree[name])
				texts = append(texts, "-- "+file+" --\n"+string(tree[name]))
			}
		}
		return [][]string{
			{"check", "--config", "resource.yaml", "base", "revision", "--base-date", "2023-01-01", "--revision-date", "2023-06-01", "--date", "2023-06-01"},
			{"diff", "--config", "resource.yaml", "--format", "json", "base", "revision"},
		}, strings.Join(texts, "\n")
	})
}
