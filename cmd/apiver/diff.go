package main

import (
	"io"

	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/printer"
	"github.com/spf13/cobra"
)

type diffOptions struct {
	pairFlags
	basePath, revisionPath string
	format                 string
	// failOnDiff makes any listed change fail the command (exit 1), as
	// oasdiff's --fail-on-diff does.
	failOnDiff bool
	out        io.Writer
}

func newDiffCmd(runF func(*diffOptions) error) *cobra.Command {
	opts := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff BASE REVISION",
		Short: "List every change of every level, per operation and version",
		Long: `List every change between two snapshots, of every level (error, warning, info),
per operation and version. BASE and REVISION are files or git REF:PATH.`,
		Example: `  apiver diff snapshots/api-2024-11-19.yaml snapshots/api-2024-12-19.yaml
  apiver diff --format json origin/main:openapi/api.yaml openapi/api.yaml
  apiver diff --format markdown HEAD~1:api.yaml api.yaml > changes.md`,
		Args:              cobra.ExactArgs(2),
		ValidArgsFunction: completeFiles(2, snapshotExts...),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.basePath, opts.revisionPath, opts.out, opts.stderr = args[0], args[1], cmd.OutOrStdout(), cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return diffRun(opts)
		},
	}
	opts.register(cmd.Flags())
	opts.registerDate(cmd.Flags())
	formatFlag(cmd, &opts.format, "text", printer.Formats)
	cmd.Flags().BoolVar(&opts.failOnDiff, "fail-on-diff", false, "exit 1 when any change is listed")
	return cmd
}

func diffRun(opts *diffOptions) error {
	if err := checkFormat(printer.Formats, opts.format); err != nil {
		return err
	}
	cmp, err := opts.compare(opts.basePath, opts.revisionPath, pipeline.LoadOnce)
	if err != nil {
		return err
	}
	changes := cmp.Result.Changes()
	if err := printer.Diff(opts.out, opts.format, changes); err != nil {
		return err
	}
	if opts.failOnDiff && len(changes) > 0 {
		return errPolicyFailed
	}
	return nil
}
