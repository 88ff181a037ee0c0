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
	// at is where the walk is, one place a level: a stack, not a chain
	// made for every value, as it is named only when Check reports.
	var at places
	var walk func(n *yaml.Node, s *shape) bool
	walk = func(n *yaml.Node, s *shape) bool {
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
			line, msg = n.Line, fmt.Sprintf("%s is %s: OpenAPI requires a %s object here%s", at, what, s.name, also)
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
				at = append(at, place{in: s, key: k.Value})
				if walk(v, cs) {
					return true
				}
				at = at[:len(at)-1]
			}
		case yaml.SequenceNode:
			if !s.list {
				return false
			}
			for i, c := range n.Content {
				at = append(at, place{item: i + 1})
				if walk(c, s.elem) {
					return true
				}
				at = at[:len(at)-1]
			}
		}
		return false
	}
	walk(root, documentShape)
	return line, msg
}

// place is one level of where a value sits: the key of a mapping of shape
// in, or the item of a list (1-based).
type place struct {
	in   *shape
	key  string
	item int
}

// places is where a value sits, from the document down (none: the
// document itself).
type places []place

func (ps places) String() string {
	if len(ps) == 0 {
		return "the document"
	}
	p, up := ps[len(ps)-1], ps[:len(ps)-1]
	if p.item > 0 {
		return fmt.Sprintf("%s item %d", up, p.item)
	}
	return describe(p.in, up.String(), p.key)
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

// KeyClash finds the first mapping, in document order, with two keys that
// YAML reads as different values and the loader, which turns keys into
// JSON object keys, as one (200 and "200", 0 and 0.0, also when one comes
// from a merge key): which value the loader keeps is left to Go's map
// order, so no verdict on such a document would be repeatable. It returns
// the line and what clashes, "" when nothing does.
func KeyClash(root *yaml.Node) (line int, msg string) {
	// The parser's nodes form a tree (an alias is a node of its own), so
	// each is walked once.
	var walk func(n *yaml.Node) bool
	walk = func(n *yaml.Node) bool {
		if n == nil {
			return false
		}
		if n.Kind == yaml.MappingNode && !onlyStringKeys(n) {
			byJSON := map[string]*yaml.Node{}
			identity := map[*yaml.Node]string{}
			for _, k := range effectiveKeys(n, map[*yaml.Node]bool{}) {
				v, ok := keyValue(k)
				j, jsonOK := jsonKey(v)
				if !ok || !jsonOK {
					continue // the loader refuses the key itself
				}
				identity[k] = fmt.Sprintf("%T %#v", v, v)
				if other, clash := byJSON[j]; clash && identity[other] != identity[k] {
					line, msg = k.Line, fmt.Sprintf("the keys %s and %s of one mapping are the same key once read: OpenAPI keys are strings", keyText(other), keyText(k))
					return true
				}
				byJSON[j] = k
			}
		}
		for _, c := range n.Content {
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(root)
	return line, msg
}

// onlyStringKeys reports whether every key of n is a string: two equal
// ones are the loader's to refuse, and nothing merges in others.
func onlyStringKeys(n *yaml.Node) bool {
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Tag != "!!str" {
			return false
		}
	}
	return true
}

// effectiveKeys are a mapping's keys, with those its merge keys bring in.
func effectiveKeys(n *yaml.Node, visiting map[*yaml.Node]bool) []*yaml.Node {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml.MappingNode || visiting[n] {
		return nil
	}
	visiting[n] = true
	defer delete(visiting, n)
	var keys []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag != "!!merge" {
			keys = append(keys, k)
			continue
		}
		merged := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			merged = v.Content
		}
		for _, m := range merged {
			keys = append(keys, effectiveKeys(m, visiting)...)
		}
	}
	return keys
}

// keyValue is a key as the parser decodes it; timestamps stay strings, as
// the loader reads them.
func keyValue(k *yaml.Node) (any, bool) {
	if k.Kind != yaml.ScalarNode {
		return nil, false
	}
	if k.Tag == "!!str" || k.Tag == "!!timestamp" {
		return k.Value, true
	}
	var v any
	if k.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}

// jsonKey is the object key the loader makes of a key's value, as its
// YAML-to-JSON conversion spells it.
func jsonKey(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case int:
		return strconv.Itoa(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true
	case bool:
		return strconv.FormatBool(v), true
	}
	return "", false
}

func keyText(k *yaml.Node) string {
	if k.Tag == "!!str" {
		return strconv.Quote(k.Value)
	}
	return k.Value
}
