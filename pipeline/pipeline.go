// Package pipeline compares two snapshots of an API, whatever their form
// (a file, REF:PATH, a folder of version documents or a resource tree, or
// REF:FOLDER): it reads them, loads what can differ, diffs them, and
// judges the result by the versioning policy. Every apiver command that
// compares two snapshots goes through Compare; a program can call Check
// as apiver check does.
//
//	report, err := pipeline.Check("api-2024-11-19.yaml", "api-2024-12-19.yaml", pipeline.Options{Config: cfg})
package pipeline

import (
	"errors"
	"fmt"
	"time"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/specs/prune"
)

// Options say how two snapshots are read, loaded and judged.
type Options struct {
	Config policy.Config
	// BaseDate and RevisionDate are the snapshots' release dates; zero:
	// the first YYYY-MM-DD in the name, or the commit's date.
	BaseDate, RevisionDate civil.Date
	// Date is the policy's today; zero: the revision's date, else Today.
	Date civil.Date
	// Paths restricts the comparison to the operations of some paths.
	Paths           specs.PathFilter
	AllowRemoteRefs bool
	// Full loads both snapshots whole (the full pipeline, which the reduced
	// one matches byte for byte); also load.FullPipelineEnv.
	Full bool
	// Note, when set, is told in one line how each pair was loaded.
	Note func(string)
	// Budget, when set, is told how many bytes of documents are held at
	// once, for the collector's policy.
	Budget func(bytes int64)
	// Settled, when set, is told when what a comparison holds from then
	// on is mostly long-lived (load.PairOptions.Settled), for the
	// collector's policy too.
	Settled func()
	// Reuse is what the comparison keeps of its files for a fix.
	Reuse Reuse
	// Dates, index by index, give the snapshots of a series their release
	// dates; a zero or missing one is taken from the name, else the commit.
	Dates []civil.Date
	// Progress, when set, is told after each snapshot of a series is
	// loaded, by the goroutine that loaded it: calls may come at once.
	Progress func()
}

// Reuse is what a comparison keeps of its files for a fix of the revision
// and the fix's check.
type Reuse int

const (
	// LoadOnce keeps nothing: the comparison is all there is.
	LoadOnce Reuse = iota
	// Reloadable keeps the files' bytes, and their parse trees where what
	// kin-openapi loads is small (a pull request's: the trees are then most
	// of what is held anyway): a check, which runs the fix only when
	// something is fixable.
	Reloadable
	// KeptParsed keeps the files parsed: apiver fix.
	KeptParsed
)

// UsageError is an error in how the inputs were named (a file compared
// with a folder, standard input twice), not in what they hold.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Today is the only place apiver reads the wall clock: the policy's date
// when neither Options.Date nor the revision's name gives one.
func Today() civil.Date { return civil.DateOf(time.Now()) }

// Comparison is two loaded snapshots, the config, the policy's date and
// their diff.
type Comparison struct {
	Base, Revision *specs.Snapshot
	Config         policy.Config
	// Date is the policy's today.
	Date   civil.Date
	Result *diff.Result
	// Documents are the version documents compared, when the snapshots are
	// document sets (Base and Revision then stand for their folders).
	Documents *load.DocumentPair
	// Detection is what the snapshots tell of the config's snapshot kind
	// (a latest-version series or not).
	Detection policy.Detection

	basePath, revisionPath string
	opts                   Options
	// sources are the two files, when the comparison may load them again
	// (Options.Reuse); nil for document sets.
	sources *pairSources
	// documentDiffs are a document sets' comparison's diffs, which the
	// check of fixed documents reads where it compares the same copies.
	documentDiffs *diff.DocumentDiffs
}

// Check compares two snapshots and judges the revision's change.
func Check(basePath, revisionPath string, opts Options) (*policy.Report, error) {
	cmp, err := Compare(basePath, revisionPath, opts)
	if err != nil {
		return nil, err
	}
	return cmp.Check(), nil
}

