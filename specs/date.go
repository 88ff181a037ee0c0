package specs

import (
	"path/filepath"
	"regexp"

	"cloud.google.com/go/civil"
)

var datePattern = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

// DateFromName returns the first YYYY-MM-DD in the file's base name. found is
// false when the name holds none; err is set when it holds one that is not a
// real date.
func DateFromName(path string) (date civil.Date, found bool, err error) {
	s := datePattern.FindString(filepath.Base(path))
	if s == "" {
		return civil.Date{}, false, nil
	}
	date, err = civil.ParseDate(s)
	return date, true, err
}
