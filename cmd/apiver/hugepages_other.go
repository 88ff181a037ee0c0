//go:build !linux

package main

// preferHugePages does nothing where the system has no transparent huge
// pages to ask for.
func preferHugePages(int64) {}
