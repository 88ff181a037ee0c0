package site_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/PuerkitoBio/goquery"
	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/site"
	"github.com/google/go-cmp/cmp"
)

const seedHistory = "../testdata/golden/changelog.json"

func seedReleases(t *testing.T) []changelog.Release {
	t.Helper()
	h, err := changelog.Read(seedHistory)
	if err != nil {
		t.Fatal(err)
	}
	releases, err := h.Releases()
	if err != nil {
		t.Fatal(err)
	}
	return releases
}

func seedOptions() site.Options {
	return site.Options{Title: "Example API changelog", AsOf: civil.Date{Year: 2026, Month: 2, Day: 11}}
}

func buildSeedSite(t *testing.T, dir string) {
	t.Helper()
	files, err := site.Build(seedReleases(t), seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := site.Write(dir, files); err != nil {
		t.Fatal(err)
	}
}

func document(t *testing.T, files site.Files, path string) *goquery.Document {
	t.Helper()
	data, ok := files[path]
	if !ok {
		t.Fatalf("the site has no %s", path)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestReleasePagesHaveEverySection93Item checks the release pages of the
// seed history against the dated change history of the seed's section 9.3.
func TestReleasePagesHaveEverySection93Item(t *testing.T) {
	t.Parallel()
	files, err := site.Build(seedReleases(t), seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		words    []string
		breaking bool
	}
	want := map[string][]item{
		"2026-02-11": {
			{[]string{"streamConfig"}, false},
			{[]string{"AZURE_BLOB_LOG_EXPORT", "Removed the enum values", "request property"}, true},
			{[]string{"mapping keys", "discriminator"}, false},
		},
		"2026-02-10": {{[]string{"ORG_LOCKED_ACCELERATED", "events"}, false}},
		"2026-02-09": {
			{[]string{"notifications", "minItems", "Any Other"}, true},
			{[]string{"notifications", "minItems", "Stream Processor"}, true},
			{[]string{"logTypes", "became required"}, true},
			{[]string{"GROUP_BACKUP_MANAGER", "POST /api/example/v2/orgs/{orgId}/apiKeys"}, true},
			{[]string{"Use-Effective-Fields-Replication-Specs", "header"}, false},
			{[]string{"deleteAfterCreationHours"}, false},
			{[]string{"deleteAfterDate"}, false},
			{[]string{"effectiveReplicationSpecs"}, false},
			{[]string{"US_GOV_ARIZONA", "US_GOV_TEXAS", "US_GOV_VIRGINIA", "providerSettings/regionName"}, false},
			{[]string{"AZURE_US_GOVERNMENT"}, false},
			{[]string{"MODIFY_STREAM_PROCESSOR"}, false},
			{[]string{"copyPolicyItemsEnabled"}, false},
			{[]string{"copySettings/items/lastNumberOfSnapshots"}, false},
			{[]string{"deleteCopySnapshots"}, false},
			{[]string{"portMappingEnabled"}, false},
			{[]string{"connections/items/region"}, false},
			{[]string{"bucketName"}, false},
			{[]string{"405"}, false},
			{[]string{"PAYMENT_METHOD_FLAGGED", "MARKETPLACE_REFUND_ISSUED"}, false},
			{[]string{"MONGOD_AUDIT"}, true},
			{[]string{"AZURE_BLOB_LOG_EXPORT", "Added the new", "request property"}, false},
		},
	}
	for date, items := range want {
		doc := document(t, files, "releases/"+date+".html")
		var changes []*goquery.Selection
		doc.Find("li.change").Each(func(_ int, s *goquery.Selection) { changes = append(changes, s) })
	items:
		for _, it := range items {
			for _, c := range changes {
				text := strings.Join(strings.Fields(c.Text()), " ")
				if !containsAll(text, it.words) {
					continue
				}
				if got := c.HasClass("breaking"); got != it.breaking {
					t.Errorf("%s: %q is breaking=%v, want %v", date, text, got, it.breaking)
				}
				continue items
			}
			t.Errorf("releases/%s.html has no change with %q", date, it.words)
		}
	}
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

func TestIndexListsReleasesNewestFirstWithCounts(t *testing.T) {
	t.Parallel()
	releases := seedReleases(t)
	files, err := site.Build(releases, seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	doc := document(t, files, "index.html")
	var dates []string
	doc.Find("section.release h2").Each(func(_ int, s *goquery.Selection) { dates = append(dates, s.Text()) })
	if diff := cmp.Diff([]string{"2026-02-11", "2026-02-10", "2026-02-09", "2026-02-08", "2024-03-01", "2023-02-01"}, dates); diff != "" {
		t.Errorf("index releases (-want +got):\n%s", diff)
	}
	counts := strings.Join(strings.Fields(doc.Find("#r-2023-02-01").Parent().Find(".counts").Text()), " ")
	for _, want := range []string{"5 deprecations", "21 additions", "60 other changes"} {
		if !strings.Contains(counts, want) {
			t.Errorf("2023-02-01 counts %q lack %q", counts, want)
		}
	}
	// The newest release shows its changes; the others fold them under
	// their counts, a summary naming how many operations changed.
	doc.Find("section.release").Each(func(i int, s *goquery.Selection) {
		fold := s.Find("details.changes")
		if fold.Length() == 0 && strings.TrimSpace(s.Find(".counts").Text()) == "No changes" {
			return
		}
		if fold.Length() != 1 || fold.Find("li.change").Length() == 0 {
			t.Fatalf("%s: the changes are not in one fold", s.Find("h2").Text())
		}
		if _, open := fold.Attr("open"); open != (i == 0) {
			t.Errorf("%s: open=%v, want only the newest release open", s.Find("h2").Text(), open)
		}
		if summary := fold.Children().First(); !summary.Is("summary") || !strings.Contains(summary.Text(), "operation") {
			t.Errorf("%s: the fold opens with %q", s.Find("h2").Text(), summary.Text())
		}
	})
	if got := strings.TrimSpace(doc.Find("#r-2026-02-10").Parent().Find("summary").Text()); got != "What changed in 1 operation" {
		t.Errorf("2026-02-10 summary %q", got)
	}
	// Breaking changes come first in each release and stand out.
	doc.Find("section.release").Each(func(_ int, s *goquery.Selection) {
		seenOther := false
		s.Find("li.change").Each(func(_ int, c *goquery.Selection) {
			if c.HasClass("breaking") {
				if seenOther {
					t.Errorf("%s: breaking change after a non-breaking one", s.Find("h2").Text())
				}
				if c.Find(".badge").Text() != "Breaking" {
					t.Errorf("breaking change without its badge: %q", c.Text())
				}
			} else {
				seenOther = true
			}
		})
	})
	// Without JavaScript the filter stays hidden and nothing is hidden.
	if _, hidden := doc.Find("#filter").Attr("hidden"); !hidden {
		t.Error("the filter form shows without JavaScript")
	}
	if n := doc.Find("li.change[hidden], section[hidden]").Length(); n > 0 {
		t.Errorf("%d changes hidden without JavaScript", n)
	}
	if doc.Find(`script[src^="http"], link[href^="http"]`).Length() > 0 {
		t.Error("a page fetches something from the network")
	}
}

func TestResourcePageTimeline(t *testing.T) {
	t.Parallel()
	files, err := site.Build(seedReleases(t), seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	doc := document(t, files, "resources/get-api-example-v2-groups-groupid-clusters.html")
	rows := map[string][]string{}
	doc.Find("table.versions tbody tr").Each(func(_ int, s *goquery.Selection) {
		var cells []string
		s.Find("th, td").Each(func(_ int, c *goquery.Selection) { cells = append(cells, c.Text()) })
		rows[cells[0]] = cells[1:]
	})
	want := map[string][]string{
		"2023-01-01": {"2023-01-01", "2023-02-01", "2024-02-01", "2024-03-01", "2023-02-01"},
		"2023-02-01": {"2023-02-01", "—", "—", "—", ""},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("clusters versions (-want +got):\n%s", diff)
	}
	svg := doc.Find("figure.timeline svg")
	if svg.Length() != 1 {
		t.Fatal("no timeline")
	}
	if svg.Find("rect.deprecated").Length() != 1 || svg.Find("rect.stable").Length() != 2 {
		t.Errorf("timeline segments: %d stable, %d deprecated", svg.Find("rect.stable").Length(), svg.Find("rect.deprecated").Length())
	}
	if !strings.Contains(svg.Find("text.note").Text(), "removed 2024-03-01") {
		t.Errorf("timeline notes %q lack the removal", svg.Find("text.note").Text())
	}
	// Changes newest first.
	var dates []string
	doc.Find("section.release h3").Each(func(_ int, s *goquery.Selection) { dates = append(dates, s.Text()) })
	if !slices.IsSortedFunc(dates, func(a, b string) int { return strings.Compare(b, a) }) || len(dates) < 3 {
		t.Errorf("resource change dates %v, want several, newest first", dates)
	}
}

func TestDeprecationsOverdueFirst(t *testing.T) {
	t.Parallel()
	opts := seedOptions()
	opts.AsOf = civil.Date{Year: 2024, Month: 2, Day: 20}
	opts.Deprecations = []site.Deprecation{
		{Operation: "GET /api/example/v2/groups/{groupId}/clusters", Version: "2023-02-01", Sunset: civil.Date{Year: 2024, Month: 8, Day: 1}, Successor: "2024-08-01"},
	}
	// The history as of the 2023-02-01 release: 2023-01-01 deprecated, not yet removed.
	var releases []changelog.Release
	for _, r := range seedReleases(t) {
		if r.Date <= "2023-02-01" {
			releases = append(releases, r)
		}
	}
	files, err := site.Build(releases, opts)
	if err != nil {
		t.Fatal(err)
	}
	doc := document(t, files, "deprecations.html")
	var rows [][]string
	doc.Find("table.deprecations tbody tr").Each(func(_ int, s *goquery.Selection) {
		var cells []string
		s.Find("td").Each(func(_ int, c *goquery.Selection) { cells = append(cells, strings.Join(strings.Fields(c.Text()), " ")) })
		if s.HasClass("overdue") {
			cells = append(cells, "overdue")
		}
		rows = append(rows, cells)
	})
	if len(rows) != 6 {
		t.Fatalf("deprecations: %d rows, want 5 from the history and 1 from the snapshot: %v", len(rows), rows)
	}
	first := rows[0]
	if first[1] != "2023-01-01" || first[2] != "2024-02-01" || first[3] != "overdue by 19 days" || first[5] != "overdue" {
		t.Errorf("first row %q, want an overdue 2023-01-01 version", first)
	}
	last := rows[len(rows)-1]
	if diff := cmp.Diff([]string{"GET /api/example/v2/groups/{groupId}/clusters", "2023-02-01", "2024-08-01", "163 days", "2024-08-01"}, last); diff != "" {
		t.Errorf("last row (-want +got):\n%s", diff)
	}
}

// atom is the part of RFC 4287 the test checks.
type atom struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Author  struct {
		Name string `xml:"name"`
	} `xml:"author"`
	Entries []struct {
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Link    struct {
			Href string `xml:"href,attr"`
			Rel  string `xml:"rel,attr"`
		} `xml:"link"`
		Content struct {
			Type string `xml:"type,attr"`
			Body string `xml:",chardata"`
		} `xml:"content"`
	} `xml:"entry"`
}

func TestFeed(t *testing.T) {
	t.Parallel()
	releases := seedReleases(t)
	opts := seedOptions()
	opts.BaseURL = "https://example.test/changelog/"
	files, err := site.Build(releases, opts)
	if err != nil {
		t.Fatal(err)
	}
	var feed atom
	if err := xml.Unmarshal(files["feed.xml"], &feed); err != nil {
		t.Fatal(err)
	}
	if feed.ID != "https://example.test/changelog/feed.xml" || feed.Title == "" || feed.Updated != "2026-02-11T00:00:00Z" || feed.Author.Name == "" {
		t.Errorf("feed head: id %q title %q updated %q author %q", feed.ID, feed.Title, feed.Updated, feed.Author.Name)
	}
	if len(feed.Entries) != len(releases) {
		t.Fatalf("%d entries for %d releases", len(feed.Entries), len(releases))
	}
	for i, e := range feed.Entries {
		page := "https://example.test/changelog/releases/" + releases[i].Date + ".html"
		if e.ID != page || e.Link.Href != page || e.Updated != releases[i].Date+"T00:00:00Z" || e.Title == "" || e.Content.Type != "html" {
			t.Errorf("entry %d: %+v", i, e)
		}
	}
	if !strings.Contains(feed.Entries[1].Content.Body, "<code>ORG_LOCKED_ACCELERATED</code>") {
		t.Errorf("2026-02-10 entry content lacks its change: %s", feed.Entries[1].Content.Body)
	}
	for _, e := range feed.Entries {
		if strings.Contains(e.Content.Body, "`") {
			t.Errorf("%s: raw backticks in the feed: %s", e.ID, e.Content.Body)
		}
	}
	// Without a base URL the ids are still absolute IRIs and stable.
	opts.BaseURL = ""
	files, err = site.Build(releases, opts)
	if err != nil {
		t.Fatal(err)
	}
	feed = atom{}
	if err := xml.Unmarshal(files["feed.xml"], &feed); err != nil {
		t.Fatal(err)
	}
	if feed.Entries[0].ID != "urn:apiver:example-api-changelog:releases/2026-02-11.html" || feed.Entries[0].Link.Href != "releases/2026-02-11.html" {
		t.Errorf("entry without base URL: id %q link %q", feed.Entries[0].ID, feed.Entries[0].Link.Href)
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	t.Parallel()
	releases := seedReleases(t)
	first, err := site.Build(releases, seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := site.Build(releases, seedOptions())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, again); diff != "" {
			t.Fatalf("two builds differ:\n%s", diff)
		}
	}
}

func TestWriteReplacesOnlyASite(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	buildSeedSite(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "stale.html"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	buildSeedSite(t, dir)
	if _, err := os.Stat(filepath.Join(dir, "stale.html")); err == nil {
		t.Error("a file of the old site survived the rebuild")
	}
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("beside the site: %v, want nothing left over", entries)
	}

	precious := t.TempDir()
	if err := os.WriteFile(filepath.Join(precious, "notes.txt"), []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := site.Build(seedReleases(t), seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := site.Write(precious, files); err == nil {
		t.Fatal("Write replaced a folder that is not a site")
	}
	if data, err := os.ReadFile(filepath.Join(precious, "notes.txt")); err != nil || string(data) != "years of work" {
		t.Errorf("the folder was touched: %q %v", data, err)
	}
}

// TestWriteFailingMidwayKeepsTheOldSite: a write that fails after some
// files leaves the old site whole and nothing beside it.
func TestWriteFailingMidwayKeepsTheOldSite(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	buildSeedSite(t, dir)
	before, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := site.Build(seedReleases(t), seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	files["index.html"] = []byte("new")
	// A file where a later file needs a folder: writing fails midway.
	files["releases/2026-02-09.html/x"] = []byte("x")
	if err := site.Write(dir, files); err == nil {
		t.Fatal("Write succeeded")
	}
	after, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the old index changed: %v", err)
	}
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("beside the site: %v, want nothing left over", entries)
	}
}

// TestMigrationGuides: the clusters bump of 2023-02-01 gets its guide page,
// linked from the release line, listing each operation's changes.
func TestMigrationGuides(t *testing.T) {
	t.Parallel()
	files, err := site.Build(seedReleases(t), seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	const guide = "migrate/2023-01-01-to-2023-02-01.html"
	doc := document(t, files, guide)
	var ops []string
	doc.Find("section.guide h2").Each(func(_ int, s *goquery.Selection) { ops = append(ops, s.Text()) })
	if len(ops) != 5 || !slices.Contains(ops, "POST /api/example/v2/groups/{groupId}/clusters") {
		t.Errorf("the guide covers %q, want the 5 clusters operations", ops)
	}
	if text := doc.Find("main").Text(); !strings.Contains(text, "replicationSpecs/items/regionConfigs") || !strings.Contains(text, "srvAddress") {
		t.Errorf("the guide lacks the clusters changes:\n%s", text)
	}
	release := document(t, files, "releases/2023-02-01.html")
	if href, _ := release.Find("li.change a.guide").Attr("href"); href != "../"+guide {
		t.Errorf("the release line links %q, want ../%s", href, guide)
	}
}

func TestSearchIndexHoldsEveryRelease(t *testing.T) {
	t.Parallel()
	files, err := site.Build(seedReleases(t), seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	script := string(files["search-index.js"])
	const prefix = "window.apiverSearchIndex = "
	start := strings.Index(script, prefix)
	if start < 0 {
		t.Fatalf("search-index.js does not set the index:\n%.200s", script)
	}
	var index struct {
		Operations []string `json:"operations"`
		Lines      []struct {
			Date   string `json:"d"`
			Text   string `json:"t"`
			Anchor string `json:"a"`
		} `json:"lines"`
	}
	body := strings.TrimSuffix(strings.TrimSpace(script[start+len(prefix):]), ";")
	if err := json.Unmarshal([]byte(body), &index); err != nil {
		t.Fatal(err)
	}
	dates := map[string]bool{}
	for _, l := range index.Lines {
		dates[l.Date] = true
		if strings.Contains(l.Text, "ORG_LOCKED_ACCELERATED") {
			page := document(t, files, "releases/"+l.Date+".html")
			if page.Find("#"+l.Anchor).Length() != 1 {
				t.Errorf("releases/%s.html has no line #%s", l.Date, l.Anchor)
			}
		}
	}
	for _, r := range seedReleases(t) {
		if len(r.Changes) > 0 && !dates[r.Date] {
			t.Errorf("the search index has no line of %s", r.Date)
		}
	}
}

func TestResourcePageShowsTheSunsetRule(t *testing.T) {
	t.Parallel()
	files, err := site.Build(seedReleases(t), seedOptions())
	if err != nil {
		t.Fatal(err)
	}
	doc := document(t, files, "resources/get-api-example-v2-groups-groupid-clusters.html")
	rule := strings.Join(strings.Fields(doc.Find("ul.sunset-rule").Text()), " ")
	if want := "2023-01-01: deprecated 2023-02-01, the day 2023-02-01 was released; sunset 2024-02-01 = 2023-02-01 + 12 months."; rule != want {
		t.Errorf("sunset rule %q, want %q", rule, want)
	}
}

// TestResourcePageShowsThePeriods: when the config gives unstable levels
// periods, the sunset rule lists every level's period first.
func TestResourcePageShowsThePeriods(t *testing.T) {
	t.Parallel()
	opts := seedOptions()
	opts.Periods = policy.Periods{policy.LevelStable: {N: 12, Unit: "month"}, policy.LevelBeta: {N: 91, Unit: "day"}, policy.LevelAlpha: {N: 1, Unit: "day"}}
	files, err := site.Build(seedReleases(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	doc := document(t, files, "resources/get-api-example-v2-groups-groupid-clusters.html")
	var rules []string
	doc.Find("ul.sunset-rule li").Each(func(_ int, li *goquery.Selection) {
		rules = append(rules, strings.Join(strings.Fields(li.Text()), " "))
	})
	want := []string{
		"Deprecation periods: stable 12 months, beta 91 days, alpha 1 day.",
		"2023-01-01: deprecated 2023-02-01, the day 2023-02-01 was released; sunset 2024-02-01 = 2023-02-01 + 12 months.",
	}
	if !slices.Equal(rules, want) {
		t.Errorf("sunset rules %q, want %q", rules, want)
	}
}

func TestDeprecationsToggleIsOverdueOnly(t *testing.T) {
	t.Parallel()
	opts := seedOptions()
	opts.AsOf = civil.Date{Year: 2024, Month: 2, Day: 20}
	files, err := site.Build(seedReleases(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	doc := document(t, files, "deprecations.html")
	if label := strings.TrimSpace(doc.Find("label.toggle").Text()); label != "Overdue only" {
		t.Errorf("the deprecations toggle reads %q", label)
	}
	if doc.Find("tr.change.breaking").Length() == 0 {
		t.Error("no overdue row for the toggle to keep")
	}
}

// TestResourceURLsStayAsTheHistoryGrows: an operation whose name slugs as
// an older one's does not take its page's URL away; a name too long for a
// file and one that would slug as the resources' index get a hash.
func TestResourceURLsStayAsTheHistoryGrows(t *testing.T) {
	change := func(op string) changelog.Entry {
		return changelog.Entry{Operation: op, Version: "2024-01-01", ID: "endpoint-added", Text: "endpoint added"}
	}
	pages := func(releases []changelog.Release) []string {
		files, err := site.Build(releases, site.Options{Title: "t", AsOf: civil.Date{Year: 2024, Month: 3, Day: 1}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for p := range files {
			if strings.HasPrefix(p, "resources/") && p != "resources/index.html" {
				out = append(out, p)
			}
		}
		slices.Sort(out)
		return out
	}
	first := []changelog.Release{{Date: "2024-01-01", Changes: []changelog.Entry{change("GET /api/a/b")}}}
	if got, want := pages(first), []string{"resources/get-api-a-b.html"}; !slices.Equal(got, want) {
		t.Fatalf("pages %q, want %q", got, want)
	}
	long := "GET /" + strings.Repeat("segment/", 40)
	grown := append([]changelog.Release{{Date: "2024-02-01", Changes: []changelog.Entry{change("GET /api/a-b"), change("INDEX /"), change(long)}}}, first...)
	got := pages(grown)
	if !slices.Contains(got, "resources/get-api-a-b.html") {
		t.Errorf("the older operation lost its page's URL: %q", got)
	}
	for _, p := range got {
		if len(filepath.Base(p)) > 255 {
			t.Errorf("page name longer than a file name may be: %s", p)
		}
	}
	if len(got) != 4 || slices.Contains(got, "resources/index.html") {
		t.Errorf("want 4 pages besides the index, got %q", got)
	}
}
