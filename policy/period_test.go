package policy

import (
	"strings"
	"testing"

	"cloud.google.com/go/civil"
	"github.com/google/go-cmp/cmp"
)

func TestParsePeriod(t *testing.T) {
	t.Parallel()
	from := civil.Date{Year: 2024, Month: 1, Day: 31}
	for text, want := range map[string]civil.Date{
		"1 day":     {Year: 2024, Month: 2, Day: 1},
		"91 days":   {Year: 2024, Month: 5, Day: 1},
		"2 weeks":   {Year: 2024, Month: 2, Day: 14},
		"1 week":    {Year: 2024, Month: 2, Day: 7},
		"12 months": {Year: 2025, Month: 1, Day: 31},
		"1 month":   from.AddMonths(1), // calendar months, as deprecationMonths counts them
		"2 years":   {Year: 2026, Month: 1, Day: 31},
		"50 years":  {Year: 2074, Month: 1, Day: 31},
	} {
		p, err := ParsePeriod(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := p.From(from); got != want {
			t.Errorf("%q from %s = %s, want %s", text, from, got, want)
		}
	}
	// Each refusal is one line; a near miss suggests the period meant.
	for text, suggestion := range map[string]string{
		"91days":       `"91 days"`,
		"12 mnths":     `"12 months"`,
		"1 Day":        `"1 day"`,
		"0 days":       "",
		"012 days":     "",
		"-1 days":      "",
		"91":           "",
		"days":         "",
		"91 d":         `"91 days"`,
		"1.5 months":   "",
		"P91D":         "",
		"91  days":     `"91 days"`,
		"":             "",
		"51 years":     "",
		"2610 weeks":   "",
		"999999 days":  "",
		"91 days\nnow": "",
	} {
		_, err := ParsePeriod(text)
		if err == nil {
			t.Errorf("%q: accepted", text)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || (suggestion != "" && !strings.Contains(msg, "did you mean "+suggestion)) || (suggestion == "" && strings.Contains(msg, "did you mean")) {
			t.Errorf("%q: %q, want one line suggesting %s", text, msg, suggestion)
		}
	}
}

func TestConfigPeriods(t *testing.T) {
	t.Parallel()
	months := func(n int) Period { return Period{N: n, Unit: "month"} }
	for config, want := range map[string]Periods{
		"":                        {LevelStable: months(12)},
		"deprecationMonths: 6":    {LevelStable: months(6)},
		"sunset: {beta: 91 days}": {LevelStable: months(12), LevelBeta: {91, "day"}},
		// vervet's names and oasdiff's mean the same levels.
		"sunset: {ga: 181 days, beta: 91 days, experimental: 1 day, wip: 1 week}": {LevelStable: {181, "day"}, LevelBeta: {91, "day"}, LevelAlpha: {1, "day"}, LevelDraft: {1, "week"}},
		"sunset: {stable: 1 year, alpha: 2 weeks, draft: 3 days}":                 {LevelStable: {1, "year"}, LevelAlpha: {2, "week"}, LevelDraft: {3, "day"}},
		"deprecationMonths: 24\nsunset: {beta: 3 months}":                         {LevelStable: months(24), LevelBeta: months(3)},
	} {
		cfg, err := ParseConfig("apiver.yaml", []byte(config))
		if err != nil {
			t.Errorf("%q: %v", config, err)
			continue
		}
		if diff := cmp.Diff(want, cfg.Periods()); diff != "" {
			t.Errorf("%q (-want +got):\n%s", config, diff)
		}
	}
	// The refusals name the keys at fault, on one line.
	for config, names := range map[string][]string{
		"sunset: {stable: 12 months, ga: 6 months}":          {"sunset", "stable", "ga"},
		"sunset: {alpha: 1 day, experimental: 1 day}":        {"sunset", "alpha", "experimental"},
		"sunset: {draft: 1 day, wip: 2 days}":                {"sunset", "draft", "wip"},
		"deprecationMonths: 12\nsunset: {stable: 12 months}": {"deprecationMonths", "sunset.stable"},
		"deprecationMonths: 12\nsunset: {ga: 181 days}":      {"deprecationMonths", "sunset.ga"},
		"sunset: {betta: 91 days}":                           {"sunset", `"betta"`, `did you mean "beta"`},
		"sunset: {preview: 91 days}":                         {"sunset", `"preview"`},
		"sunset: {beta: 91}":                                 {"sunset.beta", `"91"`},
		"sunset: {beta: 91 dayz}":                            {"sunset.beta", `did you mean "91 days"`},
		"sunset: {beta: [91 days]}":                          {"line 1", "sunset.beta"},
		"sunset: 91 days":                                    {"line 1", "sunset"},
		"deprecationMonths: 0\nsunset: {stable: 1 year}":     {"deprecationMonths"},
	} {
		_, err := ParseConfig("apiver.yaml", []byte(config))
		if err == nil {
			t.Errorf("%q: accepted", config)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("%q: %q is not one line", config, msg)
		}
		for _, name := range names {
			if !strings.Contains(msg, name) {
				t.Errorf("%q: %q, want it to name %s", config, msg, name)
			}
		}
	}
}
