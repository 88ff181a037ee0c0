package diff_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
)

// requestTightening are the ids of a request that accepts fewer values:
// an enum value removed, something made required, a limit tightened.
var requestTightening = regexp.MustCompile(`^(request-(body|parameter|property|header)-(enum-value-removed|became-required|became-enum|(max|max-length|max-items|max-properties)-(decreased|set)|(min|min-length|min-items|min-properties)-(increased|set)|pattern-(added|changed))|new-required-request-(property|parameter|header-property)|request-body-became-required|request-parameter-became-required)$`)

var lengthLimit = regexp.MustCompile(`-(max|min)-length-`)

// renamedBranch finds, in a change's message, a oneOf/anyOf branch that the
// equivalences pair with one of another name (renamed-branch): the name
// the base gives it.
var renamedBranch = regexp.MustCompile(`(?:oneOf|anyOf)\[(#/components/schemas/[^ \]]+) -> `)

// TestEquivalencesKeepRequestTightenings compares, on every consecutive
// pair of the real corpus, the request-side tightenings reported with and
// without the equivalences: every one stays, except length limits that an
// anchored pattern already implied (those become no change, or are rated
// against the pattern's bounds and keep a length id). None appears with
// them, but inside a branch renamed under the same discriminator value,
// which without them reads as removed.
func TestEquivalencesKeepRequestTightenings(t *testing.T) {
	dir := corpus.Unpack(t)
	names := corpus.Names(t)
	cfg := policy.DefaultConfig()
	for i := 1; i < len(names); i++ {
		t.Run(names[i], func(t *testing.T) {
			t.Parallel()
			equivalencesKeepRequestTightenings(t, filepath.Join(dir, names[i-1]), filepath.Join(dir, names[i]), cfg)
		})
	}
}

// equivalencesKeepRequestTightenings checks one pair; the subtest's name
// is the revision's, the log names both.
func equivalencesKeepRequestTightenings(t *testing.T, basePath, revisionPath string, cfg policy.Config) {
	base, revision := loadBoth(t, basePath, revisionPath)
	opts := diff.Options{Product: "atlas", Levels: cfg.ChangeLevels(), Date: revision.Date}
	effective, err := diff.Compare(base, revision, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Literal = true
	literal, err := diff.Compare(base, revision, opts)
	if err != nil {
		t.Fatal(err)
	}
	pair := filepath.Base(basePath) + " → " + filepath.Base(revisionPath)
	before, after := tightenings(literal), tightenings(effective)
	var lostLength int
	for key := range before {
		if after[key] {
			continue
		}
		if lengthLimit.MatchString(key.id) {
			lostLength++
			t.Logf("%s: implied by its pattern: %s", pair, key)
			continue
		}
		t.Errorf("%s: %s lost by the equivalences", pair, key)
	}
	removed := branchesRemoved(literal)
	for key := range after {
		if !before[key] && !lengthLimit.MatchString(key.id) && !inRemovedBranch(key, removed) {
			t.Errorf("%s: %s appears only with the equivalences", pair, key)
		}
	}
	t.Logf("%s: %d request tightenings without the equivalences, %d with them (%d length limits the pattern implied)",
		pair, len(before), len(after), lostLength)
}

type tightening struct{ operation, version, id, message string }

var branchRemoved = regexp.MustCompile(`-(one|any)-of-removed$`)

// branchesRemoved are the messages of the oneOf/anyOf branches removed,
// by operation and version.
func branchesRemoved(r *diff.Result) map[[2]string][]string {
	out := map[[2]string][]string{}
	for _, c := range r.Changes() {
		if branchRemoved.MatchString(c.ID) {
			at := [2]string{c.Operation, c.Version}
			out[at] = append(out[at], c.Message)
		}
	}
	return out
}

// inRemovedBranch reports whether a change lies in a renamed branch that
// removed names as removed from its operation-version.
func inRemovedBranch(t tightening, removed map[[2]string][]string) bool {
	for _, m := range renamedBranch.FindAllStringSubmatch(t.message, -1) {
		for _, message := range removed[[2]string{t.operation, t.version}] {
			// The message lists the names: "removed `A, B` from …".
			if strings.Contains(message, m[1]+",") || strings.Contains(message, m[1]+"`") {
				return true
			}
		}
	}
	return false
}

func (t tightening) String() string {
	return fmt.Sprintf("%s %s %s: %s", t.operation, t.version, t.id, t.message)
}

func tightenings(r *diff.Result) map[tightening]bool {
	out := map[tightening]bool{}
	for _, c := range r.Changes() {
		if requestTightening.MatchString(c.ID) && c.Level != diff.Info {
			out[tightening{c.Operation, c.Version, c.ID, c.Message}] = true
		}
	}
	return out
}

// loadBoth loads two snapshot files whole.
func loadBoth(t *testing.T, basePath, revisionPath string) (base, revision *specs.Snapshot) {
	t.Helper()
	base, err := load.Load(basePath, specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	revision, err = load.Load(revisionPath, specs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return base, revision
}
