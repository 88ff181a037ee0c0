package main

import (
	"bytes"
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
	"time"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
	"go.yaml.in/yaml/v3"
)

// inPlace finds, in a rule case's want section, an error for a breaking
// change inside an existing version that no exemption covers.
var inPlace = regexp.MustCompile(`(?m)^error breaking-change-without-new-version "[^"]*" \d.*[^d\n]$`)

// unfixableMarks mark, in a want section, what a new version cannot fix: a
// stability level lowered in place, a webhook or a callback
// (Finding.Fixable), a request parameter, a multipart body's encoding or a
// response header, which every version of its operation shares.
var unfixableMarks = []string{"api-stability-decreased", "webhook:", " callback ", " request-parameter-", " request-property-encoding-", " response-header-"}

// TestFixRuleCases fixes every rule case with an in-place breaking change
// and asserts what the fixed revision must be (assertFixed).
func TestFixRuleCases(t *testing.T) {
	files, err := filepath.Glob("../../testdata/rules/*/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, file := range files {
		archive, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(archive.Files, func(f txtar.File) bool { return f.Name == "want" })
		if i < 0 {
			continue
		}
		want := string(archive.Files[i].Data)
		if !inPlace.MatchString(want) || slices.ContainsFunc(unfixableMarks, func(s string) bool { return strings.Contains(want, s) }) {
			continue
		}
		found++
		name := strings.TrimSuffix(strings.TrimPrefix(file, "../../testdata/rules/"), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Chdir(extractCase(t, archive))
			flags, inputs := splitArgs(strings.Fields(string(archive.Comment))[1:])
			if specs.IsFolder(inputs[1]) {
				// A folder's fix writes a version document beside the
				// others: TestFixOfferedExactly checks it.
				t.Skip("a folder of version documents")
			}
			assertFixed(t, flags, inputs[0], inputs[1])
		})
	}
	if found < 10 {
		t.Fatalf("only %d rule cases with an in-place breaking change", found)
	}
}

// TestFixRealPair fixes the real pair 2024-11-19 -> 2024-12-19.
func TestFixRealPair(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: loads large snapshots several times")
	}
	const base, revision = "atlas-api-2024-11-19.yaml", "atlas-api-2024-12-19.yaml"
	dir := corpus.Unpack(t, base, revision)
	config, err := filepath.Abs("testdata/atlas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	assertFixed(t, []string{"--config", config}, base, revision)
}

// splitArgs separates a check command line's flags from its two inputs.
func splitArgs(args []string) (flags, inputs []string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--allow-remote-refs" || strings.Contains(a, "="):
			flags = append(flags, a)
		case strings.HasPrefix(a, "--"):
			flags = append(flags, a, args[i+1])
			i++
		default:
			inputs = append(inputs, a)
		}
	}
	return flags, inputs
}

