package versions_test

import (
	"testing"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/versions"
	"github.com/google/go-cmp/cmp"
)

func TestDateFromName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		path      string
		want      civil.Date
		wantFound bool
		wantErr   bool
	}{
		{name: "date in name", path: "example-2024-01-02.yaml", want: civil.Date{Year: 2024, Month: 1, Day: 2}, wantFound: true},
		{name: "date at start", path: "2026-02-08.json", want: civil.Date{Year: 2026, Month: 2, Day: 8}, wantFound: true},
		{name: "leap day", path: "spec_2024-02-29_final.yaml", want: civil.Date{Year: 2024, Month: 2, Day: 29}, wantFound: true},
		{name: "first of two dates", path: "api-2024-01-02-and-2024-03-04.yaml", want: civil.Date{Year: 2024, Month: 1, Day: 2}, wantFound: true},
		{name: "directory dates ignored", path: "/data/2023-05-05/snapshots-2022-01-01/api-2024-01-02.yaml", want: civil.Date{Year: 2024, Month: 1, Day: 2}, wantFound: true},
		{name: "relative directory date ignored", path: "2023-05-05/api-2024-12-31.yaml", want: civil.Date{Year: 2024, Month: 12, Day: 31}, wantFound: true},
		{name: "no date", path: "api.yaml"},
		{name: "date only in directory", path: "/data/2023-05-05/api.yaml"},
		{name: "date only in relative directory", path: "snap-2023-05-05/api.yaml"},
		{name: "undashed date", path: "api-20240102.yaml"},
		{name: "short month", path: "api-2024-1-02.yaml"},
		{name: "empty", path: ""},
		{name: "impossible day", path: "api-2024-02-30.yaml", wantFound: true, wantErr: true},
		{name: "impossible month", path: "/data/2024-01-01/api-2024-13-01.yaml", wantFound: true, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, found, err := versions.DateFromName(tt.path)
			if (err != nil) != tt.wantErr {
				t.Fatalf("DateFromName(%q) error = %v, want error %v", tt.path, err, tt.wantErr)
			}
			if found != tt.wantFound {
				t.Errorf("DateFromName(%q) found = %v, want %v", tt.path, found, tt.wantFound)
			}
			if tt.wantErr {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DateFromName(%q) mismatch (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestVersionOfName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, version string
		pre, found    bool
	}{
		{"api.github.com.2022-11-28.yaml", "2022-11-28", false, true},
		{"2024-01-04~beta", "2024-01-04~beta", true, true},
		{"2024-01-04~experimental", "2024-01-04~experimental", true, true},
		{"2024-01-04~ga", "2024-01-04", false, true},
		{"openapi-2024-09-01.upcoming.json", "2024-09-01.upcoming", true, true},
		{"2024-01-01-preview", "2024-01-01-preview", true, true},
		{"compute-preview-2024-01-01.json", "2024-01-01-preview", true, true},
		{"openapi-2023-02-01.json", "2023-02-01", false, true},
		{"spec.yaml", "", false, false},
	} {
		version, _, pre, found, err := versions.VersionOfName(c.name)
		if err != nil || version != c.version || pre != c.pre || found != c.found {
			t.Errorf("VersionOfName(%q) = %q, pre %v, found %v, %v; want %q, %v, %v", c.name, version, pre, found, err, c.version, c.pre, c.found)
		}
	}
	if _, _, _, found, err := versions.VersionOfName("api.2024-02-30.yaml"); !found || err == nil {
		t.Errorf("VersionOfName of a date that is not real: found %v, err %v; want found and an error", found, err)
	}
}
