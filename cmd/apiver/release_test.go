package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestGoReleaserConfig checks what a release needs from .goreleaser.yaml
// (goreleaser check in .ci/run checks the rest): the platforms, the version
// the binary reports, the checksums, the image and the Homebrew stanza.
func TestGoReleaserConfig(t *testing.T) {
	var cfg struct {
		Builds []struct {
			Main    string   `yaml:"main"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
		Checksum struct {
			Algorithm string `yaml:"algorithm"`
		} `yaml:"checksum"`
		Dockers []struct {
			Dockerfile string   `yaml:"dockerfile"`
			Platforms  []string `yaml:"platforms"`
		} `yaml:"dockers_v2"`
		Casks []struct {
			Binaries []string `yaml:"binaries"`
		} `yaml:"homebrew_casks"`
	}
	readYAML(t, "../../.goreleaser.yaml", &cfg)
	if len(cfg.Builds) != 1 {
		t.Fatalf("want one build, got %d", len(cfg.Builds))
	}
	b := cfg.Builds[0]
	if b.Main != "./cmd/apiver" {
		t.Errorf("build main = %q", b.Main)
	}
	for _, want := range []string{"linux", "darwin", "windows"} {
		if !slices.Contains(b.Goos, want) {
			t.Errorf("no %s build", want)
		}
	}
	if !slices.Equal(b.Goarch, []string{"amd64", "arm64"}) {
		t.Errorf("goarch = %q, want amd64 and arm64", b.Goarch)
	}
	// The -X flags name these variables (a renamed one would be ignored by
	// the linker without a word): this test stops compiling if they go.
	_ = []*string{&version, &commit, &date}
	ldflags := strings.Join(b.Ldflags, " ")
	for _, v := range []string{"main.version", "main.commit", "main.date"} {
		if !strings.Contains(ldflags, "-X "+v+"=") {
			t.Errorf("ldflags do not set %s", v)
		}
	}
	if cfg.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum algorithm %q: the action checks sha256", cfg.Checksum.Algorithm)
	}
	if len(cfg.Dockers) != 1 || cfg.Dockers[0].Dockerfile != "release.Dockerfile" ||
		!slices.Equal(cfg.Dockers[0].Platforms, []string{"linux/amd64", "linux/arm64"}) {
		t.Errorf("want one multi-arch image from release.Dockerfile, got %+v", cfg.Dockers)
	}
	if len(cfg.Casks) != 1 || !slices.Equal(cfg.Casks[0].Binaries, []string{"apiver"}) {
		t.Errorf("want a Homebrew stanza installing apiver, got %+v", cfg.Casks)
	}
}

// runtimeStage is a Dockerfile's last stage: its instructions (continuation
// lines joined), without comments and without how the binary gets in.
func runtimeStage(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`\\\n\s*`).ReplaceAllString(string(data), "")
	var stage []string
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "FROM "):
			stage = []string{line}
		case strings.HasPrefix(line, "COPY ") && strings.HasSuffix(line, " /usr/local/bin/apiver"),
			line == "ARG TARGETPLATFORM":
			stage = append(stage, "(the binary)")
		default:
			stage = append(stage, line)
		}
	}
	return stage
}

// TestDockerfilesAgree: the image built from source (Dockerfile) and the
// release's (release.Dockerfile) have the same runtime stage, with git for
// REF:PATH.
func TestDockerfilesAgree(t *testing.T) {
	source := runtimeStage(t, "../../Dockerfile")
	release := slices.Compact(runtimeStage(t, "../../release.Dockerfile"))
	if !slices.Equal(source, release) {
		t.Errorf("the runtime stages differ:\nDockerfile:\n%s\n\nrelease.Dockerfile:\n%s", strings.Join(source, "\n"), strings.Join(release, "\n"))
	}
	joined := strings.Join(source, "\n")
	for _, want := range []string{"apk add --no-cache git", "safe.directory", `ENTRYPOINT ["/usr/local/bin/apiver"]`} {
		if !strings.Contains(joined, want) {
			t.Errorf("the image lacks %q", want)
		}
	}
}

// TestGoReleaserPinsAgree: the release workflow runs the GoReleaser that
// .ci/run checks the config with.
func TestGoReleaserPinsAgree(t *testing.T) {
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^GORELEASER_VERSION=(\S+)$`).FindSubmatch(ci)
	if m == nil {
		t.Fatal(".ci/run does not pin GORELEASER_VERSION")
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	readYAML(t, "../../.github/workflows/release.yml", &wf)
	found := false
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "goreleaser/goreleaser-action@") {
				found = true
				if s.With["version"] != string(m[1]) {
					t.Errorf("the release workflow runs GoReleaser %s, .ci/run checks with %s", s.With["version"], m[1])
				}
			}
			if !pinned.MatchString(s.Uses) {
				t.Errorf("uses %s: pin a third-party action by its commit SHA", s.Uses)
			}
		}
	}
	if !found {
		t.Error("the release workflow does not run GoReleaser")
	}
}
