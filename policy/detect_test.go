package policy

import (
	"testing"

	"github.com/apiver/apiver/versions"
)

// ops is a snapshot's operations: GET on each path, with the versions given.
func ops(byPath map[string][]string) []*versions.Operation {
	var out []*versions.Operation
	for path, names := range byPath {
		op := &versions.Operation{Method: "GET", Path: path}
		for _, n := range names {
			op.Versions = append(op.Versions, versions.Version{Name: n})
		}
		out = append(out, op)
	}
	return out
}

func TestSnapshotEvidence(t *testing.T) {
	t.Parallel()
	type snapshot = map[string][]string
	for _, c := range []struct {
		name   string
		series []snapshot
		latest bool
	}{
		{"one version replaced by a newer one", []snapshot{
			{"/a": {"2024-01-01"}, "/b": {"2024-01-01"}},
			{"/a": {"2024-03-01"}, "/b": {"2024-01-01"}},
			{"/a": {"2024-03-01"}, "/b": {"2024-05-01"}},
		}, true},
		{"a path parameter renamed with it", []snapshot{
			{"/a/{id}": {"2024-01-01"}},
			{"/a/{aId}": {"2024-03-01"}},
			{"/a/{aId}": {"2024-03-01"}},
		}, true},
		// A normal bump of all-versions snapshots.
		{"a second version added beside the first", []snapshot{
			{"/a": {"2024-01-01"}},
			{"/a": {"2024-01-01", "2024-03-01"}},
		}, false},
		{"two versions elsewhere in the base", []snapshot{
			{"/a": {"2024-01-01"}, "/b": {"2023-01-01", "2024-01-01"}},
			{"/a": {"2024-03-01"}, "/b": {"2024-01-01"}},
		}, false},
		{"two versions in an earlier snapshot of the series", []snapshot{
			{"/a": {"2024-01-01", "2024-02-01"}},
			{"/a": {"2024-02-01"}},
			{"/a": {"2024-03-01"}},
		}, false},
		{"no version changes", []snapshot{
			{"/a": {"2024-01-01"}},
			{"/a": {"2024-01-01"}, "/c": {"2024-03-01"}},
		}, false},
		{"a version replaced by an older one", []snapshot{
			{"/a": {"2024-03-01"}},
			{"/a": {"2024-01-01"}},
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var e SnapshotEvidence
			for i := 1; i < len(c.series); i++ {
				e.AddPair(ops(c.series[i-1]), ops(c.series[i]))
			}
			if e.LatestOnly() != c.latest {
				t.Errorf("LatestOnly() = %v, want %v", e.LatestOnly(), c.latest)
			}
			cfg := DefaultConfig()
			if (cfg.DetectSnapshot(e) == DetectedLatestVersion) != c.latest || (cfg.Snapshot == LatestVersion) != c.latest {
				t.Errorf("DetectSnapshot: mode %s, want latest-version %v", cfg.Snapshot, c.latest)
			}
		})
	}
}

// TestDetectSnapshotOnePair: one pair whose only version of an operation
// is replaced looks like latest-version snapshots, and just as much like
// an all-versions snapshot that dropped a version early. It is read with
// the default, and only named as likely.
func TestDetectSnapshotOnePair(t *testing.T) {
	t.Parallel()
	var e SnapshotEvidence
	e.AddPair(ops(map[string][]string{"/a": {"2024-01-15"}}), ops(map[string][]string{"/a": {"2025-06-01"}}))
	cfg := DefaultConfig()
	if d := cfg.DetectSnapshot(e); d != LikelyLatestVersion || cfg.Snapshot != AllVersions {
		t.Errorf("DetectSnapshot = %d, mode %s; want LikelyLatestVersion and all-versions", d, cfg.Snapshot)
	}
}

// TestDetectSnapshotDeclared: a config that sets snapshot:, even to
// all-versions, is never overruled; one that leaves it out is, by a history.
func TestDetectSnapshotDeclared(t *testing.T) {
	t.Parallel()
	var latest SnapshotEvidence
	latest.AddPair(ops(map[string][]string{"/a": {"2024-01-01"}}), ops(map[string][]string{"/a": {"2024-03-01"}}))
	latest.AddPair(ops(map[string][]string{"/a": {"2024-03-01"}}), ops(map[string][]string{"/a": {"2024-05-01"}}))
	for _, c := range []struct {
		config string
		want   SnapshotMode
	}{
		{"snapshot: all-versions\n", AllVersions},
		{"snapshot: latest-version\n", LatestVersion},
		{"deprecationMonths: 6\n", LatestVersion},
		{"", LatestVersion},
	} {
		cfg, err := ParseConfig("apiver.yaml", []byte(c.config))
		if err != nil {
			t.Fatal(err)
		}
		cfg.DetectSnapshot(latest)
		if cfg.Snapshot != c.want {
			t.Errorf("%q: mode %s, want %s", c.config, cfg.Snapshot, c.want)
		}
	}
	if _, err := ParseConfig("apiver.yaml", []byte("snapshot: \"\"\n")); err == nil {
		t.Errorf("snapshot: \"\" is accepted")
	}
}