// assertFixed runs apiver fix on base and revision and asserts the three
// promises of the fix: check of base against the result reports no
// breaking change inside an existing version; diff shows no error-level
// change inside a version the base had (exempted ones aside); and each new
// version's view equals the view the old version had in the revision,
// once the split components are mapped back to their names.
func assertFixed(t *testing.T, flags []string, base, revision string) {
	t.Helper()
	fixed := filepath.Join(filepath.Dir(revision), "fixed-"+filepath.Base(revision))
	var stdout, stderr bytes.Buffer
	if code := run(slices.Concat([]string{"fix"}, flags, []string{base, revision, "-o", fixed}), &stdout, &stderr); code == exitInput {
		t.Fatalf("fix: exit %d: %s", code, stderr.String())
	}

	stdout.Reset()
	run(slices.Concat([]string{"check", "--format", "json"}, flags, []string{base, fixed}), &stdout, &stderr)
	var report struct{ Findings []policy.Finding }
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("check: %v: %s", err, stderr.String())
	}
	exempted := map[[3]string]bool{}
	for _, f := range report.Findings {
		if f.Exempted {
			exempted[[3]string{f.Operation, f.Version, f.Change}] = true
		}
		if f.Fixable() {
			t.Errorf("check BASE FIXED: %s %s %s: %s", f.Operation, f.Version, f.Change, f.Message)
		}
	}

	snaps := map[string]*specs.Snapshot{}
	for _, p := range []string{base, revision, fixed} {
		s, err := load.Load(p, specs.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		snaps[p] = s
	}
	product, err := specs.DetectProduct(snaps[base], snaps[revision])
	if err != nil {
		t.Fatal(err)
	}
	baseVersions := map[string]bool{}
	for _, op := range versions.Operations(snaps[base].Doc, product) {
		for _, v := range op.Versions {
			baseVersions[op.Key()+" "+v.Name] = true
		}
	}
	fixedOps := versions.Operations(snaps[fixed].Doc, product)
	stdout.Reset()
	diffFlags := slices.Clone(flags)
	if i := slices.Index(diffFlags, "--exemptions"); i >= 0 {
		diffFlags = slices.Delete(diffFlags, i, i+2)
	}
	run(slices.Concat([]string{"diff", "--format", "json"}, diffFlags, []string{base, fixed}), &stdout, &stderr)
	var changes struct{ Changes []diff.Change }
	if err := json.Unmarshal(stdout.Bytes(), &changes); err != nil {
		t.Fatalf("diff: %v: %s", err, stderr.String())
	}
	for _, c := range changes.Changes {
		i := slices.IndexFunc(fixedOps, func(o *versions.Operation) bool { return o.Name() == c.Operation })
		if c.Level != diff.Error || c.Version == "" || i < 0 || !baseVersions[fixedOps[i].Key()+" "+c.Version] || exempted[[3]string{c.Operation, c.Version, c.ID}] {
			continue
		}
		t.Errorf("diff BASE FIXED: error inside existing version: %s %s %s: %s", c.Operation, c.Version, c.ID, c.Message)
	}

	revTree, fixedTree := decodeTree(t, revision), decodeTree(t, fixed)
	split := splitNames(revTree, fixedTree)
	added := 0
	for _, revOp := range versions.Operations(snaps[revision].Doc, product) {
		i := slices.IndexFunc(fixedOps, func(o *versions.Operation) bool { return o.Key() == revOp.Key() })
		if i < 0 || len(revOp.Versions) == 0 {
			continue
		}
		from := revOp.Versions[len(revOp.Versions)-1].Name
		for _, v := range fixedOps[i].Versions {
			if revOp.Version(v.Name) != nil {
				continue
			}
			added++
			want := versionView(revTree, revOp, product, from)
			got := versionView(fixedTree, fixedOps[i], product, v.Name)
			if d := cmp.Diff(want, renameRefs(got, split)); d != "" {
				t.Errorf("%s: view of new version %s differs from the revision's %s (-want +got):\n%s", revOp.Name(), v.Name, from, d)
			}
			for ptr := range refClosure(fixedTree, got) {
				orig := ptr
				if o, ok := split[ptr]; ok {
					orig = o
				}
				if d := cmp.Diff(resolve(revTree, orig), renameRefs(resolve(fixedTree, ptr), split)); d != "" {
					t.Errorf("%s %s: component %s differs from the revision's %s (-want +got):\n%s", revOp.Name(), v.Name, ptr, orig, d)
				}
			}
		}
	}
	if added == 0 {
		t.Errorf("fix added no version:\n%s", stderr.String())
	}
}

func decodeTree(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if json.Valid(data) {
		// JSON's own reading: YAML refuses some of its escapes (\/).
		if err := json.Unmarshal(data, &tree); err != nil {
			t.Fatal(err)
		}
		return tree
	}
	if err := yaml.Unmarshal(data, &tree); err != nil {
		t.Fatal(err)
	}
	return tree
}

