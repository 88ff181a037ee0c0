package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// widgetDocument is a small version document holding a GET of each path,
// each answering with an object of the given properties.
func widgetDocument(paths []string, properties ...string) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Widgets, version: \"1\"}\npaths:\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "  %s:\n    get:\n      responses:\n        \"200\":\n          description: OK\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n", p)
		for _, name := range properties {
			fmt.Fprintf(&b, "                  %s: {type: string}\n", name)
		}
	}
	return b.String()
}

// TestDocumentCommandsOneCPU runs every command that reads two folders of
// version documents with GOMAXPROCS=1, as a 1-CPU container gives it: each
// finishes, with the verdict it gives on more cores. Both documents of the
// pair changed, and the revision adds one, so that the fast pass holds
// several documents at once.
func TestDocumentCommandsOneCPU(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"history/2024-01-01/api.2023-01-01.yaml": widgetDocument([]string{"/a"}, "id"),
		"history/2024-01-01/api.2023-06-01.yaml": widgetDocument([]string{"/a", "/b"}, "id"),
		"history/2024-02-01/api.2023-01-01.yaml": widgetDocument([]string{"/a"}, "id", "name"),
		"history/2024-02-01/api.2023-06-01.yaml": widgetDocument([]string{"/a", "/b", "/c"}, "id"),
		"history/2024-02-01/api.2024-02-01.yaml": widgetDocument([]string{"/a", "/b", "/c", "/d"}),
	} {
		writeCaseFile(t, filepath.Join(dir, filepath.FromSlash(name)), []byte(text))
	}
	base, revision := "history/2024-01-01", "history/2024-02-01"
	commands := map[string][]string{
		"check":           {"check", base, revision},
		"diff":            {"diff", base, revision},
		"fix":             {"fix", "--diff", base, revision},
		"fix -o":          {"fix", "-o", "fixed", base, revision},
		"changelog build": {"changelog", "build", "history"},
		"versions":        {"versions", revision},
		"sunset":          {"sunset", revision},
	}
	env := append([]string{"GOMAXPROCS=1"}, flagsOnly...)
	runs := map[string]pipelineRun{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, args := range commands {
		wg.Go(func() {
			r := runProcess(hangGuard, dir, env, args...)
			mu.Lock()
			runs[name] = r
			mu.Unlock()
		})
	}
	wg.Wait()
	for name, args := range commands {
		want := runProcess(hangGuard, dir, flagsOnly, append(args, "--full-pipeline")...)
		if name == "versions" || name == "sunset" || name == "fix -o" {
			want = runProcess(hangGuard, dir, append([]string{"GOMAXPROCS=2"}, flagsOnly...), args...)
		}
		if got := runs[name]; got.code == -1 || got.code != want.code || got.stdout != want.stdout {
			t.Errorf("apiver %s with GOMAXPROCS=1: %s\nwant %s", strings.Join(args, " "), got, want)
		}
	}
}

// TestHostileDocumentLinkOut: a revision whose document, or dated folder,
// is a symbolic link to an OpenAPI file outside the folder fails every
// command that reads it with exit 2 naming the link and where it leads;
// nothing of the file outside is shown.
func TestHostileDocumentLinkOut(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeCaseFile(t, "secret/api.2024-01-01.yaml", []byte(widgetDocument([]string{"/SECRET-OUTSIDE"}, "id")))
	for _, name := range []string{"base", "file", "folder"} {
		writeCaseFile(t, name+"/api.2023-01-01.yaml", []byte(widgetDocument([]string{"/a"}, "id")))
	}
	for link, to := range map[string]string{"file/api.2024-01-01.yaml": "../secret/api.2024-01-01.yaml", "folder/2024-01-01": "../secret"} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		revision := filepath.Dir(link)
		for _, args := range [][]string{
			{"check", "base", revision}, {"diff", "base", revision}, {"fix", "--diff", "base", revision},
			{"versions", revision}, {"sunset", revision}, {"changelog", "migrate", revision, "--from", "2023-01-01", "--to", "2024-01-01"},
		} {
			r := runPipeline(false, args)
			if r.code != exitInput || !strings.HasPrefix(r.stderr, "apiver: "+link+": ") || !strings.Contains(r.stderr, to) || strings.Contains(r.stdout+r.stderr, "SECRET") {
				t.Errorf("apiver %s: %s\nwant exit 2 naming %s and %s", strings.Join(args, " "), r, link, to)
			}
		}
	}
}

// idDocument is a version document whose GET /a answers an id of the type
// given: string in a base, integer in a revision that breaks it in place.
func idDocument(typ string) []byte {
	return []byte("openapi: 3.0.3\ninfo: {title: W, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses:\n        \"200\":\n          description: OK\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  id: {type: " + typ + "}\n")
}

