package diff

import "testing"

func TestRootMessage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, root, shape string }{
		{
			"the `results/items/oneOf[subschema #2: AZURE]/azureDirectoryId` response property's maxLength was unset from `32` for the response status `200`",
			"the `azureDirectoryId` response property's maxLength was unset from `32`",
			"the `…` response property's maxLength was unset from `32`",
		},
		{
			"the `teamIds/items/` response property's minLength was unset from `24` for the response status `201`",
			"the `teamIds` response property's minLength was unset from `24`",
			"the `…` response property's minLength was unset from `24`",
		},
		{
			// oasdiff's list of the other properties of a shared schema goes.
			"added the pattern `^([a-f0-9]{24})$` to the request property `oneOf[subschema #1: A]/notifierId` (shared schema: `Root`, also at `oneOf[subschema #2: B]/notifierId` and 11 more)",
			"added the pattern `^([a-f0-9]{24})$` to the request property `notifierId`",
			"added the pattern `^([a-f0-9]{24})$` to the request property `…`",
		},
		{
			// The media type a change was seen through goes: +json and +csv
			// of one version read one schema.
			"the response property `id` became optional for the status `200` (media type: application/vnd.example.2024-01-01+csv)",
			"the response property `id` became optional",
			"the response property `…` became optional",
		},
		{
			// A key words a webhook's or a callback's payload as the
			// response it is judged as: one edit reads alike in paths,
			// callbacks and webhooks. Quoted names keep their words.
			"the webhook payload property `items/state` became optional",
			"the response property `state` became optional",
			"the response property `…` became optional",
		},
		{
			"removed the `webhook payload` enum value from the `kind` callback payload property",
			"removed the `webhook payload` enum value from the `kind` response property",
			"removed the `webhook payload` enum value from the `…` response property",
		},
		{
			"the consumer's response property `received` became required",
			"the request property `received` became required",
			"the request property `…` became required",
		},
		{
			"the `a` response's property `type` changed from `string` to `integer` for status `200`",
			"the `a` response's property `type` changed from `string` to `integer`",
			"the `…` response's property `…` changed from `string` to `integer`",
		},
		{
			// A bare property name is a property too; enum values and
			// patterns with slashes are not.
			"removed the enum value `a/b` of the request property `role`",
			"removed the enum value `a/b` of the request property `role`",
			"removed the enum value `a/b` of the request property `…`",
		},
		{
			// A branch's name may hold slashes: it is no property.
			"removed the enum value `A` of the request property `region/oneOf[#/components/schemas/AzureRegion]`",
			"removed the enum value `A` of the request property `region`",
			"removed the enum value `A` of the request property `…`",
		},
		{
			"the `path` response's property pattern `^\\d+/\\d+$` was removed for the status `200`",
			"the `path` response's property pattern `^\\d+/\\d+$` was removed",
			"the `…` response's property pattern `^\\d+/\\d+$` was removed",
		},
		{
			"removed the media type `application/vnd.atlas.2023-01-01+json` for the response with the status `200`",
			"removed the media type `application/vnd.atlas+json` for the response with the status `200`",
			"removed the media type `application/vnd.atlas+json` for the response with the status `200`",
		},
	} {
		if got := RootKey(c.in); got != c.root {
			t.Errorf("RootKey(%q)\n got %q\nwant %q", c.in, got, c.root)
		}
		if got := MessageShape(c.in); got != c.shape {
			t.Errorf("MessageShape(%q)\n got %q\nwant %q", c.in, got, c.shape)
		}
	}
}

func TestWithoutElsewhere(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"added the pattern `p` to the request property `a/id` (shared schema: `Root`, also at `b/id`, `c/id` and 11 more)": "added the pattern `p` to the request property `a/id` (shared schema: `Root`)",
		"added the pattern `p` to the request property `a/id` (also at `b/id`)":                                            "added the pattern `p` to the request property `a/id`",
		"added the pattern `p` to the request property `a/id`":                                                             "added the pattern `p` to the request property `a/id`",
	} {
		if got := WithoutElsewhere(in); got != want {
			t.Errorf("WithoutElsewhere(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// TestRootMessageKeepsPayloadWording: the statement of a webhook's change
// stays the consumer's, only its key reads as an operation's.
func TestRootMessageKeepsPayloadWording(t *testing.T) {
	t.Parallel()
	const in = "the webhook payload property `items/state` became optional"
	if got, want := RootMessage(in), "the webhook payload property `state` became optional"; got != want {
		t.Errorf("RootMessage(%q) = %q, want %q", in, got, want)
	}
}