func get(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// splitNames maps each component the fix added (Name + V + date) to the
// component of the revision it was split from, as $ref pointers.
func splitNames(rev, fixed map[string]any) map[string]string {
	suffix := regexp.MustCompile(`V\d{8}(_\d+)?$`)
	out := map[string]string{}
	kinds, _ := get(fixed, "components").(map[string]any)
	for kind, names := range kinds {
		m, _ := names.(map[string]any)
		for name := range m {
			orig := suffix.ReplaceAllString(name, "")
			if get(rev, "components", kind, name) == nil && orig != name && get(rev, "components", kind, orig) != nil {
				out["#/components/"+kind+"/"+name] = "#/components/" + kind + "/" + orig
			}
		}
	}
	return out
}

// versionView is an operation's view of one version as the files write it:
// parameters, the request body and responses with only that version's media
// types (named without the version) and the unversioned ones.
func versionView(tree map[string]any, op *versions.Operation, product, version string) map[string]any {
	item, _ := get(tree, "paths", op.Path).(map[string]any)
	var raw map[string]any
	for k, v := range item {
		if strings.EqualFold(k, op.Method) {
			raw, _ = v.(map[string]any)
		}
	}
	filter := func(container any) (any, bool) {
		m, ok := container.(map[string]any)
		if !ok {
			return container, true
		}
		content, _ := m["content"].(map[string]any)
		if len(content) == 0 {
			return m, true
		}
		kept := map[string]any{}
		for name, v := range content {
			mt, ok, err := versions.ParseMediaType(name)
			switch {
			case err != nil:
			case !ok || mt.Product != product:
				kept[name] = v
			case mt.Version == version:
				kept[mt.Normalized()] = withoutVersion(v, version)
			}
		}
		out := maps.Clone(m)
		out["content"] = kept
		return out, len(kept) > 0
	}
	view := map[string]any{"parameters": raw["parameters"], "pathParameters": item["parameters"]}
	if body, ok := filter(raw["requestBody"]); ok && body != nil {
		view["requestBody"] = body
	}
	responses := map[string]any{}
	rs, _ := raw["responses"].(map[string]any)
	for status, r := range rs {
		if kept, ok := filter(r); ok {
			responses[status] = kept
		}
	}
	view["responses"] = responses
	return view
}

// withoutVersion is a media type object with the fields that name its
// version (x-xgen-version: 2023-01-01) set to a placeholder, since the fix
// renames them.
func withoutVersion(v any, version string) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := maps.Clone(m)
	for k, field := range m {
		if d, ok := field.(time.Time); ok && d.Format(time.DateOnly) == version || field == version {
			out[k] = "VERSION"
		}
	}
	return out
}

// renameRefs copies v with the strings that name a component ($refs,
// discriminator mappings) mapped through names.
func renameRefs(v any, names map[string]string) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, c := range x {
			out[k] = renameRefs(c, names)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = renameRefs(c, names)
		}
		return out
	case string:
		if to, ok := names[x]; ok {
			return to
		}
	}
	return v
}

func resolve(tree map[string]any, ptr string) any {
	return get(tree, strings.Split(strings.TrimPrefix(ptr, "#/"), "/")...)
}

// refClosure is every local component v refers to, directly or through
// other components.
func refClosure(tree map[string]any, v any) map[string]bool {
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		case string:
			if strings.HasPrefix(x, "#/components/") && !seen[x] {
				seen[x] = true
				walk(resolve(tree, x))
			}
		}
	}
	walk(v)
	return seen
}

// assertDiffApplies applies the diff that `apiver ARGS` (with --diff)
// printed to the revision, in the working directory, with git apply, and
// requires the file fix -o writes.
func assertDiffApplies(t *testing.T, args []string, diff []byte) {
	t.Helper()
	revision := args[len(args)-1]
	var stdout, stderr bytes.Buffer
	if code := run(append(slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--diff" }), "-o", "fixed.out"), &stdout, &stderr); code != exitPass {
		t.Fatalf("fix -o: exit %d: %s", code, stderr.String())
	}
	apply := exec.Command("git", "apply", "-")
	apply.Stdin = bytes.NewReader(diff)
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v: %s", err, out)
	}
	patched, err := os.ReadFile(revision)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("fixed.out")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(patched)); d != "" {
		t.Errorf("the revision patched with the diff differs from fix -o's file (-fix +patched):\n%s", d)
	}
}

