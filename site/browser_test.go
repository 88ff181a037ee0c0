package site_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/internal/longtest"
	"github.com/apiver/apiver/pipeline"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/site"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowser drives headless Chromium over the seed site served on
// 127.0.0.1 as a reader would: filter the index (which opens the folded
// releases that match), toggle breaking only, open a resource page.
// Screenshots go to $APIVER_SCREENSHOTS when set.
func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	// Two deprecations from the snapshot give the deprecations page rows,
	// one overdue, both of long operations.
	opts := seedOptions()
	opts.Deprecations = []site.Deprecation{
		{Operation: "PATCH /api/example/v2/federationSettings/{federationSettingsId}/identityProviders/{identityProviderId}", Version: "2023-01-01", Sunset: civil.Date{Year: 2025, Month: 11, Day: 1}, Successor: "2026-02-11"},
		{Operation: "GET /api/example/v2/groups/{groupId}/clusters/{clusterName}/backup/schedule", Version: "2023-01-01", Sunset: civil.Date{Year: 2026, Month: 8, Day: 1}},
	}
	files, err := site.Build(seedReleases(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := site.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	b.serve(dir)
	ctx, do, eval, screenshot := b.ctx, b.do, b.eval, b.screenshot
	clearFilter := chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.getElementById("filter-text").value = "", true)`))
		return err
	})
	const visibleChanges = `[...document.querySelectorAll(".change")].filter(e => e.checkVisibility()).map(e => e.textContent.replace(/\s+/g, " ").trim())`
	const visibleReleases = `[...document.querySelectorAll("section.release")].filter(e => e.checkVisibility()).map(e => e.querySelector("h2").textContent)`

	do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(b.url+"/index.html"), chromedp.WaitVisible("#filter-text"))
	// The newest release shows its changes; the others fold them under
	// their counts, and the page holds them all for the filter.
	all := eval(`[...document.querySelectorAll(".change")].map(e => e.textContent)`)
	if len(all) < 20 {
		t.Fatalf("index holds %d changes, want the seed history's (at least 20)", len(all))
	}
	const openReleases = `[...document.querySelectorAll("details.changes[open]")].map(e => e.closest("section").dataset.date)`
	if open := eval(openReleases); strings.Join(open, ",") != "2026-02-11" {
		t.Errorf("index opens releases %q, want only the newest, 2026-02-11", open)
	}
	newest := eval(`[...document.querySelectorAll('[data-date="2026-02-11"] .change')].map(e => e.textContent)`)
	if shown := eval(visibleChanges); len(newest) == 0 || len(shown) != len(newest) {
		t.Errorf("index shows %d changes, want the %d of 2026-02-11", len(shown), len(newest))
	}
	screenshot("index.png")

	do(chromedp.SendKeys("#filter-text", "org_locked"))
	matching := eval(visibleChanges)
	if len(matching) != 1 || !strings.Contains(matching[0], "ORG_LOCKED_ACCELERATED") {
		t.Errorf("filter org_locked shows %q, want the one ORG_LOCKED_ACCELERATED change", matching)
	}
	if releases := eval(visibleReleases); strings.Join(releases, ",") != "2026-02-10" {
		t.Errorf("filter org_locked shows releases %q, want only 2026-02-10", releases)
	}
	screenshot("index-filtered.png")
	// Clearing the filter folds again what the filter opened.
	do(clearFilter, chromedp.SendKeys("#filter-text", " "))
	if open := eval(openReleases); strings.Join(open, ",") != "2026-02-11" {
		t.Errorf("after the filter is cleared the index opens %q, want only 2026-02-11", open)
	}

	// A version and an operation together narrow to that operation-version.
	do(clearFilter, chromedp.SendKeys("#filter-text", "2023-02-01 deleteAfterDate"))
	for _, c := range eval(visibleChanges) {
		if !strings.Contains(c, "2023-02-01") || !strings.Contains(c, "deleteAfterDate") {
			t.Errorf("filter %q shows %q", "2023-02-01 deleteAfterDate", c)
		}
	}

	do(clearFilter, chromedp.SendKeys("#filter-text", " "), chromedp.Click("#filter-breaking"))
	breaking := eval(visibleChanges)
	if len(breaking) == 0 || len(breaking) >= len(all) {
		t.Errorf("breaking only shows %d of %d changes", len(breaking), len(all))
	}
	for _, c := range breaking {
		if !strings.HasPrefix(c, "Breaking") {
			t.Errorf("breaking only shows a change that is not breaking: %q", c)
		}
	}
	screenshot("index-breaking.png")

	do(chromedp.Navigate(b.url+"/resources/index.html"), chromedp.WaitVisible("#filter-text"),
		chromedp.Click(`a[href="get-api-example-v2-groups-groupid-clusters.html"]`), chromedp.WaitVisible("figure.timeline svg"))
	timeline := eval(`[...document.querySelectorAll("figure.timeline svg title")].map(e => e.textContent)`)
	joined := strings.Join(timeline, "\n")
	for _, want := range []string{"2023-01-01 deprecated 2023-02-01", "removed 2024-03-01", "2023-02-01 released 2023-02-01"} {
		if !strings.Contains(joined, want) {
			t.Errorf("clusters timeline lacks %q; titles:\n%s", want, joined)
		}
	}
	screenshot("resource-clusters.png")

	do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
		})
		return err
	}))
	background := eval(`[getComputedStyle(document.body).backgroundColor]`)
	if background[0] != "rgb(13, 17, 23)" {
		t.Errorf("dark scheme background is %s", background[0])
	}
	screenshot("resource-clusters-dark.png")
	do(chromedp.Navigate(b.url+"/releases/2026-02-09.html"), chromedp.WaitVisible("#filter-text"))
	screenshot("release-dark.png")
	do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}},
		})
		return err
	}))

	// The filter searches the whole history: on the newest release's page,
	// a change that only an older release's page shows is found and linked.
	do(chromedp.Navigate(b.url+"/releases/2026-02-11.html"), chromedp.WaitVisible("#filter-text"),
		chromedp.SendKeys("#filter-text", "org_locked"), chromedp.WaitVisible("#filter-elsewhere li"))
	found := eval(`[...document.querySelectorAll("#filter-elsewhere li")].map(e => e.textContent + " " + e.querySelector("a").getAttribute("href"))`)
	if len(found) != 1 || !strings.Contains(found[0], "ORG_LOCKED_ACCELERATED") || !strings.Contains(found[0], "2026-02-10.html#c-") {
		t.Fatalf("the filter finds %q elsewhere, want the ORG_LOCKED_ACCELERATED change of 2026-02-10", found)
	}
	screenshot("release-search-elsewhere.png")
	do(chromedp.Click("#filter-elsewhere li a"), chromedp.WaitVisible("#filter-text"))
	if target := eval(`[location.pathname, document.querySelector(location.hash) ? document.querySelector(location.hash).textContent : ""]`); !strings.HasSuffix(target[0], "/releases/2026-02-10.html") || !strings.Contains(target[1], "ORG_LOCKED_ACCELERATED") {
		t.Errorf("the search result leads to %q", target)
	}

	// On a phone (390 px) no page is wider than the screen, and each
	// deprecation's sunset and days left are on it, not scrolled away.
	do(chromedp.EmulateViewport(390, 844))
	for _, page := range []struct{ path, shot string }{
		{"/index.html", "mobile-index.png"},
		{"/releases/2026-02-09.html", "mobile-release.png"},
		{"/resources/get-api-example-v2-groups-groupid-clusters.html", "mobile-resource-clusters.png"},
		{"/resources/index.html", "mobile-resources.png"},
		{"/deprecations.html", "mobile-deprecations.png"},
	} {
		do(chromedp.Navigate(b.url+page.path), chromedp.WaitVisible("footer"))
		widths, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
		if err != nil {
			t.Fatal(err)
		}
		if widths[0] > widths[1] {
			t.Errorf("%s at 390 px: scrollWidth %d > innerWidth %d", page.path, widths[0], widths[1])
		}
		screenshot(page.shot)
	}
	// Each cell is its text and whether it lies inside the screen.
	cells := eval(`[...document.querySelectorAll("table.deprecations tbody tr")].flatMap(row =>
		[row.cells[2], row.cells[3]].map(c => {
			const r = c.getBoundingClientRect();
			return c.textContent + (c.checkVisibility() && r.width > 0 && r.left >= 0 && r.right <= window.innerWidth ? " on screen" : " off screen");
		}))`)
	if want := []string{"2025-11-01 on screen", "overdue by 102 days on screen", "2026-08-01 on screen", "171 days on screen"}; !slices.Equal(cells, want) {
		t.Errorf("deprecations at 390 px: sunset and days left %q, want %q", cells, want)
	}
}

// TestBrowserRealIndexHeight builds the site of the real corpus and reads
// its index as a desktop reader would: at 1280×900 the whole page is at
// most 10 screens (measured: 5.6).
func TestBrowserRealIndexHeight(t *testing.T) {
	snapshots := corpus.Unpack(t)
	cfg := policy.DefaultConfig()
	cfg.Product, cfg.Snapshot = "atlas", policy.LatestVersion
	history, err := pipeline.ReadHistory(cfg, []string{snapshots})
	if err != nil {
		t.Fatal(err)
	}
	h, err := changelog.Build(history, changelog.BuildOptions{Options: pipeline.Options{Config: cfg}})
	if err != nil {
		t.Fatal(err)
	}
	releases, err := h.Releases()
	if err != nil {
		t.Fatal(err)
	}
	asOf, err := civil.ParseDate(releases[0].Date)
	if err != nil {
		t.Fatal(err)
	}
	files, err := site.Build(releases, site.Options{Title: "Atlas API changelog", AsOf: asOf})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := site.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	// The browser's time runs from here: the history above takes long on
	// a busy machine.
	b := newBrowser(t)
	b.serve(dir)
	b.do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(b.url+"/index.html"), chromedp.WaitVisible("footer"))
	height, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.documentElement.scrollHeight`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the index of %d releases is %d px high: %.1f screens of 900 px", len(releases), height, float64(height)/900)
	if height > 10*900 {
		t.Errorf("the index is %d px high, more than 10 screens of 900 px", height)
	}
	b.screenshot("real-index.png")
}

// browser is headless Chromium reading a site served on 127.0.0.1.
type browser struct {
	t   *testing.T
	ctx context.Context
	url string
}

// newBrowser starts Chromium. The browser tests are long ones; the long
// suite fails without Chromium, so that CI cannot skip them.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	longtest.Require(t, "drives headless Chromium")
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("the browser tests need chromium on the path (Debian: apt-get install chromium): %v", err)
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true), chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()))
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)
	return &browser{t: t, ctx: ctx}
}

// serve serves dir to the browser until the test ends.
func (b *browser) serve(dir string) {
	server := httptest.NewServer(http.FileServer(http.Dir(dir)))
	b.t.Cleanup(server.Close)
	b.url = server.URL
}

func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) eval(js string) []string {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return out
}

// screenshot saves the viewport to $APIVER_SCREENSHOTS/name when set.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	shots := os.Getenv("APIVER_SCREENSHOTS")
	if shots == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shots, name), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}
