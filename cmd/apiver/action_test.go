package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
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
	If    string            `yaml:"if"`
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

var (
	expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)
	// contextRef is a context property named in an expression.
	contextRef = regexp.MustCompile(`\b(inputs|steps|github|runner)\.[A-Za-z0-9_.-]+`)
	// pinned is a third-party action at a full commit SHA.
	pinned = regexp.MustCompile(`^[\w.-]+/[\w./-]+@[0-9a-f]{40}$`)
)

// TestActionIsConsistent checks what GitHub would only find at run time: the
// expressions name declared inputs and earlier steps, the actions used are
// pinned by commit, and the script passes flags and a format that apiver
// check has.
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
	check := func(where, expr string) {
		for _, ref := range contextRef.FindAllString(expr, -1) {
			switch {
			case strings.HasPrefix(ref, "inputs."):
				name := strings.TrimPrefix(ref, "inputs.")
				if _, ok := a.Inputs[name]; !ok {
					t.Errorf("%s: %s: no such input", where, ref)
				}
				used[name] = true
			case strings.HasPrefix(ref, "steps."):
				id, _, _ := strings.Cut(strings.TrimPrefix(ref, "steps."), ".")
				if !steps[id] {
					t.Errorf("%s: %s: no earlier step %q", where, ref, id)
				}
			}
		}
	}
	checkText := func(where, text string) {
		for _, m := range expression.FindAllStringSubmatch(text, -1) {
			check(where, m[1])
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
		if s.Uses != "" && !pinned.MatchString(s.Uses) {
			t.Errorf("%s: uses %s: pin a third-party action by its commit SHA", where, s.Uses)
		}
		// Inputs go through env: pasted into a script they could inject code.
		if expression.MatchString(s.Run) {
			t.Errorf("%s: the script holds an expression; pass it through env", where)
		}
		check(where+" if", s.If)
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			checkText(where+" env "+k, s.Env[k])
		}
		for _, k := range slices.Sorted(maps.Keys(s.With)) {
			checkText(where+" with "+k, s.With[k])
		}
		if s.ID != "" {
			steps[s.ID] = true
		}
	}
	for name, out := range a.Outputs {
		checkText("output "+name, out.Value)
	}
	for name := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared and never used", name)
		}
	}
	for _, want := range []string{"exit-code", "errors", "warnings", "verdict"} {
		if _, ok := a.Outputs[want]; !ok {
			t.Errorf("the action has no output %s", want)
		}
	}

	flags := newCheckCmd(nil).Flags()
	for _, f := range regexp.MustCompile(`\s--([a-z-]+)`).FindAllStringSubmatch(step(t, a, "check").Run, -1) {
		if flags.Lookup(f[1]) == nil {
			t.Errorf("the check step passes --%s, which apiver check does not have", f[1])
		}
	}
	if d := a.Inputs["format"].Default; d == nil || !printer.ValidFormat(printer.CheckFormats, *d) {
		t.Errorf("the format input's default is not a check format")
	}
}

