package policy

import (
	"cmp"
	"slices"

	"github.com/apiver/apiver/diff"
	oaschecker "github.com/oasdiff/oasdiff/checker"
)

// CatalogueEntry is one rule or oasdiff check with its effective severity.
type CatalogueEntry struct {
	ID       string `json:"id"`
	Purpose  string `json:"purpose"`
	Severity string `json:"severity"`
	// For oasdiff checks: oasdiff's own level, and where the check looks:
	// "operation", "document" (changes with an empty operation and
	// version), "date" (judged by apiver against --date) or "off-clock"
	// (never reported: oasdiff would read the wall clock). apiver's own
	// changes have scope "apiver" and the level of the check they are
	// rated as.
	OasdiffLevel string `json:"oasdiffLevel,omitempty"`
	Scope        string `json:"scope,omitempty"`
}

// EquivalenceEntry is one of the schema rewrites that are no change.
type EquivalenceEntry struct {
	ID      string `json:"id"`
	Purpose string `json:"purpose"`
}

// Catalogue is everything `apiver rules` prints, from the code itself.
type Catalogue struct {
	Rules        []CatalogueEntry   `json:"rules"`
	Checks       []CatalogueEntry   `json:"checks"`
	Equivalences []EquivalenceEntry `json:"equivalences"`
}

// BuildCatalogue lists apiver's rules and oasdiff's checks with the severities
// the config gives them.
func BuildCatalogue(cfg Config) Catalogue {
	var cat Catalogue
	for _, r := range Rules {
		severity := string(r.Severity)
		if s, ok := cfg.Severity[r.ID]; ok {
			severity = s
		}
		cat.Rules = append(cat.Rules, CatalogueEntry{ID: r.ID, Purpose: r.Purpose, Severity: severity})
	}
	overrides := cfg.ChangeLevels()
	localize := oaschecker.NewDefaultLocalizer()
	seen := map[string]bool{}
	for _, r := range oaschecker.GetAllRules() {
		if seen[r.Id] {
			continue
		}
		seen[r.Id] = true
		severity := string(diff.LevelOf(r.Level))
		if s, ok := overrides[r.Id]; ok {
			severity = s
		}
		cat.Checks = append(cat.Checks, CatalogueEntry{
			ID: r.Id, Purpose: localize(r.Id + "-description"), Severity: severity,
			OasdiffLevel: string(diff.LevelOf(r.Level)), Scope: checkScope(r.Id),
		})
	}
	for _, c := range diff.OwnChanges {
		if c.RatedAs == "" {
			severity := string(diff.LevelOf(c.Level))
			if s, ok := overrides[c.ID]; ok {
				severity = s
			}
			cat.Checks = append(cat.Checks, CatalogueEntry{ID: c.ID, Purpose: c.Purpose, Severity: severity, Scope: "apiver"})
			continue
		}
		oasdiffLevel := string(diff.LevelOf(diff.OasdiffLevel(c.RatedAs)))
		severity := oasdiffLevel
		if s, ok := overrides[c.RatedAs]; ok {
			severity = s
		}
		cat.Checks = append(cat.Checks, CatalogueEntry{ID: c.ID, Purpose: c.Purpose, Severity: severity, OasdiffLevel: oasdiffLevel, Scope: "apiver"})
	}
	slices.SortFunc(cat.Checks, func(a, b CatalogueEntry) int { return cmp.Compare(a.ID, b.ID) })
	for _, e := range diff.Equivalences {
		cat.Equivalences = append(cat.Equivalences, EquivalenceEntry{ID: e.ID, Purpose: e.Purpose})
	}
	return cat
}

func checkScope(id string) string {
	switch {
	case slices.Contains(diff.DocumentChecks, id):
		return "document"
	case diff.JudgedByDate(id):
		return "date"
	case diff.DroppedForClock(id):
		return "off-clock"
	}
	return "operation"
}
