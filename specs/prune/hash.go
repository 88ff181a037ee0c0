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
func (d *Doc) hash(n *yaml.Node, s *shape) hashValue {
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return hashOf(n.Kind, "", n.Value, nil)
		}
		n = n.Alias
	}
	if n.Anchor != "" {
		if h, ok := d.hashes[hashKey{n, s}]; ok {
			return h
		}
	}
	var children []hashValue
	switch {
	case n.Kind == yaml.MappingNode && !s.isData():
		children = make([]hashValue, 0, len(n.Content))
		reference := mapValue(n, "$ref") != nil
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			cs := data
			switch {
			case reference:
			case s.ignored[k.Value]:
				continue
			case k.Value == "<<" && k.Tag == "!!merge":
				cs = s
			default:
				cs = s.child(k.Value)
			}
			children = append(children, d.hash(k, data), d.hash(v, cs))
		}
	case n.Kind == yaml.SequenceNode && s.list:
		children = make([]hashValue, len(n.Content))
		for i, c := range n.Content {
			children[i] = d.hash(c, s.elem)
		}
	default:
		children = make([]hashValue, len(n.Content))
		for i, c := range n.Content {
			children[i] = d.hash(c, data)
		}
	}
	h := hashOf(n.Kind, n.Tag, n.Value, children)
	if n.Anchor != "" {
		d.hashes[hashKey{n, s}] = h
	}
	return h
}

func hashOf(kind yaml.Kind, tag, value string, children []hashValue) hashValue {
	buf := make([]byte, 0, 32+len(tag)+len(value)+16*len(children))
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
