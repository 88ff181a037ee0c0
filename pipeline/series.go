package pipeline

import (
	"fmt"
	"runtime"
	"slices"
	"sync"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/specs/prune"
)

// Step is one release of a series of snapshots: two consecutive ones and
// their diff, dated by the revision.
type Step struct {
	Base, Revision *specs.Snapshot
	Result         *diff.Result
}

// Series compares each snapshot file (or REF:PATH) with the next, in the
// order given, and tells each their Step, oldest first. Each snapshot is
// read and loaded once, keeping only what its comparisons with the
// snapshots before and after it need (load.LoadForComparisons); the fast
// pass (load.PlanPair) finds what changed between consecutive ones, and
// only that is diffed. Snapshots load in parallel, and at most
// SnapshotsHeld are held at a time: a Step's snapshots are released once
// each returns. opts.Dates give snapshots their dates, opts.Progress is
// told of each load.
func Series(paths []string, opts Options, each func(Step) error) error {
	pair := pairOptions(opts)
	// Neighbours cut mostly the same parts: each is read once.
	pair.Validator = prune.NewValidator()
	loaded, release, stop := loadAhead(paths, opts, pair)
	defer stop()
	var prev loadResult
	for i := range paths {
		r := <-loaded[i]
		if r.err != nil {
			return r.err
		}
		for _, note := range r.notes {
			pair.Note(note)
		}
		if prev.snapshot != nil {
			if err := inDateOrder(inputName(prev.snapshot.Ref, prev.snapshot.Path), prev.snapshot.Date, inputName(r.snapshot.Ref, r.snapshot.Path), r.snapshot.Date); err != nil {
				return err
			}
			var plan *load.Plan
			if !pair.Full {
				var why string
				if plan, why = load.PlanPair(prev.source, r.source); plan == nil {
					why = fmt.Sprintf("%s, %s: %s: everything diffed", prev.source.Path(), r.source.Path(), why)
				} else {
					why = plan.Note
				}
				if pair.Note != nil {
					pair.Note(why)
				}
			}
			step, err := stepBetween(prev.snapshot, r.snapshot, opts.Config, plan)
			if err != nil {
				return err
			}
			if err := each(step); err != nil {
				return err
			}
			release(i)
		}
		prev = r
	}
	return nil
}

// StepBetween diffs two loaded snapshots as the release from base to
// revision.
func StepBetween(base, revision *specs.Snapshot, cfg policy.Config) (Step, error) {
	return stepBetween(base, revision, cfg, nil)
}

// stepBetween is StepBetween; plan, when set, is what the fast pass found
// unchanged.
func stepBetween(base, revision *specs.Snapshot, cfg policy.Config, plan *load.Plan) (Step, error) {
	product, err := cfg.ResolveProduct(base, revision)
	if err != nil {
		return Step{}, err
	}
	res, err := diff.Compare(base, revision, diff.Options{Product: product, Levels: cfg.ChangeLevels(), Date: revision.Date, Plan: plan})
	if err != nil {
		return Step{}, err
	}
	return Step{Base: base, Revision: revision, Result: res}, nil
}

// DocumentStep diffs a loaded pair of document sets as the release from
// its base to its revision. The pair's documents stay loaded: the caller
// releases the pair when done with the step.
func DocumentStep(pair *load.DocumentPair, cfg policy.Config) (Step, error) {
	base, revision := pair.Base.Snapshot(), pair.Revision.Snapshot()
	if revision.Date.IsZero() {
		return Step{}, fmt.Errorf("%s: no date in the folder name", revision.Path)
	}
	res, err := diff.CompareDocuments(pair, diff.Options{Levels: cfg.ChangeLevels(), Date: revision.Date})
	if err != nil {
		return Step{}, err
	}
	return Step{Base: base, Revision: revision, Result: res}, nil
}

