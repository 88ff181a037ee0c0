package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/specs"
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
	t.Setenv(specs.FullPipelineEnv, "")
	var stdout, stderr bytes.Buffer
	run(args, &stdout, &stderr)
	for line := range strings.Lines(stderr.String()) {
		if strings.Contains(line, "did not load") {
			t.Errorf("apiver %s: %s", strings.Join(args, " "), line)
		}
	}
}

func TestPipelinesAgreeOnRealCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: loads 23 large snapshots twice")
	}
	dir := corpus.Unpack(t)
	names := corpus.Names(t)
	config, err := filepath.Abs("testdata/atlas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(names); i++ {
		base, revision := filepath.Join(dir, names[i-1]), filepath.Join(dir, names[i])
		t.Run(names[i], func(t *testing.T) {
			for _, verb := range []string{"check", "diff"} {
				comparePipelines(t, []string{verb, "--config", config, base, revision})
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
		t.Setenv(specs.FullPipelineEnv, value)
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		return fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, stdout.String(), stderr.String())
	}
	full, reduced := runWith(true), runWith(false)
	if diff := cmp.Diff(full, reduced); diff != "" {
		t.Errorf("apiver %s: the reduced pipeline differs from the full one (-full +reduced):\n%s", strings.Join(args, " "), diff)
	}
}

// TestPipelinesAgreeOnHistory builds the seed history, and the real
// corpus's unless -short, through both pipelines: the same bytes.
func TestPipelinesAgreeOnHistory(t *testing.T) {
	dirs := []string{"../../testdata/seed-history"}
	if !testing.Short() {
		if _, ok := corpus.Dir(); ok {
			dirs = append(dirs, corpus.Unpack(t))
		}
	}
	config, err := filepath.Abs("testdata/atlas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		args := []string{"changelog", "build", dir}
		if dir != dirs[0] {
			args = append(args, "--config", config)
		}
		runWith := func(full string) string {
			t.Setenv(specs.FullPipelineEnv, full)
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			return fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, stdout.String(), stderr.String())
		}
		if diff := cmp.Diff(runWith("1"), runWith("")); diff != "" {
			t.Errorf("apiver %s: the reduced pipeline differs from the full one (-full +reduced):\n%s", strings.Join(args, " "), diff)
		}
		reducedTextsLoad(t, append(slices.Clone(args), "-v"))
	}
}
