package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apiver/apiver/load"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// The differential harness (issue 21): the fast pipeline may never change
// a verdict. Every input is run through the fast pipeline and through the
// full one (--full-pipeline), in process, and the two must print the same
// bytes on stdout and stderr and exit with the same code. Three sources of
// inputs:
//
//   - testdata/exact/*.txtar: minimal pairs, one per construct the line
//     model of the reduced texts once got wrong (this file);
//   - FuzzPipelinesAgree: small generated documents and mutated revisions
//     (differential_fuzz_test.go);
//   - TestPipelinesAgreeOnCorpusMutations: seeded mutations of the real
//     snapshots in ../shared/corpus (differential_corpus_test.go).
//
// scripts/differential.sh runs the long version of the last two.

// pipelineRun is one command's outcome, as compared between the pipelines.
type pipelineRun struct {
	code           int
	stdout, stderr string
	panicked       string // the panic value and stack when run panicked
}

func (r pipelineRun) String() string {
	code := strconv.Itoa(r.code)
	if r.panicked != "" {
		code = "panic"
	}
	return fmt.Sprintf("exit %s\n-- stdout --\n%s-- stderr --\n%s", code, r.stdout, r.stderr)
}

// runPipeline runs apiver in process, through the full pipeline (the
// --full-pipeline flag) or the fast one, and turns a panic of the calling
// goroutine into an outcome. The caller clears load.FullPipelineEnv.
func runPipeline(full bool, args []string) (r pipelineRun) {
	args = slices.Clone(args)
	if full {
		args = append(args, "--full-pipeline")
	}
	var stdout, stderr bytes.Buffer
	defer func() {
		if v := recover(); v != nil {
			r = pipelineRun{
				code:     -1,
				stdout:   stdout.String(),
				stderr:   stderr.String() + fmt.Sprintf("panic: %v\n", v),
				panicked: fmt.Sprintf("%v\n%s", v, debug.Stack()),
			}
		}
	}()
	code := run(args, &stdout, &stderr)
	return pipelineRun{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// fastPipelineOnly makes sure that only the flag chooses the pipeline, even
// when the environment running the tests asks for the full one.
func fastPipelineOnly(t testing.TB) {
	t.Helper()
	t.Setenv(load.FullPipelineEnv, "")
	t.Setenv(configEnv, "")
}

// agree runs args through both pipelines and reports, naming the case and
// the command, a panic of either and any difference in exit code, stdout or
// stderr (-full +fast). It returns the full pipeline's outcome and whether
// the two agreed.
func agree(t testing.TB, name string, args []string) (pipelineRun, bool) {
	t.Helper()
	return compareRuns(t, name, args, runPipeline(true, args), runPipeline(false, args))
}

// compareRuns reports what agree reports, of two runs of args made either
// way.
func compareRuns(t testing.TB, name string, args []string, full, fast pipelineRun) (pipelineRun, bool) {
	t.Helper()
	command := "apiver " + strings.Join(args, " ")
	ok := true
	for _, r := range []struct {
		pipeline string
		run      pipelineRun
	}{{"full", full}, {"fast", fast}} {
		if r.run.panicked != "" {
			t.Errorf("case %s: %s: the %s pipeline panicked (want exit 2 naming the file and line): %s", name, command, r.pipeline, r.run.panicked)
			ok = false
		}
	}
	if diff := cmp.Diff(full.String(), fast.String()); diff != "" {
		t.Errorf("case %s: %s: the fast pipeline differs from the full one (-full +fast):\n%s", name, command, diff)
		ok = false
	}
	return full, ok
}

// exactCase is one minimal pair of testdata/exact. The archive's comment
// opens with directives, one a line, up to the first blank line; free text
// follows:
//
//	exit N              check's exit code, in both pipelines (required)
//	diff exit N         diff's (default: 2 when check's is 2, else 0)
//	changelog exit N    changelog build's (default as for diff)
//	fix exit N          fix's (default: 2 when check's is 2, else not
//	                    checked: the pipelines must agree)
//	args FLAG...        more flags for check, diff and fix (e.g. --date 2025-01-01)
//	stderr REGEXP       what stderr must match when a command exits 2
//
// The archive holds two snapshots at its top (base and revision, in date
// order of their names) and optionally a history/ folder of snapshots.
// changelog build runs on the pair and on history/.
type exactCase struct {
	name      string
	exit      map[string]int // by verb: check, diff, changelog
	args      []string
	stderr    []*regexp.Regexp
	snapshots []string
	history   bool
}

func parseExactCase(t *testing.T, name string, archive *txtar.Archive) exactCase {
	t.Helper()
	c := exactCase{name: name, exit: map[string]int{}}
	directives, _, _ := strings.Cut(string(archive.Comment), "\n\n")
	for line := range strings.Lines(directives) {
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
		case fields[0] == "exit" && len(fields) == 2:
			c.exit["check"] = atoiCase(t, name, fields[1])
		case (fields[0] == "diff" || fields[0] == "changelog" || fields[0] == "fix") && len(fields) == 3 && fields[1] == "exit":
			c.exit[fields[0]] = atoiCase(t, name, fields[2])
		case fields[0] == "args":
			c.args = append(c.args, fields[1:]...)
		case fields[0] == "stderr" && len(fields) > 1:
			re, err := regexp.Compile(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "stderr")))
			if err != nil {
				t.Fatalf("case %s: %v", name, err)
			}
			c.stderr = append(c.stderr, re)
		default:
			t.Fatalf("case %s: unknown directive %q (directives end at the first blank line)", name, strings.TrimSpace(line))
		}
	}
	check, ok := c.exit["check"]
	if !ok {
		t.Fatalf("case %s: the comment does not open with the expected exit code (exit N)", name)
	}
	for _, verb := range []string{"diff", "changelog"} {
		if _, ok := c.exit[verb]; !ok {
			c.exit[verb] = 0
			if check == exitInput {
				c.exit[verb] = exitInput
			}
		}
	}
	if _, ok := c.exit["fix"]; !ok && check == exitInput {
		c.exit["fix"] = exitInput
	}
	for _, f := range archive.Files {
		switch {
		case strings.HasPrefix(f.Name, "history/"):
			c.history = true
		case !strings.Contains(f.Name, "/") && snapshotName(f.Name):
			c.snapshots = append(c.snapshots, f.Name)
		}
	}
	slices.SortFunc(c.snapshots, func(a, b string) int { return strings.Compare(dateOf(a), dateOf(b)) })
	if len(c.snapshots) != 2 {
		t.Fatalf("case %s: want two snapshots at the top of the archive, found %q", name, c.snapshots)
	}
	return c
}

