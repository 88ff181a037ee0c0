package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
)

// History is what the arguments of a history name: dated snapshot files,
// dated folders of version documents (or REF:PATH, REF:FOLDER), each a
// snapshot, or one folder of version documents, each date a document
// carries a release.
type History struct {
	// Paths are the snapshots, oldest first.
	Paths []string
	// Dates, index by index with Paths, are the dates given as
	// SNAPSHOT@YYYY-MM-DD; zero where none was.
	Dates []civil.Date
	// Documents says the snapshots are folders of version documents.
	Documents bool
	// Folder, when set, is the one folder of version documents the
	// history is read from (Paths is then empty).
	Folder string
}

// ReadHistory tells what a history's arguments name: one folder (of dated
// snapshot files, of dated folders of version documents, or itself a
// folder of version documents), or the snapshots one by one, oldest first,
// each SNAPSHOT or SNAPSHOT@YYYY-MM-DD. The config's versioning.by decides
// the kind where it is set.
func ReadHistory(cfg policy.Config, args []string) (History, error) {
	if len(args) == 1 && specs.IsFolder(args[0]) {
		return listHistory(cfg, args[0])
	}
	// One file is a history of one snapshot: read and checked like any
	// other.
	paths, dates, err := datedSnapshots(args)
	if err != nil {
		return History{}, err
	}
	documents, err := namedHistory(cfg, paths)
	if err != nil {
		return History{}, err
	}
	return History{Paths: paths, Dates: dates, Documents: documents}, nil
}

// Series runs Series, DocumentSeries or DocumentFolderSeries, as the
// history is.
func (h History) Series(opts Options, each func(Step) error) error {
	opts.Dates = h.Dates
	switch {
	case h.Folder != "":
		return DocumentFolderSeries(h.Folder, opts, each)
	case h.Documents:
		return DocumentSeries(h.Paths, opts, each)
	}
	return Series(h.Paths, opts, each)
}

// listHistory lists the snapshots of a history folder, read as its content
// says unless the config's versioning.by does: dated snapshot files whose
// operations carry dated media types; dated folders of version documents,
// each a snapshot; else the folder is one set of version documents, as
// check reads it, and each date a document carries is a release.
func listHistory(cfg policy.Config, dir string) (History, error) {
	var err error
	if cfg.Layout() == specs.LayoutAuto {
		var paths []string
		paths, err = listSnapshots(dir)
		_, notOnDisk := os.Stat(dir) // REF:FOLDER is listed by reading it
		switch {
		case cfg.Versioning.By == policy.ByMediaType:
			return History{Paths: paths}, err
		case err == nil && datedMediaTypes(paths[len(paths)-1], cfg.MaxSpecSize()):
			return History{Paths: paths}, nil
		case err != nil && !holdsNone(err) && notOnDisk == nil:
			return History{}, err // dated files that are wrong as snapshots
		}
	}
	load := specs.LoadOptions{MaxSize: cfg.MaxSpecSize(), MaxNodes: cfg.MaxNodes(), Layout: cfg.Layout()}
	// A snapshot folder refused as a link out of the folder (a *specs.Error
	// naming it) is the answer whichever kind the folder holds.
	folders, folderErr := listDocumentSnapshots(dir)
	if _, refused := errors.AsType[*specs.Error](folderErr); refused {
		return History{}, folderErr
	}
	if folderErr == nil {
		if _, err := specs.ReadDocumentSet(folders[0], load); err == nil {
			return History{Paths: folders, Documents: true}, nil
		}
	}
	if _, docErr := specs.ReadDocumentSet(dir, load); docErr != nil {
		if err == nil {
			err = docErr
		}
		return History{}, err // neither: what a history folder holds
	}
	return History{Documents: true, Folder: dir}, nil
}

// datedMediaTypes reports whether a snapshot file names dated vendor media
// types: a snapshot of every version, not one version's document.
func datedMediaTypes(path string, maxSize int64) bool {
	data, err := sizelimit.ReadFile(path, maxSize)
	return err != nil || datedMedia.Match(data) // unreadable: the series says why
}

// datedMedia is a vendor media type with a version date.
var datedMedia = regexp.MustCompile(`application/vnd\.[A-Za-z0-9.-]+\.\d{4}-\d{2}-\d{2}`)

