package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/benchspec"
	"github.com/apiver/apiver/internal/corpus"
	"go.yaml.in/yaml/v3"
)

// TestDocumentFormFindsMediaTypeErrors is the differential test of issue
// 24: each consecutive pair of the real corpus, checked as published (one
// file, versions in media types) and split into version documents (each
// operation at its latest version on or before V, its media types renamed
// to application/json). Every error (operation, rule, change) the
// media-type form finds, the document form must find too. The document
// form finds more, listed in the log (docs/documents.md explains them):
// each document is deprecated by the next, so an operation's x-sunset
// must leave the deprecation period after that date (sunset-too-early),
// where a latest-version snapshot shows one version per operation and no
// successor; an operation that moves to a new version leaves the documents
// before it (version-removed-before-sunset); and a change inside a
// released document is breaking for the clients pinned to it, where the
// media-type form sees a new version of the operation. The newest pair
// also goes through both pipelines, which must agree.
//
//	APIVER_DOCUMENT_PAIRS  how many consecutive pairs, newest first (default 2; 0: all 22)
func TestDocumentFormFindsMediaTypeErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: splits large snapshots into version documents")
	}
	t.Parallel()
	names := corpus.Names(t)
	n := envCount(t, "APIVER_DOCUMENT_PAIRS", 2)
	first := 1
	if n > 0 && n < len(names)-1 {
		first = len(names) - n
	}
	unpacked := corpus.Unpack(t, names[first-1:]...)
	config, err := filepath.Abs("testdata/atlas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	split := map[string]string{} // snapshot name -> its folder of version documents
	for _, name := range names[first-1:] {
		text, err := os.ReadFile(filepath.Join(unpacked, name))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(work, dateOf(name))
		writeVersionDocuments(t, dir, "atlas-api.%s.yaml", parseDocument(t, name, text), "atlas")
		split[name] = dir
	}
	for i := first; i < len(names); i++ {
		base, revision := names[i-1], names[i]
		date := []string{"--base-date", dateOf(base), "--revision-date", dateOf(revision)}
		mediaType := checkFindingsAsProcess(t, append([]string{"check", "--config", config, "--format", "json", filepath.Join(unpacked, base), filepath.Join(unpacked, revision)}, date...))
		documents := checkFindingsAsProcess(t, append([]string{"check", "--config", config, "--format", "json", split[base], split[revision]}, date...))
		errorsOf := func(fs []checkFinding) map[string]bool {
			out := map[string]bool{}
			for _, f := range fs {
				if f.Severity == "error" && !f.Exempted {
					out[f.key()] = true
				}
			}
			return out
		}
		want, got := errorsOf(mediaType), errorsOf(documents)
		var missing, extra []string
		for k := range want {
			if !got[k] {
				missing = append(missing, k)
			}
		}
		for k := range got {
			if !want[k] {
				extra = append(extra, k)
			}
		}
		slices.Sort(missing)
		slices.Sort(extra)
		for _, k := range missing {
			t.Errorf("%s → %s: the media-type form finds the error %s; the document form does not", base, revision, k)
		}
		t.Logf("%s → %s: %d errors in media-type form, all found in document form; %d more in document form (docs/documents.md says why)",
			dateOf(base), dateOf(revision), len(want), len(extra))
		for _, k := range extra {
			t.Logf("  more: %s", k)
		}
		if i == len(names)-1 {
			// The newest pair through both pipelines: the documents cut to
			// their changes and diffed once must say what the whole ones do.
			agreeAsProcesses(t, "", revision, append([]string{"check", "--config", config, "--format", "json", split[base], split[revision]}, date...))
		}
	}
}

type checkFinding struct {
	Rule      string `json:"rule"`
	Severity  string `json:"severity"`
	Operation string `json:"operation"`
	Change    string `json:"change"`
	Exempted  bool   `json:"exempted"`
}

// key is the finding's operation, rule and change: the version differs
// between the forms.
func (f checkFinding) key() string {
	return fmt.Sprintf("%s %s (%s)", f.Operation, f.Rule, f.Change)
}

// checkFindings runs a check with --format json and returns its findings.
func checkFindings(t *testing.T, args []string) []checkFinding {
	t.Helper()
	return checkFindingsOf(t, args, runPipeline(false, args))
}

// checkFindingsAsProcess is checkFindings with the check a process of its
// own, in this package's folder, by the fast pipeline and with no config
// but a --config in args.
func checkFindingsAsProcess(t *testing.T, args []string) []checkFinding {
	t.Helper()
	return checkFindingsOf(t, args, runProcess(corpusGuard, "", flagsOnly, args...))
}

// checkFindingsOf reads the findings of a check --format json that gave a
// verdict.
func checkFindingsOf(t *testing.T, args []string, r pipelineRun) []checkFinding {
	t.Helper()
	if r.code != exitPass && r.code != exitPolicy {
		t.Fatalf("apiver %s: %s", strings.Join(args, " "), r)
	}
	var report struct {
		Findings []checkFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatalf("apiver %s: %v\n%s", strings.Join(args, " "), err, r)
	}
	return report.Findings
}

