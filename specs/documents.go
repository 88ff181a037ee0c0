package specs

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/outfile"
	"github.com/apiver/apiver/versions"
)

// DocumentSet is a snapshot published as one OpenAPI document per version
// (GitHub's api.github.com.2022-11-28.yaml, Snyk's 2024-01-04~beta/spec.yaml,
// Azure's stable/2024-01-01/…): each operation of document V is that
// operation at version V.
type DocumentSet struct {
	// Path is the folder as the user named it (FOLDER of REF:FOLDER).
	Path string
	// Ref is the git ref a REF:FOLDER input was read at, "" on disk.
	Ref string
	// Date is the snapshot's date: LoadOptions.Date, else the first
	// YYYY-MM-DD in the folder's name, else the commit date of a git input;
	// zero when none gives one.
	Date civil.Date
	// Documents are the version documents, by version name (a date sorts
	// before its pre-releases), then by resource.
	Documents []*VersionDocument
	// ByResource says the set is a resource tree (vervet's layout): each
	// resource versions its own operations, so versions pair within a
	// resource, and an operation a newer version of its resource does not
	// declare continues from the older one.
	ByResource bool
}

// Layout is how the documents of a folder are read (LoadOptions.Layout).
type Layout string

const (
	// LayoutAuto reads a folder as a resource tree when two resource
	// folders hold a version of the same date (as version documents that
	// would be two documents of one version), else as version documents.
	LayoutAuto Layout = ""
	// LayoutDocuments: one document per version of the whole API.
	LayoutDocuments Layout = "documents"
	// LayoutResources: a folder per resource, a version folder per version
	// of it (RESOURCE/YYYY-MM-DD[~stability]/spec.yaml).
	LayoutResources Layout = "resources"
)

// VersionDocument is one version's document in a DocumentSet.
type VersionDocument struct {
	// Version is the date with its pre-release mark as the name writes it:
	// "2026-03-10", "2024-01-04~beta", "2024-09-01.upcoming",
	// "2024-01-01-preview".
	Version    string
	Date       civil.Date
	PreRelease bool
	// Resource is, in a resource tree, the folder of the resource the
	// document versions, as a path from the tree's root; "" otherwise.
	Resource string
	// Retired says the document declares itself sunset (vervet's
	// x-snyk-api-lifecycle: sunset at its root), read with its operations:
	// its version is no longer served, and may be removed.
	Retired bool
	Source  *Source
	// Snapshot is the document loaded, by load.LoadDocumentPair or
	// load.LoadDocumentSet; nil when its operations were taken from another
	// document where they read the same.
	Snapshot *Snapshot
	// ops are its operations, lines where each starts (by Name), sunset
	// its info.x-sunset.
	ops    []*versions.Operation
	lines  map[string]int
	sunset civil.Date
}

// ReadOperations lists the operations of the document loaded (Snapshot),
// its sunset and whether it is Retired.
func (d *VersionDocument) ReadOperations() {
	d.ops = versions.Operations(d.Snapshot.Doc, "")
	d.lines = map[string]int{}
	for _, op := range d.ops {
		d.lines[op.Name()] = op.Line()
	}
	if d.Snapshot.Doc.Info != nil {
		d.sunset = versions.SunsetOf(d.Snapshot.Doc.Info.Extensions)
	}
	d.Retired = versions.Retired(d.Snapshot.Doc.Extensions)
}

// SetOperations gives d operations read elsewhere, where they read the
// same: ops, the lines where each starts in d (by Name), d's sunset and
// whether it is Retired.
func (d *VersionDocument) SetOperations(ops []*versions.Operation, lines map[string]int, sunset civil.Date, retired bool) {
	d.ops, d.lines, d.sunset, d.Retired = ops, lines, sunset, retired
}

// ShareOperations gives d the operations of from, a document of the same
// bytes, as ReadOperations listed them.
func (d *VersionDocument) ShareOperations(from *VersionDocument) {
	d.SetOperations(from.ops, from.lines, from.sunset, from.Retired)
}

