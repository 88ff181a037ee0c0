package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestFailOnPreexisting: findings already true of the base (an x-sunset set
// too early long ago, and so overdue) are counted apart and fail nothing by
// default; --fail-on-preexisting judges them as any other, and every count
// says so.
func TestFailOnPreexisting(t *testing.T) {
	t.Setenv(configEnv, "")
	t.Chdir(t.TempDir())
	const base = `openapi: 3.0.3
info: {title: w, version: "1"}
paths:
  /widgets:
    get:
      responses:
        "200":
          description: ok
          content:
            application/vnd.acme.2022-01-01+json:
              x-sunset: 2022-03-01
              schema: {type: object, properties: {a: {type: string}}}
            application/vnd.acme.2022-02-01+json:
              schema: {type: object, properties: {b: {type: integer}}}
  /gadgets:
    get:
      responses:
        "200": {description: ok}
`
	revision := base + "        \"404\": {description: nf}\n"
	for name, text := range map[string]string{"base-2024-01-15.yaml": base, "revision-2024-03-01.yaml": revision} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type summary struct {
		Errors, Warnings, Preexisting int
		Verdict                       string
		Groups                        struct{ Errors, Warnings, Preexisting int }
	}
	for _, c := range []struct {
		flags []string
		code  int
		want  summary
	}{
		{nil, exitPass, summary{Preexisting: 2, Verdict: "pass"}},
		{[]string{"--fail-on-preexisting"}, exitPolicy, summary{Errors: 1, Warnings: 1, Verdict: "fail"}},
	} {
		c.want.Groups.Errors, c.want.Groups.Warnings, c.want.Groups.Preexisting = c.want.Errors, c.want.Warnings, c.want.Preexisting
		args := append([]string{"check", "base-2024-01-15.yaml", "revision-2024-03-01.yaml"}, c.flags...)
		code, stdout, stderr := runArgs(t, append(args, "--format", "json")...)
		if code != c.code {
			t.Fatalf("apiver %s: exit %d, want %d: %s", strings.Join(args, " "), code, c.code, stderr)
		}
		var report struct{ Summary summary }
		if err := json.Unmarshal([]byte(stdout), &report); err != nil {
			t.Fatal(err)
		}
		if report.Summary != c.want {
			t.Errorf("apiver %s: summary %+v, want %+v", strings.Join(args, " "), report.Summary, c.want)
		}
		_, text, _ := runArgs(t, args...)
		already := strings.Contains(text, "Already in the base")
		if already != (c.want.Preexisting > 0) {
			t.Errorf("apiver %s: names findings already in the base apart: %t, want %t\n%s", strings.Join(args, " "), already, c.want.Preexisting > 0, text)
		}
		if c.want.Errors > 0 && !strings.HasPrefix(text, "check FAILED: 1 root change (error)") {
			t.Errorf("apiver %s: the verdict does not count the failing root change:\n%s", strings.Join(args, " "), text)
		}
	}
}
