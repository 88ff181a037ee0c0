package main

import "github.com/spf13/cobra"

// Shell completion (apiver completion bash|zsh|fish|powershell): positional
// snapshot and history files, and the values of the flags that name files or
// a choice. --format completes its values where it is declared (formatFlag).

var snapshotExts = []string{"yaml", "yml", "json"}

// completeFiles completes up to n arguments with files of these extensions.
func completeFiles(n int, exts ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) >= n {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return exts, cobra.ShellCompDirectiveFilterFileExt
	}
}

// completeDir completes one folder.
func completeDir(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) >= 1 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// flagCompletions complete flags by name: a flag means the same on every
// command that has it.
var flagCompletions = map[string]cobra.CompletionFunc{
	"config":     completeFiles(1, "yaml", "yml"),
	"exemptions": completeFiles(1, "yaml", "yml"),
	"snapshot":   completeFiles(1, snapshotExts...),
	"legacy":     completeFiles(1, snapshotExts...),
	"changelog":  completeFiles(1, "json"),
	"fail-on":    cobra.FixedCompletions([]string{"error", "warning", "info"}, cobra.ShellCompDirectiveNoFileComp),
}

func registerFlagCompletions(root *cobra.Command) {
	for _, c := range allCommands(root) {
		for name, f := range flagCompletions {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, f)
			}
		}
	}
}
