package site

import (
	"fmt"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/versions"
)

// timeline is a resource's versions laid out for the SVG: one row per
// version, coloured segments for its states, ticks for sunsets, removals
// and today.
type timeline struct {
	Width, Height int
	// NoteX is where each row's note (its sunset or removal) is written,
	// right of the bars, so notes never cover them.
	NoteX int
	Years []tick
	Today tick
	Rows  []timelineRow
	// Description says in words what the drawing shows, for screen readers.
	Description string
}

type tick struct {
	X     float64
	Label string
}

type timelineRow struct {
	Version  string
	Y        int
	Segments []segment
	Sunset   *tick
	Removed  *tick
	Note     string
}

type segment struct {
	Class string
	X, W  float64
	Title string
}

const (
	timelineWidth = 760
	labelWidth    = 110
	rightPad      = 170
	rowHeight     = 30
	axisHeight    = 26
)

// newTimeline lays out the dated versions; nil when none has a date.
func newTimeline(versions []*versionSpan, asOf civil.Date) *timeline {
	var start, end civil.Date
	widen := func(d civil.Date) {
		if d.IsZero() {
			return
		}
		if start.IsZero() || d.Before(start) {
			start = d
		}
		if end.IsZero() || d.After(end) {
			end = d
		}
	}
	var dated []*versionSpan
	for _, v := range versions {
		if v.Released.IsZero() && v.Deprecated.IsZero() && v.Removed.IsZero() {
			continue
		}
		dated = append(dated, v)
		widen(v.Released)
		widen(v.Deprecated)
		widen(v.Sunset)
		widen(v.Removed)
	}
	if len(dated) == 0 {
		return nil
	}
	widen(asOf)
	start, end = start.AddDays(-30), end.AddDays(30)
	span := float64(end.DaysSince(start))
	x := func(d civil.Date) float64 {
		return labelWidth + float64(d.DaysSince(start))/span*float64(timelineWidth-labelWidth-rightPad)
	}
	t := &timeline{Width: timelineWidth, Height: axisHeight + rowHeight*len(dated) + 8, NoteX: timelineWidth - rightPad + 12}
	for y := start.Year + 1; y <= end.Year; y++ {
		t.Years = append(t.Years, tick{X: x(civil.Date{Year: y, Month: 1, Day: 1}), Label: fmt.Sprint(y)})
	}
	t.Today = tick{X: x(asOf), Label: "today " + asOf.String()}
	desc := ""
	for i, v := range dated {
		row := timelineRow{Version: v.Version, Y: axisHeight + i*rowHeight}
		from := v.Released
		if from.IsZero() {
			from = start
		}
		stop := asOf
		if !v.Removed.IsZero() {
			stop = v.Removed
		}
		add := func(class string, a, b civil.Date, title string) {
			if b.Before(a) {
				b = a
			}
			row.Segments = append(row.Segments, segment{Class: class, X: x(a), W: x(b) - x(a), Title: title})
		}
		stableEnd := stop
		if !v.Deprecated.IsZero() && v.Deprecated.Before(stop) {
			stableEnd = v.Deprecated
		}
		add("stable", from, stableEnd, fmt.Sprintf("%s released %s", v.Version, dateOrUnknown(v.Released)))
		if !v.Deprecated.IsZero() && v.Deprecated.Before(stop) {
			deprecatedEnd := stop
			if !v.Sunset.IsZero() && v.Sunset.Before(stop) && v.Removed.IsZero() {
				deprecatedEnd = v.Sunset
			}
			add("deprecated", v.Deprecated, deprecatedEnd, fmt.Sprintf("%s deprecated %s", v.Version, v.Deprecated))
			if deprecatedEnd.Before(stop) {
				add("overdue", deprecatedEnd, stop, fmt.Sprintf("%s past its sunset %s", v.Version, v.Sunset))
			}
		}
		// The time a deprecated version has left, drawn faint up to its sunset.
		if v.Removed.IsZero() && !v.Sunset.IsZero() && stop.Before(v.Sunset) {
			add("remaining", stop, v.Sunset, fmt.Sprintf("%s may be removed from %s", v.Version, v.Sunset))
		}
		if !v.Sunset.IsZero() {
			row.Sunset = &tick{X: x(v.Sunset), Label: "sunset " + v.Sunset.String()}
			row.Note = row.Sunset.Label
		}
		if !v.Removed.IsZero() {
			row.Removed = &tick{X: x(v.Removed), Label: "removed " + v.Removed.String()}
			row.Note = row.Removed.Label
		}
		t.Rows = append(t.Rows, row)
		desc += spanSentence(v)
	}
	t.Description = desc
	return t
}

func dateOrUnknown(d civil.Date) string {
	if d.IsZero() {
		return "(date unknown)"
	}
	return d.String()
}

func spanSentence(v *versionSpan) string {
	s := fmt.Sprintf("Version %s: released %s", v.Version, dateOrUnknown(v.Released))
	if !v.Deprecated.IsZero() {
		s += ", deprecated " + v.Deprecated.String()
	}
	if !v.Sunset.IsZero() {
		s += ", sunset " + v.Sunset.String()
	}
	if !v.Removed.IsZero() {
		s += ", removed " + v.Removed.String()
	}
	return s + ". "
}

// sunsetRules say how each deprecated version's dates follow from the
// rule: deprecated on its successor's release date, sunset that date plus
// the deprecation period of its level, or its x-sunset when that is later.
// When the config gives unstable levels periods, a first line lists them.
func sunsetRules(spans []*versionSpan, periods policy.Periods) []string {
	stable, ok := periods.Of(policy.LevelStable)
	if !ok {
		stable = policy.Period{N: 12, Unit: "month"}
	}
	var out []string
	for _, v := range spans {
		if v.Deprecated.IsZero() || v.Sunset.IsZero() {
			continue
		}
		s := fmt.Sprintf("%s: deprecated %s", v.Version, v.Deprecated)
		if v.Successor != "" {
			s += fmt.Sprintf(", the day %s was released", v.Successor)
		}
		period := v.Period
		if period.N == 0 {
			// Only the history names it: a name's mark (~beta) gives its
			// level, else it is a release.
			if period, ok = periods.Of(versions.MarkedLevel(v.Version)); !ok {
				period = stable
			}
		}
		rule := period.From(v.Deprecated)
		switch {
		case v.Sunset == rule:
			s += fmt.Sprintf("; sunset %s = %s + %s.", v.Sunset, v.Deprecated, period)
		case v.Sunset.After(rule):
			s += fmt.Sprintf("; sunset %s, its x-sunset, later than %s + %s = %s.", v.Sunset, v.Deprecated, period, rule)
		default:
			s += fmt.Sprintf("; sunset %s.", v.Sunset)
		}
		out = append(out, s)
	}
	if len(out) > 0 && periods.Unstable() {
		var each []string
		for _, level := range periods.Levels() {
			each = append(each, level+" "+periods[level].String())
		}
		out = append([]string{"Deprecation periods: " + strings.Join(each, ", ") + "."}, out...)
	}
	return out
}
