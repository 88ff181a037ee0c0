// Command apiver checks date-versioned OpenAPI snapshots against the
// versioning policy and writes their change history.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
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
	err := root.Execute()
	switch {
	case err == nil:
		return exitPass
	case errors.Is(err, errPolicyFailed):
		return exitPolicy
	default:
		fmt.Fprintf(stderr, "apiver: %s\n", err)
		return exitInput
	}
}
