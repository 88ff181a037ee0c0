package specs

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
)

// gitInput splits an argument of the form REF:PATH, a snapshot as committed
// at a git revision. An argument that names something on disk is a file,
// colon or not; git refs cannot contain ':', so the first one separates.
func gitInput(arg string) (ref, file string, ok bool) {
	ref, file, ok = strings.Cut(arg, ":")
	if !ok || ref == "" || file == "" || strings.HasPrefix(ref, "-") {
		return "", "", false
	}
	if _, err := os.Lstat(arg); !errors.Is(err, fs.ErrNotExist) {
		return "", "", false
	}
	if file == "." {
		// To git, REF:. names nothing; the working directory is ./.
		file = "./"
	}
	return ref, file, true
}

// readGit reads REF:PATH with the git command run in the current directory.
// PATH means what it means to git: relative to the top of the work tree, or
// to the current directory when it starts with ./ or ../. $ref'd files are
// read at the same commit. The snapshot's Path is PATH, so that locations
// name the file in the repository. Its date is opts.Date, else the date in
// PATH's file name, else the commit date of REF.
func readGit(arg, ref, file string, opts LoadOptions) (*Source, error) {
	fail := func(msg string) error { return &Error{File: arg, Msg: msg} }
	date := opts.Date
	if date.IsZero() {
		d, found, err := versions.DateFromName(file)
		if err != nil {
			return nil, fail(fmt.Sprintf("file name holds %q, which is not a real date", versions.DatePattern.FindString(path.Base(file))))
		}
		if found {
			date = d
		}
	}
	tree, err := openCommit(ref)
	if err != nil {
		return nil, fail(err.Error())
	}
	opts.Date = date
	return readAtCommit(arg, tree, file, opts)
}

// readAtCommit reads file at the resolved commit c, as readGit does; its
// date is opts.Date, else the commit's date.
func readAtCommit(arg string, c *gitCommit, file string, opts LoadOptions) (*Source, error) {
	fail := func(msg string) error { return &Error{File: arg, Msg: msg} }
	data, err := c.read(file, opts.MaxSize)
	if err != nil {
		if _, missing := errors.AsType[*missingAtRef](err); missing {
			return nil, fail(err.Error() + "; " + pathHint(file))
		}
		return nil, fail(err.Error())
	}
	date := opts.Date
	if date.IsZero() {
		if date, err = c.commitDate(); err != nil {
			return nil, fail(err.Error())
		}
	}
	return &Source{arg: arg, path: file, ref: c.ref, date: date, data: data, read: c.refReader(file, opts.Root, opts.AllowRemoteRefs, opts.MaxSize, opts.MaxNodes), paths: opts.Paths, maxNodes: opts.MaxNodes}, nil
}

// gitCommit is one resolved commit; reads go by its hash, so every file of
// a snapshot comes from the same commit.
type gitCommit struct {
	ref, hash string
}

// openCommit resolves ref to a commit, explaining the usual CI problems: no
// git, no repository, a ref that a shallow clone did not fetch.
func openCommit(ref string) (*gitCommit, error) {
	shallow, err := git("rev-parse", "--is-shallow-repository")
	if err != nil {
		switch _, notInstalled := errors.AsType[*exec.Error](err); {
		case notInstalled:
			return nil, errors.New("no such file, and git, needed to read it as REF:PATH, is not installed")
		case strings.Contains(err.Error(), "not a git repository"):
			return nil, errors.New("no such file, and the current directory is not in a git repository to read it as REF:PATH from")
		}
		return nil, err
	}
	hash, err := git("rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("git ref %q not found; %s", ref, fetchHint(ref, shallow == "true"))
	}
	return &gitCommit{ref: ref, hash: hash}, nil
}

