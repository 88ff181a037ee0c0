package fix

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	"github.com/aymanbagabas/go-udiff"
)

// DocumentResult is a fix of a set of version documents.
type DocumentResult struct {
	// Restored are the documents restored from the base, in path order.
	Restored []RestoredDocument
	// New is the new documents' version, "" when nothing is fixable, and
	// NewPaths their files: one, or in a resource tree one per resource
	// fixed.
	New      string
	NewPaths []string
	// Files are the new bytes of the documents the fix writes, by path:
	// those restored, and the new ones.
	Files map[string][]byte
	// Set is the revision set as fixed, read afresh, for its check.
	Set *specs.DocumentSet
}

// RestoredDocument is a document restored from the base, and the new
// document its changes move to.
type RestoredDocument struct {
	Version, Path, NewPath string
}

// stabilityDecreased: a stability level lowered in place takes back a
// promise about the version itself, which no new document restores.
const stabilityDecreased = "api-stability-decreased"

// Documents fixes in-place breaking changes of version documents: every
// released document the revision changed in a breaking way is restored
// from the base, and the revision's newest document becomes a new document
// of version (a date after it), its file named as the newest one's with
// the date replaced, so the changes are released there. In a resource
// tree each resource is fixed so, with its own newest document. Changes
// that the newest document does not carry cannot move to a new document:
// nothing is fixed then (of that resource), and the check of the result
// lists them.
func Documents(pair *load.DocumentPair, report *policy.Report, version civil.Date) (*DocumentResult, error) {
	res := &DocumentResult{Files: map[string][]byte{}}
	changed := map[*specs.VersionDocument]bool{}
	for _, f := range report.Findings {
		if f.Rule == policy.BreakingChangeWithoutNewVersion && f.Severity == policy.Error && !f.Exempted && !f.Preexisting && f.Version != "" && f.Change != stabilityDecreased {
			// A document whose bytes are the base's changed through a file
			// it $refs: copying the base's document back restores nothing.
			if d := changedDocument(pair.Revision, f); d != nil && !sameAsBase(pair.Base, d) {
				changed[d] = true
			}
		}
	}
	resources := map[string]bool{}
	for d := range changed {
		resources[d.Resource] = true
	}
	type added struct {
		from *specs.VersionDocument
		path string
	}
	var news []added
	for _, resource := range slices.Sorted(maps.Keys(resources)) {
		var newest *specs.VersionDocument
		for _, d := range pair.Revision.Released() {
			if d.Resource == resource {
				newest = d
			}
		}
		if newest == nil || !changed[newest] || pair.Base.DocumentOf(resource, newest.Version) == nil {
			continue
		}
		if !version.After(newest.Date) {
			return nil, fmt.Errorf("the new document's date %s must be after %s, the newest document's: give --version", version, newest.Version)
		}
		if pair.Revision.DocumentOf(resource, version.String()) != nil {
			return nil, fmt.Errorf("%s: version %s has a document already: give --version", pair.Revision.Path, version)
		}
		newPath := renamed(newest.Path(), newest.Version, version.String())
		for _, r := range pair.Revision.Documents {
			b := pair.Base.DocumentOf(resource, r.Version)
			if !changed[r] || r.Resource != resource || b == nil {
				continue
			}
			res.Restored = append(res.Restored, RestoredDocument{Version: r.Version, Path: r.Path(), NewPath: newPath})
			res.Files[r.Path()] = b.Source.Data()
		}
		res.Files[newPath] = newest.Source.Data()
		res.NewPaths = append(res.NewPaths, newPath)
		news = append(news, added{newest, newPath})
	}
	if len(news) == 0 {
		return res, nil
	}
	res.New = version.String()
	slices.SortFunc(res.Restored, func(a, b RestoredDocument) int { return cmp.Compare(a.Path, b.Path) })

	set := &specs.DocumentSet{Path: pair.Revision.Path, Ref: pair.Revision.Ref, Date: pair.Revision.Date, ByResource: pair.Revision.ByResource}
	for _, d := range pair.Revision.Documents {
		data, ok := res.Files[d.Path()]
		if !ok {
			data = d.Source.Data()
		}
		set.Documents = append(set.Documents, &specs.VersionDocument{Version: d.Version, Date: d.Date, PreRelease: d.PreRelease, Resource: d.Resource, Source: d.Source.WithData(data)})
	}
	for _, n := range news {
		set.Documents = append(set.Documents, &specs.VersionDocument{Version: res.New, Date: version, Resource: n.from.Resource, Source: n.from.Source.WithFile(n.path, res.Files[n.path])})
	}
	slices.SortFunc(set.Documents, func(a, b *specs.VersionDocument) int {
		return cmp.Or(cmp.Compare(a.Version, b.Version), cmp.Compare(a.Resource, b.Resource))
	})
	res.Set = set
	return res, nil
}

// sameAsBase reports whether the base holds d's document with the same
// bytes.
func sameAsBase(base *specs.DocumentSet, d *specs.VersionDocument) bool {
	b := base.DocumentOf(d.Resource, d.Version)
	return b != nil && bytes.Equal(b.Source.Data(), d.Source.Data())
}

// changedDocument is the revision's document a finding of an in-place
// change is in: the one of its version (in a resource tree, the one of
// that version that holds its operation, or that its location names).
func changedDocument(set *specs.DocumentSet, f policy.Finding) *specs.VersionDocument {
	var found *specs.VersionDocument
	for _, d := range set.Documents {
		if d.Version != f.Version {
			continue
		}
		if !set.ByResource || (f.Location != nil && f.Location.File == d.Path() && f.Location.Ref == d.Source.Ref()) {
			return d
		}
		if slices.ContainsFunc(d.Operations(), func(op *versions.Operation) bool { return op.Name() == f.Operation }) {
			found = d
		}
	}
	return found
}

// renamed is a document's path with its version replaced: in the file's
// name when it carries it, else in its folder's.
func renamed(file, from, to string) string {
	dir, name := path.Split(file)
	if strings.Contains(name, from) {
		return dir + strings.Replace(name, from, to, 1)
	}
	parent, folder := path.Split(strings.TrimSuffix(dir, "/"))
	return parent + strings.Replace(folder, from, to, 1) + "/" + name
}

// Unified is the unified diff, file by file in path order, of the
// documents the fix writes against the revision's (original gives a
// document's bytes; the new document is a new file), with the a/ and b/
// prefixes git applies, and names quoted as git quotes them.
func (r *DocumentResult) Unified(original func(path string) []byte) []byte {
	var b strings.Builder
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range r.Files {
			if !yield(p) {
				return
			}
		}
	}) {
		// As git prints it, so that `git apply` takes it (./ refused).
		clean := filepath.ToSlash(filepath.Clean(p))
		from, old := escape.DiffPath("a/"+clean), ""
		if slices.Contains(r.NewPaths, p) {
			from = "/dev/null"
		} else {
			old = string(original(p))
		}
		b.WriteString(udiff.Unified(from, escape.DiffPath("b/"+clean), old, string(r.Files[p])))
	}
	return []byte(b.String())
}
