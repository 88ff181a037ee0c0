package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"al.essio.dev/pkg/shellescape"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/apiver/apiver/specs"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

type checkOptions struct {
	pairFlags
	basePath, revisionPath string
	format                 string
	exemptionsPath         string
	failOn                 string
	failOnPreexisting      bool
	// outputs are the --output FORMAT=FILE values.
	outputs     []string
	lockTimeout time.Duration
	out         io.Writer
	// fixArgs are the arguments of the `apiver fix` run that fixes what
	// this check finds: its inputs and the flags fix shares with check.
	fixArgs []string
}

func newCheckCmd(runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check BASE REVISION",
		Short: "Tell whether the revision's spec change is allowed by the versioning policy",
		Long: `Compare two dated snapshots per operation and version and apply the versioning
policy. Exit code 0: no error finding; 1: an error finding; 2: usage or input error.
Only findings the revision introduced fail the check: those already true of the base
(an overdue sunset, say) are listed apart, as "Already in the base", and are never
annotations, unless --fail-on-preexisting.

BASE and REVISION are snapshot files, or REF:PATH to read a file as committed at a
git revision (PATH relative to the repository's top, or to the working directory
when it starts with ./). Either can also be a folder (or REF:FOLDER) of one OpenAPI
document per version, such as api.example.com.2024-01-01.yaml or
2024-01-01/spec.yaml: each document is that version. A snapshot's date is the first
YYYY-MM-DD in its file name unless --base-date or --revision-date gives it.`,
		Example: `  # A pull request: the base branch's spec from git against the work tree's
  apiver check origin/main:openapi/api.yaml openapi/api.yaml

  # Two dated snapshot files
  apiver check snapshots/api-2024-11-19.yaml snapshots/api-2024-12-19.yaml

  # A folder of one document per version, from git against the work tree's
  apiver check origin/main:descriptions/api descriptions/api

  # Print text, also save SARIF for code scanning and JUnit for a test report
  apiver check --output sarif=apiver.sarif --output junit=apiver-junit.xml HEAD~1:api.yaml api.yaml

  # Accept known changes for a while; fail on warnings too
  apiver check --exemptions exemptions.yaml --fail-on warning base.yaml revision.yaml`,
		Args:              cobra.ExactArgs(2),
		ValidArgsFunction: completeFiles(2, snapshotExts...),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.basePath, opts.revisionPath, opts.out, opts.stderr = args[0], args[1], cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.fixArgs = fixArgs(cmd, args)
			if runF != nil {
				return runF(opts)
			}
			return checkRun(opts)
		},
	}
	fs := cmd.Flags()
	opts.register(fs)
	opts.registerDate(fs)
	formatFlag(cmd, &opts.format, "text", printer.CheckFormats)
	fs.StringVar(&opts.exemptionsPath, "exemptions", "", "`FILE` of more exemptions: a list under exemptions:, as in the config")
	fs.StringVar(&opts.failOn, "fail-on", "error", "lowest severity that fails the check: error, warning or info (oasdiff's ERR, WARN, INFO too)")
	fs.BoolVar(&opts.failOnPreexisting, "fail-on-preexisting", false, "let findings already true of the base (an overdue sunset, an old too-early sunset) fail the check too (config: failOnPreexisting)")
	fs.StringArrayVar(&opts.outputs, "output", nil, "also write the report to a file, as `FORMAT=FILE` (e.g. sarif=apiver.sarif; repeatable)")
	lockFlag(fs, &opts.lockTimeout)
	return cmd
}

func checkRun(opts *checkOptions) error {
	if err := checkFormat(printer.CheckFormats, opts.format); err != nil {
		return err
	}
	outputs, err := parseOutputs(opts.outputs)
	if err != nil {
		return err
	}
	for _, o := range outputs {
		if err := refuseInput(o.path, opts.basePath, opts.revisionPath, opts.exemptionsPath); err != nil {
			return fmt.Errorf("--output %w", err)
		}
	}
	failOn, err := parseFailOn(opts.failOn)
	if err != nil {
		return err
	}
	// Every format offers the fix, so the comparison keeps its sources
	// for it.
	cmp, err := opts.compare(opts.basePath, opts.revisionPath, pipeline.Reloadable)
	if err != nil {
		return err
	}
	if err := addExemptions(&cmp.Config, opts.exemptionsPath, opts.stderr); err != nil {
		return err
	}
	if opts.failOnPreexisting {
		cmp.Config.FailOnPreexisting = true
	}
	report := cmp.Check()
	anchor := policy.NewAnchor(cmp.Base, cmp.Revision, cmp.Result.Revision)
	if cmp.Documents != nil {
		anchor = policy.NewDocumentAnchor(cmp.Documents)
	}
	res := printer.CheckResult{Report: report, FailOn: failOn, Spec: cmp.Revision.Path, ToolVersion: readVersion().Released(), Root: specs.RepoRoot(),
		Groups: report.Groups(anchor)}
	if cmp.Documents != nil {
		cmp.Documents.Release()
	}
	res.Fixed = cmp.FixedBy(report)
	if res.Fixed != nil {
		res.FixCommand = shellescape.QuoteCommand(append(opts.fixArgs, fixOutput(cmp)...))
	}
	for _, p := range cmp.Result.Pairs {
		res.Checked = append(res.Checked, printer.OperationVersion{Operation: p.Operation, Version: p.Version})
	}
	if err := printer.Check(opts.out, opts.format, res); err != nil {
		return err
	}
	for _, o := range outputs {
		if err := o.write(res, opts.lockTimeout); err != nil {
			return err
		}
	}
	if report.Failed(failOn) {
		return errPolicyFailed
	}
	return nil
}

