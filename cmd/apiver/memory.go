package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"

	"github.com/apiver/apiver/pipeline"
)

// Go's collector, at its default GOGC=100, takes a third of a check's CPU:
// kin-openapi's load makes many times a document's size in short-lived
// garbage while little of it stays live. apiver lets the heap grow further
// between collections, within a memory budget in proportion to the
// documents it holds, so that its peak stays below oasdiff's on the same
// pair. GOGC or GOMEMLIMIT in the environment take precedence.
const (
	gcPercent = 400
	// budgetPerByte is the budget per byte of YAML held: a kin-openapi
	// load of a YAML document peaks at about 17 live bytes per byte of
	// text, so this leaves the collector room for about as much again.
	budgetPerByte = 32
	// historyBudgetPerByte is a history's: it loads several snapshots at
	// once, each making garbage many times its size, and at a pair's budget
	// the collector ran against the limit much of the time (23 snapshots
	// of 2.3 MB: 16–18 s at 32 bytes a byte, 11–12 s at 64, with a peak of
	// about 350 MB against 620 MB).
	historyBudgetPerByte = 64
	minimumBudget        = 64 << 20
)

// memoryBudget sets the collector's policy for a command that holds
// documents of documentBytes at once, on the full pipeline or not.
func memoryBudget(full bool) func(documentBytes int64) {
	return func(documentBytes int64) { budget(budgetPerByte*documentBytes, !full) }
}

// budgetFiles sets opts' budget for two snapshot files before they are
// read, so that reading them already fills the heap that asked for huge
// pages; the pipeline sets it again once it knows what it holds. Inputs
// that are not files on disk (REF:PATH, a folder) are left to it.
func budgetFiles(opts pipeline.Options, base, revision string) {
	var total int64
	for _, path := range []string{base, revision} {
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() {
			return
		}
		total += info.Size()
	}
	if opts.Budget != nil {
		opts.Budget(total)
	}
}

// budgetHistoryMemory is memoryBudget for a history, which holds
// snapshots of documentBytes at once.
func budgetHistoryMemory(documentBytes int64, full bool) {
	budget(historyBudgetPerByte*documentBytes, !full)
}

// settledGCPercent is the collector's policy once a pull request's check
// has parsed and reduced both documents (pipeline.Options.Settled): the
// parse trees, most of what it holds, stay to the end, and at gcPercent
// the next collection came late, with the garbage of the loads and the
// diff on top of them. Lowered there, it collects the parse's garbage at
// once: on a 2.3 MB snapshot a median peak RSS of 98 MB instead of 112 MB
// (oasdiff's: 170–210 MB), at about the same speed. It stays so for the
// fix offer, whose loads are the few operations that changed: with the
// offer's budget, or at 150%, its garbage piled on the trees until the
// end (a failing pull request's peak 134 MB; at Go's default 121 MB, and
// no slower).
const settledGCPercent = 100

// settleMemory lowers the collector's growth once what is held is mostly
// long-lived, for the rest of the command: a later budget (the fix
// offer's) leaves it so.
func settleMemory() {
	if !environmentSetsCollector() {
		settled.Store(true)
		debug.SetGCPercent(settledGCPercent)
	}
}

var settled atomic.Bool

// environmentSetsCollector reports whether GOGC or GOMEMLIMIT sets the
// collector's policy, which apiver then leaves alone.
func environmentSetsCollector() bool {
	return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != ""
}

// budget sets the memory limit, and asks for huge pages where hugePages
// (unless GOGC or GOMEMLIMIT, which leave the heap to the environment):
// not on the full pipeline, which loads whole documents, its heap against
// the limit much of the time; the collector then returns pages to the
// system throughout, and in huge pages (which each return splits) the
// monthly pair's full check took 30–60 % longer.
func budget(limit int64, hugePages bool) {
	if environmentSetsCollector() {
		return
	}
	limit = max(minimumBudget, limit)
	if hugePages {
		hugePagesOnce.Do(func() { preferHugePages(min(hugePagesPerBudget*limit, maxHugePages)) })
	}
	if settled.Load() {
		return
	}
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(limit)
	followLiveHeapOnce.Do(followLiveHeap)
}

// The heap asked to have huge pages (preferHugePages) is twice the first
// budget: a command's heap outgrows its budget (followLiveHeap), a pair of
// two snapshots a month apart to about twice it. The region is address
// space, not memory, but a system that refuses to overcommit would count
// it: so it is bounded.
const (
	hugePagesPerBudget = 2
	maxHugePages       = 1 << 30
)

var hugePagesOnce sync.Once

var followLiveHeapOnce sync.Once

// followLiveHeap raises the memory limit, after each collection, to one
// and a half times the heap found live when the budget is below that: a
// command that holds more than its budget foresaw (fix loads whole
// documents too; a document may expand more than most) is then collected
// at most about twice as often as at Go's default, instead of again and
// again against the limit. (Twice the live heap would match the default,
// but lift a check's peak above oasdiff's.)
func followLiveHeap() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	// A sentinel that becomes garbage: its cleanup runs after each
	// collection that finds it so, and arms the next one.
	var arm func()
	arm = func() {
		sentinel := new([32]byte)
		runtime.AddCleanup(sentinel, func(struct{}) {
			metrics.Read(sample)
			if floor := int64(3 * sample[0].Value.Uint64() / 2); floor > debug.SetMemoryLimit(-1) {
				debug.SetMemoryLimit(floor)
			}
			arm()
		}, struct{}{})
	}
	arm()
}

// largestFile is the size of the largest of files, 0 when none can be read.
func largestFile(files []string) int64 {
	var largest int64
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			largest = max(largest, info.Size())
		}
	}
	return largest
}
