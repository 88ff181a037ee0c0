package main

import (
	"io"

	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/spf13/cobra"
)

type rulesOptions struct {
	configPath, format string
	out, stderr        io.Writer
}

func newRulesCmd(runF func(*rulesOptions) error) *cobra.Command {
	opts := &rulesOptions{}
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "Print the rule catalogue: apiver's rules and every oasdiff check id, with their effective severity",
		Example: `  apiver rules
  apiver rules --format json --config apiver.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.out, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return rulesRun(opts)
		},
	}
	configFlag(cmd.Flags(), &opts.configPath)
	formatFlag(cmd, &opts.format, "text", printer.RulesFormats)
	return cmd
}

func rulesRun(opts *rulesOptions) error {
	if err := checkFormat(printer.RulesFormats, opts.format); err != nil {
		return err
	}
	cfg, err := loadConfig(opts.configPath, opts.stderr)
	if err != nil {
		return err
	}
	return printer.Rules(opts.out, opts.format, policy.BuildCatalogue(cfg))
}