func step(t *testing.T, a action, id string) actionStep {
	t.Helper()
	for _, s := range a.Runs.Steps {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("action.yml has no step with id %s", id)
	return actionStep{}
}

// runStep runs one step of the action as the runner would: its script in
// bash with the runner's options, its env evaluated from the inputs (else
// their defaults) and from values, which give the other expressions. It
// returns the step's stdout, what it wrote to GITHUB_OUTPUT, and its error.
func runStep(t *testing.T, a action, id, dir string, inputs, values map[string]string) (string, map[string]string, error) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	s := step(t, a, id)
	outputFile := filepath.Join(dir, "github-output")
	if err := os.WriteFile(outputFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"RUNNER_TEMP=" + dir, "GITHUB_OUTPUT=" + outputFile}
	for k, v := range values {
		if strings.ToUpper(k) == k { // plain environment, e.g. RUNNER_OS
			env = append(env, k+"="+v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		v := s.Env[k]
		m := expression.FindStringSubmatch(v)
		if m == nil {
			env = append(env, k+"="+v)
			continue
		}
		expr := m[1]
		value, ok := values[expr]
		if name, isInput := strings.CutPrefix(expr, "inputs."); isInput && !ok {
			value, ok = inputs[name]
			if d := a.Inputs[name].Default; !ok && d != nil {
				value, ok = *d, true
			}
			if !ok {
				value, ok = "", true
			}
		}
		if !ok {
			t.Fatalf("step %s env %s: ${{ %s }}: no value given", id, k, expr)
		}
		env = append(env, k+"="+strings.Replace(v, m[0], value, 1))
	}
	ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = dir
	stdout, err := cmd.Output()
	data, _ := os.ReadFile(outputFile)
	outputs := map[string]string{}
	for line := range strings.Lines(string(data)) {
		k, v, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		if _, dup := outputs[k]; dup {
			t.Errorf("step %s sets output %s twice", id, k)
		}
		outputs[k] = v
	}
	return string(stdout), outputs, err
}

func exitCode(err error) int {
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// apiverBin makes this test binary the apiver the check step runs.
func apiverBin(t *testing.T) map[string]string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("APIVER_AS_MAIN", "1")
	return map[string]string{"steps.download.outputs.bin || steps.build.outputs.bin": self}
}

// TestActionCheckStep runs the action's check step with this test binary as
// apiver on the seed's failing release, from the seed's folder as the
// working directory.
func TestActionCheckStep(t *testing.T) {
	a := readAction(t)
	seed, _ := filepath.Abs("../../testdata/seed-history")
	dir := t.TempDir()
	inputs := map[string]string{
		"working-directory": seed,
		"base":              "example-2026-02-08.yaml",
		"revision":          "example-2026-02-09.yaml",
		"date":              "2026-02-10",
		"sarif":             filepath.Join(dir, "apiver.sarif"),
		"junit":             filepath.Join(dir, "apiver-junit.xml"),
	}
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(dir, "summary.md"))
	// An earlier step's summary stays: the job summary is appended to.
	if err := os.WriteFile(filepath.Join(dir, "summary.md"), []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, out, err := runStep(t, a, "check", dir, inputs, apiverBin(t))
	if exitCode(err) != exitPolicy {
		t.Fatalf("the check step ended with %v, want exit %d (the seed's release fails)", err, exitPolicy)
	}
	if !strings.Contains(stdout, "::error file=") {
		t.Errorf("the log has no error annotation:\n%s", stdout)
	}

	// The outputs are the JSON report's summary.
	var report struct {
		Date    string `json:"date"`
		Summary struct {
			Errors, Warnings int
			Verdict          string
		} `json:"summary"`
	}
	code, stdoutJSON, _ := runArgs(t, "check", "--format", "json", "--date", "2026-02-10",
		filepath.Join(seed, "example-2026-02-08.yaml"), filepath.Join(seed, "example-2026-02-09.yaml"))
	if err := json.Unmarshal([]byte(stdoutJSON), &report); err != nil || code != exitPolicy || report.Date != "2026-02-10" {
		t.Fatalf("apiver check --format json: exit %d, %v", code, err)
	}
	want := map[string]string{
		"exit-code": "1",
		"errors":    fmt.Sprint(report.Summary.Errors),
		"warnings":  fmt.Sprint(report.Summary.Warnings),
		"verdict":   report.Summary.Verdict,
	}
	if !maps.Equal(out, want) {
		t.Errorf("GITHUB_OUTPUT = %v, want %v", out, want)
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
	if data, err := os.ReadFile(inputs["junit"]); err != nil || !strings.Contains(string(data), "<testsuite") {
		t.Errorf("the JUnit report was not written (%v)", err)
	}
}

// TestActionCheckStepInputError: when apiver cannot check, the step says so
// in its outputs and exits 2.
func TestActionCheckStepInputError(t *testing.T) {
	a := readAction(t)
	dir := t.TempDir()
	inputs := map[string]string{"base": "missing-2024-01-01.yaml", "revision": "missing-2024-02-01.yaml"}
	_, out, err := runStep(t, a, "check", dir, inputs, apiverBin(t))
	want := map[string]string{"exit-code": "2", "errors": "", "warnings": "", "verdict": "error"}
	if exitCode(err) != exitInput || !maps.Equal(out, want) {
		t.Errorf("the step ended with %v and outputs %v, want exit 2 and %v", err, out, want)
	}
}

// TestActionCheckStepNoFolder: a working-directory that does not exist is
// an input error with the outputs set.
func TestActionCheckStepNoFolder(t *testing.T) {
	a := readAction(t)
	dir := t.TempDir()
	inputs := map[string]string{"working-directory": filepath.Join(dir, "nope"), "base": "a.yaml", "revision": "b.yaml"}
	stdout, out, err := runStep(t, a, "check", dir, inputs, apiverBin(t))
	want := map[string]string{"exit-code": "2", "errors": "", "warnings": "", "verdict": "error"}
	if exitCode(err) != exitInput || !maps.Equal(out, want) || !strings.Contains(stdout, "::error::working-directory") {
		t.Errorf("the step ended with %v and outputs %v, want exit 2 and %v; log:\n%s", err, out, want, stdout)
	}
}

// TestActionCheckStepArgs: each input becomes its flag, with a value holding
// spaces and shell syntax passed as one argument.
func TestActionCheckStepArgs(t *testing.T) {
	a := readAction(t)
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-apiver")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"$RUNNER_TEMP/args\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]string{
		"base": "origin/main:api.yaml", "revision": "my api $(true).yaml", "config": "c.yaml",
		"exemptions": "e.yaml", "date": "2026-01-02", "format": "text", "fail-on": "warning",
		"sarif": "a.sarif", "junit": "j.xml", "code-climate": "cc.json",
	}
	_, _, err := runStep(t, a, "check", dir, inputs, map[string]string{"steps.download.outputs.bin || steps.build.outputs.bin": fake})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "args"))
	got := strings.Split(strings.TrimSpace(string(data)), "\n")
	want := []string{"check", "origin/main:api.yaml", "my api $(true).yaml", "--format", "text", "--fail-on", "warning",
		"--config", "c.yaml", "--exemptions", "e.yaml", "--date", "2026-01-02",
		"--output", "sarif=a.sarif", "--output", "junit=j.xml", "--output", "code-climate=cc.json",
		"--output", "json=" + filepath.Join(dir, "apiver-report.json")}
	if !slices.Equal(got, want) {
		t.Errorf("apiver ran with\n%q\nwant\n%q", got, want)
	}
}

