package diff

import (
	"testing"

	"github.com/apiver/apiver/versions"
)

// TestOutboundMessage: a webhook's or a callback's change is worded for its
// consumer: no response status apiver made up for the turned operation.
func TestOutboundMessage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		d    versions.Direction
		want string
	}{
		{"the response property `count` became nullable for the status `" + sentStatus + "`", versions.Webhook, "the webhook payload property `count` became nullable"},
		{"response property `kind` list-of-types was widened by adding types `boolean` to media type `application/json` of response `" + sentStatus + "`", versions.Webhook,
			"webhook payload property `kind` list-of-types was widened by adding types `boolean` to media type `application/json` of the webhook payload"},
		{"the request property `received` became required", versions.Callback, "the consumer's response property `received` became required"},
	} {
		if got := outboundMessage(c.in, c.d); got != c.want {
			t.Errorf("outboundMessage(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