// Check judges the comparison by the versioning policy.
func (c *Comparison) Check() *policy.Report {
	return policy.Check(policy.Input{Base: c.Base, Revision: c.Revision, Result: c.Result, Date: c.Date, Config: c.Config})
}

// Compare reads, loads and diffs two snapshots, keeping what opts.Reuse
// says of them.
func Compare(basePath, revisionPath string, opts Options) (*Comparison, error) {
	cfg := opts.Config
	if docs, err := ByDocument(cfg, basePath, revisionPath); err != nil || docs {
		if err != nil {
			return nil, err
		}
		return compareDocuments(basePath, revisionPath, opts)
	}
	baseSrc, revisionSrc, pairOpts, err := readPair(basePath, revisionPath, opts)
	if err != nil {
		return nil, err
	}
	var sources *pairSources
	if opts.Reuse != LoadOnce {
		pairOpts.Keep, pairOpts.KeepSmall, pairOpts.Validator = opts.Reuse == KeptParsed, true, prune.NewValidator()
		sources = &pairSources{base: baseSrc, revision: revisionSrc, opts: pairOpts}
		sources.opts.Note = nil  // the reloads are the fix's, not the check's
		sources.opts.Keep = true // the fix loads each source twice
		// The fix's loads run at the budget the fix sets, not at the
		// policy for what the check holds once its plan is done.
		sources.opts.Settled = nil
	}
	// What the fast pass finds unchanged, with all it reaches, has an empty
	// diff: the diff leaves it out, as a history's does.
	var plan *load.Plan
	if !pairOpts.Full {
		plan, _ = load.PlanPair(baseSrc, revisionSrc)
	}
	base, revision, err := load.LoadReducedPair(baseSrc, revisionSrc, pairOpts)
	if err != nil {
		return nil, err
	}
	date := policyDate(opts.Date, revision.Date)
	product, err := cfg.ResolveProduct(base, revision)
	if err != nil {
		return nil, err
	}
	result, err := diff.Compare(base, revision, diff.Options{Product: product, Levels: cfg.ChangeLevels(), Date: date, LatestVersion: cfg.Snapshot == policy.LatestVersion, Plan: plan})
	if err != nil {
		return nil, err
	}
	return &Comparison{Base: base, Revision: revision, Config: cfg, Date: date, Result: result, Detection: detect(cfg, result),
		basePath: basePath, revisionPath: revisionPath, opts: opts, sources: sources}, nil
}

// compareDocuments is Compare for two document sets.
func compareDocuments(basePath, revisionPath string, opts Options) (*Comparison, error) {
	cfg := opts.Config
	pair, err := LoadDocuments(basePath, revisionPath, opts)
	if err != nil {
		return nil, err
	}
	base, revision := pair.Base.Snapshot(), pair.Revision.Snapshot()
	date := policyDate(opts.Date, revision.Date)
	diffs := &diff.DocumentDiffs{}
	result, err := diff.CompareDocuments(pair, diff.Options{Levels: cfg.ChangeLevels(), Date: date, DocumentDiffs: diffs})
	if err != nil {
		return nil, err
	}
	return &Comparison{Base: base, Revision: revision, Config: cfg, Date: date, Result: result, Documents: pair, Detection: detect(cfg, result),
		basePath: basePath, revisionPath: revisionPath, opts: opts, documentDiffs: diffs}, nil
}

// policyDate is the policy's today: the date given, else the revision's,
// else Today.
func policyDate(given, revision civil.Date) civil.Date {
	for _, d := range []civil.Date{given, revision} {
		if !d.IsZero() {
			return d
		}
	}
	return Today()
}

func detect(cfg policy.Config, result *diff.Result) policy.Detection {
	var evidence policy.SnapshotEvidence
	evidence.AddPair(result.Base, result.Revision)
	return cfg.DetectSnapshot(evidence)
}

