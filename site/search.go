package site

import (
	"bytes"
	"encoding/json"
	"strings"
)

// searchIndex is every line of the history for the filter, loaded only when
// a reader types: a script (not JSON) so that it loads from disk too, where
// browsers refuse fetch. Operations are listed once and named by number.
type searchIndex struct {
	Operations []string      `json:"operations"`
	Lines      []searchEntry `json:"lines"`
}

type searchEntry struct {
	Date     string `json:"d"`
	Breaking bool   `json:"b,omitempty"`
	ID       string `json:"i"`
	Text     string `json:"t"`
	// Ops are indexes into Operations; Where is the versions and details
	// the line names, for matching and to show what matched.
	Ops    []int    `json:"o"`
	Where  []string `json:"w,omitempty"`
	Anchor string   `json:"a"`
}

func searchScript(views []releaseView) ([]byte, error) {
	idx := searchIndex{Operations: []string{}, Lines: []searchEntry{}}
	opIndex := map[string]int{}
	for _, v := range views {
		for _, l := range v.Lines {
			e := searchEntry{Date: v.Date, Breaking: l.Breaking, ID: l.ID, Text: strings.ReplaceAll(l.Text, "`", ""), Anchor: anchorOf(l)}
			if l.IsLifecycle() {
				e.Text = strings.ReplaceAll(l.Lead(), "`", "")
			}
			var where []string
			seen := map[string]bool{}
			for _, u := range l.Uses {
				i, ok := opIndex[u.Operation]
				if !ok {
					i = len(idx.Operations)
					opIndex[u.Operation] = i
					idx.Operations = append(idx.Operations, u.Operation)
				}
				e.Ops = append(e.Ops, i)
				for _, w := range []string{u.Version, strings.ReplaceAll(u.Detail, "`", "")} {
					if w != "" && !seen[w] {
						seen[w] = true
						where = append(where, w)
					}
				}
			}
			e.Where = where
			idx.Lines = append(idx.Lines, e)
		}
	}
	var b bytes.Buffer
	b.WriteString("// The changelog's search index, loaded by filter.js when the filter is used.\nwindow.apiverSearchIndex = ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(idx); err != nil {
		return nil, err
	}
	b.WriteString(";\n")
	return b.Bytes(), nil
}
