package prune

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Check finds the first place, in document order, where the OpenAPI
// structure requires an object (an operation, a response, a media type, a
// parameter, a schema...) and the document holds null, a scalar or a
// list: the loader would refuse it or keep a nil that nothing can read.
// It returns the line (0 when unknown) and what is wrong, "" when nothing
// is. The full and the reduced pipeline both check the whole document.
func Check(root *yaml.Node) (line int, msg string) {
	if root == nil || root.Kind != yaml.MappingNode {
		return 0, ""
	}
	seen := map[hashKey]bool{}
	var walk func(n *yaml.Node, s *shape, where string) bool
	walk = func(n *yaml.Node, s *shape, where string) bool {
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		if s.isData() || seen[hashKey{n, s}] {
			return false
		}
		if n.Anchor != "" {
			seen[hashKey{n, s}] = true
		}
		if s.object && n.Kind != yaml.MappingNode && !(s.boolOK && n.Kind == yaml.ScalarNode && n.Tag == "!!bool") {
			what := "a list"
			switch {
			case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
				what = "null"
			case n.Kind == yaml.ScalarNode:
				what = "the scalar " + strconv.Quote(n.Value)
			}
			also := ""
			if s.boolOK {
				also = " or a boolean"
			}
			line, msg = n.Line, fmt.Sprintf("%s is %s: OpenAPI requires a %s object here%s", where, what, s.name, also)
			return true
		}
		switch n.Kind {
		case yaml.MappingNode:
			if mapValue(n, "$ref") != nil && s.component != "" {
				return false
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				cs := s.child(k.Value)
				if k.Value == "<<" && k.Tag == "!!merge" {
					cs = s
				}
				if walk(v, cs, describe(s, where, k.Value)) {
					return true
				}
			}
		case yaml.SequenceNode:
			if !s.list {
				return false
			}
			for i, c := range n.Content {
				if walk(c, s.elem, fmt.Sprintf("%s item %d", where, i+1)) {
					return true
				}
			}
		}
		return false
	}
	walk(root, documentShape, "the document")
	return line, msg
}

// describe names the value of key in a mapping of shape s at where.
func describe(s *shape, where, key string) string {
	if s.elem != nil && !s.list {
		return fmt.Sprintf("the %s %q", s.elem.name, key)
	}
	if where == "the document" {
		return strconv.Quote(key)
	}
	return fmt.Sprintf("%s of %s", strconv.Quote(key), where)
}
