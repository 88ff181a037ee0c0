package main

import (
	"io"
	"testing"
)

func TestZZProf(t *testing.T) {
	run([]string{"check", "--config", "testdata/atlas.yaml", "--format", "githubactions", "/tmp/corpus/atlas-api-2024-12-19.yaml", "/tmp/broken-2024-12-19.yaml"}, io.Discard, io.Discard)
}
