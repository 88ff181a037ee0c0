package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/spf13/cobra"
)

type checkOptions struct {
	pairFlags
	basePath, revisionPath string
	format                 string
	exemptionsPath         string
	failOn                 string
	// outputs are the --output FORMAT=FILE values.
	outputs []string
	out     io.Writer
}

func newCheckCmd(runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check BASE REVISION",
		Short: "Tell whether the revision's spec change is allowed by the versioning policy",
		Long: `Compare two dated snapshots per operation and version and apply the versioning
policy. Exit code 0: no error finding; 1: an error finding; 2: usage or input error.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.basePath, opts.revisionPath, opts.out, opts.stderr = args[0], args[1], cmd.OutOrStdout(), cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return checkRun(opts)
		},
	}
	fs := cmd.Flags()
	opts.register(fs)
	opts.registerDate(fs)
	formatFlag(fs, &opts.format, printer.CheckFormats)
	fs.StringVar(&opts.exemptionsPath, "exemptions", "", "file with more exemptions (a list under `exemptions:`)")
	fs.StringVar(&opts.failOn, "fail-on", "error", "lowest severity that fails the check: error or warning")
	fs.StringArrayVar(&opts.outputs, "output", nil, "also write the report to a file, as `FORMAT=FILE` (e.g. sarif=apiver.sarif; repeatable)")
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
	failOn := policy.Severity(opts.failOn)
	if failOn != policy.Error && failOn != policy.Warning {
		return fmt.Errorf("--fail-on %q: want error or warning", opts.failOn)
	}
	cmp, err := opts.compare(opts.basePath, opts.revisionPath)
	if err != nil {
		return err
	}
	if err := addExemptions(&cmp.config, opts.exemptionsPath, opts.stderr); err != nil {
		return err
	}
	report := policy.Check(policy.Input{Base: cmp.base, Revision: cmp.revision, Result: cmp.result, Date: cmp.date, Config: cmp.config})
	res := printer.CheckResult{Report: report, FailOn: failOn, Spec: cmp.revision.Path}
	for _, p := range cmp.result.Pairs {
		res.Checked = append(res.Checked, printer.OperationVersion{Operation: p.Operation, Version: p.Version})
	}
	if err := printer.Check(opts.out, opts.format, res); err != nil {
		return err
	}
	for _, o := range outputs {
		if err := o.write(res); err != nil {
			return err
		}
	}
	if report.Failed(failOn) {
		return errPolicyFailed
	}
	return nil
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
		if seen[path] {
			return nil, fmt.Errorf("--output %q: %s is named twice", v, path)
		}
		seen[path] = true
		outputs = append(outputs, output{format, path})
	}
	return outputs, nil
}

// write renders the report and replaces the file atomically (written beside
// it, then renamed), so a reader never sees half a report.
func (o output) write(res printer.CheckResult) error {
	if err := writeOutput(o.path, nil, func(w io.Writer) error { return printer.Check(w, o.format, res) }); err != nil {
		return fmt.Errorf("--output %w", err)
	}
	return nil
}