// writeBrokenPair writes into dir a base and a revision folder of two
// version documents, named by pattern (its %s the version), that the
// revision breaks in place, both.
func writeBrokenPair(t *testing.T, dir, pattern string) (base, revision string) {
	t.Helper()
	base, revision = filepath.Join(dir, "base"), filepath.Join(dir, "revision")
	for _, v := range []string{"2023-01-01", "2023-06-01"} {
		name := filepath.FromSlash(fmt.Sprintf(pattern, v))
		writeCaseFile(t, filepath.Join(base, name), idDocument("string"))
		writeCaseFile(t, filepath.Join(revision, name), idDocument("integer"))
	}
	return base, revision
}

// TestFixOutputFolderLayouts: fix -o FOLDER writes every document of the
// fixed set in the layout's folders, into an empty folder or a missing
// one, and the result passes the check.
func TestFixOutputFolderLayouts(t *testing.T) {
	for _, layout := range []struct{ name, pattern, newFile string }{
		{"flat", "api.%s.yaml", "api.2024-06-01.yaml"},
		{"snyk", "%s/spec.yaml", "2024-06-01/spec.yaml"},
		{"azure", "stable/%s/compute.yaml", "stable/2024-06-01/compute.yaml"},
	} {
		dir := t.TempDir()
		base, revision := writeBrokenPair(t, dir, layout.pattern)
		for _, out := range []string{"empty", "missing/deeper"} {
			out = filepath.Join(dir, out)
			if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
				t.Fatal(err)
			}
			r := runPipeline(false, []string{"fix", "--version", "2024-06-01", base, revision, "-o", out})
			if r.code != exitPass {
				t.Errorf("%s: fix -o %s: %s", layout.name, out, r)
				continue
			}
			for _, name := range []string{fmt.Sprintf(layout.pattern, "2023-01-01"), fmt.Sprintf(layout.pattern, "2023-06-01"), layout.newFile} {
				if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(name))); err != nil {
					t.Errorf("%s: fix -o %s: %v", layout.name, out, err)
				}
			}
			if check := runPipeline(false, []string{"check", base, out}); check.code != exitPass {
				t.Errorf("%s: check of what fix -o %s wrote: %s", layout.name, out, check)
			}
			// stderr names the new document where it was written.
			if want := "(" + filepath.Join(out, filepath.FromSlash(layout.newFile)) + ")"; !strings.Contains(r.stderr, want) {
				t.Errorf("%s: fix -o %s says\n%s\nwant it to name %s", layout.name, out, r.stderr, want)
			}
		}
	}
}

