// Package longtest is the one switch for the long test suites: the real
// corpus, the long differential and mutation budgets, the random fuzz seeds,
// the browser and the mass subprocess runs. They run with APIVER_LONG=1, as
// CI runs them, and skip otherwise, so that a plain `go test ./...` ends
// while its caller waits and still catches a wrong verdict.
package longtest

import (
	"os"
	"testing"
)

// Env names the environment variable that turns the long suites on.
const Env = "APIVER_LONG"

// Enabled reports whether the long suites run.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Require skips the test unless the long suites run (and not under -short,
// which the race detector's run uses); what says what the test costs, for
// the skip message.
func Require(tb testing.TB, what string) {
	tb.Helper()
	if testing.Short() {
		tb.Skipf("long test (%s): skipped in -short mode", what)
	}
	if !Enabled() {
		tb.Skipf("long test (%s): runs with %s=1, as in CI", what, Env)
	}
}
