package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Set by the release build (GoReleaser's -X main.version=… ldflags); a plain
// go build or go install leaves them empty and the build info answers.
var (
	version string
	commit  string
	date    string
)

// devel is the version of a build that names none, as Go itself says.
const devel = "(devel)"

// buildVersion says which apiver this is.
type buildVersion struct {
	// Version is the module version: the release tag, a pseudo-version from
	// go install or go build in a clone, or devel.
	Version string
	Commit  string
	// Date is the commit's time (RFC 3339), or the release's build time.
	Date string
	// Modified: built from a work tree with uncommitted changes.
	Modified bool
}

// readVersion prefers the ldflags, then runtime/debug's build info: go
// install …@v1.2.0 records the module version, a build in a git clone
// records the commit, its time and whether the tree was modified.
func readVersion() buildVersion {
	v := buildVersion{Version: version, Commit: commit, Date: date}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v.orDevel()
	}
	if v.Version == "" {
		v.Version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			if v.Commit == "" {
				v.Commit = s.Value
			}
		case "vcs.time":
			if v.Date == "" {
				v.Date = s.Value
			}
		case "vcs.modified":
			v.Modified = s.Value == "true" && commit == ""
		}
	}
	return v.orDevel()
}

func (v buildVersion) orDevel() buildVersion {
	if v.Version == "" {
		v.Version = devel
	}
	return v
}

// Released is the version to name in reports (SARIF's tool.driver.version):
// empty for a development build, whose "(devel)" says nothing.
func (v buildVersion) Released() string {
	if v.Version == devel {
		return ""
	}
	return v.Version
}

// String is the one line of apiver --version.
func (v buildVersion) String() string {
	s := v.Version
	if v.Commit != "" {
		s += " (commit " + v.Commit
		if v.Modified {
			s += ", modified"
		}
		if v.Date != "" {
			s += ", " + v.Date
		}
		s += ")"
	} else if v.Date != "" {
		s += " (" + v.Date + ")"
	}
	return s
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print apiver's version, commit and build date",
		Example: `  apiver version
  apiver --version`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "apiver %s\n", readVersion())
			return err
		},
	}
}
