// Command oasdiffdirect runs oasdiff's own pipeline (load, diff, check) on
// two specs and prints its counts, for scripts/bench.sh. With -load it only
// loads each spec named once, one after the other, with kin-openapi.
package main

import (
	"fmt"
	"os"

	"github.com/apiver/apiver/internal/oasdiffdirect"
	"github.com/oasdiff/oasdiff/checker"
)

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-load" {
		if err := oasdiffdirect.LoadEach(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Printf("%d specs loaded\n", len(os.Args)-2)
		return
	}
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: oasdiffdirect BASE REVISION | oasdiffdirect -load SPEC...")
		os.Exit(2)
	}
	changes, err := oasdiffdirect.Run(os.Args[1], os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	counts := map[checker.Level]int{}
	for _, c := range changes {
		counts[c.GetLevel()]++
	}
	fmt.Printf("%d changes: %d errors, %d warnings, %d info\n", len(changes), counts[checker.ERR], counts[checker.WARN], counts[checker.INFO])
}
