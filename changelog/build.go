package changelog

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
)

// ListSnapshots finds the dated snapshots of a folder (the first YYYY-MM-DD
// in each file name), oldest first. Two snapshots of one date, or none at
// all, are input errors.
func ListSnapshots(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	byDate := map[string]string{}
	var dates []string
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || (ext != ".yaml" && ext != ".yml" && ext != ".json") {
			continue
		}
		date, found, err := specs.DateFromName(e.Name())
		if !found || err != nil {
			continue
		}
		if other, dup := byDate[date.String()]; dup {
			return nil, fmt.Errorf("%s: %s and %s have the same date %s", dir, other, e.Name(), date)
		}
		byDate[date.String()] = e.Name()
		dates = append(dates, date.String())
	}
	if len(dates) == 0 {
		return nil, fmt.Errorf("%s: no dated snapshot (a .yaml, .yml or .json file with YYYY-MM-DD in its name)", dir)
	}
	slices.Sort(dates)
	paths := make([]string, len(dates))
	for i, d := range dates {
		paths[i] = filepath.Join(dir, byDate[d])
	}
	return paths, nil
}

// BuildOptions control a history build.
type BuildOptions struct {
	Config          policy.Config
	AllowRemoteRefs bool
	// Progress, when set, is told after each snapshot is loaded.
	Progress func()
	// Pair is how the two snapshots of each release are loaded.
	Pair specs.PairOptions
}

// Build walks the snapshots in date order and records, for each one after
// the first, the release that leads to it. Each file is read and indexed
// once; each release loads its pair reduced to what can differ (see
// specs.LoadReducedPair), so snapshots that differ in a few operations cost
// little beyond that. Releases are computed a few at a time, in parallel,
// and at most a few snapshots are held at once.
func Build(paths []string, opts BuildOptions) (*History, error) {
	if len(paths) == 1 {
		_, err := specs.Load(paths[0], loadOptions(opts))
		if opts.Progress != nil {
			opts.Progress()
		}
		return &History{}, err
	}
	sources := newSourceCache(paths, opts)
	work := startReleases(len(paths)-1, func(i int) (Release, error) {
		base, err := sources.get(i)
		if err != nil {
			return Release{}, err
		}
		revision, err := sources.get(i + 1)
		if err != nil {
			return Release{}, err
		}
		b, r, err := specs.LoadReducedPair(base, revision, opts.Pair)
		if err != nil {
			return Release{}, err
		}
		return releaseBetween(b, r, opts.Config)
	})
	defer work.close()
	h := &History{}
	if opts.Progress != nil {
		opts.Progress()
	}
	for i := range len(paths) - 1 {
		r := work.take(i)
		if r.err != nil {
			return nil, r.err
		}
		if _, err := h.Add(r.release); err != nil {
			return nil, err
		}
		// Release i used snapshots i and i+1; release i-1 is done, so
		// nothing needs snapshot i any more.
		sources.drop(i)
		if opts.Progress != nil {
			opts.Progress()
		}
	}
	return h, nil
}

func loadOptions(opts BuildOptions) specs.LoadOptions {
	return specs.LoadOptions{AllowRemoteRefs: opts.AllowRemoteRefs, MaxSize: opts.Config.MaxSpecSize()}
}

// sourceCache reads each snapshot file once, when a release first needs
// it, and forgets it when no release does any more.
type sourceCache struct {
	paths []string
	opts  specs.LoadOptions
	mu    sync.Mutex
	slots []*sourceSlot
}

type sourceSlot struct {
	once sync.Once
	src  *specs.Source
	err  error
}

func newSourceCache(paths []string, opts BuildOptions) *sourceCache {
	c := &sourceCache{paths: paths, opts: loadOptions(opts), slots: make([]*sourceSlot, len(paths))}
	for i := range c.slots {
		c.slots[i] = &sourceSlot{}
	}
	return c
}

func (c *sourceCache) get(i int) (*specs.Source, error) {
	c.mu.Lock()
	slot := c.slots[i]
	c.mu.Unlock()
	slot.once.Do(func() { slot.src, slot.err = specs.Read(c.paths[i], c.opts) })
	return slot.src, slot.err
}

func (c *sourceCache) drop(i int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slots[i] = &sourceSlot{err: fmt.Errorf("%s: read again after it was dropped", c.paths[i])}
	c.slots[i].once.Do(func() {})
}

type releaseResult struct {
	release Release
	err     error
}

// releases computes releases 0..n-1 on goroutines, at most a few ahead of
// the consumer, which takes the results in order.
type releases struct {
	results []chan releaseResult
	slots   chan struct{}
	stop    chan struct{}
}

func startReleases(n int, compute func(int) (Release, error)) *releases {
	p := &releases{results: make([]chan releaseResult, n), slots: make(chan struct{}, runtime.GOMAXPROCS(0)+1), stop: make(chan struct{})}
	for i := range p.results {
		p.results[i] = make(chan releaseResult, 1)
	}
	go func() {
		for i := range n {
			select {
			case p.slots <- struct{}{}:
			case <-p.stop:
				return
			}
			go func() {
				release, err := compute(i)
				p.results[i] <- releaseResult{release, err}
			}()
		}
	}()
	return p
}

