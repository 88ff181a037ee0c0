package specs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/spectest"
	"github.com/apiver/apiver/specs"
)

const emptyDocument = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n"

// TestReadDocumentSet: the documents of a folder, by the date in their name
// or their folder's, oldest first, a date before its pre-releases; the
// predecessor and successor of each are released documents.
func TestReadDocumentSet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{
		"api.2024-01-01.yaml", "api.2024-06-01.json", "2024-03-01~beta/spec.yaml", "2025-01-01/spec.yml",
		"2024-06-01-preview/api.yaml", "components.yaml", "examples/api.2020-01-01.yaml", "notes.txt",
	} {
		spectest.WriteFile(t, dir, name, emptyDocument)
	}
	set, err := specs.ReadDocumentSet(dir+"/2025-02-03", specs.LoadOptions{})
	if err == nil {
		t.Fatalf("a folder that does not exist: got %d documents, want an error", len(set.Documents))
	}
	set, err = specs.ReadDocumentSet(dir, specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range set.Documents {
		got = append(got, d.Version)
	}
	want := []string{"2024-01-01", "2024-03-01~beta", "2024-06-01", "2024-06-01-preview", "2025-01-01"}
	if len(got) != len(want) {
		t.Fatalf("versions %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("versions %v, want %v", got, want)
		}
	}
	beta := set.Document("2024-03-01~beta")
	if !beta.PreRelease || beta.Path() != dir+"/2024-03-01~beta/spec.yaml" {
		t.Errorf("the beta: pre-release %v, path %s", beta.PreRelease, beta.Path())
	}
	if p := set.Predecessor(set.Document("2024-06-01")); p == nil || p.Version != "2024-01-01" {
		t.Errorf("the predecessor of 2024-06-01 is %v, want 2024-01-01 (not the beta)", p)
	}
	if s := set.Successor(set.Document("2024-06-01")); s == nil || s.Version != "2025-01-01" {
		t.Errorf("the successor of 2024-06-01 is %v, want 2025-01-01 (not the preview)", s)
	}
	if !set.Date.IsZero() {
		t.Errorf("a folder without a date in its name has the date %s, want none", set.Date)
	}
	dated := spectest.WriteFile(t, dir, "2025-02-03/api.2024-01-01.yaml", emptyDocument)
	set, err = specs.ReadDocumentSet(dir+"/2025-02-03", specs.LoadOptions{})
	if err != nil || set.Date.String() != "2025-02-03" {
		t.Errorf("a dated folder (%s): date %v, %v; want 2025-02-03", dated, set, err)
	}
}