// writeVersionDocuments splits a media-type snapshot into version
// documents in dir, one per dated version it names, at the path pattern
// names with the version for %s (api.%s.yaml, %s/spec.yaml; JSON for
// .json): document V holds each
// operation at its latest version on or before V, that version's media
// types renamed to application/SUFFIX (application/json) and the other
// versions' left out; an operation with no version on or before V is left
// out of it.
func writeVersionDocuments(t *testing.T, dir, pattern string, doc *yaml.Node, product string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range splitVersionDocuments(doc, product) {
		name := filepath.Join(dir, filepath.FromSlash(fmt.Sprintf(pattern, d.version)))
		if filepath.Ext(name) == ".json" {
			writeCaseFile(t, name, encodeJSON(d.doc, true))
		} else {
			writeCaseFile(t, name, encodeYAML(t, d.doc))
		}
	}
}

// versionDocument is one version's document of a media-type snapshot.
type versionDocument struct {
	version string
	doc     *yaml.Node
}

// splitVersionDocuments splits a media-type snapshot into one document per
// version it names, oldest first: each operation at its latest version on
// or before it, with its versioned media types renamed.
func splitVersionDocuments(doc *yaml.Node, product string) []versionDocument {
	versioned := benchspec.VersionedMediaType(product)
	versions := map[string]bool{}
	eachContent(doc.Content[0], func(content *yaml.Node) {
		for _, kv := range pairs(content) {
			if m := versioned.FindStringSubmatch(kv[0].Value); m != nil {
				versions[m[1]] = true
			}
		}
	})
	var out []versionDocument
	for _, v := range slices.Sorted(maps.Keys(versions)) {
		split := deepCopy(doc)
		root := split.Content[0]
		paths := lookup(root, "paths")
		for _, p := range pairs(paths) {
			item := p[1]
			for _, mp := range pairs(item) {
				if !slices.Contains(methodNames, mp[0].Value) {
					continue
				}
				latest := ""
				eachOperationContent(mp[1], func(content *yaml.Node) {
					for _, kv := range pairs(content) {
						if m := versioned.FindStringSubmatch(kv[0].Value); m != nil && m[1] <= v && m[1] > latest {
							latest = m[1]
						}
					}
				})
				if latest == "" && hasVersions(mp[1], versioned) {
					deleteKey(item, mp[0].Value)
					continue
				}
				benchspec.KeepVersion(mp[1], versioned, latest)
			}
			if !slices.ContainsFunc(pairs(item), func(kv [2]*yaml.Node) bool { return slices.Contains(methodNames, kv[0].Value) }) {
				deleteKey(paths, p[0].Value)
			}
		}
		out = append(out, versionDocument{v, split})
	}
	return out
}

// hasVersions reports whether an operation names any dated version.
func hasVersions(op *yaml.Node, versioned *regexp.Regexp) bool {
	found := false
	eachOperationContent(op, func(content *yaml.Node) {
		for _, kv := range pairs(content) {
			found = found || versioned.MatchString(kv[0].Value)
		}
	})
	return found
}

// eachContent calls fn on every content map of the operations of root.
func eachContent(root *yaml.Node, fn func(content *yaml.Node)) {
	for _, p := range pairs(lookup(root, "paths")) {
		for _, mp := range pairs(p[1]) {
			if slices.Contains(methodNames, mp[0].Value) {
				eachOperationContent(mp[1], fn)
			}
		}
	}
}

func eachOperationContent(op *yaml.Node, fn func(content *yaml.Node)) {
	if c := lookup(lookup(op, "requestBody"), "content"); c != nil {
		fn(c)
	}
	for _, kv := range pairs(lookup(op, "responses")) {
		if c := lookup(kv[1], "content"); c != nil {
			fn(c)
		}
	}
}

// TestWriteDocumentSplit writes, for scripts/bench.sh, the corpus pair
// 2024-11-19 → 2024-12-19 into APIVER_SPLIT_TO as published (two files)
// and split into version documents (docs/2024-11-19/, docs/2024-12-19/),
// as TestDocumentFormFindsMediaTypeErrors splits them. Skipped unless the
// variable is set.
func TestWriteDocumentSplit(t *testing.T) {
	out := os.Getenv("APIVER_SPLIT_TO")
	if out == "" {
		t.Skip("APIVER_SPLIT_TO is not set")
	}
	names := []string{"atlas-api-2024-11-19.yaml", "atlas-api-2024-12-19.yaml"}
	unpacked := corpus.Unpack(t, names...)
	for _, name := range names {
		text, err := os.ReadFile(filepath.Join(unpacked, name))
		if err != nil {
			t.Fatal(err)
		}
		writeVersionDocuments(t, filepath.Join(out, "docs", dateOf(name)), "atlas-api.%s.yaml", parseDocument(t, name, text), "atlas")
		writeCaseFile(t, filepath.Join(out, name), text)
	}
}
