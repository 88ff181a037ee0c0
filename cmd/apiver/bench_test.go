package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apiver/apiver/internal/benchspec"
	"github.com/apiver/apiver/internal/corpus"
	"github.com/apiver/apiver/internal/oasdiffdirect"
)

// The benchmark pair named in the engine issue.
const benchBase, benchRevision = "atlas-api-2024-11-19.yaml", "atlas-api-2024-12-19.yaml"

func BenchmarkCheckRealPair(b *testing.B) {
	dir := corpus.Unpack(b, benchBase, benchRevision)
	benchCheck(b, filepath.Join(dir, benchBase), filepath.Join(dir, benchRevision))
}

// BenchmarkOasdiffDirect is oasdiff's own load, diff and check of the same
// pair, the figure apiver is measured against.
func BenchmarkOasdiffDirect(b *testing.B) {
	dir := corpus.Unpack(b, benchBase, benchRevision)
	benchOasdiff(b, filepath.Join(dir, benchBase), filepath.Join(dir, benchRevision))
}

// A pull request that changes one operation of the 2024-12-19 snapshot.
func BenchmarkCheckOneOperationChanged(b *testing.B) {
	base, revision := onePR(b)
	benchCheck(b, base, revision)
}

func BenchmarkOasdiffDirectOneOperationChanged(b *testing.B) {
	base, revision := onePR(b)
	benchOasdiff(b, base, revision)
}

func BenchmarkCheckOneOperationChangedFullPipeline(b *testing.B) {
	base, revision := onePR(b)
	benchCheck(b, base, revision, "--full-pipeline")
}

// onePR is the 2024-12-19 snapshot and a pull request's copy of it with a
// required request property added to one operation.
func onePR(b *testing.B) (base, revision string) {
	dir := corpus.Unpack(b, benchRevision)
	base = filepath.Join(dir, benchRevision)
	text, err := os.ReadFile(base)
	if err != nil {
		b.Fatal(err)
	}
	changed, err := benchspec.OneOperationChanged(text)
	if err != nil {
		b.Fatal(err)
	}
	revision = filepath.Join(b.TempDir(), "pr-2024-12-19.yaml")
	if err := os.WriteFile(revision, changed, 0o644); err != nil {
		b.Fatal(err)
	}
	return base, revision
}

func benchCheck(b *testing.B, base, revision string, flags ...string) {
	args := append([]string{"check", "--config", "testdata/atlas.yaml", base, revision}, flags...)
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code == exitInput {
			b.Fatalf("check failed with exit %d", code)
		}
	}
}

func benchOasdiff(b *testing.B, base, revision string) {
	for b.Loop() {
		if _, err := oasdiffdirect.Run(base, revision); err != nil {
			b.Fatal(err)
		}
	}
}