// TestHostileFixAllOrNothing: a fix with a target it refuses (a folder
// link leading out of the folder written) writes nothing, not even the
// documents before it, and says nothing was restored.
func TestHostileFixAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	base, revision := writeBrokenPair(t, dir, "%s/spec.yaml")
	elsewhere := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name, link, to string
		args           []string
	}{
		// In place, the new document's folder links out, to nothing yet.
		{"in place", filepath.Join(revision, "2024-06-01"), filepath.Join(dir, "nowhere"), nil},
		// -o, the new document's folder in FOLDER links out.
		{"-o", filepath.Join(out, "2024-06-01"), elsewhere, []string{"-o", out}},
	} {
		if err := os.MkdirAll(filepath.Dir(tc.link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(tc.to, tc.link); err != nil {
			t.Fatal(err)
		}
		before := treeOf(t, dir)
		r := runPipeline(false, append([]string{"fix", "--version", "2024-06-01", base, revision}, tc.args...))
		if r.code != exitInput || !strings.Contains(r.stderr, tc.link) || !strings.Contains(r.stderr, tc.to) || strings.Contains(r.stderr, "restored") {
			t.Errorf("%s: %s\nwant exit 2 naming %s and %s, and nothing restored", tc.name, r, tc.link, tc.to)
		}
		if after := treeOf(t, dir); after != before {
			t.Errorf("%s: a refused fix wrote:\nbefore\n%s\nafter\n%s", tc.name, before, after)
		}
		if err := os.Remove(tc.link); err != nil {
			t.Fatal(err)
		}
	}
}

// treeOf lists every file and folder under dir with its content or link.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			to, err := os.Readlink(path)
			fmt.Fprintf(&b, "%s -> %s\n", path, to)
			return err
		case d.IsDir():
			fmt.Fprintf(&b, "%s/\n", path)
		default:
			data, err := os.ReadFile(path)
			fmt.Fprintf(&b, "%s %x\n", path, sha256.Sum256(data))
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// locatedFinding is what a check's JSON says of a finding's place.
type locatedFinding struct {
	Rule      string `json:"rule"`
	Operation string `json:"operation"`
	Version   string `json:"version"`
	Location  struct {
		File string `json:"file"`
		Line int    `json:"line"`
	} `json:"location"`
}

// locatedFindings runs a check --format json through both pipelines,
// which must print the same bytes, and returns its findings.
func locatedFindings(t *testing.T, args []string) []locatedFinding {
	t.Helper()
	full, same := agree(t, strings.Join(args, " "), args)
	if !same || (full.code != exitPass && full.code != exitPolicy) {
		t.Fatalf("apiver %s: %s", strings.Join(args, " "), full)
	}
	var report struct {
		Findings []locatedFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(full.stdout), &report); err != nil {
		t.Fatal(err)
	}
	return report.Findings
}

// TestHostileDocumentNamesLocated: documents whose names hold a space or a
// colon, and that are identical to each other, each get their own
// findings, located in the file as named; both pipelines print the same.
// So do single files of such names.
func TestHostileDocumentNamesLocated(t *testing.T) {
	fastPipelineOnly(t)
	seed, err := filepath.Abs("../../testdata/seed-history")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	versions := []string{"2023-01-01", "2023-06-01", "2024-01-01"}
	for _, pattern := range []string{"my api.%s.yaml", "c:d.%s.yaml", "%s/my api:v1.yaml", "x%%20y.%s.yaml"} {
		dir := strings.NewReplacer("%", "", " ", "", ":", "").Replace(pattern)
		base, revision := filepath.Join(dir, "base"), filepath.Join(dir, "revision")
		for _, v := range versions {
			writeCaseFile(t, filepath.Join(base, fmt.Sprintf(pattern, v)), idDocument("string"))
			writeCaseFile(t, filepath.Join(revision, fmt.Sprintf(pattern, v)), idDocument("integer"))
		}
		found := map[string]bool{}
		for _, f := range locatedFindings(t, []string{"check", "--format", "json", "--date", "2024-06-01", base, revision}) {
			if f.Rule != "breaking-change-without-new-version" || f.Operation != "GET /a" {
				continue
			}
			if want := filepath.Join(revision, fmt.Sprintf(pattern, f.Version)); f.Location.File != want || f.Location.Line == 0 {
				t.Errorf("%s: %s@%s is located at %s:%d; want its document %s", pattern, f.Operation, f.Version, f.Location.File, f.Location.Line, want)
			}
			found[f.Version] = true
		}
		if len(found) != len(versions) {
			t.Errorf("%s: breaking changes found in versions %v; want each of %v", pattern, found, versions)
		}
	}
	names := []string{"my api:x-2026-02-08.yaml", "my api:x-2026-02-09.yaml"}
	for i, name := range names {
		data, err := os.ReadFile(filepath.Join(seed, fmt.Sprintf("example-2026-02-0%d.yaml", 8+i)))
		if err != nil {
			t.Fatal(err)
		}
		writeCaseFile(t, name, data)
	}
	findings := locatedFindings(t, append([]string{"check", "--format", "json"}, names...))
	for _, f := range findings {
		if f.Location.File != "" && !slices.Contains(names, f.Location.File) {
			t.Errorf("%s@%s is located in %q, not a file checked", f.Operation, f.Version, f.Location.File)
		}
	}
	if len(findings) == 0 {
		t.Error("no finding: the seed's 2026-02-09 release breaks existing versions")
	}
}

// rawControl is the first character of s that text output must show
// escaped, -1 when none.
func rawControl(s string) rune {
	for _, r := range s {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029 {
			return r
		}
	}
	return -1
}

// TestHostileNamesInFixOutput: documents named with a line break that
// would start a workflow command and a bidi override. fix --diff quotes
// them in its ---/+++ headers as git does, so that git apply writes what
// fix -o writes; fix in place, and an input error, show them escaped.
func TestHostileNamesInFixOutput(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	const stem = "q\n::error::x \u202eb."
	base, revision := writeBrokenPair(t, ".", stem+"%s.yaml")
	base, revision = filepath.Base(base), filepath.Base(revision)
	patch := runPipeline(false, []string{"fix", "--diff", "--version", "2024-06-01", base, revision})
	if patch.code != exitPass {
		t.Fatalf("fix --diff: %s", patch)
	}
	for line := range strings.Lines(patch.stdout + patch.stderr) {
		if strings.HasPrefix(line, "::") || rawControl(line) >= 0 {
			t.Errorf("fix --diff: a raw name in %q:\n%s", line, patch)
		}
	}
	if r := runPipeline(false, []string{"fix", "--version", "2024-06-01", base, revision, "-o", "fixed"}); r.code != exitPass {
		t.Fatalf("fix -o: %s", r)
	}
	// git apply the patch to a copy of the revision: the same files.
	if err := os.CopyFS("applied", os.DirFS(revision)); err != nil {
		t.Fatal(err)
	}
	writeCaseFile(t, "fix.patch", []byte(patch.stdout))
	apply := exec.Command("git", "apply", "-p2", "--directory=applied", "fix.patch")
	apply.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+dir)
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\n%s", err, out, patch.stdout)
	}
	if got, want := strings.ReplaceAll(treeOf(t, "applied"), "applied/", ""), strings.ReplaceAll(treeOf(t, "fixed"), "fixed/", ""); got != want {
		t.Errorf("git apply of fix --diff gives\n%s\nfix -o gives\n%s", got, want)
	}
	inPlace := runPipeline(false, []string{"fix", "--version", "2024-06-01", base, revision})
	if inPlace.code != exitPass || !strings.Contains(inPlace.stderr, "restored") || rawControl(inPlace.stderr) >= 0 || strings.Count(inPlace.stderr, "\n") != strings.Count(inPlace.stderr, "apiver: ") {
		t.Errorf("fix in place: %s\nwant each line escaped", inPlace)
	}
	writeCaseFile(t, filepath.Join("bad", stem+"2023-01-01.yaml"), []byte("openapi: 3.0.3\nopenapi: 3.0.3\n"))
	bad := runPipeline(false, []string{"versions", "bad"})
	if bad.code != exitInput || rawControl(bad.stderr) >= 0 || strings.Count(bad.stderr, "\n") != 1 || !strings.Contains(bad.stderr, `\u202e`) {
		t.Errorf("an input error naming the file: %s\nwant one line, the name escaped", bad)
	}
}

