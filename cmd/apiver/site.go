package main

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/internal/outfile"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/site"
	"github.com/spf13/cobra"
)

type siteOptions struct {
	snapshotFlags
	changelogPath, output    string
	title, baseURL, snapshot string
	lockTimeout              time.Duration
	out                      io.Writer
}

func newSiteCmd(runF func(*siteOptions) error) *cobra.Command {
	opts := &siteOptions{}
	cmd := &cobra.Command{
		Use:   "site CHANGELOG -o DIR",
		Short: "Write the changelog website: releases, a page per resource, deprecations and an Atom feed",
		Long: `Write a static website from a changelog JSON file: an index of releases (newest
first), a page per release and per resource (operation) with its version
timeline, the deprecations with their sunsets, and an Atom feed (feed.xml). The
site works opened from disk and on any static host. DIR is replaced whole and
atomically; an existing DIR must be empty or a site apiver wrote.

The deprecations page counts days left from --date, else the date of
--snapshot, else the newest release's date.`,
		Example: `  apiver site changelog.json -o public --title "Example API changelog"
  apiver site changelog.json -o public --base-url https://example.github.io/api/ --snapshot openapi/api.yaml`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeFiles(1, "json"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.changelogPath, opts.out, opts.stderr = args[0], cmd.OutOrStdout(), cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return siteRun(opts)
		},
	}
	fs := cmd.Flags()
	opts.register(fs)
	// The site has a history, whose newest release dates it.
	fs.Lookup("date").Usage = "the deprecations page's today (default: the --snapshot's date, else the newest release's date)"
	fs.Lookup("match-path").Usage = "with --snapshot: only the deprecations of the operations whose path matches this `REGEX` (repeatable: any of them)"
	fs.Lookup("exclude-path").Usage = "with --snapshot: leave out the deprecations of the operations whose path matches this `REGEX` (repeatable)"
	fs.StringVarP(&opts.output, "output", "o", "", "folder to write the site to (required)")
	fs.StringVar(&opts.title, "title", "API changelog", "the site's title")
	fs.StringVar(&opts.baseURL, "base-url", "", "URL the site is published at, for absolute links and ids in the feed")
	fs.StringVar(&opts.snapshot, "snapshot", "", "the latest snapshot, whose deprecated versions and sunsets the deprecations page lists")
	lockFlag(fs, &opts.lockTimeout)
	_ = cmd.MarkFlagRequired("output")
	return cmd
}

func siteRun(opts *siteOptions) error {
	if _, err := opts.filter(); err != nil {
		return err
	}
	if opts.baseURL != "" {
		// The feed's ids are made from it, and an Atom id is an absolute IRI.
		if u, err := url.Parse(opts.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--base-url %q: not an absolute http or https URL", opts.baseURL)
		}
		if strings.ContainsFunc(opts.baseURL, unicode.IsSpace) {
			return fmt.Errorf("--base-url %q: a URL holds no spaces (write %%20)", opts.baseURL)
		}
	}
	history, err := changelog.Read(opts.changelogPath)
	if err != nil {
		return err
	}
	releases, err := history.Releases()
	if err != nil {
		return fmt.Errorf("%s: %w", opts.changelogPath, err)
	}
	cfg, err := policy.LoadConfig(opts.configPath)
	if err != nil {
		return err
	}
	siteOpts := site.Options{Title: opts.title, BaseURL: opts.baseURL, Periods: cfg.Periods()}
	if s := cfg.Versioning.Select; s.Header != "" || s.Query != "" {
		siteOpts.Select = s.Request
	}
	if opts.snapshot != "" {
		clock, lifecycles, err := opts.lifecycles(opts.snapshot)
		if err != nil {
			return err
		}
		siteOpts.AsOf = clock.Today
		for _, l := range lifecycles {
			if (l.State == policy.Deprecated || l.State == policy.SunsetOverdue || l.State == policy.Retired) && !l.SunsetOn.IsZero() {
				siteOpts.Deprecations = append(siteOpts.Deprecations, site.Deprecation{Operation: l.Operation, Version: l.Version, Sunset: l.SunsetOn, Successor: l.Successor, Period: l.Period})
			}
		}
	} else {
		if siteOpts.AsOf, err = parseDate("--date", opts.date); err != nil {
			return err
		}
		if siteOpts.AsOf.IsZero() && len(releases) > 0 {
			siteOpts.AsOf, _ = civil.ParseDate(releases[0].Date)
		}
		if siteOpts.AsOf.IsZero() {
			siteOpts.AsOf = pipeline.Today()
		}
	}
	files, err := site.Build(releases, siteOpts)
	if err != nil {
		return err
	}
	// A link to a folder inside the work tree is written through; one out
	// of it, a device or a pipe is refused.
	target, err := outfile.Resolve(opts.output)
	if err != nil {
		return err
	}
	if target.Kind == outfile.Stream {
		return fmt.Errorf("%s: not a folder (%s): a site is a folder", opts.output, target.What)
	}
	// DIR is replaced whole: it may hold neither the working folder, which
	// no rename can replace, nor a file the site is made from.
	dir := outfile.Real(target.Real)
	if wd, err := os.Getwd(); err == nil && outfile.Inside(dir, outfile.Real(wd)) {
		return &outfile.Error{Path: opts.output, Msg: "holds the current folder, and a site folder is replaced whole: name a folder inside it"}
	}
	for _, input := range []string{opts.changelogPath, opts.snapshot, opts.configPath} {
		if input != "" && outfile.Inside(dir, outfile.Real(input)) {
			return &outfile.Error{Path: input, Msg: fmt.Sprintf("lies inside the site folder %s, which is replaced whole: refused, so that the site does not delete what it is made from", opts.output)}
		}
	}
	// site.Write makes the folders above DIR; the lock, on the one that
	// holds DIR, needs it first.
	if err := os.MkdirAll(filepath.Dir(target.Real), 0o755); err != nil {
		return err
	}
	return withLock(opts.output, target.Real, opts.lockTimeout, func() error { return site.Write(target.Real, files) })
}
