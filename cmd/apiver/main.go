// Command apiver checks date-versioned OpenAPI snapshots against the
// versioning policy and writes their change history.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apiver/apiver/internal/escape"
	"github.com/apiver/apiver/pipeline"
)

// Exit codes, the one table: 0 pass, 1 policy failure, 2 usage or input error.
const (
	exitPass   = 0
	exitPolicy = 1
	exitInput  = 2
)

// errPolicyFailed ends a check that found errors; the findings already said
// why, so nothing more is printed.
var errPolicyFailed = errors.New("policy check failed")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	switch {
	case err == nil:
		return exitPass
	case errors.Is(err, errPolicyFailed):
		return exitPolicy
	default:
		fmt.Fprintf(stderr, "apiver: %s\n", oneLine(err.Error()))
		if isUsageError(err) && cmd != nil {
			fmt.Fprintf(stderr, "Usage: %s\nRun '%s --help' for examples.\n", usageLine(cmd), cmd.CommandPath())
		}
		return exitInput
	}
}

// isUsageError tells a bad command line from bad input. cobra returns a
// missing required flag as a plain error.
func isUsageError(err error) bool {
	if _, ok := errors.AsType[*usageError](err); ok {
		return true
	}
	if _, ok := errors.AsType[*pipeline.UsageError](err); ok {
		return true
	}
	return strings.HasPrefix(err.Error(), "required flag(s)")
}

// oneLine is msg shown through the escaping layer of text output, so that
// an input error stays one line, and reads as stored, whatever a file name
// or a document holds.
func oneLine(msg string) string { return escape.Text(msg) }
