package changelog

import "fmt"

// Lifecycles is what the whole history says about each operation-version:
// when it was deprecated and its sunset, so that a removal can say so.
type Lifecycles struct {
	deprecated map[Use]deprecation
}

type deprecation struct{ date, sunset string }

// NewLifecycles reads the lifecycle entries of a history.
func NewLifecycles(releases []Release) *Lifecycles {
	l := &Lifecycles{deprecated: map[Use]deprecation{}}
	for _, r := range releases {
		for _, e := range r.Changes {
			if e.ID == VersionDeprecated {
				u := Use{Operation: e.Operation, Version: e.Version}
				// Newest first: the first deprecation read is the latest.
				if _, seen := l.deprecated[u]; !seen {
					l.deprecated[u] = deprecation{r.Date, e.Sunset}
				}
			}
		}
	}
	return l
}

// text is a lifecycle entry's statement, "" for other changes. The
// operation and version are said by the line's uses.
func (l *Lifecycles) text(r Release, e Entry) string {
	switch e.ID {
	case VersionReleased:
		if e.Replaces != "" {
			return "released, replacing " + e.Replaces
		}
		return "released"
	case VersionDeprecated:
		text := "deprecated"
		for _, o := range r.Changes {
			if o.ID == VersionReleased && o.Operation == e.Operation && o.Replaces == e.Version {
				text += " in favour of " + o.Version
				break
			}
		}
		if e.Sunset != "" {
			text += fmt.Sprintf(", sunset %s", e.Sunset)
		}
		return text
	case VersionRemoved:
		if l == nil {
			return "removed"
		}
		d, ok := l.deprecated[Use{Operation: e.Operation, Version: e.Version}]
		switch {
		case !ok:
			return "removed"
		case d.sunset == "":
			return fmt.Sprintf("removed (deprecated %s)", d.date)
		}
		return fmt.Sprintf("removed (deprecated %s, sunset %s)", d.date, d.sunset)
	}
	return ""
}
