package main

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/fix"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/myers"
	"github.com/spf13/cobra"
)

type fixOptions struct {
	pairFlags
	basePath, revisionPath string
	outPath                string
	version                string
	exemptionsPath         string
	unified                bool
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
	fs.StringVar(&opts.version, "version", "", "the new version's date (default: the revision's date, else --date)")
	fs.StringVar(&opts.exemptionsPath, "exemptions", "", "file with more exemptions (a list under `exemptions:`); exempted findings are left alone")
	fs.BoolVar(&opts.unified, "diff", false, "print a unified diff against REVISION instead of the fixed file")
	return cmd
}

func fixRun(opts *fixOptions) error {
	version, err := parseDate("--version", opts.version)
	if err != nil {
		return err
	}
	cmp, err := opts.compare(opts.basePath, opts.revisionPath)
	if err != nil {
		return err
	}
	if version.IsZero() {
		version = cmp.revision.Date
	}
	if version.IsZero() && opts.date != "" {
		version = cmp.date
	}
	if err := addExemptions(&cmp.config, opts.exemptionsPath, opts.stderr); err != nil {
		return err
	}
	product, err := cmp.config.ResolveProduct(cmp.base, cmp.revision)
	if err != nil {
		return err
	}
	report := policy.Check(policy.Input{Base: cmp.base, Revision: cmp.revision, Result: cmp.result, Date: cmp.date, Config: cmp.config})
	var targets []fix.Target
	for _, f := range report.Findings {
		if f.Fixable() {
			targets = append(targets, fix.Target{Operation: f.Operation, Version: f.Version})
		}
	}
	if version.IsZero() && len(targets) > 0 {
		return fmt.Errorf("%s: no date in its name: give --version or --date for the new version", opts.revisionPath)
	}
	in := fix.Input{Base: cmp.base, Revision: cmp.revision, Product: product, Targets: targets, Version: version.String()}
	res, left, err := fixAndCheck(cmp, in, opts.allowRemoteRefs)
	if err != nil {
		return err
	}
	// An operation whose every error is still there after the fix has
	// them outside its media types (in parameters, security): a new
	// version cannot carry them, so the operation is left as it was.
	type key struct{ operation, version, change, message string }
	still := map[key]bool{}
	for _, f := range left.Findings {
		still[key{f.Operation, f.Version, f.Change, f.Message}] = true
	}
	helped := map[string]bool{}
	for _, f := range report.Findings {
		if f.Fixable() && !still[key{f.Operation, f.Version, f.Change, f.Message}] {
			helped[f.Operation] = true
		}
	}
	if kept := slices.DeleteFunc(slices.Clone(in.Targets), func(t fix.Target) bool { return !helped[t.Operation] }); len(kept) < len(in.Targets) {
		in.Targets = kept
		if res, left, err = fixAndCheck(cmp, in, opts.allowRemoteRefs); err != nil {
			return err
		}
	}
	for _, r := range res.Restored {
		added := ""
		for _, a := range res.Added {
			if a.Operation == r.Operation && a.From == r.Version {
				added = "; its change is version " + a.Version
			}
		}
		fmt.Fprintf(opts.stderr, "apiver: %s: version %s restored%s\n", r.Operation, r.Version, added)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(opts.stderr, "apiver: %s\n", n)
	}
	splits := slices.Collect(maps.Keys(res.Split))
	slices.SortFunc(splits, func(a, b string) int { return strings.Compare(res.Split[a]+" "+a, res.Split[b]+" "+b) })
	for _, to := range splits {
		fmt.Fprintf(opts.stderr, "apiver: split %s: the new versions use %s\n", res.Split[to], to)
	}
	for _, ref := range slices.Sorted(maps.Keys(res.Copied)) {
		fmt.Fprintf(opts.stderr, "apiver: copied %s from the base as %s for the restored versions\n", ref, res.Copied[ref])
	}
	out := res.Data
	if opts.unified {
		from, to := cmp.revision.Path, cmp.revision.Path
		if !filepath.IsAbs(from) {
			from, to = "a/"+from, "b/"+to // as git prints it, so `git apply` takes it
		}
		out, err = unified(from, to, string(cmp.revision.Data), string(res.Data), res.Splices)
		if err != nil {
			return err
		}
	}
	if err := writeOutput(opts.outPath, opts.out, func(w io.Writer) error { _, err := w.Write(out); return err }); err != nil {
		return err
	}
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
		fmt.Fprintf(opts.stderr, "apiver: not fixable: %s %s: %s %s: %s\n", dashed(f.Operation), version, f.Rule, dashed(f.Change), oneLine(f.Message))
	}
	if failed {
		return errPolicyFailed
	}
	return nil
}

// unified is the diff of the revision and the fixed file. With the
// splices known, each is diffed on its own (Myers on a small region): as
// exact as a whole-file Myers diff, without its cost on a large spec.
func unified(from, to, old, fixed string, splices []fix.Splice) ([]byte, error) {
	edits := udiff.Lines(old, fixed)
	if splices != nil {
		edits = nil
		for _, s := range splices {
			for _, e := range myers.ComputeEdits(old[s.Start:s.End], s.Text) {
				e.Start, e.End = e.Start+s.Start, e.End+s.Start
				// Myers gives one edit per line; ToUnified miscounts
				// lines when several start at one place, so join them.
				if n := len(edits); n > 0 && edits[n-1].End == e.Start {
					edits[n-1].End, edits[n-1].New = e.End, edits[n-1].New+e.New
					continue
				}
				edits = append(edits, e)
			}
		}
	}
	text, err := udiff.ToUnified(from, to, old, edits, udiff.DefaultContextLines)
	return []byte(renumberHunks(text)), err
}

var hunkHeader = regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@$`)

// renumberHunks sets each hunk's new start line from its old start and the
// lines the hunks before it added: go-udiff leaves out the unchanged lines
// between two edits of one hunk when it counts.
func renumberHunks(text string) string {
	delta := 0
	return hunkHeader.ReplaceAllStringFunc(text, func(h string) string {
		m := hunkHeader.FindStringSubmatch(h)
		from, _ := strconv.Atoi(m[1])
		oldCount, newCount := count(m[2]), count(m[3])
		out := fmt.Sprintf("@@ -%d,%d +%d,%d @@", from, oldCount, from+delta, newCount)
		delta += newCount - oldCount
		return out
	})
}

func count(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s)
	return n
}

// fixAndCheck fixes the revision and checks the base against the result:
// the errors left are what a new version cannot fix.
func fixAndCheck(cmp *comparison, in fix.Input, allowRemoteRefs bool) (*fix.Result, *policy.Report, error) {
	res, err := fix.Fix(in)
	if err != nil {
		return nil, nil, err
	}
	doc, err := specs.Parse(cmp.revision.Path, res.Data, allowRemoteRefs)
	if err != nil {
		return nil, nil, fmt.Errorf("the fixed revision does not load: %w", err)
	}
	fixed := *cmp.revision
	fixed.Doc, fixed.Data = doc, res.Data
	result, err := diff.Compare(cmp.base, &fixed, diff.Options{Product: in.Product, Levels: cmp.config.ChangeLevels(), Date: cmp.date})
	if err != nil {
		return nil, nil, err
	}
	return res, policy.Check(policy.Input{Base: cmp.base, Revision: &fixed, Result: result, Date: cmp.date, Config: cmp.config}), nil
}

func dashed(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
