package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
)

// The heap that follows preferHugePages is backed by huge pages where the
// system grants them on request. Run in a process of its own, whose heap
// is as small as apiver's is when it asks: in this one, other tests may
// have left free memory below the region that a new allocation takes.
func TestPreferHugePages(t *testing.T) {
	policy, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(policy, []byte("[madvise]")) {
		t.Skipf("the system does not grant huge pages on request (%q)", bytes.TrimSpace(policy))
	}
	if os.Getenv("APIVER_HUGE_PAGES_TEST") == "" {
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestPreferHugePages$", "-test.count=1")
		cmd.Env = append(os.Environ(), "APIVER_HUGE_PAGES_TEST=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	before := anonHugePages(t)
	preferHugePages(256 << 20)
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = byte(i)
	}
	if after := anonHugePages(t); after-before < 2<<20 {
		t.Errorf("huge pages grew by %d KiB after 64 MiB of heap, want at least one (2 MiB)", (after-before)>>10)
	}
	runtime.KeepAlive(held)
}

// anonHugePages is how much of the process's memory huge pages back.
func anonHugePages(t *testing.T) int64 {
	t.Helper()
	rollup, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("no smaps_rollup: %v", err)
	}
	for line := range bytes.Lines(rollup) {
		if rest, ok := bytes.CutPrefix(line, []byte("AnonHugePages:")); ok {
			kb, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
			if err != nil {
				t.Fatalf("smaps_rollup: %q", line)
			}
			return kb << 10
		}
	}
	t.Skip("smaps_rollup tells no AnonHugePages")
	return 0
}
