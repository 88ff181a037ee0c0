package main

import (
	"runtime/debug"
	"syscall"
)

// preferHugePages asks Linux to back the next bytes of the heap with
// transparent huge pages where the system grants them on request (its
// "madvise" policy, the default of many distributions; under "always" the
// heap has them already, under "never" nothing changes). A check builds
// the parse trees of two snapshots, tens of megabytes, in fresh memory:
// in 4 KiB pages a pull request's check took about 20,000 page faults,
// a third of its CPU time. The Go runtime gives no way to ask for them,
// so the heap is grown by a region of that size, the region marked, and
// let go at once: the runtime hands its pages, still untouched, to the
// allocations that follow, and the mark stays with them. Called once,
// while the heap is small, so that the region is fresh memory, which the
// runtime does not clear.
func preferHugePages(bytes int64) {
	markRegion(bytes)
	// The region is garbage now: collected and returned unused, it is no
	// part of the heap the memory limit counts.
	debug.FreeOSMemory()
}

func markRegion(bytes int64) {
	region := make([]byte, bytes)
	// An error (a kernel without transparent huge pages) leaves the heap
	// as it was.
	_ = syscall.Madvise(region, syscall.MADV_HUGEPAGE)
}
