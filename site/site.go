package site

import (
	"bytes"
	"embed"
	"fmt"
	"github.com/apiver/apiver/internal/escape"
	"html/template"
	"io/fs"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/changelog"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// Caps that keep the pages of a long real history to a few hundred KB: a
// change that applies to hundreds of operations names the first ones (each
// resource's own page lists all its changes), and the index shows the first
// lines of each release (its page shows them all).
const (
	indexLinesPerRelease = 15
	indexUsesPerLine     = 3
	usesPerLine          = 10
)

// Files are the site's files by slash-separated path.
type Files map[string][]byte

// page is what every template gets.
type page struct {
	Site    string
	Heading string
	// Root is the way from the page back to the site's root.
	Root string
	Nav  string
	// Search makes the filter search the whole history too; Self is the
	// operation whose page this is, whose changes the page shows itself.
	Search bool
	Self   string
}

type releaseView struct {
	Date string
	// Summary is the release's hand-written summary.
	Summary string
	Counts  counts
	Lines   []*changelog.Line
	// More is how many lines the index left out.
	More int
	// Operations is how many operations the release changed.
	Operations int
	// Bumps are the new versions the release brought, for the links to
	// their migration guides.
	Bumps map[changelog.Use]changelog.Bump
	// Upcoming marks a release dated after the site's date: scheduled.
	Upcoming bool
}

// linesView is what the "lines" template renders: lines, the way back to
// the root for links, and the operation whose page this is (not linked).
type linesView struct {
	Root    string
	Lines   []*changelog.Line
	Self    string
	MaxUses int
	Bumps   map[changelog.Use]changelog.Bump
	// Release is set on the index, where a line names only its first
	// operations and links its release's page for the rest.
	Release string
}

type resourceView struct {
	*resource
	Breaking bool
}

// Build renders the site of a history, newest release first.
func Build(releases []changelog.Release, opts Options) (Files, error) {
	rs := resources(releases, opts.Deprecations)
	slugs := map[string]string{}
	for _, r := range rs {
		slugs[r.Operation] = r.Slug
	}
	tmpl, err := parseTemplates(func(op string) string { return slugs[op] })
	if err != nil {
		return nil, err
	}
	files := Files{}
	render := func(path, name string, data any) error {
		var b bytes.Buffer
		if err := tmpl[name].ExecuteTemplate(&b, "layout", data); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		files[path] = b.Bytes()
		return nil
	}

	history := changelog.NewLifecycles(releases)
	bumpsOf := map[string]map[changelog.Use]changelog.Bump{}
	for _, r := range releases {
		bumpsOf[r.Date] = changelog.Bumps(r)
	}
	views := make([]releaseView, len(releases))
	for i, r := range releases {
		views[i] = releaseView{Date: r.Date, Summary: r.Summary, Counts: countOf(r.Changes), Operations: operationsOf(r.Changes), Lines: changelog.Lines(r, history), Bumps: changelog.Bumps(r), Upcoming: !opts.AsOf.IsZero() && r.Date > opts.AsOf.String()}
	}
	index := make([]releaseView, len(views))
	for i, v := range views {
		if len(v.Lines) > indexLinesPerRelease {
			v.More = len(v.Lines) - indexLinesPerRelease
			v.Lines = v.Lines[:indexLinesPerRelease]
		}
		index[i] = v
	}
	if err := render("index.html", "index", struct {
		page
		Releases []releaseView
		MaxUses  int
	}{page{Site: opts.Title, Nav: "releases", Search: true}, index, indexUsesPerLine}); err != nil {
		return nil, err
	}
	for i, v := range views {
		var newer, older string
		if i > 0 {
			newer = views[i-1].Date
		}
		if i+1 < len(views) {
			older = views[i+1].Date
		}
		if err := render("releases/"+v.Date+".html", "release", struct {
			page
			Release      releaseView
			Newer, Older string
			MaxUses      int
		}{page{Site: opts.Title, Heading: "Release " + v.Date, Root: "../", Nav: "releases", Search: true}, v, newer, older, usesPerLine}); err != nil {
			return nil, err
		}
	}

	resourceViews := make([]resourceView, len(rs))
	for i, r := range rs {
		var changes []releaseView
		for _, rel := range r.Releases {
			changes = append(changes, releaseView{Date: rel.Date, Lines: changelog.Lines(rel, history), Bumps: bumpsOf[rel.Date]})
		}
		breaking := false
		for _, rel := range r.Releases {
			breaking = breaking || countOf(rel.Changes).Breaking > 0
		}
		resourceViews[i] = resourceView{r, breaking}
		selection := ""
		if opts.Select != nil && len(r.Versions) > 0 {
			newest := r.Versions[len(r.Versions)-1].Version
			selection = fmt.Sprintf("To use version %s, %s.", newest, opts.Select(newest))
		}
		if err := render("resources/"+r.Slug+".html", "resource", struct {
			page
			Resource *resource
			Timeline *timeline
			Rules    []string
			Select   string
			Releases []releaseView
		}{page{Site: opts.Title, Heading: r.Operation, Root: "../", Nav: "resources", Search: true, Self: r.Operation}, r, newTimeline(r.Versions, opts.AsOf), sunsetRules(r.Versions, opts.Periods), selection, changes}); err != nil {
			return nil, err
		}
	}
	if err := render("resources/index.html", "resources", struct {
		page
		Resources []resourceView
	}{page{Site: opts.Title, Heading: "Resources", Root: "../", Nav: "resources"}, resourceViews}); err != nil {
		return nil, err
	}
	if err := render("deprecations.html", "deprecations", struct {
		page
		AsOf         civil.Date
		Deprecations []deprecationRow
	}{page{Site: opts.Title, Heading: "Deprecations", Nav: "deprecations"}, opts.AsOf, deprecationRows(rs, opts.AsOf)}); err != nil {
		return nil, err
	}

	for _, m := range changelog.MigrationsFromHistory(releases) {
		if opts.Select != nil {
			m.Select = opts.Select(m.To)
		}
		if err := render(guidePath(m.From, m.To), "migrate", guideView(m, page{Site: opts.Title, Heading: "Migrating from " + m.From + " to " + m.To, Root: "../", Nav: "releases"})); err != nil {
			return nil, err
		}
	}

	search, err := searchScript(views)
	if err != nil {
		return nil, err
	}
	files["search-index.js"] = search

	feed, err := atomFeed(views, opts)
	if err != nil {
		return nil, err
	}
	files["feed.xml"] = feed
	err = fs.WalkDir(assetFS, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := assetFS.ReadFile(path)
		files[strings.TrimPrefix(path, "assets/")] = data
		return err
	})
	if err != nil {
		return nil, err
	}
	files[markerFile] = []byte("This folder is a site written by apiver; apiver site replaces it whole.\n")
	return files, nil
}

