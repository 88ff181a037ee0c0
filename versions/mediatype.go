package versions

import (
	"fmt"
	"mime"
	"regexp"
	"strings"

	"cloud.google.com/go/civil"
)

// MediaType is a vendor media type that names a resource version, such as
// application/vnd.example.2023-02-01+json.
type MediaType struct {
	Product string
	// Version is the date for a dated version ("2023-02-01"), or the label of
	// a pre-release version ("preview", "2024-09-01.upcoming").
	Version    string
	Suffix     string
	PreRelease bool
}

// Normalized is the media type with the version left out, so that the same
// representation of two versions pairs up in a diff.
func (m MediaType) Normalized() string {
	if m.Suffix == "" {
		return "application/vnd." + m.Product
	}
	return "application/vnd." + m.Product + "+" + m.Suffix
}

// InvalidVersionError reports a vendor media type whose version looks like a
// date but is not a real one (2024-02-30).
type InvalidVersionError struct {
	MediaType string
	Version   string
}

func (e *InvalidVersionError) Error() string {
	return fmt.Sprintf("media type %q names version %q, which is not a real date", e.MediaType, e.Version)
}

// The version segment is a date, a date with a pre-release label, or the bare
// label "preview". Anything else is an ordinary vendor media type.
var vendorSubtype = regexp.MustCompile(`^vnd\.([a-z0-9][a-z0-9-]*)\.(?:(\d{4}-\d{2}-\d{2})(\.upcoming)?|(preview))$`)

// ParseMediaType reads a versioned vendor media type. ok is false for a media
// type that names no version (application/json, application/vnd.x+json).
// A version that has the shape of a date but is not one gives an
// *InvalidVersionError.
func ParseMediaType(name string) (mt MediaType, ok bool, err error) {
	full, _, perr := mime.ParseMediaType(name)
	if perr != nil {
		return MediaType{}, false, nil
	}
	typ, sub, found := strings.Cut(full, "/")
	if !found || typ != "application" {
		return MediaType{}, false, nil
	}
	sub, suffix, _ := strings.Cut(sub, "+")
	m := vendorSubtype.FindStringSubmatch(sub)
	if m == nil {
		return MediaType{}, false, nil
	}
	mt = MediaType{Product: m[1], Suffix: suffix}
	switch {
	case m[4] != "":
		mt.Version, mt.PreRelease = m[4], true
	default:
		if _, derr := civil.ParseDate(m[2]); derr != nil {
			return MediaType{}, false, &InvalidVersionError{MediaType: name, Version: m[2]}
		}
		mt.Version = m[2] + m[3]
		mt.PreRelease = m[3] != ""
	}
	return mt, true, nil
}