// TestReadDocumentSetRefusesLinksOut: a document or a dated folder that is
// a symbolic link leading out of the folder named is refused, naming the
// link and where it leads; a link that stays inside is read, and a link
// out that nothing reads (an undated file) is no matter.
func TestReadDocumentSetRefusesLinksOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outside := spectest.WriteFile(t, dir, "outside/api.2024-01-01.yaml", emptyDocument)
	for _, tc := range []struct {
		name, link, to string
	}{
		{"a document", "api.2024-02-01.yaml", outside},
		{"a dated folder", "2024-02-01", filepath.Dir(outside)},
		{"an undated folder", "stable", filepath.Dir(outside)},
		{"a folder under a dated one", "2024-03-01/v1", filepath.Dir(outside)},
		{"a link to nothing yet", "api.2024-02-01.yaml", filepath.Join(dir, "nowhere", "api.yaml")},
	} {
		root := filepath.Join(dir, tc.name)
		spectest.WriteFile(t, root, "api.2023-01-01.yaml", emptyDocument)
		spectest.WriteFile(t, root, "notes.yaml", emptyDocument)
		if err := os.Symlink(outside, filepath.Join(root, "notes.2020-01-01.txt")); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(root, filepath.FromSlash(tc.link))
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(tc.to, link); err != nil {
			t.Fatal(err)
		}
		_, err := specs.ReadDocumentSet(root, specs.LoadOptions{})
		e := spectest.SpecError(t, err)
		if e.File != link || !strings.Contains(e.Msg, tc.to) {
			t.Errorf("%s: got %v; want the link %s named, and where it leads", tc.name, err, link)
		}
	}
	// Links inside the folder are read as what they lead to.
	root := filepath.Join(dir, "inside")
	spectest.WriteFile(t, root, "api.2023-01-01.yaml", emptyDocument)
	spectest.WriteFile(t, root, ".parts/2023-06-01/spec.yaml", emptyDocument)
	for link, to := range map[string]string{"api.2024-01-01.yaml": "api.2023-01-01.yaml", "2023-06-01": ".parts/2023-06-01"} {
		if err := os.Symlink(to, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	set, err := specs.ReadDocumentSet(root, specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Documents) != 3 {
		t.Errorf("links inside the folder: got %d documents, want 3", len(set.Documents))
	}
}

// TestReadDocumentSetRefusesLinksAtRef: a link committed in REF:FOLDER is
// refused, naming it and its target, not read as a document.
func TestReadDocumentSetRefusesLinksAtRef(t *testing.T) {
	dir := gitRepo(t, map[string]string{"api/api.2023-01-01.yaml": emptyDocument, "secret/api.yaml": emptyDocument}, "2024-01-01T00:00:00Z")
	if err := os.Symlink("../secret/api.yaml", filepath.Join(dir, "api", "api.2024-01-01.yaml")); err != nil {
		t.Fatal(err)
	}
	runGit(t, "add", ".")
	runGit(t, "commit", "-q", "-m", "link")
	_, err := specs.ReadDocumentSet("main:api", specs.LoadOptions{})
	e := spectest.SpecError(t, err)
	if e.File != "api/api.2024-01-01.yaml" || !strings.Contains(e.Msg, "../secret/api.yaml") {
		t.Errorf("got %v; want the link api/api.2024-01-01.yaml named, and its target", err)
	}
}

// TestReadResourceTree: a folder is a resource tree when the layout says so
// or two resource folders share a version date; its versions pair within
// their resource.
func TestReadResourceTree(t *testing.T) {
	t.Parallel()
	layout := func(files ...string) string {
		dir := t.TempDir()
		for _, name := range files {
			spectest.WriteFile(t, dir, name, emptyDocument)
		}
		return dir
	}
	resources := func(set *specs.DocumentSet) []string {
		var out []string
		for _, d := range set.Documents {
			out = append(out, d.Resource+"@"+d.Version)
		}
		return out
	}

	tree := layout("projects/2024-01-01/spec.yaml", "projects/2024-06-01~beta/spec.yaml", "projects/2025-01-01/spec.yaml",
		"orgs/targets/2024-01-01/spec.yaml", "schemas/common.yaml")
	set, err := specs.ReadDocumentSet(tree, specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"orgs/targets@2024-01-01", "projects@2024-01-01", "projects@2024-06-01~beta", "projects@2025-01-01"}
	if got := resources(set); !set.ByResource || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("a tree whose resources share a date: resource tree %v, %v; want %v", set.ByResource, got, want)
	}
	newest := set.DocumentOf("projects", "2025-01-01")
	if p := set.Predecessor(newest); p == nil || p.Resource != "projects" || p.Version != "2024-01-01" {
		t.Errorf("the predecessor of projects@2025-01-01 is %v, want projects@2024-01-01", p)
	}
	if s := set.Serving("orgs/targets", "2025-01-01"); s == nil || s.Version != "2024-01-01" {
		t.Errorf("orgs/targets serves 2025-01-01 with %v, want its 2024-01-01", s)
	}
	if s := set.Successor(set.DocumentOf("orgs/targets", "2024-01-01")); s != nil {
		t.Errorf("orgs/targets@2024-01-01 has successor %s@%s, want none: another resource's version deprecates nothing", s.Resource, s.Version)
	}

	// Azure's stable/ and preview/ share no version: version documents.
	azure := layout("stable/2024-01-01/compute.json", "preview/2024-01-01-preview/compute.json")
	if set, err := specs.ReadDocumentSet(azure, specs.LoadOptions{}); err != nil || set.ByResource {
		t.Errorf("Azure's layout: resource tree %v, %v; want version documents", set != nil && set.ByResource, err)
	}
	// Sharing no date, a tree is one only when the layout says so.
	apart := layout("projects/2024-01-01/spec.yaml", "targets/2024-02-01/spec.yaml")
	if set, err := specs.ReadDocumentSet(apart, specs.LoadOptions{}); err != nil || set.ByResource {
		t.Errorf("resources that share no date, detected: resource tree %v, %v; want version documents", set != nil && set.ByResource, err)
	}
	if set, err := specs.ReadDocumentSet(apart, specs.LoadOptions{Layout: specs.LayoutResources}); err != nil || !set.ByResource {
		t.Errorf("resources that share no date, versioning.by resource: resource tree %v, %v; want one", set != nil && set.ByResource, err)
	}
	// Two resources' versions of one date read as documents of the whole
	// API are two documents of one version.
	if _, err := specs.ReadDocumentSet(tree, specs.LoadOptions{Layout: specs.LayoutDocuments}); err == nil || !strings.Contains(err.Error(), "one document per version") {
		t.Errorf("a tree read as version documents: %v, want two documents of one version", err)
	}
	// In a tree, a dated file at the top is in no resource.
	stray := layout("api.2024-01-01.yaml", "projects/2024-01-01/spec.yaml")
	if _, err := specs.ReadDocumentSet(stray, specs.LoadOptions{Layout: specs.LayoutResources}); err == nil || !strings.Contains(err.Error(), "api.2024-01-01.yaml") {
		t.Errorf("a dated file at the top of a tree: %v, want an error naming it", err)
	}
}
