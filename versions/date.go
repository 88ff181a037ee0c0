package versions

import (
	"path/filepath"
	"regexp"
	"strings"

	"cloud.google.com/go/civil"
)

// DatePattern is a date as a name writes it, YYYY-MM-DD, whether or not it
// is a real one.
var DatePattern = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

// DateFromName returns the first YYYY-MM-DD in the file's base name. found is
// false when the name holds none; err is set when it holds one that is not a
// real date.
func DateFromName(path string) (date civil.Date, found bool, err error) {
	s := DatePattern.FindString(filepath.Base(path))
	if s == "" {
		return civil.Date{}, false, nil
	}
	date, err = civil.ParseDate(s)
	return date, true, err
}

// versionMark is a version document's date with what follows it: the
// pre-release marks of vervet (~beta, ~experimental, ~wip; ~ga is a
// release), of dated media types (.upcoming) and of Azure (-preview).
var versionMark = regexp.MustCompile(`(\d{4}-\d{2}-\d{2})(~[A-Za-z]+|\.upcoming|[-.]preview)?`)

// VersionOfName reads the version a document's name carries: the first
// YYYY-MM-DD in its base name, with the pre-release mark that follows it.
// "preview" anywhere else in the name marks a pre-release too. found is
// false when the name holds no date; err is set when the date is not a
// real one.
func VersionOfName(name string) (version string, date civil.Date, preRelease, found bool, err error) {
	base := filepath.Base(name)
	m := versionMark.FindStringSubmatch(base)
	if m == nil {
		return "", civil.Date{}, false, false, nil
	}
	date, err = civil.ParseDate(m[1])
	if err != nil {
		return "", civil.Date{}, false, true, err
	}
	mark := m[2]
	switch strings.ToLower(mark) {
	case "", "~ga":
		mark = ""
		if strings.Contains(strings.ToLower(base), "preview") {
			mark, preRelease = "-preview", true
		}
	default:
		preRelease = true
	}
	return m[1] + mark, date, preRelease, true, nil
}