// LoadPair loads two snapshot files for a comparison of the two.
func LoadPair(basePath, revisionPath string, opts Options) (base, revision *specs.Snapshot, err error) {
	baseSrc, revisionSrc, pairOpts, err := readPair(basePath, revisionPath, opts)
	if err != nil {
		return nil, nil, err
	}
	return load.LoadReducedPair(baseSrc, revisionSrc, pairOpts)
}

// LoadDocuments reads two document sets and loads them for their
// comparison.
func LoadDocuments(basePath, revisionPath string, opts Options) (*load.DocumentPair, error) {
	baseOpts, revisionOpts := loadOptions(opts)
	sets, err := specs.ReadDocumentSets([]string{basePath, revisionPath}, []specs.LoadOptions{baseOpts, revisionOpts})
	if err != nil {
		return nil, err
	}
	// load.LoadDocumentPair tells the budget what it holds at once.
	return load.LoadDocumentPair(sets[0], sets[1], pairOptions(opts))
}

// readPair reads both files with the config's limits, and says how to load
// them as a pair.
func readPair(basePath, revisionPath string, opts Options) (base, revision *specs.Source, pairOpts load.PairOptions, err error) {
	if basePath == sizelimit.Stdin && revisionPath == sizelimit.Stdin {
		return nil, nil, pairOpts, &UsageError{errors.New("standard input (-) can be BASE or REVISION, not both")}
	}
	baseOpts, revisionOpts := loadOptions(opts)
	pairOpts = pairOptions(opts)
	base, revision, err = load.ReadPair(basePath, revisionPath, baseOpts, revisionOpts, pairOpts)
	return base, revision, pairOpts, err
}

// loadOptions are how the base and the revision load: their dates, the
// config's limits and the path filter.
func loadOptions(opts Options) (base, revision specs.LoadOptions) {
	cfg := opts.Config
	base = specs.LoadOptions{Date: opts.BaseDate, AllowRemoteRefs: opts.AllowRemoteRefs, MaxSize: cfg.MaxSpecSize(), MaxNodes: cfg.MaxNodes(), Paths: opts.Paths, Layout: cfg.Layout()}
	revision = base
	revision.Date = opts.RevisionDate
	return base, revision
}

// pairOptions is how a pair of the comparison loads.
func pairOptions(opts Options) load.PairOptions {
	return load.PairOptions{Full: opts.Full || load.FullPipelineFromEnv(), Read: opts.Budget, Settled: opts.Settled, Note: opts.Note}
}

// ByDocument tells how the inputs publish their versions: as version
// documents in a folder (or REF:FOLDER), or in the media types of one
// file. The config's versioning.by decides; unset, a folder means version
// documents. Inputs of both kinds in one comparison are a usage error.
func ByDocument(cfg policy.Config, paths ...string) (bool, error) {
	folders := make([]bool, len(paths))
	for i, p := range paths {
		folders[i] = p != sizelimit.Stdin && specs.IsFolder(p)
	}
	switch cfg.Versioning.By {
	case policy.ByDocument, policy.ByResource:
		for i, p := range paths {
			if !folders[i] {
				return false, fmt.Errorf("%s: versioning.by is %s: want a folder of version documents (or REF:FOLDER), not a file", p, cfg.Versioning.By)
			}
		}
		return true, nil
	case policy.ByMediaType:
		for i, p := range paths {
			if folders[i] {
				return false, fmt.Errorf("%s: a folder, but versioning.by is media-type: name the snapshot file, or set versioning.by: document for a folder of version documents", p)
			}
		}
		return false, nil
	}
	for i := 1; i < len(paths); i++ {
		if folders[i] != folders[0] {
			folder, file := paths[0], paths[i]
			if !folders[0] {
				folder, file = file, folder
			}
			if file == sizelimit.Stdin || specs.Exists(file) {
				return false, &UsageError{fmt.Errorf("%s is a folder and %s a file: compare two folders of version documents, or two files", folder, file)}
			}
			// Reading the missing one as a folder says what is missing.
			return true, nil
		}
	}
	return len(paths) > 0 && folders[0], nil
}
