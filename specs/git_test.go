package specs_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/spectest"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
)

// gitRepo makes a repository in a temporary directory, changes into it and
// commits the files there at commitDate. Only the test's settings count: no
// system or user git config.
func gitRepo(t *testing.T, files map[string]string, commitDate string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("HOME", dir)
	t.Setenv("GIT_CEILING_DIRECTORIES", dir)
	for _, v := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
		t.Setenv(v, "apiver")
	}
	for _, v := range []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
		t.Setenv(v, "apiver@example.com")
	}
	for _, v := range []string{"GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"} {
		t.Setenv(v, commitDate)
	}
	runGit(t, "init", "-q", "-b", "main")
	for name, data := range files {
		spectest.WriteFile(t, dir, name, data)
	}
	runGit(t, "add", ".")
	runGit(t, "commit", "-q", "-m", "snapshot")
	return dir
}

func runGit(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func TestLoadGitResolvesRefsAtTheCommit(t *testing.T) {
	gitRepo(t, map[string]string{
		"openapi/api.yaml":     spectest.DocWithSchemaRef("schemas.yaml#/Org"),
		"openapi/schemas.yaml": "Org:\n  type: object\n  properties:\n    name: {type: string}\n",
	}, "2026-02-08T23:30:00-05:00")
	// The work tree has moved on: the ref must be read from the commit.
	if err := os.Remove("openapi/schemas.yaml"); err != nil {
		t.Fatal(err)
	}

	s, err := load.Load("HEAD:openapi/api.yaml", specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Path != "openapi/api.yaml" {
		t.Errorf("Path = %q, want the path in the repository", s.Path)
	}
	// The committer's own date, not UTC's (2026-02-09 04:30).
	if want := (civil.Date{Year: 2026, Month: 2, Day: 8}); s.Date != want {
		t.Errorf("Date = %v, want the commit date %v", s.Date, want)
	}
	schema := s.Doc.Paths.Find("/a").Get.Responses.Status(200).Value.Content["application/json"].Schema.Value
	if schema.Properties["name"] == nil {
		t.Errorf("the $ref'd schema was not resolved: %+v", schema)
	}
}

func TestLoadGitDate(t *testing.T) {
	gitRepo(t, map[string]string{"api.yaml": spectest.MinimalDoc, "api-2024-03-01.yaml": spectest.MinimalDoc}, "2026-02-08T12:00:00+00:00")
	flag := civil.Date{Year: 2025, Month: 1, Day: 2}
	tests := []struct {
		arg  string
		opts specs.LoadOptions
		want civil.Date
	}{
		{"HEAD:api.yaml", specs.LoadOptions{}, civil.Date{Year: 2026, Month: 2, Day: 8}},
		// The file name names its release, wherever it is read from.
		{"HEAD:api-2024-03-01.yaml", specs.LoadOptions{}, civil.Date{Year: 2024, Month: 3, Day: 1}},
		{"HEAD:api-2024-03-01.yaml", specs.LoadOptions{Date: flag}, flag},
		{"HEAD:api.yaml", specs.LoadOptions{Date: flag}, flag},
	}
	for _, tt := range tests {
		s, err := load.Load(tt.arg, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if s.Date != tt.want {
			t.Errorf("Load(%s, date %v).Date = %v, want %v", tt.arg, tt.opts.Date, s.Date, tt.want)
		}
	}
}

func TestLoadGitErrors(t *testing.T) {
	gitRepo(t, map[string]string{
		"api.yaml":            spectest.MinimalDoc,
		"broken.yaml":         "openapi: 3.0.3\ninfo:\n  title: [x\n",
		"with space.yaml":     "openapi: 3.0.3\ninfo:\n  title: [x\n",
		"empty.yaml":          "",
		"dir/escape.yaml":     spectest.DocWithSchemaRef("../api.yaml#/components/schemas/X"),
		"dir/missing.yaml":    spectest.DocWithSchemaRef("nope.yaml#/X"),
		"api-2024-02-30.yaml": spectest.MinimalDoc,
	}, "2026-02-08T12:00:00+00:00")
	tests := []struct {
		arg      string
		wantLine int
		wantMsg  string
	}{
		{arg: "nosuch:api.yaml", wantMsg: `git ref "nosuch" not found; fetch the base branch`},
		{arg: "origin/main:api.yaml", wantMsg: `git ref "origin/main" not found; fetch the base branch (actions/checkout with fetch-depth: 0, or git fetch origin main)`},
		{arg: "HEAD:nope.yaml", wantMsg: `"nope.yaml" does not exist at HEAD`},
		// A path with a space or a line break is one path, not two words
		// or two lines of git's input.
		{arg: "HEAD:no such.yaml", wantMsg: `"no such.yaml" does not exist at HEAD`},
		{arg: "HEAD:with space.yaml", wantLine: spectest.AnyLine, wantMsg: "not valid YAML"},
		{arg: "HEAD:dir", wantMsg: `"dir" is a directory at HEAD`},
		{arg: "HEAD:broken.yaml", wantLine: spectest.AnyLine, wantMsg: "not valid YAML"},
		{arg: "HEAD:empty.yaml", wantMsg: "the file is empty"},
		// The line of the $ref.
		{arg: "HEAD:dir/escape.yaml", wantLine: 14, wantMsg: `$ref "../api.yaml" leaves the directory of the spec`},
		{arg: "HEAD:dir/missing.yaml", wantLine: 14, wantMsg: `"dir/nope.yaml" does not exist at HEAD`},
		{arg: "HEAD:api-2024-02-30.yaml", wantMsg: "not a real date"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			_, err := load.Load(tt.arg, specs.LoadOptions{})
			se := spectest.CheckSpecError(t, err, tt.arg, tt.wantLine)
			if !strings.Contains(se.Msg, tt.wantMsg) {
				t.Errorf("Msg = %q, want it to say %q", se.Msg, tt.wantMsg)
			}
		})
	}
}

// A line break in a path is part of the path, and the error stays one line.
func TestLoadGitPathWithLineBreak(t *testing.T) {
	gitRepo(t, map[string]string{"api.yaml": spectest.MinimalDoc}, "2026-02-08T12:00:00+00:00")
	_, err := load.Load("HEAD:a\nb.yaml", specs.LoadOptions{})
	if err == nil || err.Error() != `HEAD:a\nb.yaml: "a\nb.yaml" does not exist at HEAD; `+strings.SplitN(err.Error(), "; ", 2)[1] {
		t.Errorf("error %q, want one line saying the path does not exist", err)
	}
}

func TestLoadGitWithoutGitOrRepository(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("GIT_CEILING_DIRECTORIES", dir)

	_, err := load.Load("HEAD:api.yaml", specs.LoadOptions{})
	if se := spectest.CheckSpecError(t, err, "HEAD:api.yaml", 0); !strings.Contains(se.Msg, "not in a git repository") {
		t.Errorf("Msg = %q, want it to say there is no repository", se.Msg)
	}

	t.Setenv("PATH", dir)
	_, err = load.Load("HEAD:api.yaml", specs.LoadOptions{})
	if se := spectest.CheckSpecError(t, err, "HEAD:api.yaml", 0); !strings.Contains(se.Msg, "git") || !strings.Contains(se.Msg, "not installed") {
		t.Errorf("Msg = %q, want it to say git is not installed", se.Msg)
	}
}

// A name with a colon is a file when one exists, whatever git holds.
func TestLoadColonFileIsAFile(t *testing.T) {
	dir := gitRepo(t, map[string]string{"api.yaml": spectest.MinimalDoc}, "2026-02-08T12:00:00+00:00")
	spectest.WriteFile(t, dir, "HEAD:api.yaml", strings.Replace(spectest.MinimalDoc, "title: x", "title: on disk", 1))
	s, err := load.Load("HEAD:api.yaml", specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Path != "HEAD:api.yaml" || s.Doc.Info.Title != "on disk" {
		t.Errorf("Load read %q titled %q, want the file on disk", s.Path, s.Doc.Info.Title)
	}
}

func TestLoadGitSizeLimit(t *testing.T) {
	gitRepo(t, map[string]string{
		"api.yaml":     spectest.DocWithSchemaRef("schemas.yaml#/X"),
		"schemas.yaml": "X:\n  type: object\n  description: '" + strings.Repeat("x", 400) + "'\n",
	}, "2026-02-08T12:00:00+00:00")
	tests := []struct {
		max      int64
		wantLine int
	}{
		{max: 100, wantLine: 0},  // the spec itself is too big
		{max: 300, wantLine: 14}, // the $ref'd file is, at the line of its $ref
	}
	for _, tt := range tests {
		_, err := load.Load("HEAD:api.yaml", specs.LoadOptions{MaxSize: tt.max})
		if se := spectest.CheckSpecError(t, err, "HEAD:api.yaml", tt.wantLine); !strings.Contains(se.Msg, "size limit") {
			t.Errorf("MaxSize %d: Msg = %q, want it to name the size limit", tt.max, se.Msg)
		}
	}
	if _, err := load.Load("HEAD:api.yaml", specs.LoadOptions{MaxSize: 1000}); err != nil {
		t.Errorf("MaxSize 1000: %v", err)
	}
}
