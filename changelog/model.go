// Package changelog builds the dated change history of an API from its
// snapshots, merges new releases into an existing history, and renders it.
package changelog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/atomicfile"
	"github.com/apiver/apiver/internal/jsonline"
	"github.com/apiver/apiver/internal/jsonscan"
	"github.com/apiver/apiver/internal/sizelimit"
)

// Lifecycle entry ids, beside oasdiff's check ids.
const (
	VersionReleased   = "version-released"
	VersionDeprecated = "version-deprecated"
	VersionRemoved    = "version-removed"
)

// Release is every change of one release date.
type Release struct {
	Date string `json:"date"`
	// Summary is written by hand: what the release means to clients,
	// shown under its heading.
	Summary string  `json:"summary,omitempty"`
	Changes []Entry `json:"changes"`
}

// Entry is one change of one operation-version.
type Entry struct {
	Operation string `json:"operation"`
	Version   string `json:"version"`
	// ID is the oasdiff check id, or a lifecycle id of apiver's own.
	ID       string `json:"id"`
	Breaking bool   `json:"breaking"`
	Text     string `json:"text"`
	Exempted bool   `json:"exempted,omitempty"`
	// Replaces is, on version-released, the version the new one succeeds.
	Replaces string `json:"replaces,omitempty"`
	// Sunset is, on version-deprecated, the date the version may be removed.
	Sunset string `json:"sunset,omitempty"`
	// Note is written by hand and shown under the change.
	Note string `json:"note,omitempty"`
}

// valid refuses a change that render and site could only show wrong: null,
// without an operation or a text, or with a sunset that is no date.
func (e Entry) valid(raw json.RawMessage) error {
	switch {
	case string(bytes.TrimSpace(raw)) == "null":
		return errors.New("null, not a change")
	case e.Operation == "":
		return errors.New("no operation")
	case e.Text == "":
		return errors.New("no text")
	}
	if e.Sunset != "" {
		if _, err := civil.ParseDate(e.Sunset); err != nil {
			return fmt.Errorf("sunset %q is not YYYY-MM-DD", e.Sunset)
		}
	}
	return nil
}

// History is a changelog file: releases newest first. Releases read from a
// file keep their exact JSON, so fields apiver does not know (a hand-written
// description) survive an update.
type History struct {
	releases []storedRelease
}

type storedRelease struct {
	date string
	raw  json.RawMessage
}

// Dates lists the release dates, newest first.
func (h *History) Dates() []string {
	dates := make([]string, len(h.releases))
	for i, r := range h.releases {
		dates[i] = r.date
	}
	return dates
}

// Has reports whether the history holds a release of that date.
func (h *History) Has(date string) bool {
	return slices.ContainsFunc(h.releases, func(r storedRelease) bool { return r.date == date })
}

// Add puts a release into the history unless one of its date is already
// there: a recorded release is kept exactly, so adding is idempotent.
func (h *History) Add(r Release) (added bool, err error) {
	if h.Has(r.Date) {
		return false, nil
	}
	raw, err := json.Marshal(r)
	if err != nil {
		return false, err
	}
	h.releases = append(h.releases, storedRelease{date: r.Date, raw: raw})
	slices.SortStableFunc(h.releases, func(a, b storedRelease) int { return strings.Compare(b.date, a.date) })
	return true, nil
}

// Releases decodes every release.
func (h *History) Releases() ([]Release, error) {
	out := make([]Release, len(h.releases))
	for i, r := range h.releases {
		if err := json.Unmarshal(r.raw, &out[i]); err != nil {
			return nil, fmt.Errorf("release %s: %w", r.date, err)
		}
	}
	return out, nil
}

