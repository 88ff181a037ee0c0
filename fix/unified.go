package fix

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// Unified is the unified diff of the revision and the fixed file. Each
// splice is diffed on its own (a line diff of a small region): as exact as
// a whole-file diff, without its cost on a large spec.
func Unified(from, to string, revision []byte, res *Result) ([]byte, error) {
	old := string(revision)
	if !splicesMake(old, res) {
		// The splices are edits of the text as read (JSON's \/ written as
		// /): the whole file is diffed.
		text, err := udiff.ToUnified(from, to, old, udiff.Lines(old, string(res.Data)), udiff.DefaultContextLines)
		return []byte(text), err
	}
	var edits []udiff.Edit
	for _, s := range res.Splices {
		for _, e := range udiff.Lines(old[s.Start:s.End], s.Text) {
			e.Start, e.End = e.Start+s.Start, e.End+s.Start
			// The line diff may give one edit per line; ToUnified miscounts lines
			// when several start at one place, so join them.
			if n := len(edits); n > 0 && edits[n-1].End == e.Start {
				edits[n-1].End, edits[n-1].New = e.End, edits[n-1].New+e.New
				continue
			}
			edits = append(edits, e)
		}
	}
	text, err := udiff.ToUnified(from, to, old, edits, udiff.DefaultContextLines)
	return []byte(renumberHunks(text)), err
}

// splicesMake reports whether res's splices turn text into res.Data.
func splicesMake(text string, res *Result) bool {
	var b strings.Builder
	at := 0
	for _, s := range res.Splices {
		if s.Start < at || s.End > len(text) || s.Start > s.End {
			return false
		}
		b.WriteString(text[at:s.Start])
		b.WriteString(s.Text)
		at = s.End
	}
	b.WriteString(text[at:])
	return b.String() == string(res.Data)
}

var hunkHeader = regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@$`)

// renumberHunks sets each hunk's new start line from its old start and the
// lines the hunks before it added: go-udiff leaves out the unchanged lines
// between two edits of one hunk when it counts.
func renumberHunks(text string) string {
	delta := 0
	return hunkHeader.ReplaceAllStringFunc(text, func(h string) string {
		m := hunkHeader.FindStringSubmatch(h)
		from, _ := strconv.Atoi(m[1])
		oldCount, newCount := count(m[2]), count(m[3])
		out := fmt.Sprintf("@@ -%d,%d +%d,%d @@", from, oldCount, from+delta, newCount)
		delta += newCount - oldCount
		return out
	})
}

func count(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s)
	return n
}
