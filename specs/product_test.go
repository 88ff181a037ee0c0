package specs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/apiver/apiver/internal/spectest"
	"github.com/apiver/apiver/specs"
)

func TestDetectProduct(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// docs are the snapshots' media types, one list per snapshot.
		docs        [][]string
		want        string
		wantErrFile []int // indexes of the snapshots the error may name; nil: no error
	}{
		{name: "one product", docs: [][]string{{"application/vnd.example.2024-01-01+json", "application/json"}}, want: "example"},
		{
			name: "one product in two snapshots",
			docs: [][]string{
				{"application/vnd.example.2024-01-01+json"},
				{"application/vnd.example.2024-01-01+csv", "application/vnd.example.preview+json", "application/vnd.example.2024-09-01.upcoming+json"},
			},
			want: "example",
		},
		{name: "only an impossible date", docs: [][]string{{"application/vnd.example.2024-02-30+json"}}, want: "example"},
		{name: "only pre-release", docs: [][]string{{"application/vnd.example.preview+json"}}, want: "example"},
		{name: "none", docs: [][]string{{"application/json"}, {"text/plain"}}, want: ""},
		{name: "unversioned vendor type", docs: [][]string{{"application/vnd.example+json"}}, want: ""},
		{name: "no operations", docs: [][]string{nil}, want: ""},
		{
			name:        "two products in one snapshot",
			docs:        [][]string{{"application/vnd.example.2024-01-01+json", "application/vnd.other.2024-01-01+json"}},
			wantErrFile: []int{0},
		},
		{
			name:        "two products in two snapshots",
			docs:        [][]string{{"application/vnd.example.2024-01-01+json"}, {"application/vnd.other.2024-01-01+json"}},
			wantErrFile: []int{1},
		},
		{
			name:        "second product in the third snapshot",
			docs:        [][]string{{"application/vnd.example.2024-01-01+json"}, {"application/vnd.example.2024-06-01+json"}, {"application/vnd.zeta.preview+json"}},
			wantErrFile: []int{2},
		},
		{
			name:        "second product sorts first",
			docs:        [][]string{{"application/vnd.zeta.2024-01-01+json"}, {"application/vnd.alpha.2024-01-01+json"}},
			wantErrFile: []int{0, 1},
		},
		{
			name:        "second product only as an impossible date",
			docs:        [][]string{{"application/vnd.example.2024-01-01+json"}, {"application/vnd.other.2024-02-30+json"}},
			wantErrFile: []int{1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var snaps []*specs.Snapshot
			for i, mts := range tt.docs {
				path := fmt.Sprintf("snap%d-2024-0%d-01.yaml", i, i+1)
				data := spectest.MinimalDoc
				if len(mts) > 0 {
					data = spectest.DocWithContent(mts...)
				}
				snaps = append(snaps, &specs.Snapshot{Path: path, Doc: parseDoc(t, path, data)})
			}
			got, err := specs.DetectProduct(snaps...)
			if tt.wantErrFile == nil {
				if err != nil {
					t.Fatalf("DetectProduct: %v", err)
				}
				if got != tt.want {
					t.Errorf("DetectProduct = %q, want %q", got, tt.want)
				}
				return
			}
			if got != "" {
				t.Errorf("DetectProduct = %q with an error, want \"\"", got)
			}
			se := spectest.SpecError(t, err)
			var allowed []string
			for _, i := range tt.wantErrFile {
				allowed = append(allowed, snaps[i].Path)
			}
			if !slices.Contains(allowed, se.File) {
				t.Errorf("Error.File = %q, want one of %q", se.File, allowed)
			}
		})
	}
}