// Parse reads a changelog file's bytes. A history that is not an array of
// releases with valid dates is refused, so it is never overwritten.
func Parse(data []byte) (*History, error) {
	if jsonDepth(data) > maxDepth {
		return nil, fmt.Errorf("not a changelog: refused: nested deeper than %d levels", maxDepth)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, &syntaxError{line: jsonline.Of(data, err), err: fmt.Errorf("not a changelog (a JSON array of releases): %w", err)}
	}
	if raws == nil {
		return nil, errors.New("not a changelog (a JSON array of releases): null")
	}
	h := &History{}
	seen := map[string]bool{}
	for i, raw := range raws {
		var head struct {
			Date    string          `json:"date"`
			Changes json.RawMessage `json:"changes"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, fmt.Errorf("release %d: %w", i, err)
		}
		if _, err := civil.ParseDate(head.Date); err != nil {
			return nil, fmt.Errorf("release %d: date %q is not YYYY-MM-DD", i, head.Date)
		}
		if seen[head.Date] {
			return nil, fmt.Errorf("release %d: date %s appears twice", i, head.Date)
		}
		var changes []json.RawMessage
		if err := json.Unmarshal(head.Changes, &changes); err != nil {
			return nil, fmt.Errorf("release %s: changes is not an array", head.Date)
		}
		// Read as render and site read it: a history that they refuse is
		// not one to add a release to.
		var release Release
		if err := json.Unmarshal(raw, &release); err != nil {
			return nil, fmt.Errorf("release %s: %w", head.Date, err)
		}
		for j, e := range release.Changes {
			if err := e.valid(changes[j]); err != nil {
				return nil, fmt.Errorf("release %s: change %d: %w", head.Date, j, err)
			}
		}
		seen[head.Date] = true
		h.releases = append(h.releases, storedRelease{date: head.Date, raw: raw})
	}
	slices.SortStableFunc(h.releases, func(a, b storedRelease) int { return strings.Compare(b.date, a.date) })
	return h, nil
}

// syntaxError is a changelog that is not a JSON array, with the line where
// that shows (0 when unknown).
type syntaxError struct {
	line int
	err  error
}

func (e *syntaxError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("line %d: %v", e.line, e.err)
	}
	return e.err.Error()
}

func (e *syntaxError) Unwrap() error { return e.err }

// maxFileSize bounds the changelog read. The history is apiver's own output
// and grows with every release (about 9 MB after 22 releases of the real
// corpus), so its limit is well above the snapshots' one.
const maxFileSize = 256 << 20

// Read loads a changelog file.
func Read(path string) (*History, error) {
	data, err := sizelimit.ReadFile(path, maxFileSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", path, sizelimit.Problem(err))
	}
	h, err := Parse(data)
	var syntax *syntaxError
	if errors.As(err, &syntax) && syntax.line > 0 {
		return nil, fmt.Errorf("%s:%d: %w", path, syntax.line, syntax.err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// maxDepth bounds how deeply a history nests: a release nests about ten
// levels, and JSON deeper than the decoder's own limit (10,000) would read
// as invalid, not as too deep.
const maxDepth = 128

// jsonDepth is how deeply the arrays and objects of JSON text nest.
func jsonDepth(data []byte) int {
	level, deepest := 0, 0
	jsonscan.Outside(data, func(b byte) {
		switch b {
		case '[', '{':
			level++
			deepest = max(deepest, level)
		case ']', '}':
			level--
		}
	})
	return deepest
}

// Encode writes the history as indented JSON, newest release first.
func (h *History) Encode() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("[")
	for i, r := range h.releases {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  ")
		var compact bytes.Buffer
		if err := json.Compact(&compact, r.raw); err != nil {
			return nil, err
		}
		if err := json.Indent(&b, compact.Bytes(), "  ", "  "); err != nil {
			return nil, err
		}
	}
	if len(h.releases) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	return b.Bytes(), nil
}

// Write replaces the file atomically: written beside it and renamed into
// place, so an interrupted run leaves the old file whole.
func (h *History) Write(path string) error {
	data, err := h.Encode()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}

func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