// DocumentSeries is Series for snapshot folders of version documents (or
// resource trees, or REF:FOLDER). Each pair of consecutive folders is read
// and compared on its own (load.LoadDocumentPair), so that two snapshots
// at most are held at a time.
func DocumentSeries(dirs []string, opts Options, each func(Step) error) error {
	read := func(i int, tree bool) (*specs.DocumentSet, error) {
		o := seriesLoad(opts, i)
		if tree && o.Layout == specs.LayoutAuto {
			o.Layout = specs.LayoutResources
		}
		return specs.ReadDocumentSet(dirs[i], o)
	}
	inOrder := func(base, revision *specs.DocumentSet) error {
		return inDateOrder(inputName(base.Ref, base.Path), base.Date, inputName(revision.Ref, revision.Path), revision.Date)
	}
	return documentSeries(len(dirs), read, inOrder, opts, each)
}

// DocumentFolderSeries is the series of one folder of version documents,
// the folder check reads as one snapshot: each date a document carries is
// a release, from the documents before it to those up to it. Each release
// reads the folder afresh, so that no comparison shares the loaded
// documents of another.
func DocumentFolderSeries(dir string, opts Options, each func(Step) error) error {
	all, err := specs.ReadDocumentSet(dir, seriesLoad(opts, 0))
	if err != nil {
		return err
	}
	var dates []civil.Date
	for _, d := range all.Documents {
		dates = append(dates, d.Date)
	}
	slices.SortFunc(dates, func(a, b civil.Date) int { return a.Compare(b) })
	dates = slices.Compact(dates)
	read := func(i int, _ bool) (*specs.DocumentSet, error) {
		// Every release reads the whole folder, so its layout is found once.
		set, err := specs.ReadDocumentSet(dir, seriesLoad(opts, 0))
		if err != nil {
			return nil, err
		}
		set.Documents = slices.DeleteFunc(set.Documents, func(d *specs.VersionDocument) bool { return d.Date.After(dates[i]) })
		set.Date = dates[i]
		return set, nil
	}
	return documentSeries(len(dates), read, nil, opts, each)
}

// documentSeries compares each of n snapshots of version documents (read
// reads the i-th, as a resource tree when tree is set) with the one before
// it, after inOrder, when set, accepts the two, and tells each the step.
// When one of two is found a resource tree, both are read so, that their
// versions pair.
func documentSeries(n int, read func(i int, tree bool) (*specs.DocumentSet, error), inOrder func(base, revision *specs.DocumentSet) error, opts Options, each func(Step) error) error {
	pairOpts := pairOptions(opts)
	// Consecutive snapshots share most of their documents' parts: each is
	// read once.
	pairOpts.Validator = prune.NewValidator()
	if n == 1 {
		// One snapshot is a history of one release, read and checked as
		// any other.
		set, err := read(0, false)
		if err != nil {
			return err
		}
		return load.LoadDocumentSet(set, pairOpts)
	}
	for i := range n {
		if opts.Progress != nil {
			opts.Progress()
		}
		if i == 0 {
			continue
		}
		base, err := read(i-1, false)
		if err != nil {
			return err
		}
		revision, err := read(i, base.ByResource)
		if err != nil {
			return err
		}
		if revision.ByResource && !base.ByResource {
			if base, err = read(i-1, true); err != nil {
				return err
			}
		}
		if inOrder != nil {
			if err := inOrder(base, revision); err != nil {
				return err
			}
		}
		pair, err := load.LoadDocumentPair(base, revision, pairOpts)
		if err != nil {
			return err
		}
		err = eachDocumentStep(pair, opts.Config, each)
		if err != nil {
			return err
		}
	}
	return nil
}

func eachDocumentStep(pair *load.DocumentPair, cfg policy.Config, each func(Step) error) error {
	defer pair.Release()
	step, err := DocumentStep(pair, cfg)
	if err != nil {
		return err
	}
	return each(step)
}

// seriesLoad is how the i-th snapshot of a series is read: dated by
// opts.Dates[i] when given.
func seriesLoad(opts Options, i int) specs.LoadOptions {
	l, _ := loadOptions(opts)
	l.Date = civil.Date{}
	if i < len(opts.Dates) {
		l.Date = opts.Dates[i]
	}
	return l
}

// loadWindow is how many snapshots are loaded ahead: one per core, and
// one more so that the diff never waits for a load.
func loadWindow() int { return runtime.GOMAXPROCS(0) + 1 }

// SnapshotsHeld is the most snapshots a Series holds at once: those loaded
// ahead, and the base of the release being compared.
func SnapshotsHeld() int { return loadWindow() + 1 }