// take waits for release i and frees its slot for another.
func (p *releases) take(i int) releaseResult {
	r := <-p.results[i]
	<-p.slots
	return r
}

// close stops starting releases when the consumer gives up early.
func (p *releases) close() { close(p.stop) }

// Update computes the release from base to revision and adds it to h.
// added is false when h already records that date.
func Update(h *History, base, revision *specs.Snapshot, cfg policy.Config) (added bool, err error) {
	if revision.Date.IsZero() {
		return false, fmt.Errorf("%s: no date in the file name; use --revision-date", revision.Path)
	}
	if h.Has(revision.Date.String()) {
		return false, nil
	}
	release, err := releaseBetween(base, revision, cfg)
	if err != nil {
		return false, err
	}
	return h.Add(release)
}

// releaseBetween is every change from base to revision, with lifecycle
// entries, and exemptions marked as the check would mark them.
func releaseBetween(base, revision *specs.Snapshot, cfg policy.Config) (Release, error) {
	product, err := cfg.ResolveProduct(base, revision)
	if err != nil {
		return Release{}, err
	}
	res, err := diff.Compare(base, revision, diff.Options{Product: product, Levels: cfg.ChangeLevels(), Date: revision.Date})
	if err != nil {
		return Release{}, err
	}
	report := policy.Check(policy.Input{Base: base, Revision: revision, Result: res, Date: revision.Date, Config: cfg})
	exempted := map[[4]string]bool{}
	for _, f := range report.Findings {
		if f.Exempted {
			exempted[[4]string{f.Operation, f.Version, f.Change, f.Message}] = true
		}
	}

	var entries []Entry
	for _, p := range res.Pairs {
		lifecycle := p.Version != "" && (p.Kind == diff.Added || p.Kind == diff.Removed)
		if !lifecycle {
			for _, c := range p.Changes {
				if c.ID == diff.EndpointDeprecated {
					entries = append(entries, deprecation(p, c, revision.Date.AddMonths(cfg.DeprecationMonths)))
					continue
				}
				entries = append(entries, Entry{
					Operation: p.Operation, Version: p.Version, ID: c.ID, Breaking: c.Level == diff.Error, Text: c.Message,
					Exempted: exempted[[4]string{p.Operation, p.Version, c.ID, c.Message}],
				})
			}
		}
		switch {
		case p.Version != "" && (p.Kind == diff.Added || p.Kind == diff.Bump):
			e := Entry{Operation: p.Operation, Version: p.Version, ID: VersionReleased, Replaces: p.Predecessor, Text: fmt.Sprintf("Version %s released", p.Version)}
			if p.Predecessor != "" {
				e.Text = fmt.Sprintf("Version %s released, replacing %s", p.Version, p.Predecessor)
			}
			entries = append(entries, e)
			if p.Predecessor != "" && p.Kind == diff.Bump {
				sunset := versionDate(revision, p.Version).AddMonths(cfg.DeprecationMonths)
				entries = append(entries, Entry{
					Operation: p.Operation, Version: p.Predecessor, ID: VersionDeprecated, Sunset: sunset.String(),
					Text: fmt.Sprintf("Version %s deprecated by %s; it may be removed from %s", p.Predecessor, p.Version, sunset),
				})
			}
		case p.Version != "" && p.Kind == diff.Removed && !cfg.Replaced(res, p):
			entries = append(entries, Entry{Operation: p.Operation, Version: p.Version, ID: VersionRemoved, Breaking: true, Text: fmt.Sprintf("Version %s removed", p.Version)})
		}
	}
	slices.SortStableFunc(entries, func(a, b Entry) int {
		return cmp.Or(specs.CompareOperationNames(a.Operation, b.Operation), cmp.Compare(a.Version, b.Version), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Text, b.Text))
	})
	if entries == nil {
		entries = []Entry{}
	}
	return Release{Date: revision.Date.String(), Changes: entries}, nil
}

// deprecation is the lifecycle entry of an operation newly marked
// deprecated: its sunset is the declared x-sunset, else the end of the
// deprecation period.
func deprecation(p *diff.Pair, c diff.Change, periodEnd civil.Date) Entry {
	sunset := c.Sunset
	if sunset == "" {
		sunset = periodEnd.String()
	}
	text := fmt.Sprintf("Version %s deprecated; it may be removed from %s", p.Version, sunset)
	if p.Version == "" {
		text = fmt.Sprintf("Deprecated; it may be removed from %s", sunset)
	}
	return Entry{Operation: p.Operation, Version: p.Version, ID: VersionDeprecated, Sunset: sunset, Text: text}
}

// versionDate is a version's own date, the day its predecessor is
// deprecated; the revision's date for a version that is not a date.
func versionDate(revision *specs.Snapshot, version string) civil.Date {
	d, err := civil.ParseDate(version)
	if err != nil {
		return revision.Date
	}
	return d
}
