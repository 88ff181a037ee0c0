package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
)

// Migration is what changed from version from to version to of one
// snapshot: a file's media types, or a folder's version documents (in a
// resource tree, the documents of each resource that serve the two
// versions, specs.DocumentSet.Serving).
func Migration(path, from, to string, opts Options) (*diff.Result, error) {
	cfg := opts.Config
	loadOpts, _ := loadOptions(opts)
	if documents, err := ByDocument(cfg, path); err != nil || documents {
		if err != nil {
			return nil, err
		}
		return documentMigration(path, from, to, loadOpts, opts)
	}
	s, err := load.Load(path, loadOpts)
	if err != nil {
		return nil, err
	}
	product, err := cfg.ResolveProduct(s)
	if err != nil {
		return nil, err
	}
	return diff.CompareVersions(s, from, to, diff.Options{Product: product, Levels: cfg.ChangeLevels()})
}

// LegacyMigration is what changed from the unversioned legacy API, under
// oldPrefix in the legacy snapshot, to version to under newPrefix.
func LegacyMigration(legacyPath, path, oldPrefix, newPrefix, to string, opts Options) (*diff.Result, error) {
	cfg := opts.Config
	loadOpts, _ := loadOptions(opts)
	legacy, s, err := load.LoadPair(legacyPath, path, loadOpts, loadOpts)
	if err != nil {
		return nil, err
	}
	product, err := cfg.ResolveProduct(legacy, s)
	if err != nil {
		return nil, err
	}
	return diff.CompareLegacy(legacy, s, oldPrefix, newPrefix, to, diff.Options{Product: product, Levels: cfg.ChangeLevels()})
}

// documentMigration is Migration for a folder of version documents.
func documentMigration(path, from, to string, loadOpts specs.LoadOptions, opts Options) (*diff.Result, error) {
	set, err := specs.ReadDocumentSet(path, loadOpts)
	if err != nil {
		return nil, err
	}
	for _, v := range []string{from, to} {
		if set.Document(v) == nil {
			var have []string
			for _, d := range set.Documents {
				have = append(have, d.Version)
			}
			return nil, fmt.Errorf("%s: no version document %s (it has %s)", path, v, strings.Join(slices.Compact(slices.Sorted(slices.Values(have))), ", "))
		}
	}
	resources := []string{""}
	if set.ByResource {
		resources = nil
		for _, d := range set.Documents {
			if !slices.Contains(resources, d.Resource) {
				resources = append(resources, d.Resource)
			}
		}
		slices.Sort(resources)
	}
	all := &diff.Result{ByDocument: true}
	for _, resource := range resources {
		docs := [2]*specs.VersionDocument{set.Serving(resource, from), set.Serving(resource, to)}
		if docs[0] == nil || docs[1] == nil || docs[0] == docs[1] {
			continue
		}
		if docs[0].Snapshot, docs[1].Snapshot, err = load.LoadReducedPair(docs[0].Source, docs[1].Source, load.PairOptions{Full: opts.Full || load.FullPipelineFromEnv()}); err != nil {
			return nil, err
		}
		res, err := diff.CompareDocumentVersions(docs[0], docs[1], diff.Options{Levels: opts.Config.ChangeLevels()})
		if err != nil {
			return nil, err
		}
		all.Pairs = append(all.Pairs, res.Pairs...)
	}
	slices.SortStableFunc(all.Pairs, func(a, b *diff.Pair) int { return versions.CompareOperationNames(a.Operation, b.Operation) })
	return all, nil
}
