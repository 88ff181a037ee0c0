package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"regexp"
	"strings"

	"github.com/apiver/apiver/changelog"
	"github.com/gorilla/feeds"
)

// feedChangesPerEntry caps an entry's content; the entry links to the
// release page with everything.
const feedChangesPerEntry = 50

var feedContent = template.Must(template.New("").Funcs(template.FuncMap{"code": codeSpans, "uses": feedUses}).Parse(`{{with .Summary}}<p>{{.}}</p>
{{end}}<p>{{.Counts}}</p>
<ul>{{range .Lines}}<li>{{if .Breaking}}<strong>Breaking:</strong> {{end}}{{code .Lead}} ({{uses .}}){{range .Notes}}<br><em>{{.}}</em>{{end}}</li>{{end}}</ul>{{with .More}}
<p>And {{.}} more changes.</p>{{end}}`))

// feedUsesPerLine caps the operations a feed line names.
const feedUsesPerLine = 10

// feedUses names a line's operations with their versions and details, the
// first few of them.
func feedUses(l *changelog.Line) template.HTML {
	shared := l.SharedVersion()
	var b strings.Builder
	shown := 0
	for gi, g := range l.UseGroups() {
		if shown == feedUsesPerLine {
			break
		}
		if gi > 0 {
			b.WriteString("; ")
		}
		for ui, u := range g.Uses {
			if shown == feedUsesPerLine {
				break
			}
			if ui > 0 {
				b.WriteString(", ")
			}
			b.WriteString("<code>" + template.HTMLEscapeString(u.Operation) + "</code>")
			if u.Version != "" && (shared == "" || len(l.Uses) == 1) {
				b.WriteString(" " + template.HTMLEscapeString(u.Version))
			}
			shown++
		}
		if g.Detail != "" {
			b.WriteString(" (" + string(codeSpans(g.Detail)) + ")")
		}
	}
	if more := len(l.Uses) - shown; more > 0 {
		fmt.Fprintf(&b, " and %d more", more)
	}
	if shared != "" && len(l.Uses) > 1 && !l.IsLifecycle() {
		b.WriteString(", version " + template.HTMLEscapeString(shared))
	}
	return template.HTML(b.String())
}

// atomFeed is an Atom 1.0 feed with one entry per release. Ids are the
// release pages' URLs under the base URL, else tag-free URNs named after
// the title, so they stay the same from build to build.
func atomFeed(releases []releaseView, opts Options) ([]byte, error) {
	base := strings.TrimSuffix(opts.BaseURL, "/")
	link := func(path string) string {
		if base == "" {
			return path
		}
		return base + "/" + path
	}
	id := func(path string) string {
		if base != "" {
			return link(path)
		}
		return "urn:apiver:" + titleName(opts.Title) + ":" + path
	}
	feed := &feeds.AtomFeed{
		Xmlns:  "http://www.w3.org/2005/Atom",
		Title:  opts.Title,
		Id:     id("feed.xml"),
		Link:   &feeds.AtomLink{Href: link("index.html"), Rel: "alternate"},
		Author: &feeds.AtomAuthor{AtomPerson: feeds.AtomPerson{Name: opts.Title}},
	}
	if len(releases) > 0 {
		feed.Updated = releases[0].Date + "T00:00:00Z"
	} else {
		feed.Updated = opts.AsOf.String() + "T00:00:00Z"
	}
	for _, r := range releases {
		view := r
		if len(view.Lines) > feedChangesPerEntry {
			view.More = len(view.Lines) - feedChangesPerEntry
			view.Lines = view.Lines[:feedChangesPerEntry]
		}
		var content bytes.Buffer
		if err := feedContent.Execute(&content, struct {
			releaseView
			Counts string
		}{view, countsText(r.Counts)}); err != nil {
			return nil, err
		}
		page := "releases/" + r.Date + ".html"
		title := "Release "
		if r.Upcoming {
			title = "Upcoming release "
		}
		feed.Entries = append(feed.Entries, &feeds.AtomEntry{
			Title:   title + r.Date + ": " + countsText(r.Counts),
			Updated: r.Date + "T00:00:00Z",
			Id:      id(page),
			Links:   []feeds.AtomLink{{Href: link(page), Rel: "alternate", Type: "text/html"}},
			Content: &feeds.AtomContent{Type: "html", Content: content.String()},
		})
	}
	xml, err := feeds.ToXML(feed)
	if err != nil {
		return nil, err
	}
	return []byte(xml + "\n"), nil
}

func countsText(c counts) string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(c.Breaking, "breaking")
	add(c.Deprecations, "deprecated")
	add(c.Additions, "added")
	add(c.Other, "other")
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, ", ")
}

// titleName names a site in its feed's ids: the title's slug, with a hash
// of the title when the slug leaves some of it out (a title in another
// script has none), so that two sites never share ids.
func titleName(title string) string {
	name := strings.Trim(notSlug.ReplaceAllString(strings.ToLower(title), "-"), "-")
	if plainTitle.MatchString(title) {
		return name
	}
	sum := sha256.Sum256([]byte(title))
	return strings.Trim(name+"-"+hex.EncodeToString(sum[:4]), "-")
}

// plainTitle is a title whose slug loses nothing but case, spaces and
// punctuation.
var plainTitle = regexp.MustCompile(`^[\x20-\x7e]*$`)
