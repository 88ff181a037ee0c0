package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/load"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// The reduced pipeline must be exact: for every rule case and every
// consecutive pair of the real corpus, `check --format json` and `diff
// --format json` print the same bytes (line numbers included) and exit
// with the same code as with the full pipeline.

func TestPipelinesAgreeOnRuleCases(t *testing.T) {
	cases, err := filepath.Glob("../../testdata/rules/*/*.txtar")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no rule cases found: %v", err)
	}
	for _, file := range cases {
		name := strings.TrimSuffix(strings.TrimPrefix(file, "../../testdata/rules/"), ".txtar")
		t.Run(name, func(t *testing.T) {
			archive, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(extractCase(t, archive))
			args := strings.Fields(strings.TrimSpace(string(archive.Comment)))
			for _, verb := range []string{"check", "diff"} {
				comparePipelines(t, append([]string{verb}, commonArgs(args[1:])...))
			}
			reducedTextsLoad(t, append([]string{"check", "-v"}, commonArgs(args[1:])...))
		})
	}
}

// reducedTextsLoad fails when a reduced text did not load but the whole
// one did: the output is then right, but the reduction cut out something
// that what it kept names. (A reduced text that fails as its whole text
// does is loaded whole to report the error, without a note.)
func reducedTextsLoad(t *testing.T, args []string) {
	t.Helper()
	t.Setenv(load.FullPipelineEnv, "")
	var stdout, stderr bytes.Buffer
	run(args, &stdout, &stderr)
	for line := range strings.Lines(stderr.String()) {
		if strings.Contains(line, "did not load") {
			t.Errorf("apiver %s: %s", strings.Join(args, " "), line)
		}
	}
}

// TestPipelinesAgreeOnRealCorpus runs check and diff on every consecutive
// pair of the real corpus through both pipelines, each a process of its
// own, the pairs side by side: the same bytes, and check gives a verdict
// (exit 0 or 1), never an input error or a panic.
func TestPipelinesAgreeOnRealCorpus(t *testing.T) {
	dir := corpus.Shared(t)
	names := corpus.Names(t)
	config, err := filepath.Abs("testdata/atlas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Every second pair, the newest first, keeps CI's suite within its
	// time; APIVER_CORPUS_STRIDE=1 runs them all.
	stride := max(envCount(t, "APIVER_CORPUS_STRIDE", 2), 1)
	for i := len(names) - 1; i >= 1; i -= stride {
		base, revision := filepath.Join(dir, names[i-1]), filepath.Join(dir, names[i])
		t.Run(names[i], func(t *testing.T) {
			t.Parallel()
			for _, verb := range []string{"check", "diff"} {
				args := []string{verb, "--config", config, "--format", "json", base, revision}
				full, _ := agreeAsProcesses(t, "", names[i], args)
				if verb == "check" && full.code != exitPass && full.code != exitPolicy {
					t.Errorf("apiver %s: %s; want a verdict (exit 0 or 1)", strings.Join(args, " "), full)
				}
			}
		})
	}
}

// commonArgs drops the flags only check takes, so that a rule case's
// command line serves check and diff alike.
func commonArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch name, _, _ := strings.Cut(args[i], "="); name {
		case "--exemptions", "--fail-on", "--output", "--format":
			if !strings.Contains(args[i], "=") {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// comparePipelines runs args with --format json through the reduced and the
// full pipeline and fails on any difference in output or exit code.
func comparePipelines(t *testing.T, args []string) {
	t.Helper()
	args = append(slices.Clone(args), "--format", "json")
	runWith := func(full bool) string {
		value := ""
		if full {
			value = "1"
		}
		t.Setenv(load.FullPipelineEnv, value)
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		return fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, stdout.String(), stderr.String())
	}
	full, reduced := runWith(true), runWith(false)
	if diff := cmp.Diff(full, reduced); diff != "" {
		t.Errorf("apiver %s: the reduced pipeline differs from the full one (-full +reduced):\n%s", strings.Join(args, " "), diff)
	}
}

// TestPipelinesAgreeOnHistory builds the seed history through both
// pipelines: the same bytes. (The real corpus's: TestPipelinesAgreeOnRealHistory.)
func TestPipelinesAgreeOnHistory(t *testing.T) {
	args := []string{"changelog", "build", "../../testdata/seed-history"}
	runWith := func(full string) string {
		t.Setenv(load.FullPipelineEnv, full)
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		return fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, stdout.String(), stderr.String())
	}
	if diff := cmp.Diff(runWith("1"), runWith("")); diff != "" {
		t.Errorf("apiver %s: the reduced pipeline differs from the full one (-full +reduced):\n%s", strings.Join(args, " "), diff)
	}
	reducedTextsLoad(t, append(slices.Clone(args), "-v"))
}
