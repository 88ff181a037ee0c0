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

// benchDocuments is how many version documents the document benchmarks
// compare: a large API's history, each document broken in place.
const benchDocuments = 5000

// BenchmarkCheckDocuments checks a revision that breaks every one of
// benchDocuments version documents in place.
func BenchmarkCheckDocuments(b *testing.B) {
	base, revision := writeDocumentFolders(b, b.TempDir(), benchDocuments)
	for b.Loop() {
		if code := run([]string{"check", base, revision}, io.Discard, io.Discard); code != exitPolicy {
			b.Fatalf("check: exit %d, want %d", code, exitPolicy)
		}
	}
}

// BenchmarkFixDocuments fixes the same revision in place: every document
// restored from the base, and a new one added. It should take a small
// multiple of BenchmarkCheckDocuments.
func BenchmarkFixDocuments(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		b.StopTimer()
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		base, revision := writeDocumentFolders(b, dir, benchDocuments)
		b.StartTimer()
		if code := run([]string{"fix", "--version", "2030-01-01", base, revision}, io.Discard, io.Discard); code != exitPass {
			b.Fatalf("fix: exit %d, want %d", code, exitPass)
		}
	}
}

// writeDocumentFolders writes benchspec.WriteDocuments's base and revision
// folders of n documents, all broken, into dir.
func writeDocumentFolders(tb testing.TB, dir string, n int) (base, revision string) {
	tb.Helper()
	base, revision = filepath.Join(dir, "base"), filepath.Join(dir, "revision")
	if err := benchspec.WriteDocuments(base, revision, n, n); err != nil {
		tb.Fatal(err)
	}
	return base, revision
}
