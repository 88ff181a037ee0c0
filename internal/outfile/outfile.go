// Package outfile is the one place that decides how apiver writes a file it
// was told to write (-o, --output FORMAT=FILE, --changelog, site -o), so
// that no command can replace what is not its to replace:
//
//   - a regular file, or a new one, is replaced atomically (package
//     atomicfile): written beside it and renamed into place;
//   - a character device (/dev/null), a named pipe, or a link to one of the
//     process's own descriptors (/dev/stdout, /proc/self/fd/1) is written
//     into, streamed, never renamed over, and no temporary file is made
//     beside it;
//   - a symbolic link whose target lies outside the git work tree that
//     holds it (outside git: outside the folder named on the command line)
//     is refused, naming the link and its target: a pull request that adds
//     such a link must not make CI overwrite a file of the runner's; a link
//     that stays inside is written through (its target replaced, the link
//     kept);
//   - a link into the work tree's .git folder is refused too;
//   - anything else (a folder where a file goes, a block device, a socket)
//     is refused.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/apiver/apiver/internal/atomicfile"
)

// Kind is what a target is once links are followed.
type Kind int

const (
	// File is a regular file, or nothing yet: replaced atomically.
	File Kind = iota
	// Stream is a character device, a named pipe or one of the process's
	// descriptors: written into.
	Stream
	// Folder is a directory: only `site` writes one.
	Folder
)

// Target is a path apiver was told to write, checked against the policy.
type Target struct {
	// Path is the path as named.
	Path string
	// Real is where the content goes: Path with symbolic links resolved
	// (for a Stream, Path itself, opened as named).
	Real string
	Kind Kind
	// What names a Stream's kind: a character device, a named pipe, or
	// a descriptor of the process.
	What string
}

// Error is a target the policy refuses.
type Error struct {
	Path, Msg string
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

// maxHops bounds a chain of links, as the kernel's ELOOP does.
const maxHops = 40

// descriptor matches the paths that name a descriptor of a process: what
// /dev/stdout and /dev/fd/N lead to.
var descriptor = regexp.MustCompile(`^/(proc/(self|thread-self|[0-9]+)|dev)/fd/[0-9]+$`)

// Resolve checks path against the output policy and says how it is
// written. The refusals are *Error.
func Resolve(path string) (*Target, error) {
	return ResolveIn(path, "")
}

// ResolveIn is Resolve for a file written into the folder root named on
// the command line (fix -o FOLDER): outside git, a link may lead anywhere
// inside root, and nowhere else, whatever folder of it holds the file.
// root "" is the file's own folder.
func ResolveIn(path, root string) (*Target, error) {
	t, named := &Target{Path: path}, root
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	cur, linked, firstTarget := abs, false, ""
	for hop := 0; ; hop++ {
		if descriptor.MatchString(cur) || cur == "/dev/stdout" || cur == "/dev/stderr" {
			// The process's own descriptor: what a shell redirection made
			// of it (a pipe, a terminal, a file opened for appending).
			t.Real, t.Kind, t.What = path, Stream, "a descriptor of the process"
			return t, nil
		}
		if hop == maxHops {
			return nil, &Error{path, "too many levels of symbolic links"}
		}
		info, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			break // a new file, or a dangling link's future target
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			break
		}
		to, err := os.Readlink(cur)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		if firstTarget == "" {
			firstTarget = to
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(cur), to)
		}
		cur, linked = filepath.Clean(to), true
	}
	real := Real(cur)
	if linked || real != abs {
		root, git := workTree(abs, root)
		if !Inside(root, real) {
			shown := root
			if !git && named != "" {
				shown = named
			}
			return nil, outsideError(path, firstTarget, real, shown, git)
		}
		if git && Inside(filepath.Join(root, ".git"), real) {
			// The repository itself is no output: a link to .git/config
			// would let a pull request break every later git step of CI.
			return nil, &Error{path, fmt.Sprintf("leads through a symbolic link into the repository's .git folder (%s): refused, so that a link cannot make apiver overwrite git's own files", real)}
		}
	}
	t.Real = real
	if !linked && real == abs {
		// No link anywhere: errors name the file as the user did.
		t.Real = path
	}
	info, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.Kind = File
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	case info.Mode().IsRegular():
		t.Kind = File
	case info.IsDir():
		t.Kind = Folder
	case info.Mode()&fs.ModeCharDevice != 0:
		t.Kind, t.What = Stream, "a character device"
	case info.Mode()&fs.ModeNamedPipe != 0:
		t.Kind, t.What = Stream, "a named pipe"
	default:
		return nil, &Error{path, fmt.Sprintf("%s: apiver writes regular files, character devices and named pipes only", kindOf(info.Mode()))}
	}
	return t, nil
}

