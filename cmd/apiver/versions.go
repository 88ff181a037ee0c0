package main

import (
	"io"

	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// snapshotFlags are the inputs of the commands that read one snapshot.
type snapshotFlags struct {
	pathFlags
	date            string
	configPath      string
	allowRemoteRefs bool
	// stderr takes the config's warnings.
	stderr io.Writer
}

func (f *snapshotFlags) register(fs *pflag.FlagSet) {
	f.pathFlags.register(fs)
	fs.StringVar(&f.date, "date", "", "the clock's today (default: the snapshot's date, else the current date)")
	configFlag(fs, &f.configPath)
	fs.BoolVar(&f.allowRemoteRefs, "allow-remote-refs", false, "fetch $refs to http(s) URLs (refused by default)")
}

// lifecycles loads a snapshot and computes the clock of every version.
func (f *snapshotFlags) lifecycles(path string) (policy.Clock, []policy.Lifecycle, error) {
	cfg, err := loadConfig(f.configPath, f.stderr)
	if err != nil {
		return policy.Clock{}, nil, err
	}
	date, err := parseDate("--date", f.date)
	if err != nil {
		return policy.Clock{}, nil, err
	}
	paths, err := f.filter()
	if err != nil {
		return policy.Clock{}, nil, err
	}
	opts := specs.LoadOptions{AllowRemoteRefs: f.allowRemoteRefs, MaxSize: cfg.MaxSpecSize(), MaxNodes: cfg.MaxNodes(), Paths: paths, Layout: cfg.Layout()}
	if docs, err := byDocument(cfg, path); err != nil || docs {
		if err != nil {
			return policy.Clock{}, nil, err
		}
		return documentLifecycles(cfg, path, opts, date)
	}
	s, err := specs.Load(path, opts)
	if err != nil {
		return policy.Clock{}, nil, err
	}
	product, err := cfg.ResolveProduct(s)
	if err != nil {
		return policy.Clock{}, nil, err
	}
	if date.IsZero() {
		date = s.Date
	}
	if date.IsZero() {
		date = today()
	}
	clock := policy.Clock{Periods: cfg.Periods(), Today: date}
	return clock, clock.Lifecycles(s, versions.Operations(s.Doc, product)), nil
}

type versionsOptions struct {
	snapshotFlags
	path, format string
	out          io.Writer
}

func newVersionsCmd(runF func(*versionsOptions) error) *cobra.Command {
	opts := &versionsOptions{}
	cmd := &cobra.Command{
		Use:   "versions SNAPSHOT",
		Short: "List every operation's versions with state, deprecation date, sunset date and successor",
		Long: `List every operation of SNAPSHOT (a file or git REF:PATH) with its versions: state
(stable, deprecated, sunset-overdue, pre-release, upcoming), deprecation date, sunset date and
successor, as of --date (default: the snapshot's date). Sunsets follow the config's
deprecation periods: deprecationMonths, or sunset: per stability level, which also puts the
pre-releases of a level it names on the clock.`,
		Example: `  apiver versions openapi/api.yaml
  apiver versions --date 2025-01-01 --format json snapshots/api-2024-12-19.yaml
  apiver versions origin/main:openapi/api.yaml`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeFiles(1, snapshotExts...),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.path, opts.out, opts.stderr = args[0], cmd.OutOrStdout(), cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return versionsRun(opts)
		},
	}
	opts.register(cmd.Flags())
	formatFlag(cmd, &opts.format, "text", printer.VersionsFormats)
	return cmd
}

func versionsRun(opts *versionsOptions) error {
	if err := checkFormat(printer.VersionsFormats, opts.format); err != nil {
		return err
	}
	clock, lifecycles, err := opts.lifecycles(opts.path)
	if err != nil {
		return err
	}
	return printer.Versions(opts.out, opts.format, clock.Today, lifecycles)
}
