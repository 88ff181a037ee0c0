package main

import (
	"io"

	"github.com/apiver/apiver/printer"
	"github.com/spf13/cobra"
)

type diffOptions struct {
	pairFlags
	basePath, revisionPath string
	format                 string
	out                    io.Writer
}

func newDiffCmd(runF func(*diffOptions) error) *cobra.Command {
	opts := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff BASE REVISION",
		Short: "List every change of every level, per operation and version",
		Args:  cobra.ExactArgs(2),
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
	formatFlag(cmd.Flags(), &opts.format, printer.Formats)
	return cmd
}

func diffRun(opts *diffOptions) error {
	if err := checkFormat(printer.Formats, opts.format); err != nil {
		return err
	}
	cmp, err := opts.compare(opts.basePath, opts.revisionPath)
	if err != nil {
		return err
	}
	return printer.Diff(opts.out, opts.format, cmp.result.Changes())
}
