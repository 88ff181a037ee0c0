package prune

import (
	"encoding/binary"
	"hash/maphash"

	"go.yaml.in/yaml/v3"
)

type hashValue [2]uint64

var hashSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// hash hashes the parsed value of n at a place of shape s, without what the
// diff does not compare there (descriptions and examples in the fields
// that hold them): kinds, resolved tags and values in order, aliases
// followed. Equal hashes mean equal values as the diff reads them; layout,
// quoting, comments and anchor names do not count.
func (d *Doc) hash(n *yaml.Node, s *shape) hashValue { return d.hashSeeing(n, s, nil) }

// hashSeeing is hash that also calls see with each mapping below n that
// the loader reads as a SchemaRef, and its hash, where the way down from n
// passes no anchor, alias or merge: such a node is read only there, so it
// reads the same alone (Validator.check).
func (d *Doc) hashSeeing(n *yaml.Node, s *shape, see func(*yaml.Node, hashValue)) hashValue {
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return hashOf(n.Kind, "", n.Value, nil)
		}
		n = n.Alias
		see = nil
	}
	if n.Anchor != "" {
		see = nil
		if h, ok := d.hashes[hashKey{n, s}]; ok {
			return h
		}
	}
	// Most nodes have a few children: their hashes stay on the stack.
	var few [8]hashValue
	children := few[:0]
	switch {
	case n.Kind == yaml.MappingNode && !s.isData():
		reference := mapValue(n, "$ref") != nil
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			cs := data
			switch {
			case reference:
			case s.ignored[k.Value]:
				continue
			case k.Value == "<<" && k.Tag == "!!merge":
				children = append(children, d.hash(k, data), d.hash(v, s))
				continue
			default:
				cs = s.child(k.Value)
			}
			children = append(children, d.hash(k, data), d.hashChild(v, cs, see))
		}
	case n.Kind == yaml.SequenceNode && s.list:
		for _, c := range n.Content {
			children = append(children, d.hashChild(c, s.elem, see))
		}
	default:
		for _, c := range n.Content {
			children = append(children, d.hash(c, data))
		}
	}
	h := hashOf(n.Kind, n.Tag, n.Value, children)
	if n.Anchor != "" {
		d.hashes[hashKey{n, s}] = h
	}
	return h
}

// hashChild hashes the child c of shape cs, and sees it if it is a SchemaRef.
func (d *Doc) hashChild(c *yaml.Node, cs *shape, see func(*yaml.Node, hashValue)) hashValue {
	h := d.hashSeeing(c, cs, see)
	if see != nil && cs == schemaShape && c.Kind == yaml.MappingNode && c.Anchor == "" {
		see(c, h)
	}
	return h
}

func hashOf(kind yaml.Kind, tag, value string, children []hashValue) hashValue {
	var small [256]byte
	buf := small[:0]
	buf = binary.LittleEndian.AppendUint32(buf, uint32(kind))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(tag)))
	buf = append(buf, tag...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(value)))
	buf = append(buf, value...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(children)))
	for _, c := range children {
		buf = binary.LittleEndian.AppendUint64(buf, c[0])
		buf = binary.LittleEndian.AppendUint64(buf, c[1])
	}
	return hashValue{maphash.Bytes(hashSeeds[0], buf), maphash.Bytes(hashSeeds[1], buf)}
}
