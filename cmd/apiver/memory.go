package main

import (
	"os"
	"runtime/debug"
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
	minimumBudget = 64 << 20
)

// budgetMemory sets the collector's policy for a command that holds
// documents of documentBytes at once.
func budgetMemory(documentBytes int64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(max(minimumBudget, budgetPerByte*documentBytes))
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
