package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestJSONSnapshotsHaveLines: a change in a snapshot written in JSON is
// located at its line, as in YAML, through both pipelines: the enum value
// removed at the base's line that held it, in check, diff and the
// annotations.
func TestJSONSnapshotsHaveLines(t *testing.T) {
	fastPipelineOnly(t)
	t.Chdir(t.TempDir())
	doc := func(enum string) string {
		return `{
  "openapi": "3.0.3",
  "info": {"title": "W", "version": "1"},
  "paths": {
    "/widgets": {
      "post": {
        "requestBody": {
          "content": {
            "application/vnd.acme.2024-01-01+json": {
              "schema": {
                "type": "object",
                "properties": {
                  "color": {
                    "type": "string",
                    "enum": [` + enum + `]
                  }
                }
              }
            }
          }
        },
        "responses": {"201": {"description": "ok"}}
      }
    }
  }
}
`
	}
	files := map[string]string{"base-2024-01-01.json": doc(`"RED", "BLUE"`), "rev-2024-02-01.json": doc(`"RED"`)}
	for name, text := range files {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const line = 15 // the base's line of the enum
	args := []string{"check", "--format", "json", "base-2024-01-01.json", "rev-2024-02-01.json"}
	full, _ := agree(t, "json", args)
	var report struct {
		Findings []struct {
			Change   string
			Location *struct {
				File string
				Line int
			}
		}
	}
	if err := json.Unmarshal([]byte(full.stdout), &report); err != nil || len(report.Findings) != 1 {
		t.Fatalf("check: %v\n%s", err, full)
	}
	if loc := report.Findings[0].Location; loc == nil || loc.File != "base-2024-01-01.json" || loc.Line != line {
		t.Errorf("the enum value removed is located at %+v, want base-2024-01-01.json:%d", loc, line)
	}
	agree(t, "json diff", []string{"diff", "--format", "json", "base-2024-01-01.json", "rev-2024-02-01.json"})
	_, annotations, _ := runArgs(t, "check", "--format", "githubactions", "base-2024-01-01.json", "rev-2024-02-01.json")
	if !strings.Contains(annotations, "::error file=rev-2024-02-01.json,line=") || !strings.Contains(annotations, "In the base at base-2024-01-01.json:15") {
		t.Errorf("annotations without the JSON's lines:\n%s", annotations)
	}
}
