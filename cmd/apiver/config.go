package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/apiver/apiver/policy"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// configEnv names the config file when --config does not.
const configEnv = "APIVER_CONFIG"

const configUsage = "config `FILE` (default: $" + configEnv + ", else " + policy.DefaultConfigFile + " or " + altConfigFile +
	" in the working directory or the nearest parent up to the git top level)"

func configFlag(fs *pflag.FlagSet, target *string) {
	fs.StringVar(target, "config", "", configUsage)
}

// loadConfig reads the config that findConfig names, or the defaults, and
// prints its warnings on stderr, one line each.
func loadConfig(flag string, stderr io.Writer) (policy.Config, error) {
	path, fromEnv, err := findConfig(flag)
	if err != nil {
		return policy.Config{}, err
	}
	if path == "" {
		return policy.DefaultConfig(), nil
	}
	cfg, err := policy.LoadConfig(path)
	if err != nil && fromEnv {
		return policy.Config{}, fmt.Errorf("$%s: %w", configEnv, err)
	}
	if err == nil {
		warn(stderr, cfg.Warnings)
	}
	return cfg, err
}

// findConfig is --config, else $APIVER_CONFIG, else apiver.yaml (or
// apiver.yml, but not both) in the working directory or its nearest parent that has one, up to the top of
// the git work tree, so that apiver run from a subfolder of a repository
// finds the root's config. Outside a git work tree only the working
// directory is looked at: a folder above it holds someone else's files.
// A found file is named relative to the working directory, as errors show it.
func findConfig(flag string) (path string, fromEnv bool, err error) {
	if flag != "" {
		return flag, false, nil
	}
	if env := os.Getenv(configEnv); env != "" {
		return env, true, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false, err
	}
	dirs := []string{wd}
	for dir := wd; ; {
		if exists(filepath.Join(dir, ".git")) {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			dirs = dirs[:1] // not in a git work tree
			break
		}
		dir = parent
		dirs = append(dirs, dir)
	}
	for _, dir := range dirs {
		var found []string
		for _, name := range []string{policy.DefaultConfigFile, altConfigFile} {
			p := filepath.Join(dir, name)
			if !exists(p) {
				continue
			}
			if rel, err := filepath.Rel(wd, p); err == nil {
				p = rel
			}
			found = append(found, p)
		}
		switch len(found) {
		case 1:
			return found[0], false, nil
		case 2:
			return "", false, fmt.Errorf("%s and %s: two configs; keep one", found[0], found[1])
		}
	}
	return "", false, nil
}

// altConfigFile is read as apiver.yaml is: .yml is as common a spelling.
const altConfigFile = "apiver.yml"

// exists: a .git folder or file (a linked work tree's, a submodule's), or a
// config that may be unreadable (reading it says why).
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

func newConfigCmd() *cobra.Command {
	cmd := group(&cobra.Command{
		Use:   "config",
		Short: "About apiver's config file",
		Long: `apiver reads its config from --config, else the file $APIVER_CONFIG names, else
apiver.yaml (or apiver.yml; both is an error) in the working directory or the
nearest parent up to the top of the git work tree.`,
		Example: `  apiver config schema > apiver.schema.json`,
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of " + policy.DefaultConfigFile + ", for editor completion and checks",
		Long: `Print the JSON Schema (draft 2020-12) of apiver.yaml, generated from the config
type: every key with its description, the rule and check ids severity and
exemptions accept, and the bounds apiver enforces. Save it beside the config and
point the editor at it, e.g. with the YAML language server's modeline.`,
		Example: `  apiver config schema > apiver.schema.json
  # first line of apiver.yaml, for editors using the YAML language server:
  # yaml-language-server: $schema=apiver.schema.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			data, err := policy.ConfigSchema()
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(data)
			return err
		},
	})
	return cmd
}
