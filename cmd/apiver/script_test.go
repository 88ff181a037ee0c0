package main

import (
	"os"
	"path/filepath"
	"regexp"
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
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"fixoffer": scriptFixOffer},
	})
}

// offered is the apiver fix command line a check report offers, between
// backquotes.
var offered = regexp.MustCompile("`(apiver fix [^`]*)`")

// scriptFixOffer is the script command "fixoffer FILE": it writes the apiver fix
// command that the last command's stdout offers to FILE, to run as
// printed with "exec sh FILE"; with !, it asserts there is no offer.
func scriptFixOffer(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: fixoffer FILE")
	}
	m := offered.FindStringSubmatch(ts.ReadFile("stdout"))
	switch {
	case neg && m != nil:
		ts.Fatalf("unexpected fix offer: %s", m[1])
	case neg:
		return
	case m == nil:
		ts.Fatalf("no fix offer in stdout")
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(m[1]+"\n"), 0o644))
}