// outsideError names the link, its target as written and where it leads.
func outsideError(path, written, real, root string, git bool) error {
	target := real
	if written != "" && written != real {
		target = fmt.Sprintf("%s (%s)", written, real)
	}
	where := "the git work tree " + root
	if !git {
		where = "the folder " + root + " named on the command line"
	}
	msg := fmt.Sprintf("a symbolic link to %s, outside %s: refused, so that a link cannot make apiver overwrite a file elsewhere (name the target itself to write it)", target, where)
	if written == "" {
		msg = fmt.Sprintf("leads through a symbolic link to %s, outside %s: refused, so that a link cannot make apiver overwrite a file elsewhere (name the target itself to write it)", target, where)
	}
	return &Error{path, msg}
}

// Real is path, made absolute, with every symbolic link on it resolved
// as far as the path exists; a link whose target does not exist yet (a
// file or folder still to be made) leads to that target all the same.
func Real(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	for hops := 0; ; hops++ {
		next, linked := followFirstLink(abs)
		if !linked || hops == maxHops {
			return next
		}
		abs = next
	}
}

// followFirstLink resolves the first symbolic link on the absolute path
// abs: the path it leads to with the rest of abs after it; linked is
// false when abs holds none, as far as it exists.
func followFirstLink(abs string) (string, bool) {
	vol := filepath.VolumeName(abs)
	parts := strings.Split(strings.TrimPrefix(abs[len(vol):], string(filepath.Separator)), string(filepath.Separator))
	cur := vol + string(filepath.Separator)
	for i, part := range parts {
		next := filepath.Join(cur, part)
		info, err := os.Lstat(next)
		if err != nil {
			return abs, false // nothing further exists
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			if to, err := os.Readlink(next); err == nil {
				if !filepath.IsAbs(to) {
					to = filepath.Join(cur, to)
				}
				return filepath.Join(append([]string{to}, parts[i+1:]...)...), true
			}
		}
		cur = next
	}
	return abs, false
}

// workTree is the top of the git work tree that holds abs, found by its
// .git (a folder, or a file in a linked work tree or a submodule), with
// symbolic links resolved; outside git, the folder named, or else the
// folder of abs as named, links resolved.
func workTree(abs, named string) (root string, git bool) {
	for dir := filepath.Dir(abs); ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return realDir(dir), true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if named != "" {
		return Real(named), false
	}
	return realDir(filepath.Dir(abs)), false
}

func realDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

// Inside reports whether path is root or lies under it, as written (no
// link is followed).
func Inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Writable tries, without changing anything, whether a File target can be
// replaced: its folder (the nearest that exists) takes a new file, and the
// file, if it exists, opens for writing. A writer of many files asks each
// first, so that none stops it half-way.
func (t *Target) Writable() error {
	dir := filepath.Dir(t.Real)
	for {
		if _, err := os.Stat(dir); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	probe, err := os.CreateTemp(dir, ".apiver-probe-*")
	if err != nil {
		return unwrapPath(err)
	}
	probe.Close()
	os.Remove(probe.Name())
	if f, err := os.OpenFile(t.Real, os.O_WRONLY, 0); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return unwrapPath(err)
	}
	return nil
}

func unwrapPath(err error) error {
	if pathErr, ok := errors.AsType[*fs.PathError](err); ok {
		return pathErr.Err
	}
	return err
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// Write writes what write produces to the target: a File replaced
// atomically (write may run twice, see atomicfile.Write), a Stream written
// into once the whole content is rendered, so a failed render writes
// nothing. A Folder is refused.
func (t *Target) Write(perm os.FileMode, write func(io.Writer) error) error {
	return t.WriteIn(new(atomicfile.Batch), perm, write)
}

// WriteIn is Write with a File replaced as part of batch, for a command
// that writes many files of one folder.
func (t *Target) WriteIn(batch *atomicfile.Batch, perm os.FileMode, write func(io.Writer) error) error {
	switch t.Kind {
	case Folder:
		return &Error{t.Path, "is a folder: name a file"}
	case Stream:
		var b strings.Builder
		if err := write(&b); err != nil {
			return err
		}
		return t.stream(b.String())
	}
	err := batch.Write(t.Real, perm, write)
	if pathErr, ok := errors.AsType[*fs.PathError](err); ok {
		// The error may name a temporary file; name the user's.
		return fmt.Errorf("%s: %w", t.Path, pathErr.Err)
	}
	return err
}

func (t *Target) stream(content string) error {
	f, err := openStream(t.Path)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, content)
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", t.Path, unwrapPath(err))
	}
	return nil
}
