package main

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/suggest"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/apiver/apiver/specs"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "apiver",
		Short: "Keep a date-versioned HTTP API honest",
		Long:  "apiver reads dated OpenAPI snapshots, tells whether a spec change is allowed under the versioning policy, and writes the dated change history.",
		Example: `  # Gate a pull request: the base from git, the revision from the work tree
  apiver check origin/main:openapi/api.yaml openapi/api.yaml

  # Build the change history and its website
  apiver changelog build openapi/snapshots -o changelog.json
  apiver site changelog.json -o public

  # What is deprecated, and when does it go
  apiver sunset openapi/api.yaml --within 90d`,
		Version:       readVersion().String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	group(root)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate("apiver {{.Version}}\n")
	// --version only: -v is --verbose wherever a command has it.
	root.Flags().Bool("version", false, "print apiver's version")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		// A flag of the command meant, after a mistyped one's name: the name
		// is the mistake.
		if args := c.Flags().Args(); c.HasAvailableSubCommands() && len(args) > 0 {
			if unknown := unknownCommand(c, args); unknown != nil {
				return &usageError{unknown}
			}
		}
		return &usageError{flagSuggestion(c, err)}
	})
	root.AddCommand(newCheckCmd(nil), newDiffCmd(nil), newVersionsCmd(nil), newSunsetCmd(nil), newRulesCmd(nil),
		newChangelogCmd(stderr), newSiteCmd(nil), newConfigCmd(), newVersionCmd(), newFixCmd(nil))
	// cobra adds its completion command at Execute; added now, it gets examples.
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		group(c) // a shell it does not know is a usage error, not its help
		c.Example = `  # bash, for every new shell (bash-completion loads it from this folder)
  apiver completion bash > ~/.local/share/bash-completion/completions/apiver
  # zsh, into a folder on fpath (e.g. fpath=(~/.zfunc $fpath) in ~/.zshrc, before compinit)
  apiver completion zsh > ~/.zfunc/_apiver
  # fish
  apiver completion fish > ~/.config/fish/completions/apiver.fish`
	}
	registerFlagCompletions(root)
	for _, c := range allCommands(root) {
		if args := c.Args; args != nil {
			c.Args = func(c *cobra.Command, a []string) error {
				if err := args(c, a); err != nil {
					return &usageError{missingArgs(c, a, err)}
				}
				return nil
			}
		}
	}
	return root
}

var unknownFlag = regexp.MustCompile(`^unknown (?:flag: --(\S+)|shorthand flag: '(.)' in)`)

// flagSuggestion adds to an unknown flag's error the command's flag nearest
// to it (for a letter, the only flag that starts with it).
func flagSuggestion(c *cobra.Command, err error) error {
	m := unknownFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	best := suggest.Nearest(m[1], names)
	if m[2] != "" {
		best = ""
		if starting := slices.DeleteFunc(names, func(n string) bool { return !strings.HasPrefix(n, m[2]) }); len(starting) == 1 {
			best = starting[0]
		}
	}
	if best == "" {
		return err
	}
	return fmt.Errorf("%w; did you mean --%s?", err, best)
}

// missingArgs names the arguments a command line lacks, from the command's
// use line ("check BASE REVISION": "missing REVISION"); other argument
// errors stay cobra's.
func missingArgs(c *cobra.Command, args []string, err error) error {
	var want []string
	words := strings.Fields(c.Use)[1:]
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case strings.HasPrefix(w, "(") || w == "|":
			i = len(words) // alternatives: cobra's error says it
		case strings.HasPrefix(w, "--") && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-"):
			i++ // a flag and its value
		case strings.HasPrefix(w, "["):
			for ; i < len(words) && !strings.HasSuffix(words[i], "]"); i++ {
				// optional: up to its end
			}
		case strings.HasPrefix(w, "-"):
		case w == strings.ToUpper(w):
			want = append(want, strings.TrimSuffix(w, "..."))
		}
	}
	if len(args) >= len(want) {
		return err
	}
	return fmt.Errorf("missing %s: %s takes %s", strings.Join(want[len(args):], " and "), c.CommandPath(), strings.Join(want, " "))
}

// allCommands is root and every command under it.
func allCommands(root *cobra.Command) []*cobra.Command {
	all := []*cobra.Command{root}
	for _, c := range root.Commands() {
		all = append(all, allCommands(c)...)
	}
	return all
}

// group makes a command that only holds others refuse an unknown
// subcommand (cobra would print the help and exit 0) and print its help
// when called alone.
func group(cmd *cobra.Command) *cobra.Command {
	cmd.Args = unknownCommand
	cmd.SuggestionsMinimumDistance = 2
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	return cmd
}

// unknownCommand refuses arguments to a command that only groups others, on
// one line with cobra's suggestions (cobra's own text spans several lines).
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", strings.Join(s, " or "))
	}
	return errors.New(msg)
}

// usageError is a bad command line (an unknown flag or command, a wrong
// number of arguments, a missing required flag): the error is followed by
// the command's usage line.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usageLine is the command's synopsis: its Use, or for a group "COMMAND".
func usageLine(cmd *cobra.Command) string {
	if cmd.HasAvailableSubCommands() {
		return cmd.CommandPath() + " COMMAND"
	}
	return cmd.UseLine()
}

// pathFlags are --match-path and --exclude-path, which restrict every
// command to the operations of some paths.
type pathFlags struct {
	match, exclude []string
}

func (f *pathFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.match, "match-path", nil, "only the operations whose path matches this `REGEX` (repeatable: any of them)")
	fs.StringArrayVar(&f.exclude, "exclude-path", nil, "leave out the operations whose path matches this `REGEX` (repeatable)")
}