// codeSpans shows the `quoted` names of change messages as code, read as
// Markdown reads code spans (escape.SplitCode).
func codeSpans(text string) template.HTML {
	var b strings.Builder
	escape.SplitCode(text, func(part string, code bool) {
		if code {
			b.WriteString("<code>" + string(breakable(part)) + "</code>")
		} else {
			b.WriteString(template.HTMLEscapeString(part))
		}
	})
	return template.HTML(b.String())
}

// parseTemplates gives each page template its own set with the layout, as
// every page defines its own "content".
func parseTemplates(slug func(string) string) (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"slug": slug,
		"lines": func(root string, r releaseView, maxUses int) linesView {
			return linesView{Root: root, Lines: r.Lines, MaxUses: maxUses, Bumps: r.Bumps}
		},
		"indexLines": func(root string, r releaseView, maxUses int) linesView {
			return linesView{Root: root, Lines: r.Lines, MaxUses: maxUses, Bumps: r.Bumps, Release: r.Date}
		},
		"linesOf": func(self, root string, r releaseView) linesView {
			return linesView{Root: root, Lines: r.Lines, Self: self, Bumps: r.Bumps}
		},
		"statement": func(view linesView, l *changelog.Line) template.HTML { return statement(view, l, slug) },
		"guide":     guideOf,
		"anchor":    anchorOf,
		"wbr":       breakable,
		"code":      codeSpans,
		"plural": func(n int, one, many string) string {
			if n == 1 {
				return "1 " + one
			}
			return fmt.Sprintf("%d %s", n, many)
		},
		"date": func(d civil.Date) string {
			if d.IsZero() {
				return "—"
			}
			return d.String()
		},
		"add": func(a, b int) int { return a + b },
		"neg": func(a int) int { return -a },
	}
	base, err := template.New("").Funcs(funcs).ParseFS(templateFS, "templates/layout.tmpl")
	if err != nil {
		return nil, err
	}
	out := map[string]*template.Template{}
	for _, name := range []string{"index", "release", "resource", "resources", "deprecations", "migrate"} {
		t, err := base.Clone()
		if err != nil {
			return nil, err
		}
		if out[name], err = t.ParseFS(templateFS, "templates/"+name+".tmpl"); err != nil {
			return nil, err
		}
	}
	return out, nil
}
