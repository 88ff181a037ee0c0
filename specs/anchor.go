package specs

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/apiver/apiver/internal/sizelimit"

	"go.yaml.in/yaml/v3"
)

// Anchorer maps lines of the base snapshot's file onto the revision's file.
// A removal is located in the base, whose lines are not lines of the pull
// request; its nearest line in the revision is the line of the same node
// when the revision still has it, else the line of the nearest ancestor it
// has: the enum that held a removed value, the content map that held a
// removed version's media type, the path item of a removed operation.
type Anchorer struct {
	base, revision *Snapshot
	once           sync.Once
	// The documents are parsed on the first question only: most checks
	// locate nothing in the base.
	baseRoot, revisionRoot *yaml.Node
	// files are the $ref'd files' pairs asked about, by the base's file.
	files map[[2]string]*filePair
}

// filePair is a $ref'd file of the base and the file at its place beside
// the revision, parsed; nil roots when either cannot be read or parsed.
type filePair struct {
	revisionFile           string
	baseRoot, revisionRoot *yaml.Node
}

// NewAnchorer maps lines of base's file onto revision's file.
func NewAnchorer(base, revision *Snapshot) *Anchorer {
	return &Anchorer{base: base, revision: revision}
}

// Text is what the anchor parses: the text kin-openapi read, the file's
// bytes or the reduced copy of them it loaded. A location of
// a reduced document is in what both reduced texts kept (every changed
// operation and component, on both sides, with their ancestors), so the
// path to it and its nearest node in the revision are those of the whole
// texts.
func (s *Snapshot) Text() []byte {
	if s.loaded != nil {
		return s.loaded
	}
	return s.Data
}

// Line is the revision's line nearest to line of the base's file; ok is
// false when a file does not parse as YAML or JSON.
func (a *Anchorer) Line(line int) (int, bool) {
	a.once.Do(func() {
		// The two parses are independent; a large pair takes half the
		// time on two cores.
		done := make(chan struct{})
		go func() { a.baseRoot = PositionTree(a.base.Text()); close(done) }()
		a.revisionRoot = PositionTree(a.revision.Text())
		<-done
	})
	if a.baseRoot == nil || a.revisionRoot == nil {
		return 0, false
	}
	return follow(a.revisionRoot, pathAt(a.baseRoot, line)), true
}

// FileLine maps a line of a $ref'd file of the base (file, read at ref when
// ref is set) onto the file at the same place beside the revision's: that
// file and its line nearest to line. ok is false when the revision, read
// from disk, has no such regular file there, or a file does not parse.
// (Not safe for concurrent use.)
func (a *Anchorer) FileLine(file, ref string, line int) (string, int, bool) {
	if a.revision.Ref != "" {
		return "", 0, false
	}
	key := [2]string{file, ref}
	p, seen := a.files[key]
	if !seen {
		p = a.pairOf(file, ref)
		if a.files == nil {
			a.files = map[[2]string]*filePair{}
		}
		a.files[key] = p
	}
	if p.baseRoot == nil || p.revisionRoot == nil || ref == "" && filepath.Clean(file) == p.revisionFile {
		// (A file both read is a line of the revision already.)
		return "", 0, false
	}
	return p.revisionFile, follow(p.revisionRoot, pathAt(p.baseRoot, line)), true
}

func (a *Anchorer) pairOf(file, ref string) *filePair {
	p := &filePair{}
	rel, err := filepath.Rel(filepath.Dir(a.base.Path), file)
	if err != nil || !filepath.IsLocal(rel) {
		return p
	}
	p.revisionFile = filepath.Join(filepath.Dir(a.revision.Path), rel)
	// Read only within the revision's folder, its links resolved.
	dir, err := filepath.EvalSymlinks(filepath.Dir(a.revision.Path))
	if err != nil {
		return p
	}
	real, err := filepath.EvalSymlinks(p.revisionFile)
	if err != nil {
		return p
	}
	if inside, err := filepath.Rel(dir, real); err != nil || !filepath.IsLocal(inside) {
		return p
	}
	info, err := os.Stat(p.revisionFile)
	if err != nil || !info.Mode().IsRegular() || info.Size() > sizelimit.Default {
		return p
	}
	var baseData []byte
	if ref == "" {
		baseData, err = sizelimit.ReadFile(file, sizelimit.Default)
	} else if c, cerr := openCommit(ref); cerr == nil {
		baseData, err = c.read(file, sizelimit.Default)
	} else {
		err = cerr
	}
	if err != nil {
		return p
	}
	revisionData, err := sizelimit.ReadFile(p.revisionFile, sizelimit.Default)
	if err != nil {
		return p
	}
	p.baseRoot, p.revisionRoot = PositionTree(baseData), PositionTree(revisionData)
	return p
}

