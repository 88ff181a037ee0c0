package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestHistoryReadsLaterXSunset: a version's x-sunset on its media type,
// later than its deprecation plus the period, is the sunset its
// version-deprecated entry carries, as versions lists it; an earlier one
// does not shorten the period.
func TestHistoryReadsLaterXSunset(t *testing.T) {
	t.Setenv(configEnv, "")
	t.Chdir(t.TempDir())
	const first = `openapi: 3.0.3
info: {title: W, version: "1"}
paths:
  /things:
    get:
      responses:
        "200":
          description: ok
          content:
            application/vnd.acme.2023-01-01+json:
              schema: {type: object, properties: {a: {type: string}}}
`
	second := func(sunset string) string {
		return `openapi: 3.0.3
info: {title: W, version: "1"}
paths:
  /things:
    get:
      responses:
        "200":
          description: ok
          content:
            application/vnd.acme.2023-01-01+json:
              x-sunset: ` + sunset + `
              schema: {type: object, properties: {a: {type: string}}}
            application/vnd.acme.2024-02-01+json:
              schema: {type: object, properties: {a: {type: integer}}}
`
	}
	for sunset, want := range map[string]string{"2025-06-30": "2025-06-30", "2024-12-01": "2025-02-01"} {
		dir := filepath.Join("history", sunset)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range map[string]string{"api-2024-01-01.yaml": first, "api-2024-02-01.yaml": second(sunset)} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, stdout, stderr := runArgs(t, "changelog", "build", dir)
		if code != exitPass {
			t.Fatalf("changelog build: exit %d: %s", code, stderr)
		}
		var history []struct {
			Changes []struct{ ID, Version, Sunset string }
		}
		if err := json.Unmarshal([]byte(stdout), &history); err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, release := range history {
			for _, c := range release.Changes {
				if c.ID == "version-deprecated" && c.Version == "2023-01-01" {
					got = c.Sunset
				}
			}
		}
		if got != want {
			t.Errorf("x-sunset %s: version-deprecated sunset %q, want %q\n%s", sunset, got, want, stdout)
		}
	}
}