// datedSnapshots reads the release dates given as SNAPSHOT@YYYY-MM-DD off
// a history's snapshots: two commits of one day, or a file without a date
// in its name, then make a history. An argument that names something as
// written keeps its @.
func datedSnapshots(args []string) (paths []string, dates []civil.Date, err error) {
	paths, dates = make([]string, len(args)), make([]civil.Date, len(args))
	for i, arg := range args {
		paths[i] = arg
		at := strings.LastIndex(arg, "@")
		if at < 0 || specs.Exists(arg) {
			continue
		}
		d, err := civil.ParseDate(arg[at+1:])
		if err != nil {
			return nil, nil, &UsageError{fmt.Errorf("%s: want SNAPSHOT@YYYY-MM-DD, a real date after the @", arg)}
		}
		paths[i], dates[i] = arg[:at], d
	}
	return paths, dates, nil
}

// namedHistory tells whether a history named snapshot by snapshot is of
// folders of version documents (REF:FOLDER too) or of files (REF:PATH
// too). The config's versioning.by says which; unset, folders are version
// documents.
func namedHistory(cfg policy.Config, args []string) (documents bool, err error) {
	folders := 0
	for _, arg := range args {
		if specs.IsFolder(arg) {
			folders++
		}
	}
	switch {
	case cfg.Versioning.By == policy.ByDocument, cfg.Versioning.By == policy.ByResource:
		return true, nil
	case cfg.Versioning.By == policy.ByMediaType:
		return false, nil
	case folders == len(args):
		return true, nil
	case folders > 0:
		return false, fmt.Errorf("%s: the snapshots of a history are all files or all folders of version documents", strings.Join(args, ", "))
	}
	return false, nil
}

// listSnapshots finds the dated snapshots of a folder (the first YYYY-MM-DD
// in each file name), oldest first. Two snapshots of one date, or none at
// all, are input errors.
func listSnapshots(dir string) ([]string, error) {
	return listDated(dir, "no dated snapshot (a .yaml, .yml or .json file with YYYY-MM-DD in its name)", func(e specs.FolderEntry) bool {
		ext := strings.ToLower(filepath.Ext(e.Name))
		return !e.Dir && (ext == ".yaml" || ext == ".yml" || ext == ".json")
	})
}

// noneError is the error of a folder that holds nothing dated.
type noneError struct{ msg string }

func (e *noneError) Error() string { return e.msg }

// holdsNone reports whether err is listSnapshots' or
// listDocumentSnapshots' error for a folder that holds nothing dated, as
// opposed to one whose dated entries are wrong.
func holdsNone(err error) bool {
	_, ok := errors.AsType[*noneError](err)
	return ok
}

// listDated lists the entries of dir that keep takes and whose names hold
// a date, oldest first; none is the error when there are none. Links count
// as what they lead to (specs.ListFolder): a snapshot that is a link out
// of dir is refused, as in a folder of version documents.
func listDated(dir, none string, keep func(specs.FolderEntry) bool) ([]string, error) {
	entries, err := specs.ListFolder(dir)
	if err != nil {
		return nil, err
	}
	byDate := map[string]string{}
	var dates []string
	for _, e := range entries {
		if !keep(e) {
			continue
		}
		date, found, err := versions.DateFromName(e.Name)
		if !found {
			continue
		}
		if err != nil {
			// A release whose name holds no real date is refused, not skipped:
			// a history without it would look whole.
			kind := "file"
			if e.Dir {
				kind = "folder"
			}
			return nil, &specs.Error{File: filepath.Join(dir, e.Name), Msg: fmt.Sprintf("%s name holds %q, which is not a real date", kind, versions.DatePattern.FindString(e.Name))}
		}
		if e.Refused != nil {
			return nil, e.Refused
		}
		if other, dup := byDate[date.String()]; dup {
			return nil, fmt.Errorf("%s: %s and %s have the same date %s", dir, other, e.Name, date)
		}
		byDate[date.String()] = e.Name
		dates = append(dates, date.String())
	}
	if len(dates) == 0 {
		return nil, &noneError{dir + ": " + none}
	}
	slices.Sort(dates)
	paths := make([]string, len(dates))
	for i, d := range dates {
		paths[i] = filepath.Join(dir, byDate[d])
	}
	return paths, nil
}

// listDocumentSnapshots finds the dated snapshot folders of a history of
// version documents (2025-02-11/, 2025-02-21/, …: the first YYYY-MM-DD in
// each folder's name), oldest first. Two folders of one date, or none at
// all, are input errors.
func listDocumentSnapshots(dir string) ([]string, error) {
	return listDated(dir, "no dated snapshot folder (a folder of version documents with YYYY-MM-DD in its name)", func(e specs.FolderEntry) bool { return e.Dir })
}