// step is one move from a node to a child: a mapping key, or a sequence
// item named by its scalar value, by its name (parameters), or else by its
// index.
type step struct {
	key         string
	seq         bool
	index       int
	value       string
	name, in    string
	byValue     bool
	byNameAndIn bool
}

// pathAt is the path from root to the outermost node that starts on line,
// or to the innermost node whose range holds it.
func pathAt(root *yaml.Node, line int) []step { return pathTo(root, line, 0) }

func itemStep(item *yaml.Node, index int) step {
	s := step{seq: true, index: index}
	switch item.Kind {
	case yaml.ScalarNode:
		s.value, s.byValue = item.Value, true
	case yaml.MappingNode:
		if name := child(item, "name"); name != nil && name.Kind == yaml.ScalarNode {
			s.name, s.byNameAndIn = name.Value, true
			if in := child(item, "in"); in != nil {
				s.in = in.Value
			}
		}
	}
	return s
}

// follow walks path from root as far as the document has it and returns
// the line where it stops.
func follow(root *yaml.Node, path []step) int {
	n, line := root, root.Line
	for _, s := range path {
		next, at := move(n, s)
		if next == nil {
			break
		}
		n, line = next, at.Line
	}
	return line
}

// move takes one step from n: the child and the node that names it (a
// mapping key, a sequence item itself).
func move(n *yaml.Node, s step) (next, naming *yaml.Node) {
	switch {
	case !s.seq && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == s.key {
				return n.Content[i+1], n.Content[i]
			}
		}
	case s.seq && n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			switch {
			case s.byValue:
				if item.Kind == yaml.ScalarNode && item.Value == s.value {
					return item, item
				}
			case s.byNameAndIn:
				if name, in := child(item, "name"), child(item, "in"); name != nil && name.Value == s.name && (in == nil || in.Value == s.in) {
					return item, item
				}
			case i == s.index:
				return item, item
			}
		}
	}
	return nil, nil
}

// pathTo is the path from root to the node that starts at line:column,
// where the loader's origins point: a mapping key, or a scalar item of a
// sequence (a mapping item's origin is its first key). When no node starts
// there, it is the path to the innermost node before it. Unlike a line
// alone (column 0: pathAt), a column tells apart the nodes of one line, as
// flow style and JSON write them. Aliases are not followed: their nodes
// start elsewhere.
func pathTo(root *yaml.Node, line, column int) []step {
	before := func(n *yaml.Node) bool {
		return n.Line < line || n.Line == line && (column == 0 || n.Column <= column)
	}
	at := func(n *yaml.Node) bool { return n.Line == line && (column == 0 || n.Column == column) }
	var path []step
	n := root
	for {
		switch n.Kind {
		case yaml.MappingNode:
			i := -1
			for j := 0; j+1 < len(n.Content); j += 2 {
				if before(n.Content[j]) {
					i = j
				}
			}
			if i < 0 {
				return path
			}
			path = append(path, step{key: n.Content[i].Value})
			if at(n.Content[i]) {
				return path
			}
			n = n.Content[i+1]
		case yaml.SequenceNode:
			i := -1
			for j, item := range n.Content {
				if before(item) {
					i = j
				}
			}
			if i < 0 {
				return path
			}
			path = append(path, itemStep(n.Content[i], i))
			n = n.Content[i]
			// A line alone stops at the item; a position at a scalar one,
			// a mapping item's being its first key's.
			if at(n) && (column == 0 || n.Kind == yaml.ScalarNode) {
				return path
			}
		default:
			return path
		}
	}
}

// RepoRoot is the directory that annotated files are named relative to:
// the top of the git work tree around the current directory, else the
// current directory; "" when neither is known.
func RepoRoot() string {
	if top, err := git("rev-parse", "--show-toplevel"); err == nil && top != "" {
		return top
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		return real
	}
	return wd
}
