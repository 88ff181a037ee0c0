package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apiver/apiver/printer"
	"go.yaml.in/yaml/v3"
)

// action is the part of action.yml (the GitHub Action) the tests read.
type action struct {
	Inputs map[string]struct {
		Required bool    `yaml:"required"`
		Default  *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readAction(t *testing.T) action {
	t.Helper()
	var a action
	readYAML(t, "../../action.yml", &a)
	return a
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// TestActionIsConsistent checks what GitHub would only find at run time: the
// expressions name declared inputs and earlier steps, and the script passes
// flags and a format that apiver check has.
func TestActionIsConsistent(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", a.Runs.Using)
	}
	for name, in := range a.Inputs {
		if in.Required && in.Default != nil {
			t.Errorf("input %s is required and has a default", name)
		}
	}
	used := map[string]bool{}
	steps := map[string]bool{}
	check := func(where, text string) {
		for _, m := range expression.FindAllStringSubmatch(text, -1) {
			ref := m[1]
			switch {
			case strings.HasPrefix(ref, "inputs."):
				name := strings.TrimPrefix(ref, "inputs.")
				if _, ok := a.Inputs[name]; !ok {
					t.Errorf("%s: ${{ %s }}: no such input", where, ref)
				}
				used[name] = true
			case strings.HasPrefix(ref, "steps."):
				id, _, _ := strings.Cut(strings.TrimPrefix(ref, "steps."), ".")
				if !steps[id] {
					t.Errorf("%s: ${{ %s }}: no earlier step %q", where, ref, id)
				}
			case strings.HasPrefix(ref, "github."):
			default:
				t.Errorf("%s: ${{ %s }}: an expression the tests do not know", where, ref)
			}
		}
	}
	for i, s := range a.Runs.Steps {
		where := fmt.Sprintf("step %d", i+1)
		if s.ID != "" {
			where = "step " + s.ID
		}
		if (s.Run == "") == (s.Uses == "") {
			t.Errorf("%s: want exactly one of run and uses", where)
		}
		if s.Run != "" && s.Shell == "" {
			t.Errorf("%s: a run step needs a shell", where)
		}
		// Inputs go through env: pasted into a script they could inject code.
		if expression.MatchString(s.Run) {
			t.Errorf("%s: the script holds an expression; pass it through env", where)
		}
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			check(where+" env "+k, s.Env[k])
		}
		for _, k := range slices.Sorted(maps.Keys(s.With)) {
			check(where+" with "+k, s.With[k])
		}
		if s.ID != "" {
			steps[s.ID] = true
		}
	}
	for name, out := range a.Outputs {
		check("output "+name, out.Value)
	}
	for name := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared and never used", name)
		}
	}

	flags := newCheckCmd(nil).Flags()
	for _, f := range regexp.MustCompile(`\s--([a-z-]+)`).FindAllStringSubmatch(checkStep(t, a).Run, -1) {
		if flags.Lookup(f[1]) == nil {
			t.Errorf("the check step passes --%s, which apiver check does not have", f[1])
		}
	}
	if d := a.Inputs["format"].Default; d == nil || !printer.ValidFormat(printer.CheckFormats, *d) {
		t.Errorf("the format input's default is not a check format")
	}
}

func checkStep(t *testing.T, a action) actionStep {
	t.Helper()
	for _, s := range a.Runs.Steps {
		if s.ID == "check" {
			return s
		}
	}
	t.Fatal("action.yml has no step with id check")
	return actionStep{}
}

// TestActionCheckStep runs the action's check step as the runner would, with
// this test binary as apiver, on the seed's failing release.
func TestActionCheckStep(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	a := readAction(t)
	step := checkStep(t, a)
	seed, _ := filepath.Abs("../../testdata/seed-history")
	dir := t.TempDir()
	inputs := map[string]string{
		"base":     filepath.Join(seed, "example-2026-02-08.yaml"),
		"revision": filepath.Join(seed, "example-2026-02-09.yaml"),
		"sarif":    filepath.Join(dir, "apiver.sarif"),
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := []string{
		"APIVER_AS_MAIN=1",
		"RUNNER_TEMP=" + dir,
		"GITHUB_OUTPUT=" + filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY=" + filepath.Join(dir, "summary.md"),
	}
	for k, v := range step.Env {
		m := expression.FindStringSubmatch(v)
		if m == nil {
			env = append(env, k+"="+v)
			continue
		}
		switch ref := m[1]; {
		case ref == "steps.install.outputs.bin":
			env = append(env, k+"="+self)
		case strings.HasPrefix(ref, "inputs."):
			name := strings.TrimPrefix(ref, "inputs.")
			value, ok := inputs[name]
			if d := a.Inputs[name].Default; !ok && d != nil {
				value = *d
			}
			env = append(env, k+"="+value)
		default:
			t.Fatalf("env %s: ${{ %s }}: unknown to the test", k, ref)
		}
	}
	// An earlier step's summary stays: the job summary is appended to.
	if err := os.WriteFile(filepath.Join(dir, "summary.md"), []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// The runner's own bash options for shell: bash.
	cmd := exec.Command(bash, "--noprofile", "--norc", "-eo", "pipefail", "-c", step.Run)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = dir
	stdout, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != exitPolicy {
		t.Fatalf("the check step ended with %v, want exit %d (the seed's release fails)", err, exitPolicy)
	}
	if !strings.Contains(string(stdout), "::error file=") {
		t.Errorf("the log has no error annotation:\n%s", stdout)
	}
	if out, _ := os.ReadFile(filepath.Join(dir, "output")); string(out) != "exit-code=1\n" {
		t.Errorf("GITHUB_OUTPUT = %q, want exit-code=1", out)
	}
	summary, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	if !strings.HasPrefix(string(summary), "earlier step\n") || !strings.Contains(string(summary), "breaking-change-without-new-version") {
		t.Errorf("the job summary was not appended to with the findings:\n%s", summary)
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	data, err := os.ReadFile(inputs["sarif"])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sarif); err != nil || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) == 0 {
		t.Errorf("the SARIF file holds no results (%v):\n%s", err, data)
	}
}

// TestExampleWorkflow checks that docs/github-workflow.yml uses the action
// with its inputs and fetches the base branch.
func TestExampleWorkflow(t *testing.T) {
	a := readAction(t)
	var wf struct {
		Permissions map[string]string `yaml:"permissions"`
		Jobs        map[string]struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	readYAML(t, "../../docs/github-workflow.yml", &wf)
	if wf.Permissions["security-events"] != "write" {
		t.Errorf("permissions: security-events is not write: SARIF cannot be uploaded")
	}
	var checkout, apiver bool
	var sarif, uploaded string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			name, _, _ := strings.Cut(s.Uses, "@")
			switch name {
			case "actions/checkout":
				checkout = s.With["fetch-depth"] == "0"
			case "apiver/apiver":
				apiver = true
				for k := range s.With {
					if _, ok := a.Inputs[k]; !ok {
						t.Errorf("the workflow passes %s, which the action does not take", k)
					}
				}
				for k, in := range a.Inputs {
					if _, ok := s.With[k]; in.Required && !ok {
						t.Errorf("the workflow does not pass the required input %s", k)
					}
				}
				sarif = s.With["sarif"]
			case "github/codeql-action/upload-sarif":
				uploaded = s.With["sarif_file"]
			}
		}
	}
	if !checkout || !apiver || sarif == "" || sarif != uploaded {
		t.Errorf("want a checkout with fetch-depth 0 (%v), the apiver action (%v) and its SARIF %q uploaded (%q)", checkout, apiver, sarif, uploaded)
	}
}
