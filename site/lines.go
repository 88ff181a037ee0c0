package site

import (
	"crypto/sha256"
	"encoding/hex"
	"html/template"
	"strconv"
	"strings"

	"github.com/apiver/apiver/changelog"
	"github.com/apiver/apiver/diff"
)

// statement is a line as the site shows it: the change, then the
// operations it applies to, each group of operations with its own detail.
// A lifecycle line of one operation opens with it ("GET /clusters
// 2023-01-01 removed (deprecated …)"). Operations past the view's cap fold
// under "and N more".
func statement(view linesView, l *changelog.Line, slug func(string) string) template.HTML {
	var b strings.Builder
	useHTML := func(u changelog.Use, withVersion bool) string {
		var s string
		if u.Operation == view.Self {
			if u.Version == "" || !withVersion {
				return "this operation"
			}
			return `version <span class="version">` + template.HTMLEscapeString(u.Version) + `</span>`
		}
		s = `<a class="op" href="` + template.HTMLEscapeString(view.Root+"resources/"+slug(u.Operation)+".html") + `">` + string(breakable(u.Operation)) + `</a>`
		if u.Version != "" && withVersion {
			s += ` <span class="version">` + template.HTMLEscapeString(u.Version) + `</span>`
		}
		return s
	}
	if l.IsLifecycle() && len(l.Uses) == 1 && l.Uses[0].Version != "" {
		u := l.Uses[0]
		if u.Operation == view.Self {
			b.WriteString(`Version <span class="version">` + template.HTMLEscapeString(u.Version) + `</span> `)
		} else {
			b.WriteString(useHTML(u, true) + " ")
		}
		b.WriteString(`<span class="text">` + string(codeSpans(l.Tail())) + `</span>`)
		return template.HTML(b.String())
	}
	text := l.Text
	if l.IsLifecycle() {
		text = l.Lead()
	}
	b.WriteString(`<span class="text">` + string(codeSpans(text)) + `</span>`)
	if len(l.Uses) == 1 && l.Uses[0].Operation == view.Self && l.Uses[0].Version == "" && l.Uses[0].Detail == "" {
		return template.HTML(b.String())
	}
	shared := l.SharedVersion()
	withVersion := shared == "" || (len(l.Uses) == 1)
	b.WriteString(` <span class="uses">in `)
	shown := 0
	folded := false
groups:
	for gi, g := range l.UseGroups() {
		for ui, u := range g.Uses {
			if view.MaxUses > 0 && shown == view.MaxUses && !folded {
				more := strconv.Itoa(len(l.Uses)-shown) + " more"
				if view.Release != "" {
					// The index names a few and links the line on its release's page.
					if ui > 0 && g.Detail != "" {
						b.WriteString(` <span class="detail">(` + string(codeSpans(g.Detail)) + `)</span>`)
					}
					b.WriteString(` <a class="more-uses" href="` + template.HTMLEscapeString(view.Root+"releases/"+view.Release+".html#"+anchorOf(l)) + `">and ` + more + `</a>`)
					break groups
				}
				folded = true
				if ui > 0 && g.Detail != "" {
					b.WriteString(` <span class="detail">(` + string(codeSpans(g.Detail)) + `)</span>`)
				}
				b.WriteString(` <details class="more-uses"><summary>and ` + more + `</summary>`)
			}
			switch {
			case ui > 0:
				b.WriteString(", ")
			case gi > 0:
				b.WriteString("; ")
			}
			b.WriteString(useHTML(u, withVersion))
			shown++
		}
		if g.Detail != "" {
			b.WriteString(` <span class="detail">(` + string(codeSpans(g.Detail)) + `)</span>`)
		}
	}
	if folded {
		b.WriteString(`</details>`)
	}
	// A lifecycle line's lead already names the version.
	if !withVersion && !l.IsLifecycle() {
		b.WriteString(`, version <span class="version">` + template.HTMLEscapeString(shared) + `</span>`)
	}
	b.WriteString(`</span>`)
	return template.HTML(b.String())
}

// guideLink points a line at the migration guide between two versions.
type guideLink struct{ Href, From, To string }

// guideOf is the guide of the bump a breaking or release line came with,
// nil for other lines.
func guideOf(view linesView, l *changelog.Line) *guideLink {
	if !l.Breaking && l.ID != changelog.VersionReleased {
		return nil
	}
	for _, u := range l.Uses {
		if b, ok := view.Bumps[changelog.Use{Operation: u.Operation, Version: u.Version}]; ok {
			return &guideLink{Href: view.Root + guidePath(b.From, b.To), From: b.From, To: b.To}
		}
	}
	return nil
}

func guidePath(from, to string) string {
	return "migrate/" + strings.Trim(notSlug.ReplaceAllString(strings.ToLower(from+"-to-"+to), "-"), "-") + ".html"
}

// anchorOf names a line on its page, for links from the search: a hash of
// what the line says and where, so it stays the same between builds.
func anchorOf(l *changelog.Line) string {
	h := sha256.New()
	h.Write([]byte(l.ID + "\x00" + l.Text))
	for _, u := range l.Uses {
		h.Write([]byte("\x00" + u.String()))
	}
	return "c-" + hex.EncodeToString(h.Sum(nil)[:5])
}

// breakable lets a long path wrap after each slash.
func breakable(s string) template.HTML {
	return template.HTML(strings.ReplaceAll(template.HTMLEscapeString(s), "/", "/<wbr>"))
}

// guidePage is a migration guide as its page shows it.
type guidePage struct {
	page
	From, To   string
	Select     string
	Operations []guideOperation
}

type guideOperation struct {
	Operation string
	Parts     []guidePart
}

type guidePart struct {
	Title   string
	Changes []changelog.GuideLine
}

func guideView(m changelog.Migration, p page) guidePage {
	out := guidePage{page: p, From: m.From, To: m.To, Select: m.Select}
	for _, g := range m.Operations {
		op := guideOperation{Operation: g.Operation}
		for _, part := range []struct {
			title   string
			changes []diff.Change
		}{{"Request", g.Request}, {"Response", g.Response}, {"Other", g.Other}} {
			if part.title == "Other" && len(part.changes) == 0 {
				continue
			}
			op.Parts = append(op.Parts, guidePart{Title: part.title, Changes: changelog.GuideLines(part.changes)})
		}
		out.Operations = append(out.Operations, op)
	}
	return out
}
