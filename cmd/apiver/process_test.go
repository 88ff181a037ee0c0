package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apiver/apiver/load"
)

// Tests that run apiver as a process of their own (to kill it, to give it
// an environment, or to run beside other tests with t.Parallel) run this
// test binary with APIVER_AS_MAIN=1 (see TestMain). Every such process is
// bounded in time: a hang becomes a failure; nothing is timed.

// hangGuard bounds a process on a small document.
const hangGuard = 2 * time.Minute

// corpusGuard bounds a process on the real corpus (a whole history under
// a memory limit, with other tests running beside it).
const corpusGuard = 10 * time.Minute

// apiverProcess is this test binary as apiver in dir, as a separate
// process, bounded by hangGuard.
func apiverProcess(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "APIVER_AS_MAIN=1")
	return cmd
}

// runProcess runs apiver in dir ("": this package's folder) with env added
// to the test's environment, for at most guard, and returns what it did as
// runPipeline does. It touches no *testing.T, so a fixture can run it in a
// goroutine of its own; a process that could not run or was stopped is
// exit -1 with the reason on stderr.
func runProcess(guard time.Duration, dir string, env []string, args ...string) pipelineRun {
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "APIVER_AS_MAIN=1"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := pipelineRun{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.code = -1
		r.stderr += fmt.Sprintf("stopped after %v: %v\n", guard, ctx.Err())
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		r.code = -1
		r.stderr += err.Error() + "\n"
	}
	return r
}

// flagsOnly is the environment a process adds so that only its flags
// choose the pipeline and the config, whatever the test's environment
// says: the fast pipeline, and no config but a --config given.
var flagsOnly = []string{load.FullPipelineEnv + "=", configEnv + "="}

// agreeAsProcesses is agree with each pipeline a process of its own in dir:
// it reads neither the test's working directory nor its environment, so the
// test can run beside others (t.Parallel).
func agreeAsProcesses(t testing.TB, dir, name string, args []string) (pipelineRun, bool) {
	t.Helper()
	full := runProcess(corpusGuard, dir, flagsOnly, append(slices.Clone(args), "--full-pipeline")...)
	fast := runProcess(corpusGuard, dir, flagsOnly, args...)
	for _, r := range []*pipelineRun{&full, &fast} {
		if strings.HasPrefix(r.stderr, "panic: ") || strings.Contains(r.stderr, "\npanic: ") {
			r.panicked = r.stderr
		}
	}
	return compareRuns(t, name, args, full, fast)
}
