package pipeline

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apiver/apiver/policy"
)

// TestSeriesLeavesNoLoadRunning: once Series returns, whether a snapshot
// failed early (the loads ahead of it holding every slot) or the history
// is built, no goroutine of its loading is left, waiting for a slot that
// no one frees or telling the caller of a load. Not parallel: it counts
// the process's goroutines.
func TestSeriesLeavesNoLoadRunning(t *testing.T) {
	seed, err := filepath.Glob("../testdata/seed-history/example-*.yaml")
	if err != nil || len(seed) < 2 {
		t.Fatalf("seed history: %v, %v", seed, err)
	}
	cfg := policy.DefaultConfig()
	cfg.Product, cfg.Snapshot = "atlas", policy.LatestVersion
	// More snapshots after the missing one than the loads held ahead, so
	// that loading waits for a slot when the build ends.
	failing := []string{seed[0], filepath.Join(t.TempDir(), "missing-2023-01-15.yaml")}
	for len(failing) < SnapshotsHeld()+4 {
		failing = append(failing, seed[1:]...)
	}
	for _, tc := range []struct {
		name    string
		paths   []string
		wantErr bool
	}{
		{"a snapshot missing", failing, true},
		{"the seed history", seed, false},
	} {
		var loadsTold atomic.Int64 // told by the loads, concurrently
		err := Series(tc.paths, Options{Config: cfg, Progress: func() { loadsTold.Add(1) }}, func(Step) error { return nil })
		if (err != nil) != tc.wantErr {
			t.Fatalf("%s: Series: %v, want an error: %v", tc.name, err, tc.wantErr)
		}
		told := loadsTold.Load()
		if stacks := loadingGoroutines(); stacks != "" {
			t.Errorf("%s: after Series returned, its loading still runs:\n%s", tc.name, stacks)
		}
		if loadsTold.Load() != told {
			t.Errorf("%s: a load was told after Series returned", tc.name)
		}
	}
}

// loadingGoroutines are the stacks of the goroutines loadAhead started.
func loadingGoroutines() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "pipeline.loadAhead") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}
