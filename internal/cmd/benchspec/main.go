// Command benchspec writes the snapshot pairs scripts/bench.sh measures:
//
//	benchspec one SNAPSHOT OUT             SNAPSHOT with one operation changed
//	benchspec broken SNAPSHOT OUT          SNAPSHOT with one operation broken (the check fails)
//	benchspec gen OPS CHANGED BASE REVISION generated specs
//	benchspec docs N BROKEN BASE REVISION   folders of N version documents, BROKEN of them broken
//	benchspec resources SNAPSHOT PRODUCT OUT SNAPSHOT (versions in PRODUCT's media types) as a resource tree
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/apiver/apiver/internal/benchspec"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchspec:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 3 && (args[0] == "one" || args[0] == "broken"):
		text, err := os.ReadFile(args[1])
		if err != nil {
			return err
		}
		change := benchspec.OneOperationChanged
		if args[0] == "broken" {
			change = benchspec.OneOperationBroken
		}
		changed, err := change(text)
		if err != nil {
			return fmt.Errorf("%s: %w", args[1], err)
		}
		return os.WriteFile(args[2], changed, 0o644)
	case len(args) == 5 && args[0] == "gen":
		ops, err1 := strconv.Atoi(args[1])
		changed, err2 := strconv.Atoi(args[2])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("gen OPS CHANGED: want two numbers")
		}
		base, revision := benchspec.Generate(ops, changed)
		if err := os.WriteFile(args[3], base, 0o644); err != nil {
			return err
		}
		return os.WriteFile(args[4], revision, 0o644)
	case len(args) == 5 && args[0] == "docs":
		n, err1 := strconv.Atoi(args[1])
		broken, err2 := strconv.Atoi(args[2])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("docs N BROKEN: want two numbers")
		}
		return benchspec.WriteDocuments(args[3], args[4], n, broken)
	case len(args) == 4 && args[0] == "resources":
		text, err := os.ReadFile(args[1])
		if err != nil {
			return err
		}
		tree, err := benchspec.SplitResources(text, args[2])
		if err != nil {
			return fmt.Errorf("%s: %w", args[1], err)
		}
		for name, doc := range tree {
			file := filepath.Join(args[3], filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(file, doc, 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("usage: benchspec one|broken SNAPSHOT OUT | benchspec gen OPS CHANGED BASE REVISION | benchspec docs N BROKEN BASE REVISION | benchspec resources SNAPSHOT PRODUCT OUT")
}