// TestHostileHistoryLinkOut: changelog build over a history folder refuses
// a snapshot file, or a dated folder of version documents, that is a
// symbolic link leading out of the folder, with exit 2 naming the link and
// where it leads; a link that stays in the folder is read as what it leads
// to, a file as a snapshot and a folder as a snapshot folder. Each snapshot
// folder is the root of its documents: a document linking to a sibling
// snapshot folder is refused, as when the folder is named alone.
func TestHostileHistoryLinkOut(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	secret := []byte(widgetDocument([]string{"/SECRET-OUTSIDE"}, "id"))
	writeCaseFile(t, "secret/example-2024-01-01.yaml", secret)
	writeCaseFile(t, "secret/docs/api.2024-01-01.yaml", secret)
	public := []byte(widgetDocument([]string{"/a"}, "id"))
	for _, name := range []string{"files-out", "files-in"} {
		writeCaseFile(t, name+"/example-2023-01-01.yaml", public)
	}
	writeCaseFile(t, "files-in/.store/kept.yaml", []byte(widgetDocument([]string{"/a", "/b"}, "id")))
	for _, name := range []string{"folders-out", "folders-in", "sibling"} {
		writeCaseFile(t, name+"/2023-01-01/api.2023-01-01.yaml", public)
	}
	writeCaseFile(t, "folders-in/.store/2024-01-01/api.2024-01-01.yaml", []byte(widgetDocument([]string{"/a", "/b"}, "id")))
	links := map[string]string{
		"files-out/example-2024-01-01.yaml":      "../secret/example-2024-01-01.yaml",
		"folders-out/2024-01-01":                 "../secret/docs",
		"files-in/example-2024-01-01.yaml":       ".store/kept.yaml",
		"folders-in/2024-01-01":                  ".store/2024-01-01",
		"sibling/2024-01-01/api.2024-01-01.yaml": "../2023-01-01/api.2023-01-01.yaml",
	}
	if err := os.Mkdir("sibling/2024-01-01", 0o755); err != nil {
		t.Fatal(err)
	}
	for link, to := range links {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	for _, full := range []bool{false, true} {
		for _, link := range []string{"files-out/example-2024-01-01.yaml", "folders-out/2024-01-01", "sibling/2024-01-01/api.2024-01-01.yaml"} {
			r := runPipeline(full, []string{"changelog", "build", strings.Split(link, "/")[0]})
			if r.code != exitInput || !strings.HasPrefix(r.stderr, "apiver: "+link+": ") || !strings.Contains(r.stderr, links[link]) || strings.Contains(r.stdout+r.stderr, "SECRET") {
				t.Errorf("changelog build %s (full pipeline %v): %s\nwant exit 2 naming %s and %s", strings.Split(link, "/")[0], full, r, link, links[link])
			}
		}
		for _, history := range []string{"files-in", "folders-in"} {
			r := runPipeline(full, []string{"changelog", "build", history})
			if r.code != exitPass || !strings.Contains(r.stdout, `"2024-01-01"`) || !strings.Contains(r.stdout, "GET /b") {
				t.Errorf("changelog build %s (full pipeline %v): %s\nwant the linked snapshot's release, adding GET /b", history, full, r)
			}
		}
	}
}
