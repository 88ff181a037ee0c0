package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/printer"
	"github.com/spf13/cobra"
)

type sunsetOptions struct {
	snapshotFlags
	path, format, within string
	output               string
	failOnOverdue        bool
	lockTimeout          time.Duration
	out                  io.Writer
}

func newSunsetCmd(runF func(*sunsetOptions) error) *cobra.Command {
	opts := &sunsetOptions{}
	cmd := &cobra.Command{
		Use:   "sunset SNAPSHOT",
		Short: "The deprecation calendar: versions whose sunset falls within a window, and those overdue",
		Long: `List the versions whose sunset falls within --within days of the date, and those
already past their sunset. --format ics writes an iCalendar file with one all-day
event per sunset to subscribe to. With --fail-on-overdue the exit code is 1 when a
version is overdue. SNAPSHOT is a file or git REF:PATH. Sunsets follow the config's
deprecation periods (deprecationMonths, or sunset: per stability level).`,
		Example: `  # What goes within the next quarter
  apiver sunset openapi/api.yaml --within 90d

  # A calendar to publish and subscribe to
  apiver sunset openapi/api.yaml --within 365d --format ics -o sunsets.ics

  # A scheduled job that fails while something is past its sunset
  apiver sunset origin/main:openapi/api.yaml --fail-on-overdue`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeFiles(1, snapshotExts...),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.path, opts.out, opts.stderr = args[0], cmd.OutOrStdout(), cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return sunsetRun(opts)
		},
	}
	opts.register(cmd.Flags())
	formatFlag(cmd, &opts.format, "text", printer.SunsetFormats)
	cmd.Flags().StringVar(&opts.within, "within", "90d", "the window after the date, in days (90d or 90)")
	cmd.Flags().StringVarP(&opts.output, "output", "o", "", "write to this file (replaced atomically) instead of stdout, e.g. a calendar to publish")
	lockFlag(cmd.Flags(), &opts.lockTimeout)
	cmd.Flags().BoolVar(&opts.failOnOverdue, "fail-on-overdue", false, "exit 1 when a version is past its sunset")
	return cmd
}

// maxWithinDays bounds --within: ten thousand years hold every sunset a
// date can name, and the date arithmetic stays far from overflowing.
const maxWithinDays = 3_652_500

func sunsetRun(opts *sunsetOptions) error {
	if err := checkFormat(printer.SunsetFormats, opts.format); err != nil {
		return err
	}
	days, err := strconv.Atoi(strings.TrimSuffix(opts.within, "d"))
	if err != nil || days < 0 || days > maxWithinDays {
		return fmt.Errorf("--within %q: want a number of days such as 90d, at most %dd", opts.within, maxWithinDays)
	}
	if err := refuseInput(opts.output, opts.path); err != nil {
		return err
	}
	clock, lifecycles, err := opts.lifecycles(opts.path)
	if err != nil {
		return err
	}
	calendar := policy.Calendar(clock, lifecycles, days)
	if err := writeOutput(opts.output, opts.lockTimeout, opts.out, func(w io.Writer) error { return printer.Sunset(w, opts.format, calendar) }); err != nil {
		return err
	}
	if opts.failOnOverdue && len(calendar.Overdue) > 0 {
		return errPolicyFailed
	}
	return nil
}