// fixArgs is the `apiver fix` command line for a check's: its two inputs
// and every flag given that fix takes too (config, dates, filters,
// exemptions), so that it fixes what the check found. check's --output
// FORMAT=FILE names a report, not the file fix would write: left out.
func fixArgs(check *cobra.Command, args []string) []string {
	fixFlags := newFixCmd(nil).Flags()
	out := []string{"apiver", "fix"}
	check.Flags().Visit(func(f *pflag.Flag) {
		if fixFlags.Lookup(f.Name) == nil || f.Name == "verbose" || f.Name == "full-pipeline" || f.Name == "lock-timeout" || f.Name == "output" {
			return
		}
		if slice, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range slice.GetSlice() {
				out = append(out, "--"+f.Name+"="+v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	return append(out, args...)
}

// fixOutput is the offered fix's flags that make it write the fixed spec
// where the check read the revision: -o REVISION, in place (a folder of
// version documents is fixed in place without it). A revision read from
// git (REF:PATH) is written to PATH in the work tree, which is what a
// commit on that branch would change.
func fixOutput(cmp *pipeline.Comparison) []string {
	path, ref := cmp.Revision.Path, cmp.Revision.Ref
	if cmp.Documents != nil {
		path, ref = cmp.Documents.Revision.Path, cmp.Documents.Revision.Ref
	}
	if ref == "" {
		if cmp.Documents != nil {
			return nil
		}
		return []string{"-o", path}
	}
	if !strings.HasPrefix(path, "./") && !strings.HasPrefix(path, "../") {
		// PATH is relative to the top of the work tree, -o to the
		// working directory.
		if top := specs.RepoRoot(); top != "" {
			if wd, err := os.Getwd(); err == nil {
				if real, err := filepath.EvalSymlinks(wd); err == nil {
					wd = real
				}
				if rel, err := filepath.Rel(wd, filepath.Join(top, filepath.FromSlash(path))); err == nil {
					path = filepath.ToSlash(rel)
				}
			}
		}
	}
	return []string{"-o", path}
}

// parseFailOn reads --fail-on: apiver's severity names or oasdiff's level
// names, in any case.
func parseFailOn(value string) (policy.Severity, error) {
	switch strings.ToLower(value) {
	case "error", "err":
		return policy.Error, nil
	case "warning", "warn":
		return policy.Warning, nil
	case "info":
		return policy.Info, nil
	}
	return "", fmt.Errorf("--fail-on %q: want error, warning or info (or ERR, WARN, INFO)", value)
}

// addExemptions adds the exemptions of an --exemptions file, if one is
// given, to the config's.
func addExemptions(cfg *policy.Config, path string, stderr io.Writer) error {
	if path == "" {
		return nil
	}
	more, warnings, err := policy.LoadExemptions(path)
	if err != nil {
		return err
	}
	warn(stderr, warnings)
	cfg.Exemptions = append(cfg.Exemptions, more...)
	return nil
}

// output is one --output FORMAT=FILE: the report in another format, saved
// beside the one printed.
type output struct {
	format, path string
}

func parseOutputs(values []string) ([]output, error) {
	var outputs []output
	seen := map[string]bool{}
	for _, v := range values {
		format, path, ok := strings.Cut(v, "=")
		if !ok || path == "" {
			return nil, fmt.Errorf("--output %q: want FORMAT=FILE, e.g. sarif=apiver.sarif", v)
		}
		if !printer.ValidFormat(printer.CheckFormats, format) {
			return nil, fmt.Errorf("--output %q: format %q: want one of %v", v, format, printer.CheckFormats)
		}
		if path == "-" {
			// Standard output holds the --format report; "-" is no file name
			// anyone means.
			return nil, fmt.Errorf("--output %q: the report in --format goes to standard output; name a file (or /dev/stdout)", v)
		}
		// One file however it is spelled (./x, an absolute path, a link).
		same := filepath.Clean(path)
		if abs, err := filepath.Abs(same); err == nil {
			same = abs
		}
		if real, err := filepath.EvalSymlinks(same); err == nil {
			same = real
		}
		if seen[same] {
			return nil, fmt.Errorf("--output %q: %s is named twice", v, path)
		}
		seen[same] = true
		outputs = append(outputs, output{format, path})
	}
	return outputs, nil
}

// write renders the report and replaces the file atomically (written beside
// it, then renamed), so a reader never sees half a report.
func (o output) write(res printer.CheckResult, lockTimeout time.Duration) error {
	if err := writeOutput(o.path, lockTimeout, nil, func(w io.Writer) error { return printer.Check(w, o.format, res) }); err != nil {
		return fmt.Errorf("--output %w", err)
	}
	return nil
}
