package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ciSARIF is the part of a SARIF log these tests read.
type ciSARIF struct {
	Runs []struct {
		Results []struct {
			RuleID    string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI string }
					Region           struct{ StartLine int }
				}
			}
			Properties struct {
				Change       string
				BaseLocation string
				Operations   []struct{ Operation, Version string }
			}
		}
	}
}

// runCheck runs apiver with args and returns stdout; the exit code must be
// want.
func runCheck(t *testing.T, want int, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != want {
		t.Fatalf("apiver %s: exit %d, want %d: %s", strings.Join(args, " "), code, want, stderr.String())
	}
	return stdout.String()
}

func fileLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")
}

// lineOf is the 1-based number of the one line of path that contains s.
func lineOf(t *testing.T, path, s string) int {
	t.Helper()
	found := 0
	for i, l := range fileLines(t, path) {
		if strings.Contains(l, s) {
			if found != 0 {
				t.Fatalf("%s: %q on lines %d and %d", path, s, found, i+1)
			}
			found = i + 1
		}
	}
	if found == 0 {
		t.Fatalf("%s: no line contains %q", path, s)
	}
	return found
}

// TestSharedComponentLocation: two operations $ref one component and the
// revision edits it. Each change is reported once, naming both operations,
// at the component's line in the revision; a removal at the line of the
// revision nearest to it (the enum that held the value), with the base's
// line in the result's properties.
func TestSharedComponentLocation(t *testing.T) {
	archive, err := txtar.ParseFile("testdata/ci/shared-component.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range archive.Files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	const base, revision = "widgets-2026-01-01.yaml", "widgets-2026-02-01.yaml"
	wantOps := []string{"POST /api/example/v2/widgets 2023-01-01", "PATCH /api/example/v2/widgets/{widgetId} 2023-01-01"}
	want := map[string]struct {
		file string
		line int
	}{
		"request-property-enum-value-removed": {revision, lineOf(t, revision, "enum:")},
		"request-property-min-items-set":      {revision, lineOf(t, revision, "minItems: 1")},
	}

	var log ciSARIF
	if err := json.Unmarshal([]byte(runCheck(t, exitPolicy, "check", "--format", "sarif", base, revision)), &log); err != nil {
		t.Fatal(err)
	}
	results := log.Runs[0].Results
	if len(results) != len(want) {
		t.Fatalf("%d results, want one per change: %+v", len(results), results)
	}
	for _, res := range results {
		w, ok := want[res.Properties.Change]
		if !ok {
			t.Errorf("unexpected change %s", res.Properties.Change)
			continue
		}
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != w.file || loc.Region.StartLine != w.line {
			t.Errorf("%s at %s:%d, want %s:%d", res.Properties.Change, loc.ArtifactLocation.URI, loc.Region.StartLine, w.file, w.line)
		}
		if res.Properties.Change == "request-property-enum-value-removed" {
			if want := base + ":" + strconv.Itoa(lineOf(t, base, "- BLUE")); res.Properties.BaseLocation != want {
				t.Errorf("removal's base location %q, want %q", res.Properties.BaseLocation, want)
			}
		}
		var ops []string
		for _, o := range res.Properties.Operations {
			ops = append(ops, o.Operation+" "+o.Version)
		}
		if !slices.Equal(ops, wantOps) {
			t.Errorf("%s names operations %v, want %v", res.Properties.Change, ops, wantOps)
		}
	}

	// GitHub Actions: one annotation per change, on the component's line,
	// naming both operations; then the apiver fix line and the summary.
	annotation := regexp.MustCompile(`^::error file=([^,]+),line=(\d+),title=breaking-change-without-new-version \(([a-z-]+)\)::(.*)$`)
	lines := strings.Split(strings.TrimSuffix(runCheck(t, exitPolicy, "check", "--format", "githubactions", base, revision), "\n"), "\n")
	if len(lines) != len(want)+2 || !strings.HasPrefix(lines[len(want)], "apiver fix: ") {
		t.Fatalf("%d lines, want an annotation per change, the apiver fix line and the summary:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for _, l := range lines[:len(want)] {
		m := annotation.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("not an error annotation on a line: %s", l)
			continue
		}
		w := want[m[3]]
		if m[1] != w.file || m[2] != strconv.Itoa(w.line) {
			t.Errorf("%s annotated at %s:%s, want %s:%d", m[3], m[1], m[2], w.file, w.line)
		}
		for _, op := range []string{"POST /api/example/v2/widgets@2023-01-01", "PATCH /api/example/v2/widgets/{widgetId}@2023-01-01"} {
			if !strings.Contains(m[4], op) {
				t.Errorf("%s annotation does not name %s", m[3], op)
			}
		}
	}
}

// TestSeedLocations checks every located result of the seed's check against
// the fixture's text: the line holds the enum value the change names, or
// the minItems that was set, or the property that was removed or made
// required.
func TestSeedLocations(t *testing.T) {
	t.Chdir("../..")
	var log ciSARIF
	out := runCheck(t, exitPolicy, "check", "--format", "sarif",
		"testdata/seed-history/example-2026-02-08.yaml", "testdata/seed-history/example-2026-02-09.yaml")
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	// The first `quoted` name of a message is the value or property the
	// change is about.
	firstQuoted := regexp.MustCompile("`([^`]*)`")
	checked := map[string]int{}
	for _, res := range log.Runs[0].Results {
		if len(res.Locations) == 0 {
			continue
		}
		loc := res.Locations[0].PhysicalLocation
		file, line := loc.ArtifactLocation.URI, loc.Region.StartLine
		if base := res.Properties.BaseLocation; base != "" {
			// A removal: annotated at the revision's nearest line, which
			// must be in the revision; the base's line holds the change.
			if !strings.HasSuffix(file, "example-2026-02-09.yaml") {
				t.Errorf("%s: removal annotated in %s, want the revision", res.Properties.Change, file)
			}
			i := strings.LastIndex(base, ":")
			file, line = base[:i], atoi(t, base[i+1:])
		}
		lines := fileLines(t, file)
		if line < 1 || line > len(lines) {
			t.Errorf("%s: line %d outside %s", res.Properties.Change, line, file)
			continue
		}
		text := lines[line-1]
		var want string
		switch change := res.Properties.Change; change {
		case "request-property-enum-value-removed", "response-property-enum-value-added":
			want = firstQuoted.FindStringSubmatch(res.Message.Text)[1]
		case "request-property-min-items-set":
			want = "minItems"
		case "request-property-removed", "request-property-became-required":
			name := firstQuoted.FindStringSubmatch(res.Message.Text)[1]
			want = name[strings.LastIndex(name, "/")+1:]
		default:
			t.Errorf("no line check for change %q", change)
			continue
		}
		if !strings.Contains(text, want) {
			t.Errorf("%s in %v at %s:%d: line %q lacks %q", res.Properties.Change, res.Properties.Operations, file, line, text, want)
		}
		checked[res.Properties.Change]++
	}
	// The region values added to a shared component (AzureRegionName, for
	// every operation that uses it) and to two other region enums are one
	// root change, located on one of the lines that gained them.
	var regions []string
	ops := map[string]bool{}
	for _, res := range log.Runs[0].Results {
		if res.Properties.Change == "response-property-enum-value-added" && strings.Contains(res.Message.Text, "US_GOV_ARIZONA") {
			regions = append(regions, res.Message.Text)
			for _, o := range res.Properties.Operations {
				ops[o.Operation] = true
			}
		}
	}
	for _, op := range []string{"GET /api/example/v2/groups/{groupId}/clusters/{clusterName}", "GET /api/example/v2/groups/{groupId}/clusters/{clusterName}/providerSettings"} {
		if len(regions) != 1 || !ops[op] {
			t.Errorf("the region values added are %d root changes reaching %v, want one reaching %s", len(regions), ops, op)
		}
	}
	if checked["request-property-enum-value-removed"] == 0 || checked["request-property-min-items-set"] == 0 || checked["response-property-enum-value-added"] == 0 {
		t.Errorf("results checked per change: %v", checked)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSARIFSchema validates the seed's SARIF, failing and exempted, against
// the official SARIF 2.1.0 schema kept in printer/testdata.
func TestSARIFSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	schema, err := c.Compile("../../printer/testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	const base, revision = "testdata/seed-history/example-2026-02-08.yaml", "testdata/seed-history/example-2026-02-09.yaml"
	for name, c := range map[string]struct {
		code int
		args []string
	}{
		"failing":  {exitPolicy, []string{"check", "--format", "sarif", base, revision}},
		"exempted": {exitPass, []string{"check", "--format", "sarif", "--exemptions", "testdata/seed-history/exemptions.yaml", base, revision}},
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(runCheck(t, c.code, c.args...)))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s: not valid SARIF 2.1.0: %v", name, err)
		}
	}
}