// fakeRelease writes what a GoReleaser release holds for version number n,
// named as .goreleaser.yaml names it: an archive per platform with an apiver
// that prints its platform, and the checksums file.
func fakeRelease(t *testing.T, dir, n string, platforms [][2]string) {
	t.Helper()
	var cfg struct {
		ProjectName string `yaml:"project_name"`
		Archives    []struct {
			NameTemplate string `yaml:"name_template"`
		} `yaml:"archives"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
		} `yaml:"checksum"`
	}
	readYAML(t, "../../.goreleaser.yaml", &cfg)
	name := func(tmpl, goos, goarch string) string {
		r := strings.NewReplacer("{{ .ProjectName }}", cfg.ProjectName, "{{ .Version }}", n, "{{ .Os }}", goos, "{{ .Arch }}", goarch)
		return r.Replace(tmpl)
	}
	var sums strings.Builder
	for _, p := range platforms {
		script := "#!/bin/sh\necho apiver " + p[0] + "/" + p[1] + "\n"
		var archive string
		if p[0] == "windows" { // a zip holding apiver.exe, as format_overrides say
			archive = name(cfg.Archives[0].NameTemplate, p[0], p[1]) + ".zip"
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			h := &zip.FileHeader{Name: "apiver.exe", Method: zip.Deflate}
			h.SetMode(0o755)
			w, err := zw.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write([]byte(script)); err != nil {
				t.Fatal(err)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, archive), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			archive = name(cfg.Archives[0].NameTemplate, p[0], p[1]) + ".tar.gz"
			src := filepath.Join(dir, "src-"+p[0]+p[1])
			if err := os.MkdirAll(src, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(src, "apiver"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("tar", "-czf", filepath.Join(dir, archive), "-C", src, "apiver").CombinedOutput(); err != nil {
				t.Fatalf("tar: %v: %s", err, out)
			}
		}
		data, err := os.ReadFile(filepath.Join(dir, archive))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(data), archive)
	}
	if err := os.WriteFile(filepath.Join(dir, name(cfg.Checksum.NameTemplate, "", "")), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestActionDownload runs the download step against a release folder on
// disk (file:// instead of the release server): it picks the runner's
// archive, checks it against the checksums, and refuses a mismatch.
func TestActionDownload(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	a := readAction(t)
	// The release server is a folder: github.server_url is file://server.
	server := t.TempDir()
	tag := filepath.Join(server, "apiver", "apiver", "releases", "download", "v1.2.3")
	if err := os.MkdirAll(tag, 0o755); err != nil {
		t.Fatal(err)
	}
	fakeRelease(t, tag, "1.2.3", [][2]string{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "arm64"}, {"windows", "amd64"}})
	run := func(runnerOS, arch string) (string, map[string]string, error) {
		values := map[string]string{"github.server_url": "file://" + server, "RUNNER_OS": runnerOS, "RUNNER_ARCH": arch}
		return runStep(t, a, "download", t.TempDir(), map[string]string{"version": "v1.2.3"}, values)
	}
	platforms := [][3]string{{"Linux", "X64", "linux/amd64"}, {"Linux", "ARM64", "linux/arm64"}, {"macOS", "ARM64", "darwin/arm64"}}
	if _, err := exec.LookPath("unzip"); err == nil {
		platforms = append(platforms, [3]string{"Windows", "X64", "windows/amd64"})
	}
	for _, p := range platforms {
		stdout, out, err := run(p[0], p[1])
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", p[0], p[1], err, stdout)
		}
		got, err := exec.Command(out["bin"]).Output()
		if err != nil || string(got) != "apiver "+p[2]+"\n" {
			t.Errorf("%s %s: bin=%q ran as %q (%v), want the %s build", p[0], p[1], out["bin"], got, err, p[2])
		}
	}

	// No archive for that platform: a clear error, no binary.
	stdout, out, err := run("macOS", "X64")
	if err == nil || out["bin"] != "" || !strings.Contains(stdout, "::error::cannot download apiver_1.2.3_darwin_amd64.tar.gz of apiver v1.2.3") {
		t.Errorf("a missing archive: %v, outputs %v, log:\n%s", err, out, stdout)
	}

	// An archive that does not match its checksum is not run.
	archive := filepath.Join(tag, "apiver_1.2.3_linux_amd64.tar.gz")
	f, err := os.OpenFile(archive, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("tampered"))
	f.Close()
	stdout, out, err = run("Linux", "X64")
	if err == nil || out["bin"] != "" || !strings.Contains(stdout, "::error::apiver_1.2.3_linux_amd64.tar.gz does not match the checksum in apiver_1.2.3_checksums.txt") {
		t.Errorf("a tampered archive: %v, outputs %v, log:\n%s", err, out, stdout)
	}
}

// TestExampleWorkflow checks that docs/github-workflow.yml uses the action
// with its inputs, fetches the base branch, runs on pull requests and pushes
// to main for the spec's paths, has the permissions code scanning needs, and
// skips the SARIF upload on pull requests from forks.
func TestExampleWorkflow(t *testing.T) {
	a := readAction(t)
	var wf struct {
		On struct {
			PullRequest struct {
				Paths []string `yaml:"paths"`
			} `yaml:"pull_request"`
			Push struct {
				Branches []string `yaml:"branches"`
				Paths    []string `yaml:"paths"`
			} `yaml:"push"`
		} `yaml:"on"`
		Permissions map[string]string `yaml:"permissions"`
		Jobs        map[string]struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	readYAML(t, "../../docs/github-workflow.yml", &wf)
	want := map[string]string{"contents": "read", "security-events": "write", "actions": "read"}
	if !maps.Equal(wf.Permissions, want) {
		t.Errorf("permissions = %v, want %v", wf.Permissions, want)
	}
	if !slices.Contains(wf.On.Push.Branches, "main") {
		t.Errorf("the workflow does not run on pushes to main: code scanning has no base analysis")
	}
	if len(wf.On.PullRequest.Paths) == 0 || !slices.Equal(wf.On.PullRequest.Paths, wf.On.Push.Paths) {
		t.Errorf("want the same spec path filters on pull_request and push, got %q and %q", wf.On.PullRequest.Paths, wf.On.Push.Paths)
	}
	var checkout, apiver bool
	var sarif, uploaded, uploadIf string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			name, _, _ := strings.Cut(s.Uses, "@")
			if name != "apiver/apiver" && !pinned.MatchString(s.Uses) {
				t.Errorf("uses %s: pin a third-party action by its commit SHA", s.Uses)
			}
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
				uploaded, uploadIf = s.With["sarif_file"], s.If
			}
		}
	}
	if !checkout || !apiver || sarif == "" || sarif != uploaded {
		t.Errorf("want a checkout with fetch-depth 0 (%v), the apiver action (%v) and its SARIF %q uploaded (%q)", checkout, apiver, sarif, uploaded)
	}
	for _, part := range []string{"always()", "github.event.pull_request.head.repo.full_name == github.repository"} {
		if !strings.Contains(uploadIf, part) {
			t.Errorf("the upload's if: %q lacks %q (upload also when the check fails; skip forks' pull requests)", uploadIf, part)
		}
	}
}
