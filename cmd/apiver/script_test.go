package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apiver/apiver/internal/corpus"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	// A test that needs apiver as a process of its own (to kill it) runs
	// the test binary with this variable set.
	if os.Getenv("APIVER_AS_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	testscript.Main(removingSharedCorpus{m}, map[string]func(){
		"apiver": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// removingSharedCorpus runs the tests, then removes the real corpus they
// unpacked once (testscript.Main exits when they end).
type removingSharedCorpus struct{ m *testing.M }

func (r removingSharedCorpus) Run() int {
	defer corpus.RemoveShared()
	return r.m.Run()
}

// TestScripts runs the whole-CLI scenarios in testdata/script. $SEED is the
// seed history fixture folder.
func TestScripts(t *testing.T) {
	seed, err := filepath.Abs("../../testdata/seed-history")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("SEED", seed)
			return nil
		},
	})
}