// Operations are the document's operations, each with its view
// (Unversioned), sorted by path and method.
func (d *VersionDocument) Operations() []*versions.Operation { return d.ops }

// Path is the document's file as locations name it.
func (d *VersionDocument) Path() string { return d.Source.path }

// Released are the documents that are not pre-releases, oldest first.
func (s *DocumentSet) Released() []*VersionDocument {
	return slices.DeleteFunc(slices.Clone(s.Documents), func(d *VersionDocument) bool { return d.PreRelease })
}

// Document is the document of a version, or nil; in a resource tree, the
// first resource's that has it (DocumentOf names the resource).
func (s *DocumentSet) Document(version string) *VersionDocument {
	for _, d := range s.Documents {
		if d.Version == version {
			return d
		}
	}
	return nil
}

// DocumentOf is the document of a version of a resource ("" outside a
// resource tree), or nil.
func (s *DocumentSet) DocumentOf(resource, version string) *VersionDocument {
	for _, d := range s.Documents {
		if d.Version == version && d.Resource == resource {
			return d
		}
	}
	return nil
}

// Serving is the document of a resource ("" outside a resource tree) that
// serves a version of the set: the resource's own document of it, else its
// latest released one of an earlier date; nil when it has none yet.
func (s *DocumentSet) Serving(resource, version string) *VersionDocument {
	if d := s.DocumentOf(resource, version); d != nil {
		return d
	}
	_, date, _, _, err := versions.VersionOfName(version)
	if err != nil {
		return nil
	}
	return s.Predecessor(&VersionDocument{Resource: resource, Date: date})
}

// Predecessor is the released document a document succeeds: the latest
// released one of an earlier date, of the same resource. Nil for the
// first.
func (s *DocumentSet) Predecessor(d *VersionDocument) *VersionDocument {
	var pred *VersionDocument
	for _, o := range s.Documents {
		if !o.PreRelease && o.Resource == d.Resource && o.Date.Before(d.Date) {
			pred = o
		}
	}
	return pred
}

// Successor is the released document that deprecates d: the first released
// one of a later date, of the same resource. Nil for the newest.
func (s *DocumentSet) Successor(d *VersionDocument) *VersionDocument {
	for _, o := range s.Documents {
		if !o.PreRelease && o.Resource == d.Resource && o.Date.After(d.Date) {
			return o
		}
	}
	return nil
}

