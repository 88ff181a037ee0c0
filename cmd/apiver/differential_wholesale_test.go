package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"go.yaml.in/yaml/v3"
)

// TestPipelinesAgreeOnWholesaleEdits applies two edits of issue 21 to every
// operation of both snapshots of a real monthly pair, where the text-based
// reduction once disagreed with the full pipeline: x-stability-level: beta
// on every operation (19 false sunset-overdue findings), and every inline
// response moved behind a two-step $ref chain of response components (13
// findings lost).
func TestPipelinesAgreeOnWholesaleEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: two real pairs, each checked four times")
	}
	t.Parallel()
	const baseName, revName = "atlas-api-2024-11-19.yaml", "atlas-api-2024-12-19.yaml"
	unpacked := corpus.Unpack(t, baseName, revName)
	config, err := filepath.Abs("testdata/atlas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, edit := range []struct {
		name  string
		apply func(m *mutator)
	}{
		{"stability-level-everywhere", func(m *mutator) {
			for _, o := range m.operations() {
				setKey(o.op, "x-stability-level", str("beta"))
			}
		}},
		{"responses-behind-two-refs", func(m *mutator) {
			responses := m.components("responses")
			if responses == nil {
				responses = mapping()
				setKey(child(m.root, "components"), "responses", responses)
			}
			n := 0
			for _, o := range m.operations() {
				for _, r := range pairs(lookup(o.op, "responses")) {
					if r[1].Kind != yaml.MappingNode || lookup(r[1], "$ref") != nil {
						continue
					}
					n++
					inner, outer := fmt.Sprintf("Moved%dInner", n), fmt.Sprintf("Moved%dOuter", n)
					setKey(responses, inner, deepCopy(r[1]))
					setKey(responses, outer, refTo("responses", inner))
					*r[1] = *refTo("responses", outer)
				}
			}
		}},
	} {
		t.Run(edit.name, func(t *testing.T) {
			t.Parallel()
			var paths []string
			for _, name := range []string{baseName, revName} {
				text, err := os.ReadFile(filepath.Join(unpacked, name))
				if err != nil {
					t.Fatal(err)
				}
				doc := parseDocument(t, name, text)
				edit.apply(&mutator{root: doc.Content[0]})
				path := filepath.Join(edit.name, name)
				writeCaseFile(t, filepath.Join(work, path), encodeYAML(t, doc))
				paths = append(paths, path)
			}
			for _, args := range [][]string{
				{"check", "--config", config, "--format", "json", paths[0], paths[1]},
				{"changelog", "build", "--config", config, edit.name},
			} {
				agreeAsProcesses(t, work, edit.name, args)
			}
		})
	}
}
