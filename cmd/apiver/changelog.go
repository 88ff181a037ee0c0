package main

import (
	"cloud.google.com/go/civil"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/outfile"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newChangelogCmd(stderr io.Writer) *cobra.Command {
	cmd := group(&cobra.Command{
		Use:   "changelog",
		Short: "Build, update and render the dated change history",
		Example: `  apiver changelog build openapi/snapshots -o changelog.json
  apiver changelog update --changelog changelog.json origin/main:openapi/api.yaml openapi/api.yaml
  apiver changelog render changelog.json -o CHANGELOG.md`,
	})
	cmd.AddCommand(newChangelogBuildCmd(stderr), newChangelogUpdateCmd(), newChangelogRenderCmd(), newChangelogMigrateCmd())
	return cmd
}

func newChangelogBuildCmd(stderr io.Writer) *cobra.Command {
	var output, configPath string
	var allowRemote, full, verbose bool
	var lockTimeout time.Duration
	var pathFilter pathFlags
	cmd := &cobra.Command{
		Use:   "build DIR | build SNAPSHOT[@DATE]...",
		Short: "Walk the dated snapshots of DIR in date order and write the whole history",
		Long: `Walk the dated snapshots of DIR (the first YYYY-MM-DD in each file name) in date
order and write the whole history as JSON: for each release date every change since
the previous snapshot, per operation and version.

DIR holds snapshot files, or dated folders of version documents; or DIR (or
REF:FOLDER) is itself a folder of version documents, as check reads it, and each
document's date is a release: its history. versioning.by in the config settles what
DIR holds when its content does not. Instead of DIR, the
snapshots can be named one by one, oldest first: files, folders of version documents,
or REF:PATH and REF:FOLDER read from git (dated by their commits). SNAPSHOT@YYYY-MM-DD
gives a snapshot its release date (two commits of one day, a file without a date in its
name). One snapshot is a history of one release: it is read and checked as any other.`,
		Example: `  apiver changelog build openapi/snapshots -o changelog.json
  apiver changelog build openapi/snapshots --config apiver.yaml > changelog.json
  apiver changelog build origin/main:openapi/api.yaml main:openapi/api.yaml -o changelog.json
  # Two commits of one day, each given its release date
  apiver changelog build HEAD~1:openapi/api.yaml@2026-02-08 HEAD:openapi/api.yaml@2026-02-09 -o changelog.json
  apiver changelog build origin/main:descriptions/api main:descriptions/api -o changelog.json
  # The history of a folder of version documents: each document is a release
  apiver changelog build descriptions/api -o changelog.json`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig(configPath, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			history, err := pipeline.ReadHistory(cfg, args)
			if err != nil {
				return err
			}
			if !history.Documents {
				budgetHistoryMemory(largestFile(history.Paths)*int64(pipeline.SnapshotsHeld()), full || load.FullPipelineFromEnv())
			}
			filter, err := pathFilter.filter()
			if err != nil {
				return err
			}
			opts := changelog.BuildOptions{Options: pipelineOptions(cfg, full, verbose, cmd.ErrOrStderr()),
				Detected: func(d policy.Detection) { noteLatestVersion(cmd.ErrOrStderr(), d) }}
			opts.AllowRemoteRefs, opts.Paths = allowRemote, filter
			if err := refuseInput(output, history.Paths...); err != nil {
				return err
			}
			if bar := progressBar(stderr, len(history.Paths)); bar != nil && history.Folder == "" {
				defer bar.Finish()
				opts.Progress = func() { _ = bar.Add(1) }
			}
			h, err := changelog.Build(history, opts)
			if err != nil {
				return err
			}
			if output == "" {
				data, err := h.Encode()
				if err != nil {
					return err
				}
				_, err = cmd.OutOrStdout().Write(data)
				return err
			}
			data, err := h.Encode()
			if err != nil {
				return err
			}
			return writeOutput(output, lockTimeout, nil, func(w io.Writer) error { _, err := w.Write(data); return err })
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the history to this file (replaced atomically) instead of stdout")
	lockFlag(cmd.Flags(), &lockTimeout)
	configFlag(cmd.Flags(), &configPath)
	cmd.Flags().BoolVar(&allowRemote, "allow-remote-refs", false, "fetch $refs to http(s) URLs (refused by default)")
	pathFilter.register(cmd.Flags())
	registerPipeline(cmd.Flags(), &full, &verbose)
	return cmd
}

// progressBar shows load progress on stderr only when it is a terminal.
func progressBar(stderr io.Writer, total int) *progressbar.ProgressBar {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("loading snapshots"),
		progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
}

func newChangelogUpdateCmd() *cobra.Command {
	var path string
	var flags pairFlags
	var lockTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "update [--changelog FILE] BASE REVISION",
		Short: "Add the revision's release to a history, created when missing (idempotent; the file is replaced atomically)",
		Long: `Add the release of REVISION, compared with BASE, to the history file (--changelog,
default changelog.json), which is created (with its folder) when it does not exist yet. A date already recorded is kept as it is, so
running it twice changes nothing. BASE and REVISION are files or git REF:PATH; the release's
date is --revision-date, else the first YYYY-MM-DD in the file name, else the commit's date
for REF:PATH, else today.`,
		Example: `  # After a release is merged: the previous release from git against the new spec,
  # added to changelog.json (the default --changelog)
  apiver changelog update HEAD~1:openapi/api.yaml openapi/api.yaml

  apiver changelog update --changelog changelog.json --revision-date 2025-01-15 old.yaml new.yaml`,
		Args:              cobra.ExactArgs(2),
		ValidArgsFunction: completeFiles(2, snapshotExts...),
		RunE: func(cmd *cobra.Command, args []string) error {
			if path == sizelimit.Stdin {
				return &usageError{errors.New("--changelog -: standard input cannot be updated; name the history file")}
			}
			// A link out of the work tree, a pipe or a device is refused
			// before anything is read through it.
			target, err := fileTarget(path, "the history")
			if err != nil {
				return err
			}
			// Read once before the slow part, so a broken history fails
			// fast, and again under the lock: another run may have added
			// its release meanwhile, and writing the first read back would
			// lose it.
			if _, _, err := readOrNewHistory(target); err != nil {
				return err
			}
			flags.stderr = cmd.ErrOrStderr()
			cfg, err := loadConfig(flags.configPath, flags.stderr)
			if err != nil {
				return err
			}
			opts, err := flags.options(cfg, pipeline.LoadOnce)
			if err != nil {
				return err
			}
			documents, err := pipeline.ByDocument(cfg, args[0], args[1])
			if err != nil {
				return err
			}
			var base, revision *specs.Snapshot
			var pair *load.DocumentPair
			if documents {
				if pair, err = pipeline.LoadDocuments(args[0], args[1], opts); err != nil {
					return err
				}
				if pair.Revision.Date.IsZero() {
					// A work-tree folder without a date is released today.
					pair.Revision.Date = pipeline.Today()
				}
				revision = pair.Revision.Snapshot()
			} else {
				if base, revision, err = pipeline.LoadPair(args[0], args[1], opts); err != nil {
					return err
				}
				if revision.Date.IsZero() {
					// A work-tree file without a date is released today.
					revision.Date = pipeline.Today()
				}
			}
			baseDate, baseName := civil.Date{}, args[0]
			if documents {
				baseDate = pair.Base.Date
			} else {
				baseDate = base.Date
			}
			if !baseDate.IsZero() && !revision.Date.After(baseDate) {
				// As in a history built at once: each release after the one before.
				return fmt.Errorf("%s (%s) is not after %s (%s): the revision is the newer release", args[1], revision.Date, baseName, baseDate)
			}
			if err := os.MkdirAll(filepath.Dir(target.Real), 0o755); err != nil {
				return err
			}
			return withLock(path, target.Real, lockTimeout, func() error {
				h, created, err := readOrNewHistory(target)
				if err != nil {
					return err
				}
				detected := func(d policy.Detection) { noteLatestVersion(cmd.ErrOrStderr(), d) }
				var added bool
				if documents {
					added, err = changelog.UpdateDocuments(h, pair, cfg, detected)
				} else {
					added, err = changelog.Update(h, base, revision, cfg, detected)
				}
				if err != nil {
					return err
				}
				if !added {
					fmt.Fprintf(cmd.OutOrStdout(), "%s already records %s: unchanged\n", path, revision.Date)
					return nil
				}
				if err := h.Write(target.Real); err != nil {
					return err
				}
				if created {
					fmt.Fprintf(cmd.OutOrStdout(), "%s: created, with the release of %s\n", path, revision.Date)
				} else {
					fmt.Fprintf(cmd.OutOrStdout(), "%s: added the release of %s\n", path, revision.Date)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&path, "changelog", "changelog.json", "the history file to update")
	flags.register(cmd.Flags())
	lockFlag(cmd.Flags(), &lockTimeout)
	return cmd
}

func newChangelogRenderCmd() *cobra.Command {
	var format, output string
	var lockTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "render CHANGELOG",
		Short: "Render the history for people: one section per date, breaking changes first, identical changes grouped",
		Example: `  apiver changelog render changelog.json -o CHANGELOG.md
  apiver changelog render --format text changelog.json`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeFiles(1, "json"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(changelog.RenderFormats, format); err != nil {
				return err
			}
			if err := refuseInput(output, args[0]); err != nil {
				return err
			}
			h, err := changelog.Read(args[0])
			if err != nil {
				return err
			}
			releases, err := h.Releases()
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			return writeOutput(output, lockTimeout, cmd.OutOrStdout(), func(w io.Writer) error { return changelog.Render(w, format, releases) })
		},
	}
	formatFlag(cmd, &format, "markdown", changelog.RenderFormats)
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file (replaced atomically) instead of stdout")
	lockFlag(cmd.Flags(), &lockTimeout)
	return cmd
}

func newChangelogMigrateCmd() *cobra.Command {
	var from, to, legacyPath, mapping, format, configPath string
	var pathFilter pathFlags
	cmd := &cobra.Command{
		Use:   "migrate SNAPSHOT --to V2 (--from V1 | --legacy LEGACY_SNAPSHOT --map OLD_PREFIX=NEW_PREFIX)",
		Short: "A migration guide: per operation, the request and response differences between two versions",
		Long: `List, per operation, the request and response differences between version --from and
version --to of the resources of SNAPSHOT that have both. With --legacy and --map, compare the
unversioned operations of LEGACY_SNAPSHOT under OLD_PREFIX with version --to of the operations
of SNAPSHOT at the same path under NEW_PREFIX.`,
		Example: `  apiver changelog migrate openapi/api.yaml --from 2023-01-01 --to 2023-02-01
  apiver changelog migrate openapi/api.yaml --legacy legacy.yaml --map /api/example/v1.0=/api/example/v2 --to 2023-02-01 --format text`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeFiles(1, snapshotExts...),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(changelog.MigrationFormats, format); err != nil {
				return err
			}
			if to == "" || (from == "") == (legacyPath == "") {
				return fmt.Errorf("migrate needs --to and exactly one of --from or --legacy")
			}
			for _, v := range []struct{ flag, value string }{{"--from", from}, {"--to", to}} {
				if err := checkVersionName(v.flag, v.value); err != nil {
					return err
				}
			}
			oldPrefix, newPrefix, ok := strings.Cut(mapping, "=")
			if legacyPath != "" && (!ok || oldPrefix == "" || newPrefix == "") {
				return fmt.Errorf("--map %q: want OLD_PREFIX=NEW_PREFIX, such as /api/example/v1.0=/api/example/v2", mapping)
			}
			cfg, err := loadConfig(configPath, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			filter, err := pathFilter.filter()
			if err != nil {
				return err
			}
			opts := pipeline.Options{Config: cfg, Paths: filter}
			var res *diff.Result
			if legacyPath == "" {
				res, err = pipeline.Migration(args[0], from, to, opts)
			} else {
				if documents, err := pipeline.ByDocument(cfg, args[0]); err != nil || documents {
					if err != nil {
						return err
					}
					return fmt.Errorf("%s: --legacy compares a legacy snapshot with media-type versions; for version documents use --from", args[0])
				}
				from = "the legacy API (" + oldPrefix + ")"
				res, err = pipeline.LegacyMigration(legacyPath, args[0], oldPrefix, newPrefix, to, opts)
			}
			if err != nil {
				return err
			}
			m := changelog.NewMigration(from, to, res)
			m.Select = cfg.Versioning.Select.Request(to)
			return changelog.RenderMigration(cmd.OutOrStdout(), format, m)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&from, "from", "", "the version clients leave")
	fs.StringVar(&to, "to", "", "the version clients move to")
	fs.StringVar(&legacyPath, "legacy", "", "a snapshot of the unversioned legacy API to compare instead of --from")
	fs.StringVar(&mapping, "map", "", "with --legacy: OLD_PREFIX=NEW_PREFIX of the paths")
	formatFlag(cmd, &format, "markdown", changelog.MigrationFormats)
	configFlag(fs, &configPath)
	pathFilter.register(fs)
	return cmd
}

// readOrNewHistory reads the history at the target, or starts an empty
// one when nothing is there yet, a link to a file still to be made
// included (created says so). Anything else there that is not a history is
// an error.
func readOrNewHistory(t *outfile.Target) (h *changelog.History, created bool, err error) {
	// Real, not Path: a link whose target is still to be made is a new
	// history too.
	if _, err := os.Lstat(t.Real); errors.Is(err, fs.ErrNotExist) {
		return &changelog.History{}, true, nil
	}
	h, err = changelog.Read(t.Path)
	return h, false, err
}

// checkVersionName refuses a version that does not start with a real
// date, YYYY-MM-DD (a pre-release's suffix may follow): no version has
// such a name. Empty is no version given.
func checkVersionName(flag, value string) error {
	if value == "" {
		return nil
	}
	if len(value) < len("2006-01-02") {
		return fmt.Errorf("%s %q: not a version (want YYYY-MM-DD)", flag, value)
	}
	if _, err := parseDate(flag, value[:len("2006-01-02")]); err != nil {
		return fmt.Errorf("%s %q: not a version (want YYYY-MM-DD, a real date)", flag, value)
	}
	return nil
}
