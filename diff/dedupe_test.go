package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDedupeMediaTypes: one edit seen through a version's +json and +csv
// is one change that names neither; a change only one of them sees keeps
// its media type, and so does one of a media type of no version.
func TestDedupeMediaTypes(t *testing.T) {
	t.Parallel()
	const id = "response-property-became-optional"
	msg := func(detail string) string {
		return "the response property `name` became optional for the status `200`" + detail
	}
	for _, c := range []struct {
		name     string
		messages []string
		want     []string
	}{
		{"json and csv", []string{msg(" (media type: application/vnd.example.2024-01-01+json)"), msg(" (media type: application/vnd.example.2024-01-01+csv)")}, []string{msg("")}},
		{"csv alone", []string{msg(" (media type: application/vnd.example.2024-01-01+csv)")}, []string{msg(" (media type: application/vnd.example.2024-01-01+csv)")}},
		{"another product's", []string{msg(" (media type: application/vnd.other+json)"), msg(" (media type: application/vnd.example.2024-01-01+json)")},
			[]string{msg(" (media type: application/vnd.example.2024-01-01+json)"), msg(" (media type: application/vnd.other+json)")}},
	} {
		var changes []Change
		for _, m := range c.messages {
			changes = append(changes, Change{ID: id, Level: Error, Message: m})
		}
		var got []string
		for _, ch := range mediaTypeNames("example").dedupe(changes) {
			got = append(got, ch.Message)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, d)
		}
	}
}
