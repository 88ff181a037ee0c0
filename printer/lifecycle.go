package printer

import (
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/policy"
	ics "github.com/arran4/golang-ical"
)

// VersionsFormats, SunsetFormats and RulesFormats list the formats of the
// release managers' commands.
var (
	VersionsFormats = []string{"text", "json"}
	SunsetFormats   = []string{"text", "json", "ics"}
	RulesFormats    = []string{"text", "json"}
)

// Versions writes every version's lifecycle.
func Versions(w io.Writer, format string, date civil.Date, lifecycles []policy.Lifecycle) error {
	if lifecycles == nil {
		lifecycles = []policy.Lifecycle{}
	}
	if format == "json" {
		return writeJSON(w, struct {
			Date     string             `json:"date"`
			Versions []policy.Lifecycle `json:"versions"`
		}{date.String(), lifecycles})
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OPERATION\tVERSION\tSTATE\tDEPRECATED\tSUNSET\tSUCCESSOR")
	for _, l := range lifecycles {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", escape.Text(l.Operation), escape.Text(l.Version), l.State, dash(dateOf(l.DeprecatedOn)), dash(dateOf(l.SunsetOn)), dash(escape.Text(l.Successor)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s on %s\n", countStates(lifecycles), date)
	return err
}

func countStates(lifecycles []policy.Lifecycle) string {
	counts := map[policy.State]int{}
	for _, l := range lifecycles {
		counts[l.State]++
	}
	var parts []string
	for _, s := range []policy.State{policy.Stable, policy.Deprecated, policy.SunsetOverdue, policy.PreRelease} {
		parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
	}
	// Scheduled and retired versions are rare: counted only when there
	// are some.
	for _, s := range []policy.State{policy.Upcoming, policy.Retired} {
		if n := counts[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	return plural(len(lifecycles), "version") + ": " + strings.Join(parts, ", ")
}

// Sunset writes the deprecation calendar.
func Sunset(w io.Writer, format string, cal policy.SunsetCalendar) error {
	switch format {
	case "json":
		return writeJSON(w, struct {
			Date     string             `json:"date"`
			Within   int                `json:"withinDays"`
			Overdue  []policy.Lifecycle `json:"overdue"`
			Upcoming []policy.Lifecycle `json:"upcoming"`
			// Scheduled and retired versions are rare: listed only when
			// there are some.
			Scheduled []policy.Lifecycle `json:"scheduled,omitempty"`
			Retired   []policy.Lifecycle `json:"retired,omitempty"`
		}{cal.Date.String(), cal.Days, orEmpty(cal.Overdue), orEmpty(cal.Upcoming), cal.Scheduled, cal.Retired})
	case "ics":
		return sunsetICS(w, cal)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	section := func(title string, ls []policy.Lifecycle) {
		fmt.Fprintf(tw, "%s\n", title)
		if len(ls) > 0 {
			fmt.Fprintln(tw, "  SUNSET\tWHEN\tOPERATION\tVERSION\tSUCCESSOR")
		}
		for _, l := range ls {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", dateOf(l.SunsetOn), daysText(cal.Date.DaysSince(l.SunsetOn)), escape.Text(l.Operation), escape.Text(l.Version), dash(escape.Text(l.Successor)))
		}
	}
	section(fmt.Sprintf("Overdue (%d)", len(cal.Overdue)), cal.Overdue)
	section(fmt.Sprintf("Sunset within %d days of %s (%d)", cal.Days, cal.Date, len(cal.Upcoming)), cal.Upcoming)
	if len(cal.Scheduled) > 0 {
		fmt.Fprintf(tw, "Upcoming versions, released after %s (%d)\n", cal.Date, len(cal.Scheduled))
		fmt.Fprintln(tw, "  RELEASE\tWHEN\tOPERATION\tVERSION")
		for _, l := range cal.Scheduled {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", dateOf(l.Released), daysText(cal.Date.DaysSince(l.Released)), escape.Text(l.Operation), escape.Text(l.Version))
		}
	}
	if len(cal.Retired) > 0 {
		fmt.Fprintf(tw, "Sunset, no longer served (%d)\n", len(cal.Retired))
		fmt.Fprintln(tw, "  OPERATION\tVERSION\tSUCCESSOR")
		for _, l := range cal.Retired {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", escape.Text(l.Operation), escape.Text(l.Version), dash(escape.Text(l.Successor)))
		}
	}
	return tw.Flush()
}

// sunsetICS writes one all-day event per sunset. UIDs derive from the
// operation and version, and DTSTAMP from the sunset itself, so the same
// input gives the same file and calendars update events in place. Lines end
// in CRLF as RFC 5545 requires; the library escapes TEXT's \, ; , and LF
// but not the other control characters, which escape.Text shows first.
func sunsetICS(w io.Writer, cal policy.SunsetCalendar) error {
	c := ics.NewCalendar()
	c.SetMethod(ics.MethodPublish)
	c.SetProductId("-//apiver//sunset calendar//EN")
	c.SetName("API version sunsets")
	for _, l := range append(append([]policy.Lifecycle{}, cal.Overdue...), cal.Upcoming...) {
		if l.SunsetOn.Year > 9998 {
			// Its event ends the day after: iCalendar's dates have four digits.
			return fmt.Errorf("%s version %s: the sunset %s lies past what an iCalendar date can hold", escape.Text(l.Operation), escape.Text(l.Version), l.SunsetOn)
		}
		day := l.SunsetOn.In(time.UTC)
		// The slugs are for reading; the hash tells apart operations that
		// slug alike (GET /a-b, GET /a/b).
		sum := sha256.Sum256([]byte(l.Operation + "\x00" + l.Version))
		e := c.AddEvent(fmt.Sprintf("%s-%s-%x@apiver", slug(l.Operation), slug(l.Version), sum[:4]))
		e.SetDtStampTime(day)
		e.SetAllDayStartAt(day)
		e.SetAllDayEndAt(day.AddDate(0, 0, 1))
		op, v := escape.Text(l.Operation), escape.Text(l.Version)
		e.SetSummary(fmt.Sprintf("Sunset: %s version %s", op, v))
		e.SetDescription(fmt.Sprintf("%s version %s (%s) reaches its sunset on %s%s.", op, v, l.State, l.SunsetOn, successorText(escape.Text(l.Successor))))
	}
	return c.SerializeTo(w, ics.WithNewLineWindows)
}

// Rules writes the rule catalogue.
func Rules(w io.Writer, format string, cat policy.Catalogue) error {
	if format == "json" {
		return writeJSON(w, cat)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "apiver rules\t\t")
	for _, r := range cat.Rules {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.ID, r.Severity, r.Purpose)
	}
	fmt.Fprintln(tw, "\noasdiff checks (levels of the changes apiver judges; oasdiff's level, then where apiver looks, when they differ)\t\t")
	for _, r := range cat.Checks {
		var notes []string
		if r.OasdiffLevel != "" && r.OasdiffLevel != r.Severity {
			notes = append(notes, "oasdiff: "+r.OasdiffLevel)
		}
		switch r.Scope {
		case "document":
			notes = append(notes, "document-level: no operation")
		case "date":
			notes = append(notes, "judged by apiver against --date")
		case "off-clock":
			notes = append(notes, "never reported: oasdiff reads the wall clock")
		case "apiver":
			notes = append(notes, "apiver's own change")
		}
		note := ""
		if len(notes) > 0 {
			note = " [" + strings.Join(notes, "; ") + "]"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s%s\n", r.ID, r.Severity, r.Purpose, note)
	}
	fmt.Fprintln(tw, "\nequivalences (schema edits that are no change)\t\t")
	for _, e := range cat.Equivalences {
		fmt.Fprintf(tw, "  %s\t\t%s\n", e.ID, e.Purpose)
	}
	return tw.Flush()
}

func orEmpty(ls []policy.Lifecycle) []policy.Lifecycle {
	if ls == nil {
		return []policy.Lifecycle{}
	}
	return ls
}

func dateOf(d civil.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func daysText(since int) string {
	switch {
	case since > 0:
		return fmt.Sprintf("%s overdue", plural(since, "day"))
	case since == 0:
		return "today"
	}
	return fmt.Sprintf("in %s", plural(-since, "day"))
}

func successorText(s string) string {
	if s == "" {
		return ""
	}
	return ", successor " + s
}

// slug turns "GET /a/{b}" into "get-a-b".
func slug(operation string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(operation) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
