package main

import (
	"fmt"
	"io"
	"time"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/apiver/apiver/specs"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "apiver",
		Short:         "Keep a date-versioned HTTP API honest",
		Long:          "apiver reads dated OpenAPI snapshots, tells whether a spec change is allowed under the versioning policy, and writes the dated change history.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return err })
	root.AddCommand(newCheckCmd(nil), newDiffCmd(nil), newVersionsCmd(nil), newSunsetCmd(nil), newRulesCmd(nil), newChangelogCmd(stderr), newSiteCmd(nil))
	return root
}

// pairFlags are the inputs every two-snapshot command takes.
type pairFlags struct {
	baseDate, revisionDate string
	// date is the policy's today, for the commands that judge sunsets.
	date            string
	allowRemoteRefs bool
	configPath      string
	// fullPipeline loads both documents whole (also APIVER_FULL_PIPELINE=1).
	fullPipeline bool
	verbose      bool
	// stderr takes the config's warnings.
	stderr io.Writer
}

func (f *pairFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.baseDate, "base-date", "", "release date of the base snapshot (default: the first YYYY-MM-DD in its file name)")
	fs.StringVar(&f.revisionDate, "revision-date", "", "release date of the revision (default: the first YYYY-MM-DD in its file name)")
	fs.BoolVar(&f.allowRemoteRefs, "allow-remote-refs", false, "fetch $refs to http(s) URLs (refused by default)")
	fs.StringVar(&f.configPath, "config", "", "config file (default: ./"+policy.DefaultConfigFile+" when present)")
	registerPipeline(fs, &f.fullPipeline, &f.verbose)
}

// registerPipeline adds the flags of every command that compares
// snapshots: the switch to the full pipeline and --verbose.
func registerPipeline(fs *pflag.FlagSet, full, verbose *bool) {
	fs.BoolVar(full, "full-pipeline", false, "load and diff both documents whole, not only what can differ (also "+specs.FullPipelineEnv+"=1)")
	fs.BoolVarP(verbose, "verbose", "v", false, "say on stderr how the snapshots were loaded")
}

// pairOptions is how a command loads the snapshots it compares.
func pairOptions(full, verbose bool, stderr io.Writer) specs.PairOptions {
	opts := specs.PairOptions{Full: full || specs.FullPipelineFromEnv()}
	if verbose && stderr != nil {
		opts.Note = func(note string) { fmt.Fprintf(stderr, "apiver: %s\n", oneLine(note)) }
	}
	return opts
}

// registerDate adds --date, for the commands that judge sunsets.
func (f *pairFlags) registerDate(fs *pflag.FlagSet) {
	fs.StringVar(&f.date, "date", "", "the policy's today (default: the revision's date, else the current date)")
}

// comparison is two loaded snapshots, the config, the policy's date and
// their diff.
type comparison struct {
	base, revision *specs.Snapshot
	config         policy.Config
	date           civil.Date
	result         *diff.Result
}

func (f *pairFlags) compare(basePath, revisionPath string) (*comparison, error) {
	date, err := parseDate("--date", f.date)
	if err != nil {
		return nil, err
	}
	cfg, base, revision, err := f.load(basePath, revisionPath)
	if err != nil {
		return nil, err
	}
	if date.IsZero() {
		date = revision.Date
	}
	if date.IsZero() {
		date = today()
	}
	product, err := cfg.ResolveProduct(base, revision)
	if err != nil {
		return nil, err
	}
	result, err := diff.Compare(base, revision, diff.Options{Product: product, Levels: cfg.ChangeLevels(), Date: date})
	if err != nil {
		return nil, err
	}
	return &comparison{base: base, revision: revision, config: cfg, date: date, result: result}, nil
}

// load reads the config and both snapshots, for a comparison of the two:
// see specs.LoadDiffPair.
func (f *pairFlags) load(basePath, revisionPath string) (policy.Config, *specs.Snapshot, *specs.Snapshot, error) {
	cfg, err := loadConfig(f.configPath, f.stderr)
	if err != nil {
		return policy.Config{}, nil, nil, err
	}
	baseDate, err := parseDate("--base-date", f.baseDate)
	if err != nil {
		return policy.Config{}, nil, nil, err
	}
	revisionDate, err := parseDate("--revision-date", f.revisionDate)
	if err != nil {
		return policy.Config{}, nil, nil, err
	}
	base, revision, err := specs.LoadDiffPair(basePath, revisionPath,
		specs.LoadOptions{Date: baseDate, AllowRemoteRefs: f.allowRemoteRefs, MaxSize: cfg.MaxSpecSize()},
		specs.LoadOptions{Date: revisionDate, AllowRemoteRefs: f.allowRemoteRefs, MaxSize: cfg.MaxSpecSize()},
		pairOptions(f.fullPipeline, f.verbose, f.stderr))
	if err != nil {
		return policy.Config{}, nil, nil, err
	}
	return cfg, base, revision, nil
}

func parseDate(flag, value string) (civil.Date, error) {
	if value == "" {
		return civil.Date{}, nil
	}
	d, err := civil.ParseDate(value)
	if err != nil {
		return civil.Date{}, fmt.Errorf("%s %q: not a date (want YYYY-MM-DD)", flag, value)
	}
	return d, nil
}

// today is the only place apiver reads the wall clock: the default check
// date when neither --date nor the revision's name gives one.
func today() civil.Date { return civil.DateOf(time.Now()) }

func formatFlag(fs *pflag.FlagSet, target *string, formats []string) {
	fs.StringVar(target, "format", "text", fmt.Sprintf("output format: %v", formats))
}

func checkFormat(formats []string, format string) error {
	if !printer.ValidFormat(formats, format) {
		return fmt.Errorf("--format %q: want one of %v", format, formats)
	}
	return nil
}

// loadConfig reads the config and prints its warnings, one line each.
func loadConfig(path string, stderr io.Writer) (policy.Config, error) {
	cfg, err := policy.LoadConfig(path)
	if err == nil {
		warn(stderr, cfg.Warnings)
	}
	return cfg, err
}

func warn(stderr io.Writer, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "apiver: warning: %s\n", oneLine(w))
	}
}