// fetchHint says how to get a missing ref: CI checkouts are shallow and
// fetch only the pull request's own branch.
func fetchHint(ref string, shallow bool) string {
	// origin counts even when not configured: it is the usual CI remote.
	remotes, _ := git("remote")
	for remote := range strings.FieldsSeq("origin " + remotes) {
		if branch, ok := strings.CutPrefix(ref, remote+"/"); ok && branch != "" {
			return fmt.Sprintf("fetch the base branch (actions/checkout with fetch-depth: 0, or git fetch %s %s)", remote, branch)
		}
	}
	if shallow {
		return "the clone is shallow: fetch the history (actions/checkout with fetch-depth: 0, or git fetch --unshallow)"
	}
	branch := "BRANCH"
	if plainName.MatchString(ref) && ref != "HEAD" {
		branch = ref
	}
	// A CI checkout has the remote's branches only as origin/NAME.
	return fmt.Sprintf("fetch the base branch (actions/checkout with fetch-depth: 0, or git fetch origin %s) and name it origin/%s", branch, branch)
}

// plainName is a ref that may be a branch name, not an expression (HEAD~1).
var plainName = regexp.MustCompile(`^[A-Za-z0-9._/-]+$`)

// read returns the file at the commit, if it holds at most maxSize bytes
// (0: sizelimit.Default); file is a path as git reads it. The size is known
// before anything is read.
func (c *gitCommit) read(file string, maxSize int64) ([]byte, error) {
	object := c.hash + ":" + file
	// The object goes as an argument, not a line of --batch-check input:
	// a path may hold spaces and line breaks. The commit exists, so a
	// failure is the path's.
	kind, err := git("cat-file", "-t", object)
	if err != nil {
		return nil, &missingAtRef{file, c.ref}
	}
	switch kind {
	case "blob":
	case "tree":
		return nil, fmt.Errorf("%q is a directory at %s", file, c.ref)
	default:
		return nil, fmt.Errorf("%q is not a file at %s", file, c.ref)
	}
	size, err := git("cat-file", "-s", object)
	if err != nil {
		return nil, err
	}
	limit := cmp.Or(maxSize, sizelimit.Default)
	if n, err := strconv.ParseInt(size, 10, 64); err == nil && n > limit {
		return nil, fmt.Errorf("%q at %s: %s", file, c.ref, readProblem(&sizelimit.Error{Size: n, Limit: limit}))
	}
	return runGit(exec.Command("git", "cat-file", "blob", object))
}