// TestFixGolden runs the cases of testdata/fix: the archive's first comment
// line is the command line, want.stdout the fixed file (or diff) and
// want.exit the exit code followed by stderr; -update rewrites both. Every
// comment line of the revision must survive the fix.
func TestFixGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/fix/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fix cases: %v", err)
	}
	for _, file := range files {
		abs, _ := filepath.Abs(file)
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			archive, err := txtar.ParseFile(abs)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			sections := map[string]int{}
			for i, f := range archive.Files {
				sections[f.Name] = i
				if strings.HasPrefix(f.Name, "want.") {
					continue
				}
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f.Name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			line, _, _ := strings.Cut(string(archive.Comment), "\n")
			args := strings.Fields(line)
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			got := map[string]string{"want.stdout": stdout.String(), "want.exit": fmt.Sprintf("%d\n%s", code, stderr.String())}
			for _, name := range []string{"want.stdout", "want.exit"} {
				i, ok := sections[name]
				if !ok {
					t.Fatalf("no %s section", name)
				}
				if *update {
					archive.Files[i].Data = []byte(got[name])
					continue
				}
				if d := cmp.Diff(string(archive.Files[i].Data), got[name]); d != "" {
					t.Errorf("apiver %s: %s differs (-want +got):\n%s", line, name, d)
				}
			}
			if *update {
				if err := os.WriteFile(abs, txtar.Format(archive), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			revision := archive.Files[sections[args[len(args)-1]]].Data
			if slices.Contains(args, "--diff") {
				if code == exitPass {
					assertDiffApplies(t, args, stdout.Bytes())
				}
				return
			}
			if code == exitPass {
				assertFixed(t, nil, args[len(args)-2], args[len(args)-1])
			}
			for _, l := range strings.Split(string(revision), "\n") {
				if i := strings.Index(l, "# "); i >= 0 && !strings.Contains(stdout.String(), l[i:]) {
					t.Errorf("the comment of line %q is lost", l)
				}
			}
		})
	}
}

// TestFixDiffApplies checks every hunk of fix --diff on the seed pair: its
// old lines are the revision's at its old start, its new lines the fixed
// file's at its new start, so `git apply` takes it without fuzz.
func TestFixDiffApplies(t *testing.T) {
	const base, revision = "../../testdata/seed-history/example-2026-02-08.yaml", "../../testdata/seed-history/example-2026-02-09.yaml"
	var fixed, patch, stderr bytes.Buffer
	run([]string{"fix", base, revision}, &fixed, &stderr)
	run([]string{"fix", "--diff", base, revision}, &patch, &stderr)
	old, err := os.ReadFile(revision)
	if err != nil {
		t.Fatal(err)
	}
	oldLines, newLines := strings.SplitAfter(string(old), "\n"), strings.SplitAfter(fixed.String(), "\n")
	header := regexp.MustCompile(`^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$`)
	hunks := 0
	var oldAt, newAt int
	for _, l := range strings.SplitAfter(patch.String(), "\n") {
		if m := header.FindStringSubmatch(strings.TrimSuffix(l, "\n")); m != nil {
			hunks++
			fmt.Sscan(m[1], &oldAt)
			fmt.Sscan(m[3], &newAt)
			oldAt, newAt = oldAt-1, newAt-1
			continue
		}
		if hunks == 0 || l == "" {
			continue
		}
		body := l[1:]
		if l[0] != '+' {
			if oldLines[oldAt] != body {
				t.Fatalf("revision line %d is %q, the diff says %q", oldAt+1, oldLines[oldAt], body)
			}
			oldAt++
		}
		if l[0] != '-' {
			if newLines[newAt] != body {
				t.Fatalf("fixed line %d is %q, the diff says %q", newAt+1, newLines[newAt], body)
			}
			newAt++
		}
	}
	if hunks < 10 {
		t.Fatalf("%d hunks, want the seed's many:\n%s", hunks, patch.String())
	}
}

