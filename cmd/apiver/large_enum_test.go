package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apiver/apiver/internal/longtest"
	"github.com/apiver/apiver/load"
)

// largeEnumSpec is a snapshot whose request and response share a schema
// with one enum of n values, without value removed (-1 for none). It also
// returns the line of each value.
func largeEnumSpec(n, removed int) (spec string, lines map[string]int) {
	var b strings.Builder
	b.WriteString(`openapi: 3.0.3
info: {title: Widgets, version: "1"}
paths:
  /widgets:
    post:
      requestBody:
        content:
          application/vnd.example.2024-01-01+json:
            schema: {$ref: '#/components/schemas/Widget'}
      responses:
        "200":
          description: OK
          content:
            application/vnd.example.2024-01-01+json:
              schema: {$ref: '#/components/schemas/Widget'}
components:
  schemas:
    Widget:
      type: object
      properties:
        color:
          type: string
          enum:
`)
	lines = map[string]int{}
	line := strings.Count(b.String(), "\n")
	for i := range n {
		if i == removed {
			continue
		}
		value := fmt.Sprintf("v%07d", i)
		line++
		lines[value] = line
		fmt.Fprintf(&b, "            - %s\n", value)
	}
	return b.String(), lines
}

// Enums of tens of thousands of values are compared as sets: a check of
// two such snapshots ends, in both pipelines, and finds the one value
// removed at its line.
func TestLargeEnums(t *testing.T) {
	longtest.Require(t, "checks snapshots of 290,000 enum values")
	t.Chdir(t.TempDir())
	write := func(name, text string) string {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	config := write("config.yaml", "maxSpecSizeMiB: 64\n")

	type finding struct {
		Change   string
		Location struct {
			File string
			Line int
		}
	}
	check := func(want int, base, revision string) [][]finding {
		var found [][]finding
		for _, full := range []string{"1", ""} {
			t.Setenv(load.FullPipelineEnv, full)
			var report struct{ Findings []finding }
			out := runCheck(t, want, "check", "--format", "json", "--config", config, base, revision)
			if err := json.Unmarshal([]byte(out), &report); err != nil {
				t.Fatal(err)
			}
			found = append(found, report.Findings)
		}
		return found
	}

	same, _ := largeEnumSpec(40_000, -1)
	for _, findings := range check(exitPass, write("same-2024-01-01.yaml", same), write("same-2024-02-01.yaml", same)) {
		if len(findings) != 0 {
			t.Errorf("identical snapshots: %+v", findings)
		}
	}

	const removed = 123_456
	base, lines := largeEnumSpec(290_000, -1)
	revision, _ := largeEnumSpec(290_000, removed)
	want := finding{Change: "request-property-enum-value-removed"}
	want.Location.File, want.Location.Line = "x-2024-01-01.yaml", lines[fmt.Sprintf("v%07d", removed)]
	for _, findings := range check(exitPolicy, write("x-2024-01-01.yaml", base), write("x-2024-02-01.yaml", revision)) {
		if len(findings) != 1 || findings[0] != want {
			t.Errorf("one value removed: findings %+v, want %+v", findings, want)
		}
	}
}
