package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/internal/oasdiffdirect"
)

// The benchmark pair named in the engine issue.
const benchBase, benchRevision = "atlas-api-2024-11-19.yaml", "atlas-api-2024-12-19.yaml"

func BenchmarkCheckRealPair(b *testing.B) {
	dir := corpus.Unpack(b, benchBase, benchRevision)
	args := []string{"check", filepath.Join(dir, benchBase), filepath.Join(dir, benchRevision)}
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code == exitInput {
			b.Fatalf("check failed with exit %d", code)
		}
	}
}

// BenchmarkOasdiffDirect is oasdiff's own load, diff and check of the same
// pair, the figure apiver is measured against.
func BenchmarkOasdiffDirect(b *testing.B) {
	dir := corpus.Unpack(b, benchBase, benchRevision)
	for b.Loop() {
		if _, err := oasdiffdirect.Run(filepath.Join(dir, benchBase), filepath.Join(dir, benchRevision)); err != nil {
			b.Fatal(err)
		}
	}
}