// fixOffer is check's offer of apiver fix: how many root changes, and the
// command.
var fixOffer = regexp.MustCompile("(?m)^(\\d+) root changes? can be fixed: `([^`]*)`")

// TestFixOfferedExactly runs the fix that check suggests, as written, on
// every rule case and on the seed's breaking release: the root changes it
// resolves are exactly as many as check said, and check says nothing
// when it resolves none.
func TestFixOfferedExactly(t *testing.T) {
	files, err := filepath.Glob("../../testdata/rules/*/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	offered := 0
	for _, file := range files {
		archive, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Fields(string(archive.Comment))
		if len(args) < 3 || args[0] != "check" {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(file, "../../testdata/rules/"), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Chdir(extractCase(t, archive))
			if assertFixOffer(t, args[1:]) {
				offered++
			}
		})
	}
	t.Run("seed-2026-02-09", func(t *testing.T) {
		if assertFixOffer(t, []string{"../../testdata/seed-history/example-2026-02-08.yaml", "../../testdata/seed-history/example-2026-02-09.yaml"}) {
			offered++
		}
	})
	if offered < 10 {
		t.Fatalf("fix offered in only %d cases", offered)
	}
}

// assertFixOffer checks the offer of one check command line and reports
// whether there was one.
func assertFixOffer(t *testing.T, checkArgs []string) bool {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if run(append([]string{"check", "--format", "markdown"}, checkArgs...), &stdout, &stderr) == 2 {
		return false // an input error: nothing to fix
	}
	before := errorGroups(t, checkArgs)
	m := fixOffer.FindStringSubmatch(stdout.String())
	_, inputs := splitArgs(checkArgs)
	// Beside the revision, for its relative $refs.
	fixed := filepath.Join(filepath.Dir(inputs[1]), "fixed-"+filepath.Base(inputs[1]))
	t.Cleanup(func() { os.RemoveAll(fixed) })
	folder := specs.IsFolder(inputs[1])
	var fixArgs []string
	if m == nil {
		fixArgs = append([]string{"fix"}, checkArgs...)
	} else {
		fixArgs = strings.Fields(m[2])[1:]
		// The offer writes the revision in place (a folder's without
		// -o); here beside it.
		if !folder {
			if n := len(fixArgs); n < 2 || fixArgs[n-2] != "-o" || fixArgs[n-1] != inputs[1] {
				t.Fatalf("the suggestion %q does not write %s", m[2], inputs[1])
			}
			fixArgs = fixArgs[:len(fixArgs)-2]
		}
		if got := fmt.Sprint(fixArgs[len(fixArgs)-2:]); got != fmt.Sprint(inputs) {
			t.Fatalf("the suggestion %q names %s, want the check's inputs %s", m[2], got, inputs)
		}
	}
	var out bytes.Buffer
	if code := run(append(fixArgs, "-o", fixed), &out, &stderr); code == 2 {
		if m != nil {
			t.Fatalf("the suggested fix %q failed: %s", m[2], stderr.String())
		}
		return false
	}
	after := errorGroups(t, append(slices.DeleteFunc(slices.Clone(checkArgs), func(a string) bool { return a == inputs[1] }), fixed))
	resolved := 0
	for id := range before {
		if !after[id] {
			resolved++
		}
	}
	want := 0
	if m != nil {
		fmt.Sscan(m[1], &want)
	}
	if resolved != want {
		t.Errorf("check offered the fix for %d root changes; it resolves %d\n%s", want, resolved, stdout.String())
	}
	return m != nil
}

// errorGroups are the ids of the error root changes a check finds that fail
// it: introduced, not exempted.
func errorGroups(t *testing.T, checkArgs []string) map[string]bool {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"check", "--format", "json"}, checkArgs...), &stdout, &stderr); code == 2 {
		t.Fatalf("check %v: %s", checkArgs, stderr.String())
	}
	var report struct {
		Groups []struct {
			ID         string
			Severity   string
			Exempted   bool
			Introduced bool
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, g := range report.Groups {
		if g.Severity == "error" && !g.Exempted && g.Introduced {
			ids[g.ID] = true
		}
	}
	return ids
}
