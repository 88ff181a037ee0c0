package main

import (
	"fmt"
	"os"
	"path/filepath"
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
