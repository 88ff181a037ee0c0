package versions

import (
	"regexp"
	"strings"
	"time"

	"cloud.google.com/go/civil"
)

// rfc3339 is an RFC 3339 date-time as written: the date, T, the time with
// optional fractions of a second, and Z or an offset.
var rfc3339 = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$`)

// ParseSunset reads an x-sunset value: exactly a date (YYYY-MM-DD) or an
// RFC 3339 date-time, whose date it is; ok is false for anything else,
// a date followed by more text among them.
func ParseSunset(s string) (civil.Date, bool) {
	if len(s) == len("2006-01-02") {
		d, err := civil.ParseDate(s)
		return d, err == nil
	}
	if !rfc3339.MatchString(s) {
		return civil.Date{}, false
	}
	if _, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s)); err != nil {
		return civil.Date{}, false
	}
	d, err := civil.ParseDate(s[:10])
	return d, err == nil
}
