package fix

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/aymanbagabas/go-udiff"
)

// DocumentResult is a fix of a set of version documents.
type DocumentResult struct {
	// Restored are the versions whose documents are restored from the base.
	Restored []string
	// New is the new document's version and NewPath its file; "" when
	// nothing is fixable.
	New, NewPath string
	// Files are the new bytes of the documents the fix writes, by path:
	// those restored, and the new one.
	Files map[string][]byte
	// Set is the revision set as fixed, read afresh, for its check.
	Set *specs.DocumentSet
}

// stabilityDecreased: a stability level lowered in place takes back a
// promise about the version itself, which no new document restores.
const stabilityDecreased = "api-stability-decreased"

// Documents fixes in-place breaking changes of version documents: every
// released document the revision changed in a breaking way is restored
// from the base, and the revision's newest document becomes a new document
// of version (a date after it), its file named as the newest one's with
// the date replaced, so the changes are released there. Changes that the
// newest document does not carry cannot move to a new document: nothing
// is fixed then, and the check of the result lists them.
func Documents(pair *specs.DocumentPair, report *policy.Report, version civil.Date) (*DocumentResult, error) {
	res := &DocumentResult{Files: map[string][]byte{}}
	changed := map[string]bool{}
	for _, f := range report.Findings {
		if f.Rule == policy.BreakingChangeWithoutNewVersion && f.Severity == policy.Error && !f.Exempted && !f.Preexisting && f.Version != "" && f.Change != stabilityDecreased {
			changed[f.Version] = true
		}
	}
	released := pair.Revision.Released()
	if len(released) == 0 {
		return res, nil
	}
	newest := released[len(released)-1]
	if !changed[newest.Version] || pair.Base.Document(newest.Version) == nil {
		return res, nil
	}
	if !version.After(newest.Date) {
		return nil, fmt.Errorf("the new document's date %s must be after %s, the newest document's: give --version", version, newest.Version)
	}
	for _, v := range slices.Sorted(func(yield func(string) bool) {
		for v := range changed {
			if !yield(v) {
				return
			}
		}
	}) {
		b, r := pair.Base.Document(v), pair.Revision.Document(v)
		if b == nil || r == nil {
			continue
		}
		res.Restored = append(res.Restored, v)
		res.Files[r.Path()] = b.Source.Data()
	}
	res.New, res.NewPath = version.String(), renamed(newest.Path(), newest.Version, version.String())
	if pair.Revision.Document(res.New) != nil {
		return nil, fmt.Errorf("%s: version %s has a document already: give --version", pair.Revision.Path, res.New)
	}
	res.Files[res.NewPath] = newest.Source.Data()

	set := &specs.DocumentSet{Path: pair.Revision.Path, Ref: pair.Revision.Ref, Date: pair.Revision.Date}
	for _, d := range pair.Revision.Documents {
		data, ok := res.Files[d.Path()]
		if !ok {
			data = d.Source.Data()
		}
		set.Documents = append(set.Documents, &specs.VersionDocument{Version: d.Version, Date: d.Date, PreRelease: d.PreRelease, Source: d.Source.WithData(data)})
	}
	set.Documents = append(set.Documents, &specs.VersionDocument{Version: res.New, Date: version, Source: newest.Source.WithFile(res.NewPath, res.Files[res.NewPath])})
	slices.SortFunc(set.Documents, func(a, b *specs.VersionDocument) int { return cmp.Compare(a.Version, b.Version) })
	res.Set = set
	return res, nil
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
		from, old := escape.DiffPath("a/"+p), ""
		if p == r.NewPath {
			from = "/dev/null"
		} else {
			old = string(original(p))
		}
		b.WriteString(udiff.Unified(from, escape.DiffPath("b/"+p), old, string(r.Files[p])))
	}
	return []byte(b.String())
}
