package specs

import (
	"strconv"
	"unicode/utf16"

	"go.yaml.in/yaml/v3"
)

// PositionTree is the tree that NodeAt and an Anchorer read of data: the
// kind, value, line and column of every node, as ParseNode reads them. A
// JSON text of printable ASCII (what the reduction writes for the copies
// kin-openapi loads) is read by a scanner four times faster than the YAML
// parser; any other text is parsed by ParseNode. Of a JSON text's nodes
// only those fields are set: the tree is for reading places alone.
func PositionTree(data []byte) *yaml.Node {
	if root, ok := scanJSONPositions(data); ok {
		return root
	}
	return ParseNode(data)
}

// maxScannedKey and maxScannedDepth bound what the scanner reads: the YAML
// parser stops treating a flow key as a key when its colon comes more than
// 1024 characters after its start, and refuses deep nesting; such texts go
// to it.
const (
	maxScannedKey   = 1000
	maxScannedDepth = 1000
)

// jsonScanner reads a JSON text as the YAML parser reads it, or gives up
// (ok false) where the two could differ: bytes outside printable ASCII
// (line breaks but \n, tabs, DEL, UTF-8), the escapes \/ and UTF-16
// surrogates, which the YAML parser refuses, a key whose colon is on
// another line or far from it, deep nesting, anything but JSON.
type jsonScanner struct {
	data      []byte
	pos       int
	line      int
	lineStart int
	depth     int
}

func scanJSONPositions(data []byte) (*yaml.Node, bool) {
	s := &jsonScanner{data: data, line: 1}
	if !s.space() {
		return nil, false
	}
	root, ok := s.value()
	if !ok || !s.space() || s.pos != len(s.data) {
		return nil, false
	}
	return root, true
}

// space skips the spaces and line breaks a JSON text may hold between
// tokens; false at a byte the scanner leaves to the parser.
func (s *jsonScanner) space() bool {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ':
		case '\n':
			s.line++
			s.lineStart = s.pos + 1
		case '\t', '\r':
			return false
		default:
			return true
		}
		s.pos++
	}
	return true
}

func (s *jsonScanner) node(kind yaml.Kind) *yaml.Node {
	return &yaml.Node{Kind: kind, Line: s.line, Column: s.pos - s.lineStart + 1}
}

func (s *jsonScanner) value() (*yaml.Node, bool) {
	if s.pos >= len(s.data) {
		return nil, false
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return s.collection(yaml.MappingNode, '}')
	case c == '[':
		return s.collection(yaml.SequenceNode, ']')
	case c == '"':
		n := s.node(yaml.ScalarNode)
		v, ok := s.str()
		n.Value = v
		return n, ok
	case c == '-' || c >= '0' && c <= '9':
		n := s.node(yaml.ScalarNode)
		start := s.pos
		if !s.number() {
			return nil, false
		}
		n.Value = string(s.data[start:s.pos])
		return n, true
	}
	for _, word := range []string{"true", "false", "null"} {
		if len(s.data)-s.pos >= len(word) && string(s.data[s.pos:s.pos+len(word)]) == word {
			n := s.node(yaml.ScalarNode)
			n.Value = word
			s.pos += len(word)
			return n, s.endOfWord()
		}
	}
	return nil, false
}

// endOfWord reports whether a number or a word ends where JSON ends it,
// so that the parser's plain scalar ends there too.
func (s *jsonScanner) endOfWord() bool {
	if s.pos == len(s.data) {
		return true
	}
	switch s.data[s.pos] {
	case ' ', '\n', ',', ']', '}':
		return true
	}
	return false
}

func (s *jsonScanner) collection(kind yaml.Kind, closing byte) (*yaml.Node, bool) {
	n := s.node(kind)
	s.depth++
	if s.depth > maxScannedDepth {
		return nil, false
	}
	s.pos++ // the opening bracket
	if !s.space() {
		return nil, false
	}
	if s.pos < len(s.data) && s.data[s.pos] == closing {
		s.pos++
		s.depth--
		return n, true
	}
	for {
		if kind == yaml.MappingNode {
			if s.pos >= len(s.data) || s.data[s.pos] != '"' {
				return nil, false
			}
			key, start := s.node(yaml.ScalarNode), s.pos
			v, ok := s.str()
			if !ok || !s.space() || s.pos-start > maxScannedKey || key.Line != s.line || s.pos >= len(s.data) || s.data[s.pos] != ':' {
				return nil, false
			}
			key.Value = v
			s.pos++
			if !s.space() {
				return nil, false
			}
			n.Content = append(n.Content, key)
		}
		item, ok := s.value()
		if !ok || !s.space() || s.pos >= len(s.data) {
			return nil, false
		}
		n.Content = append(n.Content, item)
		switch s.data[s.pos] {
		case ',':
			s.pos++
			if !s.space() {
				return nil, false
			}
		case closing:
			s.pos++
			s.depth--
			return n, true
		default:
			return nil, false
		}
	}
}

// shortEscapes are the one-letter escapes JSON and YAML's double-quoted
// style both read, as they read them: not \/, which the YAML parser
// refuses.
var shortEscapes = map[byte]byte{'"': '"', '\\': '\\', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// str reads a string token, decoding its escapes as both JSON and YAML's
// double-quoted style do.
func (s *jsonScanner) str() (string, bool) {
	s.pos++ // the opening quote
	start := s.pos
	var out []byte
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			text := s.data[start:s.pos]
			s.pos++
			if out == nil {
				return string(text), true
			}
			return string(out), true
		case c < 0x20 || c >= 0x7f:
			return "", false
		case c == '\\':
			if out == nil {
				out = append([]byte{}, s.data[start:s.pos]...)
			}
			if s.pos+1 >= len(s.data) {
				return "", false
			}
			s.pos++
			if decoded, ok := shortEscapes[s.data[s.pos]]; ok {
				out = append(out, decoded)
				s.pos++
				continue
			}
			if s.data[s.pos] != 'u' || s.pos+4 >= len(s.data) {
				return "", false
			}
			r, err := strconv.ParseUint(string(s.data[s.pos+1:s.pos+5]), 16, 16)
			if err != nil || utf16.IsSurrogate(rune(r)) {
				return "", false
			}
			out = append(out, string(rune(r))...)
			s.pos += 5
			continue
		}
		if out != nil {
			out = append(out, c)
		}
		s.pos++
	}
	return "", false
}

// number reads a JSON number.
func (s *jsonScanner) number() bool {
	digits := func() bool {
		start := s.pos
		for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
			s.pos++
		}
		return s.pos > start
	}
	if s.data[s.pos] == '-' {
		s.pos++
	}
	if s.pos < len(s.data) && s.data[s.pos] == '0' {
		s.pos++
	} else if !digits() {
		return false
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		if !digits() {
			return false
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if !digits() {
			return false
		}
	}
	return s.endOfWord()
}