// documentExt reports whether a file name has a version document's
// extension.
func documentExt(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// IsFolder reports whether arg names a folder: on disk, or REF:FOLDER at a
// git ref. An argument that names nothing is not one (reading it as a
// file reports it).
func IsFolder(arg string) bool {
	if ref, file, ok := gitInput(arg); ok {
		c, err := openCommit(ref)
		if err != nil {
			return false
		}
		kind, err := git("cat-file", "-t", c.hash+":"+file)
		return err == nil && kind == "tree"
	}
	info, err := os.Stat(arg)
	return err == nil && info.IsDir()
}

// Exists reports whether arg names something: on disk, or at a git ref.
func Exists(arg string) bool {
	if ref, file, ok := gitInput(arg); ok {
		c, err := openCommit(ref)
		if err != nil {
			return false
		}
		_, err = git("cat-file", "-t", c.hash+":"+file)
		return err == nil
	}
	_, err := os.Stat(arg)
	return err == nil
}

// entry is a file or folder of a listing, by its name.
type entry struct {
	name string
	dir  bool
	// refused, for a symbolic link that leaves the snapshot, says where it
	// leads and why it is not read: it is refused if read or walked.
	refused string
}

// ReadDocumentSet finds the version documents of a folder, or of
// REF:FOLDER from git, and reads them without parsing them. A version
// document is a .yaml, .yml or .json file of the folder whose name carries
// YYYY-MM-DD (and a pre-release mark), or a file of a folder whose name
// carries it, up to documentDepth folders down:
// api.github.com.2022-11-28.yaml, 2024-01-04~beta/spec.yaml,
// stable/2024-01-01/compute.json. Other files ($ref'd parts, examples,
// dereferenced copies) are not documents. Two documents of one version, or none, are
// input errors; one written as YAML and as JSON beside it is read as YAML.
func ReadDocumentSet(arg string, opts LoadOptions) (*DocumentSet, error) {
	set := &DocumentSet{Path: arg, Date: opts.Date}
	var list func(dir string) ([]entry, error)
	var read func(file string) (*Source, error)
	fail := func(msg string) error { return &Error{File: arg, Msg: msg} }
	docOpts := opts
	docOpts.Date = civil.Date{}
	// A document's $refs may reach any file of the snapshot (vervet's
	// resources share ../../schemas), and nothing outside it.
	docOpts.Root = arg
	if ref, folder, ok := gitInput(arg); ok {
		c, err := openCommit(ref)
		if err != nil {
			return nil, fail(err.Error())
		}
		set.Path, set.Ref = folder, ref
		docOpts.Root = folder
		list = func(dir string) ([]entry, error) { return c.list(dir) }
		read = func(file string) (*Source, error) { return readAtCommit(ref+":"+file, c, file, docOpts) }
		if set.Date.IsZero() {
			if set.Date, err = dateOfFolder(folder); err != nil {
				return nil, fail(err.Error())
			}
		}
		if set.Date.IsZero() {
			if set.Date, err = c.commitDate(); err != nil {
				return nil, fail(err.Error())
			}
		}
	} else {
		list = listDir(arg)
		read = func(file string) (*Source, error) { return Read(file, docOpts) }
		if set.Date.IsZero() {
			var err error
			if set.Date, err = dateOfFolder(arg); err != nil {
				return nil, fail(err.Error())
			}
		}
	}
	files, err := documentFiles(set.Path, list)
	if _, named := errors.AsType[*Error](err); named {
		return nil, err // it names the file
	} else if err != nil {
		return nil, fail(err.Error())
	}
	set.ByResource, err = resourceTree(files, opts.Layout)
	if err != nil {
		return nil, err
	}
	if !set.ByResource {
		for i := range files {
			files[i].resource = ""
		}
	}
	type key struct{ resource, version string }
	byVersion := map[key]documentFile{}
	for _, f := range files {
		k := key{f.resource, f.version}
		other, dup := byVersion[k]
		switch {
		case !dup:
		case sameDocument(other.path, f.path) && yamlForm(other.path) && yamlForm(f.path):
			// spec.yaml beside spec.yml: one document only if they read the same.
			same, err := sameText(read, other.path, f.path)
			if err != nil {
				return nil, err
			}
			if !same {
				return nil, fail(fmt.Sprintf("%s and %s are both version %s, and differ: one document per version", other.path, f.path, f.version))
			}
			if extRank(f.path) > extRank(other.path) {
				continue
			}
		case sameDocument(other.path, f.path):
			if extRank(f.path) > extRank(other.path) {
				continue
			}
		default:
			return nil, fail(fmt.Sprintf("%s and %s are both version %s: one document per version", other.path, f.path, f.version))
		}
		byVersion[k] = f
	}
	for _, k := range slices.SortedFunc(maps.Keys(byVersion), func(a, b key) int {
		return cmp.Or(cmp.Compare(a.version, b.version), cmp.Compare(a.resource, b.resource))
	}) {
		f := byVersion[k]
		src, err := read(f.path)
		if err != nil {
			return nil, err
		}
		src.version = f.version
		set.Documents = append(set.Documents, &VersionDocument{Version: f.version, Date: f.date, PreRelease: f.preRelease, Resource: f.resource, Source: src})
	}
	if len(set.Documents) == 0 {
		return nil, fail("no version document: a .yaml, .yml or .json file with YYYY-MM-DD in its name or in its folder's name, or a resource tree of RESOURCE/YYYY-MM-DD[~stability]/spec.yaml")
	}
	return set, nil
}

// resourceTree decides whether the documents found are a resource tree:
// as the layout says, or, left to detection, when two resource folders
// hold a version of one date, which as version documents of the whole API
// would be two documents of one version. In a resource tree every document
// must be in a resource's folder.
func resourceTree(files []documentFile, layout Layout) (bool, error) {
	switch layout {
	case LayoutDocuments:
		return false, nil
	case LayoutResources:
		for _, f := range files {
			if f.resource == "" {
				return false, &Error{File: f.path, Msg: "not in a resource's folder: a resource tree (versioning.by: resource) holds RESOURCE/YYYY-MM-DD[~stability]/spec.yaml"}
			}
		}
		return true, nil
	}
	resources := map[string]string{} // version -> the resource that has it
	shared := false
	for _, f := range files {
		if f.resource == "" {
			return false, nil
		}
		if r, ok := resources[f.version]; ok && r != f.resource {
			shared = true
		}
		resources[f.version] = f.resource
	}
	return shared, nil
}

// ReadDocumentSets reads the sets compared with each other (a pair, a
// history's snapshots), each as ReadDocumentSet does, and all in one
// layout: when detection finds a resource tree in one of them, the others
// are read as resource trees too, so that their versions pair.
func ReadDocumentSets(args []string, opts []LoadOptions) ([]*DocumentSet, error) {
	sets := make([]*DocumentSet, len(args))
	tree := false
	for i, arg := range args {
		set, err := ReadDocumentSet(arg, opts[i])
		if err != nil {
			return nil, err
		}
		sets[i], tree = set, tree || set.ByResource
	}
	for i, set := range sets {
		if tree && !set.ByResource && opts[i].Layout == LayoutAuto {
			o := opts[i]
			o.Layout = LayoutResources
			var err error
			if sets[i], err = ReadDocumentSet(args[i], o); err != nil {
				return nil, err
			}
		}
	}
	return sets, nil
}

// dateOfFolder is the first YYYY-MM-DD in a folder's name, zero when it
// holds none.
func dateOfFolder(folder string) (civil.Date, error) {
	name := path.Base(filepath.ToSlash(strings.TrimSuffix(folder, "/")))
	s := versions.DatePattern.FindString(name)
	if s == "" {
		return civil.Date{}, nil
	}
	d, err := civil.ParseDate(s)
	if err != nil {
		return civil.Date{}, fmt.Errorf("folder name holds %q, which is not a real date", s)
	}
	return d, nil
}

type documentFile struct {
	// resource is the folder that holds the version's folder (or the
	// dated file itself), from the set's root; "" for the root itself.
	path, version, resource string
	date                    civil.Date
	preRelease              bool
}

// documentDepth is how many folders down version documents are looked
// for: Azure's stable/2024-01-01/compute.json is two.
const documentDepth = 3

// documentFiles finds the version documents under folder: the files of
// the folder whose name carries a date, and the files of dated folders
// under it (dated by their own name first); the folder's own name does
// not count, nor hidden files and folders.
func documentFiles(folder string, list func(string) ([]entry, error)) ([]documentFile, error) {
	var out []documentFile
	join := func(dir, name string) string {
		if dir == "." && !strings.HasPrefix(name, ".") {
			return name
		}
		// "./" stays: to git, it says the path is the working directory's.
		return strings.TrimSuffix(dir, "/") + "/" + name
	}
	// rel is dir as a path from folder, "" for folder itself.
	var walk func(dir, rel, parent string, depth int) error
	walk = func(dir, rel, parent string, depth int) error {
		entries, err := list(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if strings.HasPrefix(e.name, ".") {
				continue
			}
			file := join(dir, e.name)
			refuse := func() error { return &Error{File: file, Msg: e.refused} }
			if e.dir {
				if depth < documentDepth {
					if e.refused != "" {
						return refuse()
					}
					if err := walk(file, path.Join(rel, e.name), e.name, depth+1); err != nil {
						return err
					}
				}
				continue
			}
			if !documentExt(e.name) {
				continue
			}
			// Below the folder, a file counts in a dated folder only: an
			// undated one holds other things (GitHub's dereferenced/,
			// Azure's examples/), dated or not.
			_, _, _, dated, _ := versions.VersionOfName(parent)
			named, resource := e.name, rel
			if _, _, _, own, _ := versions.VersionOfName(e.name); depth > 0 && !dated {
				continue
			} else if !own {
				named, resource = parent, path.Dir(rel)
			}
			if resource == "." {
				resource = ""
			}
			version, date, pre, found, err := versions.VersionOfName(named)
			switch {
			case err != nil:
				return fmt.Errorf("%s: the name holds %q, which is not a real date", file, versions.DatePattern.FindString(path.Base(named)))
			case found && e.refused != "":
				return refuse()
			case found:
				out = append(out, documentFile{path: file, version: version, resource: resource, date: date, preRelease: pre})
			}
		}
		return nil
	}
	if err := walk(folder, "", "", 0); err != nil {
		return nil, err
	}
	return out, nil
}

// sameDocument reports whether two files are one document written twice,
// as YAML and as JSON beside it (vervet writes spec.yaml and spec.json).
func sameDocument(a, b string) bool {
	stem := func(p string) string { return strings.TrimSuffix(p, path.Ext(p)) }
	return stem(a) == stem(b)
}

// yamlForm reports whether a document's file is written as YAML.
func yamlForm(p string) bool { return extRank(p) < 2 }

// sameText reports whether two files hold the same bytes.
func sameText(read func(string) (*Source, error), a, b string) (bool, error) {
	sa, err := read(a)
	if err != nil {
		return false, err
	}
	sb, err := read(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(sa.data, sb.data), nil
}

// extRank orders the forms of one document: YAML first.
func extRank(p string) int {
	return slices.Index([]string{".yaml", ".yml", ".json"}, strings.ToLower(path.Ext(p)))
}

// listDir lists the folders of the snapshot named root on disk, by name:
// a link counts as what it leads to, and is refused if it leads out of
// root, its links resolved, so that a link added by a pull request cannot
// make CI read the runner's files.
func listDir(root string) func(dir string) ([]entry, error) {
	realRoot := outfile.Real(root)
	return func(dir string) ([]entry, error) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: no such folder", dir)
			}
			if pathErr, ok := errors.AsType[*fs.PathError](err); ok {
				return nil, fmt.Errorf("%s: %v", pathErr.Path, pathErr.Err)
			}
			return nil, err
		}
		out := make([]entry, 0, len(entries))
		for _, e := range entries {
			en := entry{name: e.Name(), dir: e.IsDir()}
			if e.Type()&fs.ModeSymlink != 0 {
				link := filepath.Join(dir, e.Name())
				info, err := os.Stat(link)
				en.dir = err == nil && info.IsDir()
				// A link whose target is missing is followed all the same:
				// reading it fails, but its name says where it leads.
				if real := outfile.Real(link); !insideDir(realRoot, real) {
					to := real
					if written, err := os.Readlink(link); err == nil && written != real {
						to = fmt.Sprintf("%s (%s)", written, real)
					}
					en.refused = fmt.Sprintf("a symbolic link to %s, outside the folder %s named on the command line: refused, so that a link cannot make apiver read a file elsewhere", to, root)
				}
			}
			out = append(out, en)
		}
		return out, nil
	}
}

