package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	"github.com/google/go-cmp/cmp"
)

// widgets is GET /widgets with a media type per version; a version in
// levels is marked with that x-stability-level on its media type.
func widgets(versions []string, levels map[string]string) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /widgets:\n    get:\n      responses:\n        \"200\":\n          description: OK\n          content:\n")
	for _, v := range versions {
		fmt.Fprintf(&b, "            application/vnd.example.%s+json:\n              schema: {type: object}\n", v)
		if level := levels[v]; level != "" {
			fmt.Fprintf(&b, "              x-stability-level: %s\n", level)
		}
	}
	return b.String()
}

func loadText(t *testing.T, name, text string, date civil.Date) *specs.Snapshot {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := load.Load(path, specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Date = date
	return s
}

func config(t *testing.T, text string) Config {
	t.Helper()
	cfg, err := ParseConfig("apiver.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func day(s string) civil.Date {
	d, err := civil.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

// TestLifecyclePerStability: each version runs its level's clock; a
// pre-release of a level without a period keeps none. A pre-release is
// deprecated by the oldest newer version at least as stable.
func TestLifecyclePerStability(t *testing.T) {
	t.Parallel()
	levels := map[string]string{"2024-02-01": "beta", "2024-03-01": "beta", "2024-04-01": "alpha"}
	s := loadText(t, "api.yaml", widgets([]string{"2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01", "2024-05-01"}, levels), civil.Date{})
	type row struct{ Version, State, Deprecated, Sunset, Successor string }
	for _, c := range []struct {
		config string
		want   []row
	}{
		{"", []row{
			{"2024-01-01", "deprecated", "2024-05-01", "2025-05-01", "2024-05-01"},
			{"2024-02-01", "pre-release", "", "", ""},
			{"2024-03-01", "pre-release", "", "", ""},
			{"2024-04-01", "pre-release", "", "", ""},
			{"2024-05-01", "stable", "", "", ""},
		}},
		{"sunset: {stable: 2 weeks, beta: 91 days}", []row{
			{"2024-01-01", "sunset-overdue", "2024-05-01", "2024-05-15", "2024-05-01"},
			// The next beta deprecates it: 2024-03-01 + 91 days.
			{"2024-02-01", "sunset-overdue", "2024-03-01", "2024-05-31", "2024-03-01"},
			// The newer alpha does not; the release does.
			{"2024-03-01", "deprecated", "2024-05-01", "2024-07-31", "2024-05-01"},
			{"2024-04-01", "pre-release", "", "", ""},
			{"2024-05-01", "stable", "", "", ""},
		}},
		{"deprecationMonths: 1\nsunset: {experimental: 1 day}", []row{
			{"2024-01-01", "sunset-overdue", "2024-05-01", "2024-06-01", "2024-05-01"},
			{"2024-02-01", "pre-release", "", "", ""},
			{"2024-03-01", "pre-release", "", "", ""},
			{"2024-04-01", "sunset-overdue", "2024-05-01", "2024-05-02", "2024-05-01"},
			{"2024-05-01", "stable", "", "", ""},
		}},
	} {
		cfg := config(t, c.config)
		clock := Clock{Periods: cfg.Periods(), Today: day("2024-06-15")}
		var got []row
		for _, l := range clock.Lifecycles(s, versions.Operations(s.Doc, "example")) {
			if l.Operation != "GET /widgets" {
				t.Errorf("%q: operation %q", c.config, l.Operation)
			}
			got = append(got, row{l.Version, string(l.State), dateText(l.DeprecatedOn), dateText(l.SunsetOn), l.Successor})
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.config, diff)
		}
	}
}

// TestCheckPerStability: the check holds a pre-release to its level's
// period only when the config gives it one, and x-sunset may lengthen the
// period, never shorten it.
func TestCheckPerStability(t *testing.T) {
	t.Parallel()
	levels := map[string]string{"2024-02-01": "beta", "2024-03-01": "beta"}
	baseText := widgets([]string{"2024-01-01", "2024-02-01", "2024-03-01"}, levels)
	base := loadText(t, "base.yaml", baseText, day("2024-03-01"))
	line := 0
	for i, l := range strings.Split(baseText, "\n") {
		if strings.Contains(l, "vnd.example.2024-02-01+json") {
			line = i + 1
		}
	}
	removed := loadText(t, "revision.yaml", widgets([]string{"2024-01-01", "2024-03-01"}, levels), day("2024-04-01"))
	short := loadText(t, "revision.yaml", strings.Replace(widgets([]string{"2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"}, map[string]string{"2024-02-01": "beta", "2024-03-01": "beta", "2024-04-01": "beta"}),
		"x-stability-level: beta\n", "x-stability-level: beta\n              x-sunset: \"2024-03-15\"\n", 1), day("2024-04-01"))
	type finding struct {
		Rule, Operation, Version string
		Line                     int
	}
	for _, c := range []struct {
		name, config string
		revision     *specs.Snapshot
		want         []finding
	}{
		{"a beta removed without a clock", "", removed, nil},
		{"a beta removed before its sunset", "sunset: {beta: 91 days}", removed, []finding{{VersionRemovedBeforeSunset, "GET /widgets", "2024-02-01", line}}},
		{"a beta removed on its sunset", "sunset: {beta: 1 month}", removed, nil},
		{"an x-sunset shorter than the beta period", "sunset: {beta: 91 days}", short, []finding{{SunsetTooEarly, "GET /widgets", "2024-02-01", 0}}},
		{"an x-sunset no shorter than it", "sunset: {beta: 1 week}", short, []finding{{SunsetOverdueRule, "GET /widgets", "2024-02-01", 0}}},
		{"an x-sunset without a clock", "", short, nil},
	} {
		cfg := config(t, c.config)
		res, err := diff.Compare(base, c.revision, diff.Options{Product: "example", Levels: cfg.ChangeLevels(), Date: c.revision.Date})
		if err != nil {
			t.Fatal(err)
		}
		report := Check(Input{Base: base, Revision: c.revision, Result: res, Date: c.revision.Date, Config: cfg})
		var got []finding
		for _, f := range report.Findings {
			if f.Rule == NewVersionWithoutBreakingChange {
				continue // the fixture's versions do not differ
			}
			fd := finding{f.Rule, f.Operation, f.Version, 0}
			if f.Rule == VersionRemovedBeforeSunset && f.Location != nil {
				fd.Line = f.Location.Line
			}
			got = append(got, fd)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}
