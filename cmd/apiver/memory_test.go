package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// A command that holds more than its budget foresaw is not collected
// against the limit again and again: the limit follows the live heap up.
func TestMemoryLimitFollowsTheLiveHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: holds 256 MB")
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	settled.Store(false)         // a check run before in this process settled it
	memoryBudget(false)(1 << 20) // a budget of 64 MiB
	held := make([]byte, 256<<20)
	for i := range held {
		held[i] = byte(i)
	}
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) < 3*int64(len(held))/2 {
		if time.Now().After(deadline) {
			t.Fatalf("memory limit %d MiB with %d MiB live, want at least one and a half times that", debug.SetMemoryLimit(-1)>>20, len(held)>>20)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(held)
}
