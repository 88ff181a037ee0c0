package main

import (
	"path/filepath"
	"strings"
	"testing"

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
