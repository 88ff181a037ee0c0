package specs

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"

	"go.yaml.in/yaml/v3"
)

// NodePath names a node of a document by the steps from the root to it
// (mapping keys; sequence items by scalar value, by name and in, else by
// index), each prefix hashed, so that a change found in one version
// document is placed on the same node of another, or on its nearest
// ancestor there, with neither tree at hand.
type NodePath []uint64

var nodeSeed = maphash.MakeSeed()

// next is the hash of the path prefix followed by s.
func (s step) next(prefix uint64) uint64 {
	var h maphash.Hash
	h.SetSeed(nodeSeed)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], prefix)
	h.Write(b[:])
	switch {
	case !s.seq:
		h.WriteByte('k')
		h.WriteString(s.key)
	case s.byValue:
		h.WriteByte('v')
		h.WriteString(s.value)
	case s.byNameAndIn:
		h.WriteByte('n')
		h.WriteString(s.name)
		h.WriteByte(0)
		h.WriteString(s.in)
	default:
		h.WriteByte('i')
		binary.LittleEndian.PutUint64(b[:], uint64(s.index))
		h.Write(b[:])
	}
	return h.Sum64()
}

func nodePath(steps []step) NodePath {
	out := make(NodePath, len(steps))
	var prefix uint64
	for i, s := range steps {
		prefix = s.next(prefix)
		out[i] = prefix
	}
	return out
}

// NodeAt is the path to the node at line:column of the tree (pathTo), or
// to the outermost node that starts on line when the column is unknown.
func NodeAt(root *yaml.Node, line, column int) NodePath {
	return nodePath(pathTo(root, line, column))
}

// Positions are where the nodes of a document start, by NodePath: a
// mapping entry at its key, a sequence item at itself. Of equal paths
// (items of one name), the first counts, as follow takes it.
type Positions struct {
	entries []position
	// aliased says a node is an alias: the loader places what it reads
	// through it at its anchor, one place for several paths.
	aliased bool
}

type position struct {
	path         uint64
	line, column int32
}

// PositionsOf reads where the nodes of the document root start.
func PositionsOf(root *yaml.Node) *Positions {
	var entries []position
	aliased := false
	var walk func(n *yaml.Node, prefix uint64)
	walk = func(n *yaml.Node, prefix uint64) {
		switch n.Kind {
		case yaml.AliasNode:
			aliased = true
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, prefix)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				h := step{key: k.Value}.next(prefix)
				entries = append(entries, position{h, int32(k.Line), int32(k.Column)})
				walk(n.Content[i+1], h)
			}
		case yaml.SequenceNode:
			for i, item := range n.Content {
				h := itemStep(item, i).next(prefix)
				entries = append(entries, position{h, int32(item.Line), int32(item.Column)})
				walk(item, h)
			}
		}
	}
	walk(root, 0)
	entries = sortByPath(entries)
	// Of equal paths, the first in the document.
	first := entries[:0]
	for i := 0; i < len(entries); {
		at := entries[i]
		for i++; i < len(entries) && entries[i].path == at.path; i++ {
			if e := entries[i]; e.line < at.line || e.line == at.line && e.column < at.column {
				at = e
			}
		}
		first = append(first, at)
	}
	return &Positions{entries: slices.Clip(first), aliased: aliased}
}

// sortByPath sorts entries by path, a byte of it at a time from the
// lowest (a radix sort): on a large document's 50 000 places a fifth of
// the time a sort by comparisons takes, most of what reading the places
// took.
func sortByPath(entries []position) []position {
	spare := make([]position, len(entries))
	for shift := 0; shift < 64; shift += 8 {
		var starts [256]int
		for _, e := range entries {
			starts[byte(e.path>>shift)]++
		}
		next := 0
		for digit, n := range starts {
			starts[digit], next = next, next+n
		}
		for _, e := range entries {
			digit := byte(e.path >> shift)
			spare[starts[digit]] = e
			starts[digit]++
		}
		entries, spare = spare, entries
	}
	return entries
}

// Find is the line of the node of path, else of its nearest ancestor the
// document has; ok is false when it has none of them.
func (p *Positions) Find(path NodePath) (line int, ok bool) {
	for i := len(path) - 1; i >= 0; i-- {
		j, found := slices.BinarySearchFunc(p.entries, path[i], func(e position, h uint64) int { return cmp.Compare(e.path, h) })
		if found {
			return int(p.entries[j].line), true
		}
	}
	return 0, false
}

// Aliased says a node of the document is an alias: the loader places what
// it reads through it at its anchor, one place for several paths.
func (p *Positions) Aliased() bool { return p.aliased }
