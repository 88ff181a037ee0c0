package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// example is one apiver command line that the documentation shows.
type example struct {
	// where names the --help or the document that shows it.
	where, line string
}

// TestExamplesRun runs every example of every --help, and the apiver
// command lines of the sh blocks of README.md and docs/*.md, as written:
// with sh, in a scratch git repository that holds what they name (see
// exampleRepo). An example runs when apiver exits 0, or 1 for a policy
// failure; 2 (a usage or input error) or a shell error that keeps apiver
// from running fails it.
func TestExamplesRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the examples are sh command lines")
	}
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	examples := helpExamples()
	examples = append(examples, docExamples(t)...)
	scratch := t.TempDir()
	env := exampleEnv(t, scratch)
	template := exampleRepo(t, scratch, env)
	for i, ex := range examples {
		t.Run(fmt.Sprintf("%s/%d", ex.where, i), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(template)); err != nil {
				t.Fatal(err)
			}
			exits := filepath.Join(dir, "exits")
			ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
			defer cancel()
			cmd := exec.CommandContext(ctx, sh, "-c", ex.line)
			cmd.Dir = filepath.Join(dir, "repo")
			cmd.Env = append(slices.Clone(env), "HOME="+filepath.Join(dir, "home"), "APIVER_EXAMPLE_EXITS="+exits)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			_ = cmd.Run()
			out := stderr.String()
			// The apiver wrapper records each exit code: exactly one run,
			// whose code sh passed on.
			recorded, _ := os.ReadFile(exits)
			codes := strings.Fields(string(recorded))
			switch {
			case len(codes) != 1:
				t.Errorf("%s: %s: apiver ran %d times, want once (sh exit %d)\n%s", ex.where, ex.line, len(codes), cmd.ProcessState.ExitCode(), out)
			case codes[0] != "0" && codes[0] != "1":
				t.Errorf("%s: %s: exit %s, want 0 or 1\n%s", ex.where, ex.line, codes[0], out)
			case codes[0] != fmt.Sprint(cmd.ProcessState.ExitCode()):
				t.Errorf("%s: %s: apiver exited %s, sh %d\n%s", ex.where, ex.line, codes[0], cmd.ProcessState.ExitCode(), out)
			default:
				t.Logf("%s: exit %s\n%s", ex.line, codes[0], out)
				if m := offered.FindStringSubmatch(stdout.String()); m != nil {
					runOffer(t, ex, cmd, m[1], exits)
				}
			}
		})
	}
}

// runOffer runs the fix a check example offers, as printed, and then the
// check again: the fix exits 0 (or 1 for errors a new version cannot fix)
// and, when it wrote the check's own revision, the check offers no fix
// any more.
func runOffer(t *testing.T, ex example, check *exec.Cmd, offer, exits string) {
	t.Helper()
	rerun := func(line string) (string, string) {
		t.Helper()
		if err := os.Remove(exits); err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(t.Context(), check.Path, "-c", line)
		cmd.Dir, cmd.Env = check.Dir, check.Env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run()
		recorded, _ := os.ReadFile(exits)
		return strings.TrimSpace(string(recorded)), stdout.String() + stderr.String()
	}
	if code, out := rerun(offer); code != "0" && code != "1" {
		t.Fatalf("%s: the offered %s: exit %s, want 0 or 1\n%s", ex.line, offer, code, out)
	}
	fields := strings.Fields(offer)
	if target := fields[len(fields)-1]; !slices.Contains(strings.Fields(ex.line), target) {
		return // the revision was read from git: the check reads it there again
	}
	t.Logf("ran the offered %s", offer)
	if _, out := rerun(ex.line); offered.MatchString(out) {
		t.Errorf("%s: after the offered %s, the check still offers a fix:\n%s", ex.line, offer, out)
	}
}

// helpExamples are the command lines of every command's Example, each once,
// named by the first command that shows it.
func helpExamples() []example {
	var out []example
	seen := map[string]bool{}
	for _, c := range allCommands(newRootCmd(nil, nil)) {
		for _, line := range strings.Split(c.Example, "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "apiver ") && !seen[line] {
				seen[line] = true
				out = append(out, example{where: c.CommandPath(), line: line})
			}
		}
	}
	return out
}

