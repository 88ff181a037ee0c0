package main

import (
	"fmt"
	"io"

	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/spf13/cobra"
)

type checkOptions struct {
	pairFlags
	basePath, revisionPath string
	date                   string
	format                 string
	exemptionsPath         string
	failOn                 string
	out                    io.Writer
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
			opts.basePath, opts.revisionPath, opts.out = args[0], args[1], cmd.OutOrStdout()
			if runF != nil {
				return runF(opts)
			}
			return checkRun(opts)
		},
	}
	fs := cmd.Flags()
	opts.register(fs)
	fs.StringVar(&opts.date, "date", "", "the policy's today (default: the revision's date, else the current date)")
	formatFlag(fs, &opts.format, printer.Formats)
	fs.StringVar(&opts.exemptionsPath, "exemptions", "", "file with more exemptions (a list under `exemptions:`)")
	fs.StringVar(&opts.failOn, "fail-on", "error", "lowest severity that fails the check: error or warning")
	return cmd
}

func checkRun(opts *checkOptions) error {
	if err := checkFormat(printer.Formats, opts.format); err != nil {
		return err
	}
	failOn := policy.Severity(opts.failOn)
	if failOn != policy.Error && failOn != policy.Warning {
		return fmt.Errorf("--fail-on %q: want error or warning", opts.failOn)
	}
	date, err := parseDate("--date", opts.date)
	if err != nil {
		return err
	}
	cmp, err := opts.compare(opts.basePath, opts.revisionPath)
	if err != nil {
		return err
	}
	if opts.exemptionsPath != "" {
		more, err := policy.LoadExemptions(opts.exemptionsPath)
		if err != nil {
			return err
		}
		cmp.config.Exemptions = append(cmp.config.Exemptions, more...)
	}
	if date.IsZero() {
		date = cmp.revision.Date
	}
	if date.IsZero() {
		date = today()
	}
	report := policy.Check(policy.Input{Base: cmp.base, Revision: cmp.revision, Result: cmp.result, Date: date, Config: cmp.config})
	if err := printer.Check(opts.out, opts.format, report, failOn); err != nil {
		return err
	}
	if report.Failed(failOn) {
		return errPolicyFailed
	}
	return nil
}