// list lists the folder dir at the commit, by name; dir is a path as git
// reads it.
func (c *gitCommit) list(dir string) ([]entry, error) {
	object := c.hash + ":" + dir
	kind, err := git("cat-file", "-t", object)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%q does not exist at %s; %s", dir, c.ref, pathHint(dir))
	case kind != "tree":
		return nil, fmt.Errorf("%q is not a folder at %s", dir, c.ref)
	}
	// --full-tree: in a subfolder, ls-tree would list only what lies under
	// it, of a tree that is the folder's already.
	out, err := runGit(exec.Command("git", "ls-tree", "--full-tree", "-z", object))
	if err != nil {
		return nil, err
	}
	var entries []entry
	for line := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		meta, name, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		fields := strings.Fields(meta)
		e := entry{name: name, dir: len(fields) > 1 && fields[1] == "tree"}
		if fields[0] == "120000" {
			// A link committed leads wherever the runner's disk has its
			// target; the snapshot is the tree at the ref, nothing else.
			to, err := c.read(strings.TrimSuffix(dir, "/")+"/"+name, 4096)
			if err != nil {
				return nil, err
			}
			e.refused = fmt.Sprintf("a symbolic link to %s at %s: refused, a snapshot read from git is the tree at its ref, without links", to, c.ref)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// missingAtRef: no file at that path in the commit.
type missingAtRef struct{ file, ref string }

func (e *missingAtRef) Error() string { return fmt.Sprintf("%q does not exist at %s", e.file, e.ref) }

// pathHint explains PATH of REF:PATH: people write it relative to where they
// stand, git reads it from the repository's top.
func pathHint(file string) string {
	const hint = "PATH in REF:PATH is relative to the repository root"
	prefix, err := git("rev-parse", "--show-prefix")
	if err != nil || prefix == "" || strings.HasPrefix(file, "./") || strings.HasPrefix(file, "../") {
		return hint + " (./PATH: relative to the working directory)"
	}
	return fmt.Sprintf("%s: from here write ./%s or %s", hint, file, path.Join(prefix, file))
}

// commitDate is the committer date of the commit, in the committer's time
// zone: the day the change landed as its author's clock said.
func (c *gitCommit) commitDate() (civil.Date, error) {
	out, err := git("show", "-s", "--format=%cs", c.hash)
	if err != nil {
		return civil.Date{}, err
	}
	d, err := civil.ParseDate(out)
	if err != nil {
		return civil.Date{}, fmt.Errorf("commit date %q of %s: not a date", out, c.ref)
	}
	return d, nil
}

// refReader reads the root document's $ref'd files at the commit, with the
// same limits as on disk: URLs only when allowed, nothing outside confine
// (the directory of the root document when ""), nothing above maxSize. kin-openapi hands
// over locations joined to the root's path as given (cleaned), so they keep
// git's meaning of it.
func (c *gitCommit) refReader(rootFile, confine string, allowRemote bool, maxSize, maxNodes int64) openapi3.ReadFromURIFunc {
	remote := limitedRefReader(rootFile, "", allowRemote, maxSize, maxNodes)
	rootDir := path.Dir(path.Clean(rootFile))
	if confine != "" {
		rootDir = path.Clean(confine)
	}
	// path.Join drops a leading "./", which tells git the path is relative
	// to the current directory rather than the top of the work tree.
	cwdRelative := cwdRelative(rootFile)
	return func(loader *openapi3.Loader, location *url.URL) ([]byte, error) {
		if location.Scheme != "" && location.Scheme != "file" {
			return remote(loader, location)
		}
		file := path.Clean(location.Path)
		if !within(rootDir, file) {
			shown := fromDir(path.Dir(rootFile), location.Path)
			return nil, &refError{location: location.Path, msg: fmt.Sprintf("$ref %q leaves the directory of the spec: refused", shown)}
		}
		if cwdRelative {
			file = "./" + file
		}
		data, err := c.read(file, maxSize)
		if err != nil {
			return nil, &refError{location: location.Path, msg: "$ref " + err.Error()}
		}
		why, unparsed := checkParsed(data, maxNodes)
		if why != "" {
			return nil, &refError{location: location.Path, msg: fmt.Sprintf("$ref %q: %s", location.Path, why)}
		}
		if unparsed {
			if e := yamlSyntax(c.ref+":"+file, data); e != nil {
				return nil, e
			}
		}
		return data, nil
	}
}

// cwdRelative reports whether a PATH of REF:PATH is relative to the current
// directory (./ or ../), as git reads it, rather than to the top of the
// work tree.
func cwdRelative(file string) bool {
	return strings.HasPrefix(file, "./") || strings.HasPrefix(file, "../")
}

// RefFileName is how the document names a file it read (a $ref'd file's
// path, as the loader resolved it): at a git ref, as git reads it, ./ kept
// where the document's own PATH has it.
func (s *Source) RefFileName(file string) string {
	if s.ref == "" || !cwdRelative(s.path) || strings.HasPrefix(file, "../") || path.IsAbs(file) {
		return file
	}
	return "./" + file
}

// within reports whether the clean slash path file lies inside dir.
func within(dir, file string) bool {
	if path.IsAbs(file) {
		return false
	}
	if dir == "." {
		return file != ".." && !strings.HasPrefix(file, "../")
	}
	return strings.HasPrefix(file, dir+"/")
}

// git runs a git command and returns its output, trimmed.
func git(args ...string) (string, error) {
	out, err := runGit(exec.Command("git", args...))
	return string(bytes.TrimSpace(out)), err
}

// runGit runs a git command and returns its output. Errors are one line: git's
// first message line without "fatal: ".
func runGit(cmd *exec.Cmd) ([]byte, error) {
	// English messages: the error classification reads them.
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err == nil {
		return out, nil
	}
	if _, ok := errors.AsType[*exec.ExitError](err); !ok {
		return nil, err
	}
	lines := slices.DeleteFunc(strings.Split(stderr.String(), "\n"), func(l string) bool { return strings.TrimSpace(l) == "" })
	if len(lines) == 0 {
		return nil, fmt.Errorf("git %s: %v", cmd.Args[1], err)
	}
	return nil, fmt.Errorf("git: %s", strings.TrimPrefix(strings.TrimSpace(lines[0]), "fatal: "))
}
