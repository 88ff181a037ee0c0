package site

import "testing"

// TestTitleName: a feed's ids are named after the site's title; a title
// its slug does not hold whole (another script, letters with accents)
// carries a hash of it, so that two sites never share ids.
func TestTitleName(t *testing.T) {
	t.Parallel()
	if got := titleName("Example API changelog"); got != "example-api-changelog" {
		t.Errorf("titleName of an ASCII title = %q, want its slug", got)
	}
	a, b := titleName("変更履歴"), titleName("更新履歴")
	if a == b || a == "" {
		t.Errorf("two titles in another script name alike: %q, %q", a, b)
	}
	if got := titleName("Ünïcode API"); got == titleName("Unicode API") || got == "n-code-api" {
		t.Errorf("titleName(Ünïcode API) = %q: not told apart", got)
	}
}
