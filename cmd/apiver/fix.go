package main

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/apiver/apiver/fix"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/spf13/cobra"
)

type fixOptions struct {
	pairFlags
	basePath, revisionPath string
	outPath                string
	version                string
	exemptionsPath         string
	unified                bool
	lockTimeout            time.Duration
	out                    io.Writer
}

func newFixCmd(runF func(*fixOptions) error) *cobra.Command {
	opts := &fixOptions{}
	cmd := &cobra.Command{
		Use:   "fix BASE REVISION",
		Short: "Write the revision that passes the check: in-place breaking changes moved to a new version",
		Long: `Restore every existing version that the revision changed in a breaking way to
its content in BASE, and add a new version with the revision's content; schemas the two
would share but that differ are split. Exit code 0: the result passes the check; 1: some
errors cannot be fixed by a new version (listed on stderr); 2: usage or input error.`,
		Example: `  # Rewrite the pull request's spec in place so that the check passes
  apiver fix origin/main:openapi/api.yaml openapi/api.yaml -o openapi/api.yaml
  # A suggested change for a bot to post, with the new version dated explicitly
  apiver fix --diff --version 2026-03-01 origin/main:openapi/api.yaml openapi/api.yaml
  # Leave exempted findings alone
  apiver fix --exemptions exemptions.yaml base-2026-02-08.yaml revision-2026-02-09.yaml > fixed.yaml`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.basePath, opts.revisionPath, opts.out, opts.stderr = args[0], args[1], cmd.OutOrStdout(), cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return fixRun(opts)
		},
	}
	fs := cmd.Flags()
	opts.register(fs)
	opts.registerDate(fs)
	fs.StringVarP(&opts.outPath, "output", "o", "", "write the fixed revision (or the diff) to this file, atomically, instead of stdout")
	fs.StringVar(&opts.version, "version", "", "the new version's date (default: the revision's date from its name or commit, else --date, else today)")
	fs.StringVar(&opts.exemptionsPath, "exemptions", "", "`FILE` of more exemptions, as for check; exempted findings are left alone")
	fs.BoolVar(&opts.unified, "diff", false, "print a unified diff against REVISION instead of the fixed file")
	lockFlag(fs, &opts.lockTimeout)
	return cmd
}

func fixRun(opts *fixOptions) error {
	version, err := parseDate("--version", opts.version)
	if err != nil {
		return err
	}
	cmp, err := opts.compare(opts.basePath, opts.revisionPath, pipeline.KeptParsed)
	if err != nil {
		return err
	}
	if version.IsZero() {
		version = cmp.NewVersion()
	}
	if err := addExemptions(&cmp.Config, opts.exemptionsPath, opts.stderr); err != nil {
		return err
	}
	if cmp.Documents != nil {
		return fixDocuments(opts, cmp, version)
	}
	res, left, err := cmp.Fix(cmp.Check(), version)
	if err != nil {
		return err
	}
	out := res.Data
	if opts.unified {
		from, to := cmp.Revision.Path, cmp.Revision.Path
		if !filepath.IsAbs(from) {
			// As git prints it, so that `git apply` takes it (./ refused).
			clean := filepath.ToSlash(filepath.Clean(from))
			from, to = "a/"+clean, "b/"+clean
		}
		out, err = fix.Unified(escape.DiffPath(from), escape.DiffPath(to), cmp.Revision.Data, res)
		if err != nil {
			return err
		}
	}
	if err := writeOutput(opts.outPath, opts.lockTimeout, opts.out, func(w io.Writer) error { _, err := w.Write(out); return err }); err != nil {
		return err
	}
	// What was done, once it is written: a refused output did nothing.
	for _, r := range res.Restored {
		added := ""
		for _, a := range res.Added {
			if a.Operation == r.Operation && a.From == r.Version {
				added = "; its change is version " + a.Version
			}
		}
		fmt.Fprintf(opts.stderr, "apiver: %s: version %s restored%s\n", escape.Text(r.Operation), escape.Text(r.Version), escape.Text(added))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(opts.stderr, "apiver: %s\n", escape.Text(n))
	}
	splits := slices.Collect(maps.Keys(res.Split))
	slices.SortFunc(splits, func(a, b string) int { return strings.Compare(res.Split[a]+" "+a, res.Split[b]+" "+b) })
	for _, to := range splits {
		fmt.Fprintf(opts.stderr, "apiver: split %s: the versions not restored use %s\n", escape.Text(res.Split[to]), escape.Text(to))
	}
	for _, ref := range slices.Sorted(maps.Keys(res.Copied)) {
		fmt.Fprintf(opts.stderr, "apiver: copied %s from the base as %s for the restored versions\n", escape.Text(ref), escape.Text(res.Copied[ref]))
	}
	return notFixable(opts.stderr, left)
}

// notFixable lists on stderr the errors a fix left, and fails when there
// are some.
func notFixable(stderr io.Writer, left *policy.Report) error {
	failed := false
	for _, f := range left.Findings {
		if f.Exempted || f.Severity != policy.Error {
			continue
		}
		failed = true
		version := f.Version
		if version == "" {
			version = "unversioned"
		}
		fmt.Fprintf(stderr, "apiver: not fixable: %s %s: %s %s: %s\n", dashed(f.Operation), version, f.Rule, dashed(f.Change), oneLine(f.Message))
	}
	if failed {
		return errPolicyFailed
	}
	return nil
}

func dashed(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
