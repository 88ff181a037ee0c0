package main

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apiver/apiver/internal/benchspec"
)

// writeResourceTree writes the resource tree of a snapshot whose versions
// are product's media types (benchspec.SplitResources) under dir.
func writeResourceTree(t *testing.T, dir string, text []byte, product string) {
	t.Helper()
	tree, err := benchspec.SplitResources(text, product)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	for _, name := range slices.Sorted(maps.Keys(tree)) {
		writeCaseFile(t, filepath.Join(dir, filepath.FromSlash(name)), tree[name])
	}
}