// FolderEntry is a file or folder that ListFolder lists.
type FolderEntry struct {
	Name string
	Dir  bool
	// Refused, for a symbolic link that resolves outside the folder, names
	// the link and where it leads; nil for anything else.
	Refused error
}

// ListFolder lists a folder named on the command line as a folder snapshot
// is listed (listDir): a link counts as what it leads to, and one that
// resolves outside the folder is Refused, so that whatever would read it
// fails instead.
func ListFolder(dir string) ([]FolderEntry, error) {
	entries, err := listDir(dir)(dir)
	if err != nil {
		return nil, err
	}
	out := make([]FolderEntry, len(entries))
	for i, e := range entries {
		out[i] = FolderEntry{Name: e.name, Dir: e.dir}
		if e.refused != "" {
			out[i].Refused = &Error{File: filepath.Join(dir, e.name), Msg: e.refused}
		}
	}
	return out, nil
}

// insideDir reports whether the absolute path p lies in the folder dir.
func insideDir(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Operations merges the operations of the set's loaded documents into one
// list, as versions.Operations lists a snapshot's with media-type
// versions: each operation carries one version per document that holds it
// (a pre-release one for a pre-release document, or for an operation marked
// draft, alpha or beta there; a Retired one where the document or the
// operation is marked sunset), and is named and written as the newest of
// them has it (a callback's under its operation, a webhook's as one). A document is deprecated by the next released document,
// whether or not it holds the operation; in a resource tree, by the next
// released version of the operation in its resource: the ones it does not
// declare carry forward. Sorted as versions.Operations sorts them.
func (s *DocumentSet) Operations() []*versions.Operation {
	byKey := map[string]*versions.Operation{}
	var keys []string
	var prev *versions.InDocument // the previous released document's, to point at its successor
	for _, d := range s.Documents {
		in := &versions.InDocument{File: d.Source.path, Ref: d.Source.ref, Sunset: d.sunset}
		if !d.PreRelease && !s.ByResource {
			if prev != nil {
				prev.Next = &versions.Version{Name: d.Version, Date: d.Date}
			}
			prev = in
		}
		for _, op := range d.ops {
			merged := byKey[op.Key()]
			if merged == nil {
				merged = &versions.Operation{}
				byKey[op.Key()] = merged
				keys = append(keys, op.Key())
			}
			merged.Method, merged.Path, merged.Op, merged.Item = op.Method, op.Path, op.Op, op.Item
			merged.Direction, merged.Via, merged.Callback = op.Direction, op.Via, op.Callback
			v := versions.Version{Name: d.Version, Date: d.Date, PreRelease: d.PreRelease || op.Unstable(), Stability: documentStability(d, op), Retired: d.Retired || versions.Retired(op.Op.Extensions), View: op.Unversioned, Document: in, Line: d.lines[op.Name()]}
			if v.PreRelease {
				merged.PreRelease = append(merged.PreRelease, v)
			} else {
				merged.Versions = append(merged.Versions, v)
			}
		}
	}
	ops := make([]*versions.Operation, 0, len(keys))
	for _, k := range keys {
		op := byKey[k]
		if s.ByResource {
			for i := range op.Versions {
				in := *op.Versions[i].Document
				// The next newer version: one declared by two resources on
				// one date is listed twice, and is not its own successor.
				for j := i + 1; j < len(op.Versions) && in.Next == nil; j++ {
					if next := op.Versions[j]; next.Name != op.Versions[i].Name {
						in.Next = &versions.Version{Name: next.Name, Date: next.Date}
					}
				}
				op.Versions[i].Document = &in
			}
		}
		ops = append(ops, op)
	}
	// Each callback after its operation, as versions.Operations lists them.
	slices.SortFunc(ops, func(a, b *versions.Operation) int { return versions.CompareOperationNames(a.Name(), b.Name()) })
	return ops
}

// documentStability is the level of an operation's version in document d:
// the level the document's name marks (~beta), else the one the operation
// or the document declares; "" when released, or when nothing names a
// level (.upcoming, preview).
func documentStability(d *VersionDocument, op *versions.Operation) string {
	level := ""
	if d.PreRelease {
		level = versions.MarkedLevel(d.Version)
	}
	if level == "" {
		level = op.Level()
	}
	if !versions.Unstable(level) {
		return ""
	}
	return level
}

// Snapshot stands for the set where a single snapshot is expected: its
// folder, ref and date; it has no document of its own.
func (s *DocumentSet) Snapshot() *Snapshot {
	return &Snapshot{Path: s.Path, Ref: s.Ref, Date: s.Date}
}
