package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/printer"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func runArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// ourCommands are apiver's commands and completion, without cobra's help and
// the scripts of each shell under completion.
func ourCommands() []*cobra.Command {
	var cmds []*cobra.Command
	for _, c := range allCommands(newRootCmd(nil, nil)) {
		if c.Name() != "help" && (c.Parent() == nil || c.Parent().Name() != "completion") {
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// TestEveryCommandHasExamples: --help shows examples everywhere, and those
// of the commands that read snapshots show REF:PATH; check's shows --output.
func TestEveryCommandHasExamples(t *testing.T) {
	gitArg := regexp.MustCompile(`\s(origin/main|HEAD~1|HEAD):\S+\.yaml`)
	for _, c := range ourCommands() {
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s --help has no examples", c.CommandPath())
			continue
		}
		for _, line := range strings.Split(c.Example, "\n") {
			line = strings.TrimSpace(line)
			if line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "apiver ") {
				t.Errorf("%s: example line %q is neither a comment nor an apiver command", c.CommandPath(), line)
			}
		}
		switch c.CommandPath() {
		case "apiver check", "apiver diff", "apiver versions", "apiver sunset", "apiver changelog update":
			if !gitArg.MatchString(c.Example) {
				t.Errorf("%s: no example reads a snapshot as REF:PATH", c.CommandPath())
			}
		}
	}
	check, _, _ := newRootCmd(nil, nil).Find([]string{"check"})
	if !strings.Contains(check.Example, "--output sarif=") {
		t.Errorf("check's examples do not show --output")
	}
	if !strings.Contains(check.Long, "REF:PATH") {
		t.Errorf("check --help does not explain REF:PATH")
	}
}

// TestFlagValueNames: pflag takes a back-quoted word in a flag's usage as the
// value's name in --help; it must be a placeholder, not a stray word.
func TestFlagValueNames(t *testing.T) {
	placeholder := regexp.MustCompile(`^([A-Z][A-Z_=]*|string|int|stringArray)?$`)
	for _, c := range ourCommands() {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if name, _ := pflag.UnquoteUsage(f); !placeholder.MatchString(name) {
				t.Errorf("%s --%s shows its value as %q", c.CommandPath(), f.Name, name)
			}
		})
	}
}

// TestUsageErrors: a bad command line says what is wrong, then the usage
// line, and exits 2.
func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want []string // the lines of stderr
	}{
		{[]string{"check", "only-one.yaml"}, []string{
			"apiver: missing REVISION: apiver check takes BASE REVISION",
			"Usage: apiver check BASE REVISION [flags]",
			"Run 'apiver check --help' for examples."}},
		{[]string{"changelog", "update", "only-one.yaml"}, []string{
			"apiver: missing REVISION: apiver changelog update takes BASE REVISION",
			"Usage: apiver changelog update [--changelog FILE] BASE REVISION [flags]",
			"Run 'apiver changelog update --help' for examples."}},
		{[]string{"check", "--formt", "json", "a.yaml", "b.yaml"}, []string{
			"apiver: unknown flag: --formt; did you mean --format?",
			"Usage: apiver check BASE REVISION [flags]",
			"Run 'apiver check --help' for examples."}},
		// -v is --verbose wherever it is a flag; the version is --version.
		{[]string{"-v"}, []string{
			"apiver: unknown shorthand flag: 'v' in -v; did you mean --version?",
			"Usage: apiver COMMAND",
			"Run 'apiver --help' for examples."}},
		{[]string{"versions", "--no-such-flag", "a.yaml"}, []string{
			"apiver: unknown flag: --no-such-flag",
			"Usage: apiver versions SNAPSHOT [flags]",
			"Run 'apiver versions --help' for examples."}},
		{[]string{"verson"}, []string{
			`apiver: unknown command "verson" for "apiver"; did you mean version or versions?`,
			"Usage: apiver COMMAND",
			"Run 'apiver --help' for examples."}},
		{[]string{"changelog", "biuld"}, []string{
			`apiver: unknown command "biuld" for "apiver changelog"; did you mean build?`,
			"Usage: apiver changelog COMMAND",
			"Run 'apiver changelog --help' for examples."}},
		// A mistyped command's flags are not the mistake: its name is.
		{[]string{"chek", "a.yaml", "b.yaml", "--format", "json"}, []string{
			`apiver: unknown command "chek" for "apiver"; did you mean check?`,
			"Usage: apiver COMMAND",
			"Run 'apiver --help' for examples."}},
		{[]string{"changelog", "biuld", "history", "-o", "h.json"}, []string{
			`apiver: unknown command "biuld" for "apiver changelog"; did you mean build?`,
			"Usage: apiver changelog COMMAND",
			"Run 'apiver changelog --help' for examples."}},
		{[]string{"completion", "bsh"}, []string{
			`apiver: unknown command "bsh" for "apiver completion"; did you mean bash or fish or zsh?`,
			"Usage: apiver completion COMMAND",
			"Run 'apiver completion --help' for examples."}},
		{[]string{"site", "changelog.json"}, []string{
			`apiver: required flag(s) "output" not set`,
			"Usage: apiver site CHANGELOG -o DIR [flags]",
			"Run 'apiver site --help' for examples."}},
		// Bad input is one line, without the usage.
		{[]string{"versions", "missing-2024-01-01.yaml"}, []string{
			"apiver: missing-2024-01-01.yaml: no such file"}},
		{[]string{"changelog", "update", "--changelog", filepath.Join(t.TempDir(), "h.json"), "../../testdata/seed-history/example-2024-03-01.yaml", "../../testdata/seed-history/example-2023-02-01.yaml"}, []string{
			"apiver: ../../testdata/seed-history/example-2023-02-01.yaml (2023-02-01) is not after ../../testdata/seed-history/example-2024-03-01.yaml (2024-03-01): the revision is the newer release"}},
		{[]string{"changelog", "update", "--lock-timeout", "-5s", "a.yaml", "b.yaml"}, []string{
			`apiver: invalid argument "-5s" for "--lock-timeout" flag: a time to wait is not negative`,
			"Usage: apiver changelog update [--changelog FILE] BASE REVISION [flags]",
			"Run 'apiver changelog update --help' for examples."}},
		{[]string{"check", "a.yaml", "b.yaml", "--output", "json=x.json", "--output", "sarif=./x.json"}, []string{
			`apiver: --output "sarif=./x.json": ./x.json is named twice`}},
		{[]string{"check", "a.yaml", "b.yaml", "--output", "sarif=-"}, []string{
			`apiver: --output "sarif=-": the report in --format goes to standard output; name a file (or /dev/stdout)`}},
		{[]string{"changelog", "migrate", "a.yaml", "--from", "2023-02-30", "--to", "2023-02-01"}, []string{
			`apiver: --from "2023-02-30": not a version (want YYYY-MM-DD, a real date)`}},
		{[]string{"changelog", "migrate", "a.yaml", "--from", "2023-01-01", "--to", "v2"}, []string{
			`apiver: --to "v2": not a version (want YYYY-MM-DD)`}},
	}
	for _, c := range cases {
		code, stdout, stderr := runArgs(t, c.args...)
		got := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != exitInput || stdout != "" || !slices.Equal(got, c.want) {
			t.Errorf("apiver %s: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and:\n%s",
				strings.Join(c.args, " "), code, stdout, stderr, strings.Join(c.want, "\n"))
		}
	}
}

