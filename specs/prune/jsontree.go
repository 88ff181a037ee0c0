package prune

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// JSONTree parses a JSON text as the loader reads JSON (encoding/json,
// numbers as written) into a node tree with the lines of its tokens, keys
// in order, duplicates kept. It returns nil when data is not one JSON
// value.
func JSONTree(data []byte) *yaml.Node {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	lineOf := func() int {
		// The token just read ends at InputOffset, on the line it starts.
		off := int(dec.InputOffset()) - 1
		return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
	}
	var value func(tok json.Token) (*yaml.Node, error)
	value = func(tok json.Token) (*yaml.Node, error) {
		line := lineOf()
		switch t := tok.(type) {
		case json.Delim:
			n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line}
			end := json.Delim('}')
			if t == '[' {
				n.Kind, n.Tag, end = yaml.SequenceNode, "!!seq", ']'
			}
			for {
				tok, err := dec.Token()
				if err != nil {
					return nil, err
				}
				if tok == end {
					return n, nil
				}
				if n.Kind == yaml.MappingNode {
					key, _ := tok.(string)
					n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: lineOf()})
					if tok, err = dec.Token(); err != nil {
						return nil, err
					}
				}
				child, err := value(tok)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, child)
			}
		case string:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t, Line: line}, nil
		case json.Number:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!number", Value: string(t), Line: line}, nil
		case bool:
			v := "false"
			if t {
				v = "true"
			}
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: v, Line: line}, nil
		default:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: line}, nil
		}
	}
	tok, err := dec.Token()
	if err != nil {
		return nil
	}
	root, err := value(tok)
	if err != nil {
		return nil
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil
	}
	return root
}

// jsonUnsafe reports a string that a JSON text and a YAML parser could
// not both read the same once written: a character outside the Basic
// Multilingual Plane that YAML wants escaped, which JSON escapes only as
// a surrogate pair.
func jsonUnsafe(root *yaml.Node) (line int, unsafe bool) {
	var walk func(n *yaml.Node) bool
	walk = func(n *yaml.Node) bool {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && fourByteRune(n.Value) {
			for _, r := range n.Value {
				if r > 0xffff && !unicode.IsPrint(r) {
					line = n.Line
					return true
				}
			}
		}
		for _, c := range n.Content {
			if walk(c) {
				return true
			}
		}
		return false
	}
	return line, walk(root)
}

// fourByteRune reports whether s has a byte that starts a UTF-8 sequence
// of four bytes: a rune outside the Basic Multilingual Plane.
func fourByteRune(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xf0 {
			return true
		}
	}
	return false
}