// docExamples are the apiver command lines of the sh code blocks of
// README.md and docs/*.md.
func docExamples(t *testing.T) []example {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	for _, path := range append([]string{"../../README.md"}, docs...) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		inSh := false
		s := bufio.NewScanner(f)
		for s.Scan() {
			line := s.Text()
			switch {
			case strings.HasPrefix(line, "```"):
				inSh = !inSh && shBlock.MatchString(line)
			case inSh && strings.HasPrefix(strings.TrimSpace(line), "apiver "):
				out = append(out, example{where: strings.TrimPrefix(path, "../../"), line: strings.TrimSpace(line)})
			}
		}
		f.Close()
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

var shBlock = regexp.MustCompile("^```(sh|bash|shell|console)$")

// exampleEnv is the environment of the examples: apiver on PATH (this test
// binary, through a wrapper that records its exit codes), and no git, apiver
// or user settings from outside. HOME is set per example.
func exampleEnv(t *testing.T, scratch string) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(scratch, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := "#!/bin/sh\nAPIVER_AS_MAIN=1 " + shQuote(exe) + " \"$@\"\ncode=$?\necho $code >>\"$APIVER_EXAMPLE_EXITS\"\nexit $code\n"
	if err := os.WriteFile(filepath.Join(bin, "apiver"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "GIT_") && !strings.HasPrefix(name, "APIVER_") && !strings.HasPrefix(name, "XDG_") && name != "HOME" && name != "PATH" {
			env = append(env, kv)
		}
	}
	return append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CEILING_DIRECTORIES="+scratch,
		"GIT_AUTHOR_NAME=apiver", "GIT_AUTHOR_EMAIL=apiver@example.com",
		"GIT_COMMITTER_NAME=apiver", "GIT_COMMITTER_EMAIL=apiver@example.com")
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// exampleRepo writes, under scratch/template, what the examples name: a
// git repository "repo" whose spec (openapi/api.yaml, and api.yaml and
// spec.yaml beside it) is the seed's 2026-02-08 release in the first commit
// (also origin/main) and its 2026-02-09 release in the second, as are its
// version documents in descriptions/api/ and versions/ (history/ holds
// both as snapshot folders); dated
// snapshots in snapshots/ and openapi/snapshots/; the files of the
// comparisons (base.yaml, revision.yaml, ...); exemptions; a config; a
// history built from openapi/snapshots; and a home with the folders the
// completion scripts go to.
func exampleRepo(t *testing.T, scratch string, env []string) string {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	seed := func(date string) string {
		return filepath.Join("..", "..", "testdata", "seed-history", "example-"+date+".yaml")
	}
	template := filepath.Join(scratch, "template")
	repo := filepath.Join(template, "repo")
	for _, dir := range []string{"home/.local/share/bash-completion/completions", "home/.zfunc", "home/.config/fish/completions", "repo/openapi/snapshots", "repo/snapshots"} {
		if err := os.MkdirAll(filepath.Join(template, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git := func(date string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(slices.Clone(env), "HOME="+filepath.Join(template, "home"), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	copies := func(files map[string]string) {
		t.Helper()
		for to, from := range files {
			data, err := os.ReadFile(from)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(repo, to), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	specs := []string{"openapi/api.yaml", "api.yaml", "spec.yaml"}
	git("", "init", "-q", "-b", "main")
	for _, release := range []string{"2026-02-08", "2026-02-09"} {
		for _, s := range specs {
			copies(map[string]string{s: seed(release)})
		}
		// The release as version documents (issue 24): GitHub's layout,
		// Snyk's, and a history of such snapshot folders.
		text, err := os.ReadFile(seed(release))
		if err != nil {
			t.Fatal(err)
		}
		doc := parseDocument(t, release, text)
		writeVersionDocuments(t, filepath.Join(repo, "descriptions", "api"), "api.example.com.%s.yaml", doc, "example")
		writeVersionDocuments(t, filepath.Join(repo, "versions"), "%s/spec.yaml", doc, "example")
		writeVersionDocuments(t, filepath.Join(repo, "history", release), "api.example.com.%s.yaml", doc, "example")
		// And as a resource tree, vervet's layout.
		writeResourceTree(t, filepath.Join(repo, "resources"), text, "example")
		git("", append([]string{"add", "descriptions", "versions", "resources"}, specs...)...)
		git(release+"T12:00:00Z", "commit", "-q", "-m", "release "+release)
	}
	git("", "update-ref", "refs/remotes/origin/main", "HEAD~1")
	copies(map[string]string{
		"snapshots/api-2024-11-19.yaml":         seed("2023-02-01"),
		"snapshots/api-2024-12-19.yaml":         seed("2024-03-01"),
		"openapi/snapshots/api-2023-01-01.yaml": seed("2023-01-01"),
		"openapi/snapshots/api-2023-02-01.yaml": seed("2023-02-01"),
		"openapi/snapshots/api-2024-03-01.yaml": seed("2024-03-01"),
		"base.yaml":                             seed("2026-02-08"),
		"revision.yaml":                         seed("2026-02-09"),
		"old.yaml":                              seed("2026-02-08"),
		"new.yaml":                              seed("2026-02-09"),
		"base-2026-02-08.yaml":                  seed("2026-02-08"),
		"revision-2026-02-09.yaml":              seed("2026-02-09"),
		"legacy.yaml":                           seed("2026-02-08"),
		"exemptions.yaml":                       filepath.Join("..", "..", "testdata", "seed-history", "exemptions.yaml"),
	})
	// The example resource tree of docs/documents.md.
	if err := os.CopyFS(filepath.Join(repo, "testdata", "resource-tree"), os.DirFS(filepath.Join("..", "..", "testdata", "resource-tree"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "apiver.yaml"), []byte("product: example\ndeprecationMonths: 12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runProcess(hangGuard, repo, []string{configEnv + "="}, "changelog", "build", "openapi/snapshots", "-o", "changelog.json"); r.code != exitPass {
		t.Fatalf("changelog build for the examples: %s", r)
	}
	return template
}

// TestDocsSpeakToUsers: README.md and docs/*.md name nothing a user does
// not have (the project's issues, its goals, a corpus folder beside the
// clone), and the README's Install starts with what works from a clone.
func TestDocsSpeakToUsers(t *testing.T) {
	t.Parallel()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	internal := regexp.MustCompile(`(?i)\bissue \d|issue's|section 9\.|not met|shared/corpus|real corpus|seed service|the seed's|\bseed history`)
	for _, path := range append([]string{"../../README.md", "../../SECURITY.md"}, docs...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := internal.FindString(line); m != "" {
				t.Errorf("%s:%d: %q speaks of the project, not to users: %s", path, i+1, m, line)
			}
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, install, _ := strings.Cut(string(readme), "\n## Install\n")
	if first := strings.Index(install, "go install ./cmd/apiver"); first < 0 || strings.Contains(install[:first], "@latest") || strings.Contains(install[:first], "brew") {
		t.Errorf("README's Install does not start with go install ./cmd/apiver from a clone")
	}
}