// TestVersion: apiver version and --version print the version, commit and
// date the release build sets, and SARIF names the version.
func TestVersion(t *testing.T) {
	code, stdout, _ := runArgs(t, "version")
	if code != exitPass || !strings.HasPrefix(stdout, "apiver ") {
		t.Errorf("apiver version (a test build): exit %d, %q", code, stdout)
	}
	saved := [3]string{version, commit, date}
	t.Cleanup(func() { version, commit, date = saved[0], saved[1], saved[2] })
	version, commit, date = "v1.4.0", "0123456789abcdef0123456789abcdef01234567", "2026-11-20T10:00:00Z"
	const want = "apiver v1.4.0 (commit 0123456789abcdef0123456789abcdef01234567, 2026-11-20T10:00:00Z)\n"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if code, stdout, stderr := runArgs(t, args...); code != exitPass || stdout != want || stderr != "" {
			t.Errorf("apiver %s: exit %d, stdout %q, stderr %q; want %q", args[0], code, stdout, stderr, want)
		}
	}
	const seed = "../../testdata/seed-history/"
	_, stdout, _ = runArgs(t, "check", "--format", "sarif", seed+"example-2026-02-08.yaml", seed+"example-2026-02-09.yaml")
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name    string `json:"name"`
					Version string `json:"version"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v", err)
	}
	if d := log.Runs[0].Tool.Driver; d.Name != "apiver" || d.Version != "v1.4.0" {
		t.Errorf("SARIF tool.driver = %+v, want apiver v1.4.0", d)
	}
}

// TestCompletion: the shell completion offers --format's values and
// snapshot files.
func TestCompletion(t *testing.T) {
	_, stdout, _ := runArgs(t, "__complete", "check", "--format", "")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if got := lines[:len(lines)-1]; !slices.Equal(got, printer.CheckFormats) {
		t.Errorf("check --format completes %q, want %q", got, printer.CheckFormats)
	}
	_, stdout, _ = runArgs(t, "__complete", "diff", "base.yaml", "")
	if want := "yaml\nyml\njson\n:8\n"; stdout != want { // :8 filters files by extension
		t.Errorf("diff's second argument completes %q, want %q", stdout, want)
	}
	_, stdout, _ = runArgs(t, "__complete", "changelog", "build", "")
	if want := ":16\n"; stdout != want { // folders
		t.Errorf("changelog build completes %q, want %q", stdout, want)
	}
}