// filter compiles the expressions; a bad one is a usage error.
func (f *pathFlags) filter() (specs.PathFilter, error) {
	var pf specs.PathFilter
	for _, set := range []struct {
		flag   string
		values []string
		into   *[]*regexp.Regexp
	}{{"--match-path", f.match, &pf.Match}, {"--exclude-path", f.exclude, &pf.Exclude}} {
		for _, v := range set.values {
			re, err := regexp.Compile(v)
			if err != nil {
				return specs.PathFilter{}, fmt.Errorf("%s %q: not a regular expression: %v", set.flag, v, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
			}
			*set.into = append(*set.into, re)
		}
	}
	return pf, nil
}

// pairFlags are the inputs every two-snapshot command takes.
type pairFlags struct {
	pathFlags
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
	f.pathFlags.register(fs)
	fs.StringVar(&f.baseDate, "base-date", "", "release date of the base snapshot (default: the first YYYY-MM-DD in its file name)")
	fs.StringVar(&f.revisionDate, "revision-date", "", "release date of the revision (default: the first YYYY-MM-DD in its file name)")
	fs.BoolVar(&f.allowRemoteRefs, "allow-remote-refs", false, "fetch $refs to http(s) URLs (refused by default)")
	configFlag(fs, &f.configPath)
	registerPipeline(fs, &f.fullPipeline, &f.verbose)
}

// registerPipeline adds the flags of every command that compares
// snapshots: the switch to the full pipeline and --verbose.
func registerPipeline(fs *pflag.FlagSet, full, verbose *bool) {
	fs.BoolVar(full, "full-pipeline", false, "load and diff both documents whole, not only what can differ (also "+load.FullPipelineEnv+"=1)")
	fs.BoolVarP(verbose, "verbose", "v", false, "say on stderr how the snapshots were loaded")
}

// pipelineOptions are the pipeline's options for the config and the
// flags every comparing command takes: --full-pipeline and --verbose.
func pipelineOptions(cfg policy.Config, full, verbose bool, stderr io.Writer) pipeline.Options {
	opts := pipeline.Options{Config: cfg, Full: full, Budget: memoryBudget(full || load.FullPipelineFromEnv()), Settled: settleMemory}
	if verbose && stderr != nil {
		opts.Note = func(note string) { fmt.Fprintf(stderr, "apiver: %s\n", oneLine(note)) }
	}
	return opts
}

// registerDate adds --date, for the commands that judge sunsets.
func (f *pairFlags) registerDate(fs *pflag.FlagSet) {
	fs.StringVar(&f.date, "date", "", "the policy's today (default: the revision's date, else the current date)")
}

// options are the flags' pipeline.Options, with the config's.
func (f *pairFlags) options(cfg policy.Config, reuse pipeline.Reuse) (pipeline.Options, error) {
	opts := pipelineOptions(cfg, f.fullPipeline, f.verbose, f.stderr)
	opts.AllowRemoteRefs, opts.Reuse = f.allowRemoteRefs, reuse
	var err error
	for _, d := range []struct {
		flag, value string
		into        *civil.Date
	}{{"--date", f.date, &opts.Date}, {"--base-date", f.baseDate, &opts.BaseDate}, {"--revision-date", f.revisionDate, &opts.RevisionDate}} {
		if *d.into, err = parseDate(d.flag, d.value); err != nil {
			return opts, err
		}
	}
	if opts.Paths, err = f.filter(); err != nil {
		return opts, err
	}
	return opts, nil
}

// compare loads and diffs two snapshots, keeping what reuse says of them,
// and says on stderr what they tell of the config's snapshot kind.
func (f *pairFlags) compare(basePath, revisionPath string, reuse pipeline.Reuse) (*pipeline.Comparison, error) {
	if _, err := parseDate("--date", f.date); err != nil {
		return nil, err // a bad --date fails before the config is read
	}
	cfg, err := loadConfig(f.configPath, f.stderr)
	if err != nil {
		return nil, err
	}
	opts, err := f.options(cfg, reuse)
	if err != nil {
		return nil, err
	}
	budgetFiles(opts, basePath, revisionPath)
	cmp, err := pipeline.Compare(basePath, revisionPath, opts)
	if err != nil {
		return nil, err
	}
	noteLatestVersion(f.stderr, cmp.Detection)
	return cmp, nil
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

// formatFlag declares --format and completes its values.
func formatFlag(cmd *cobra.Command, target *string, def string, formats []string) {
	cmd.Flags().StringVar(target, "format", def, "output `FORMAT`: "+strings.Join(formats, ", "))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
}

func checkFormat(formats []string, format string) error {
	if !printer.ValidFormat(formats, format) {
		return fmt.Errorf("--format %q: want one of %v", format, formats)
	}
	return nil
}

// noteLatestVersion says what the snapshots' look made of their reading:
// read as latest-version ones (a whole history), or read with the default
// while they look like them (one pair), with the config line either way.
func noteLatestVersion(stderr io.Writer, d policy.Detection) {
	if stderr == nil {
		return
	}
	switch d {
	case policy.DetectedLatestVersion:
		fmt.Fprintln(stderr, "apiver: no operation carries two versions and versions change between the snapshots: read as snapshot: latest-version (a replaced version is deprecated, not removed); put the line \"snapshot: all-versions\" in the config to read a replaced version as removed")
	case policy.LikelyLatestVersion:
		fmt.Fprintln(stderr, "apiver: note: no operation carries two versions and a version is replaced between the two snapshots: read as snapshot: all-versions, the default (a replaced version is removed); if each snapshot publishes only the newest version of each operation, put the line \"snapshot: latest-version\" in the config")
	}
}

// warn prints warnings on stderr, one line each.
func warn(stderr io.Writer, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "apiver: warning: %s\n", oneLine(w))
	}
}