type loadResult struct {
	source   *specs.Source
	snapshot *specs.Snapshot
	err      error
	// notes are the load's notes (Options.Note), told in order by Series.
	notes []string
}

// loadAhead reads and loads snapshots concurrently, in order. A loaded
// snapshot holds one of a few slots until the consumer, done with the
// release up to snapshot i, calls release(i), so memory stays bounded
// however long the history. Each snapshot is loaded for its comparisons
// with the one before and the one after it (load.LoadForComparisons), so
// each source is read and indexed once, by the first load that needs it.
// stop, once the consumer is done, early on an error or not, ends the
// loading and waits for the loads under way: nothing is left waiting for a
// slot, or telling opts of a load, after Series returns.
func loadAhead(paths []string, opts Options, pairOpts load.PairOptions) (results []chan loadResult, release func(consumed int), stop func()) {
	slots := make(chan struct{}, loadWindow())
	done := make(chan struct{})
	var running sync.WaitGroup
	out := make([]chan loadResult, len(paths))
	for i := range out {
		out[i] = make(chan loadResult, 1)
	}
	sources := make([]func() (*specs.Source, error), len(paths))
	// read holds the sources read and not released, for the next one's
	// parse to copy the chunks it shares with them.
	read := make([]*specs.Source, len(paths))
	var readMu sync.Mutex
	for i, path := range paths {
		sources[i] = sync.OnceValues(func() (*specs.Source, error) {
			src, err := specs.Read(path, seriesLoad(opts, i))
			// The fast pass saves the loads a parse; the full pipeline
			// loads whole, and checks the structure as it loads.
			if err == nil && !pairOpts.Full {
				readMu.Lock()
				read[i] = src
				if i > 0 && read[i-1] != nil {
					src.ShareParse(read[i-1])
				}
				readMu.Unlock()
				src.Index()
			}
			return src, err
		})
	}
	running.Go(func() {
		for i := range paths {
			select {
			case slots <- struct{}{}:
			case <-done:
				return
			}
			running.Go(func() {
				var r loadResult
				if r.source, r.err = sources[i](); r.err == nil {
					// A neighbour that cannot be read is reported when its
					// own turn comes; until then it has no say.
					var neighbours []*specs.Source
					for _, j := range []int{i - 1, i + 1} {
						if j >= 0 && j < len(paths) {
							if n, err := sources[j](); err == nil {
								neighbours = append(neighbours, n)
							}
						}
					}
					pair := pairOpts
					if pair.Note != nil {
						pair.Note = func(note string) { r.notes = append(r.notes, note) }
					}
					r.snapshot, r.err = load.LoadForComparisons(r.source, neighbours, pair)
				}
				if opts.Progress != nil {
					opts.Progress()
				}
				out[i] <- r
			})
		}
	})
	release = func(i int) {
		<-slots
		if i > 0 {
			// Loads up to i are done, and none to come reads the source
			// before i.
			sources[i-1] = nil
			readMu.Lock()
			read[i-1] = nil
			readMu.Unlock()
		}
	}
	stop = func() {
		close(done)
		running.Wait()
	}
	return out, release, stop
}

// inDateOrder checks that a snapshot of a history comes after the one
// before it: a history named snapshot by snapshot (REF:PATH, REF:FOLDER,
// files) gives them oldest first, each dated.
func inDateOrder(prevPath string, prev civil.Date, path string, date civil.Date) error {
	for _, s := range []struct {
		path string
		date civil.Date
	}{{prevPath, prev}, {path, date}} {
		if s.date.IsZero() {
			return fmt.Errorf("%s: no date: a snapshot of a history has YYYY-MM-DD in its name, or is read from git (REF:PATH)", s.path)
		}
	}
	if !date.After(prev) {
		return fmt.Errorf("%s (%s) is not after %s (%s): name the snapshots of a history oldest first, one a date (SNAPSHOT@YYYY-MM-DD gives one its date)", path, date, prevPath, prev)
	}
	return nil
}

// inputName is a snapshot as the command line names it: PATH, or REF:PATH.
func inputName(ref, path string) string {
	if ref != "" {
		return ref + ":" + path
	}
	return path
}
