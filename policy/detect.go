package policy

import "github.com/apiver/apiver/versions"

// SnapshotEvidence is what consecutive snapshots show of what they publish,
// for a config that does not say (Config.DetectSnapshot).
type SnapshotEvidence struct {
	// several: some operation carries two dated versions, as only
	// all-versions snapshots do.
	several bool
	// replaced: some operation's one version gave way to a newer one from
	// one snapshot to the next.
	replaced bool
	// pairs is how many consecutive pairs were looked at.
	pairs int
}

// AddPair adds what the operations of two consecutive snapshots show.
func (e *SnapshotEvidence) AddPair(base, revision []*versions.Operation) {
	e.pairs++
	before := map[string]*versions.Operation{}
	for _, op := range base {
		e.several = e.several || len(op.Versions) > 1
		before[op.Key()] = op
	}
	for _, op := range revision {
		e.several = e.several || len(op.Versions) > 1
		if old := before[op.Key()]; old != nil && len(old.Versions) == 1 && len(op.Versions) == 1 && op.Versions[0].Name > old.Versions[0].Name {
			e.replaced = true
		}
	}
}

// LatestOnly reports whether the snapshots look like latest-version ones:
// no operation carries two dated versions, while versions do change from
// one snapshot to the next. A base with one version and a revision that adds
// a second beside it is a bump of all-versions snapshots.
func (e SnapshotEvidence) LatestOnly() bool { return e.replaced && !e.several }

// Detection is what DetectSnapshot made of the evidence.
type Detection int

const (
	// NotDetected: the config says, or the snapshots do not look like
	// latest-version ones.
	NotDetected Detection = iota
	// LikelyLatestVersion: one pair looks like latest-version snapshots,
	// but it would look the same if an all-versions snapshot dropped a
	// version too early: the default reading stands, and a note names the
	// setting.
	LikelyLatestVersion
	// DetectedLatestVersion: a whole history (several pairs) looks like
	// latest-version snapshots, and is read so.
	DetectedLatestVersion
)

// DetectSnapshot reads the snapshots as latest-version ones when the config
// does not set snapshot: and a whole history of them shows they publish
// only the newest version of each operation. One pair never decides: a
// gate that guessed would pass a version removed before its sunset.
func (c *Config) DetectSnapshot(e SnapshotEvidence) Detection {
	if c.SnapshotDeclared || c.Snapshot == LatestVersion || !e.LatestOnly() {
		return NotDetected
	}
	if e.pairs < 2 {
		return LikelyLatestVersion
	}
	c.Snapshot = LatestVersion
	return DetectedLatestVersion
}