func atoiCase(t *testing.T, name, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("case %s: bad exit code %q", name, s)
	}
	return n
}

var datePattern = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

func dateOf(name string) string { return datePattern.FindString(name) }

func snapshotName(name string) bool {
	switch filepath.Ext(name) {
	case ".yaml", ".yml", ".json":
		return dateOf(name) != ""
	}
	return false
}

// TestPipelinesAgreeOnExactCases runs every minimal pair of testdata/exact
// through check and diff (JSON, text and Markdown), fix (what it prints
// and what is left) and changelog build, through both pipelines: the same
// bytes, and the exit code the case states.
func TestPipelinesAgreeOnExactCases(t *testing.T) {
	files, err := filepath.Glob("testdata/exact/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in testdata/exact: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			archive, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c := parseExactCase(t, name, archive)
			fastPipelineOnly(t)
			dir := extractCase(t, archive)
			t.Chdir(dir)
			pair := "pair"
			if err := os.Mkdir(pair, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, s := range c.snapshots {
				data, err := os.ReadFile(s)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(pair, s), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var commands []exactCommand
			for _, verb := range []string{"check", "diff"} {
				// Markdown: the check's fix offer, which loads the fixed text.
				for _, format := range []string{"json", "text", "markdown"} {
					args := append([]string{verb}, c.args...)
					args = append(args, c.snapshots[0], c.snapshots[1], "--format", format)
					commands = append(commands, exactCommand{verb, args})
				}
			}
			fix := append([]string{"fix"}, c.args...)
			commands = append(commands, exactCommand{"fix", append(fix, c.snapshots[0], c.snapshots[1])})
			commands = append(commands, exactCommand{"changelog", []string{"changelog", "build", pair}})
			if c.history {
				commands = append(commands, exactCommand{"changelog", []string{"changelog", "build", "history"}})
			}
			for _, cmd := range commands {
				full, _ := agree(t, name, cmd.args)
				c.expect(t, cmd, full)
			}
		})
	}
}

type exactCommand struct {
	verb string
	args []string
}

// expect checks the full pipeline's outcome (the fast one's, when they
// agree) against the case's stated exit code and stderr.
func (c exactCase) expect(t *testing.T, cmd exactCommand, full pipelineRun) {
	t.Helper()
	if full.panicked != "" {
		return // reported by agree
	}
	command := "apiver " + strings.Join(cmd.args, " ")
	want, stated := c.exit[cmd.verb]
	if !stated {
		return
	}
	if full.code != want {
		t.Errorf("case %s: %s: the full pipeline exits %d, the case wants %d; stderr:\n%s", c.name, command, full.code, want, full.stderr)
		return
	}
	if full.code != exitInput {
		return
	}
	for _, re := range c.stderr {
		if !re.MatchString(full.stderr) {
			t.Errorf("case %s: %s: stderr does not match %q:\n%s", c.name, command, re, full.stderr)
		}
	}
}
