package versions_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/apiver/apiver/versions"
	"github.com/google/go-cmp/cmp"
)

func TestParseMediaType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    versions.MediaType
		wantOK  bool
		wantBad *versions.InvalidVersionError // non-nil: want this *InvalidVersionError
	}{
		{
			name:   "dated json",
			in:     "application/vnd.example.2023-02-01+json",
			want:   versions.MediaType{Product: "example", Version: "2023-02-01", Suffix: "json"},
			wantOK: true,
		},
		{
			name:   "dated csv",
			in:     "application/vnd.example.2024-08-05+csv",
			want:   versions.MediaType{Product: "example", Version: "2024-08-05", Suffix: "csv"},
			wantOK: true,
		},
		{
			name:   "dated gzip",
			in:     "application/vnd.example.2024-08-05+gzip",
			want:   versions.MediaType{Product: "example", Version: "2024-08-05", Suffix: "gzip"},
			wantOK: true,
		},
		{
			name:   "dated without suffix",
			in:     "application/vnd.example.2024-08-05",
			want:   versions.MediaType{Product: "example", Version: "2024-08-05"},
			wantOK: true,
		},
		{
			name:   "charset parameter",
			in:     "application/vnd.example.2023-02-01+json; charset=utf-8",
			want:   versions.MediaType{Product: "example", Version: "2023-02-01", Suffix: "json"},
			wantOK: true,
		},
		{
			name:   "several parameters",
			in:     "application/vnd.example.2023-02-01+json;charset=utf-8; q=0.9",
			want:   versions.MediaType{Product: "example", Version: "2023-02-01", Suffix: "json"},
			wantOK: true,
		},
		{
			name:   "upper case is case-insensitive",
			in:     "Application/VND.Example.2023-02-01+JSON",
			want:   versions.MediaType{Product: "example", Version: "2023-02-01", Suffix: "json"},
			wantOK: true,
		},
		{
			name:   "product with digits and hyphen",
			in:     "application/vnd.my-api2.2023-02-01+json",
			want:   versions.MediaType{Product: "my-api2", Version: "2023-02-01", Suffix: "json"},
			wantOK: true,
		},
		{
			name:   "preview",
			in:     "application/vnd.example.preview+json",
			want:   versions.MediaType{Product: "example", Version: "preview", Suffix: "json", PreRelease: true},
			wantOK: true,
		},
		{
			name:   "upcoming",
			in:     "application/vnd.example.2024-09-01.upcoming+json",
			want:   versions.MediaType{Product: "example", Version: "2024-09-01.upcoming", Suffix: "json", PreRelease: true},
			wantOK: true,
		},
		{
			name:   "leap day",
			in:     "application/vnd.example.2024-02-29+json",
			want:   versions.MediaType{Product: "example", Version: "2024-02-29", Suffix: "json"},
			wantOK: true,
		},
		{
			name:    "impossible day",
			in:      "application/vnd.example.2024-02-30+json",
			wantBad: &versions.InvalidVersionError{MediaType: "application/vnd.example.2024-02-30+json", Version: "2024-02-30"},
		},
		{
			name:    "no leap day in 2023",
			in:      "application/vnd.example.2023-02-29+json",
			wantBad: &versions.InvalidVersionError{MediaType: "application/vnd.example.2023-02-29+json", Version: "2023-02-29"},
		},
		{
			name:    "impossible month",
			in:      "application/vnd.example.2024-13-01+csv",
			wantBad: &versions.InvalidVersionError{MediaType: "application/vnd.example.2024-13-01+csv", Version: "2024-13-01"},
		},
		{
			name:    "impossible upcoming",
			in:      "application/vnd.example.2024-02-30.upcoming+json",
			wantBad: &versions.InvalidVersionError{MediaType: "application/vnd.example.2024-02-30.upcoming+json", Version: "2024-02-30"},
		},
		{name: "application/json", in: "application/json"},
		{name: "application/json with charset", in: "application/json; charset=utf-8"},
		{name: "unversioned vendor type", in: "application/vnd.example+json"},
		{name: "vendor type with other segment", in: "application/vnd.example.v2+json"},
		{name: "undashed date", in: "application/vnd.example.20240101+json"},
		{name: "date with other label", in: "application/vnd.example.2024-01-01.beta+json"},
		{name: "not application", in: "text/vnd.example.2024-01-01+json"},
		{name: "text/plain", in: "text/plain"},
		{name: "wildcard", in: "*/*"},
		{name: "empty", in: ""},
		{name: "garbage", in: "not a media type"},
		{name: "garbage with slashes", in: "///;;=="},
		{name: "no subtype", in: "application"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok, err := versions.ParseMediaType(tt.in)
			if tt.wantBad != nil {
				var bad *versions.InvalidVersionError
				if !errors.As(err, &bad) {
					t.Fatalf("ParseMediaType(%q) error = %v, want a *InvalidVersionError", tt.in, err)
				}
				if diff := cmp.Diff(tt.wantBad, bad); diff != "" {
					t.Errorf("ParseMediaType(%q) error mismatch (-want +got):\n%s", tt.in, diff)
				}
				if ok {
					t.Errorf("ParseMediaType(%q) ok = true with an error", tt.in)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseMediaType(%q) error = %v, want nil", tt.in, err)
			}
			if ok != tt.wantOK {
				t.Fatalf("ParseMediaType(%q) ok = %v, want %v", tt.in, ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseMediaType(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestMediaTypeNormalized(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string
	}{
		{"application/vnd.example.2023-02-01+json", "application/vnd.example+json"},
		{"application/vnd.example.2024-08-05+json; charset=utf-8", "application/vnd.example+json"},
		{"application/vnd.example.2024-08-05+csv", "application/vnd.example+csv"},
		{"application/vnd.example.2024-08-05+gzip", "application/vnd.example+gzip"},
		{"application/vnd.example.2024-08-05", "application/vnd.example"},
		{"application/vnd.example.preview+json", "application/vnd.example+json"},
		{"application/vnd.example.2024-09-01.upcoming+json", "application/vnd.example+json"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			mt, ok, err := versions.ParseMediaType(tt.in)
			if err != nil || !ok {
				t.Fatalf("ParseMediaType(%q) = ok %v, err %v; want a version", tt.in, ok, err)
			}
			if got := mt.Normalized(); got != tt.want {
				t.Errorf("Normalized() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestInvalidVersionErrorIsOneLine(t *testing.T) {
	t.Parallel()
	_, _, err := versions.ParseMediaType("application/vnd.example.2024-02-30+json")
	if err == nil {
		t.Fatal("want an error")
	}
	if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\r\n") {
		t.Errorf("Error() = %q, want one non-empty line", msg)
	}
}
