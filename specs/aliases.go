package specs

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/apiver/apiver/internal/sizelimit"
	"go.yaml.in/yaml/v3"
)

// maxAliasExpansion bounds how many bytes YAML aliases may add to a file.
// The YAML parser's own alias check counts nodes, not bytes: a few hundred
// aliases of a list of long strings would still turn a small file into
// gigabytes of memory.
const maxAliasExpansion = sizelimit.Default

var aliasesExpandMsg = fmt.Sprintf("refused: its YAML aliases expand it by more than %d MiB", maxAliasExpansion>>20)

// aliasesExpandTooMuch reports whether the file's aliases, expanded, add
// more than maxAliasExpansion bytes. Only a file that may hold both an
// anchor and an alias is parsed for it: the usual spec costs one scan.
func aliasesExpandTooMuch(data []byte) bool {
	if !mayHaveAliases(data) {
		return false
	}
	root := parseNode(data)
	if root == nil {
		return false // the loader reports the syntax error
	}
	budget := int64(len(data)) + maxAliasExpansion
	// Sizes of anchored nodes, the only ones an alias can name; a node
	// still being measured counts 0, so one that contains itself (which
	// the loader refuses) cannot recurse forever.
	anchored := map[*yaml.Node]int64{}
	var size func(n *yaml.Node) int64
	size = func(n *yaml.Node) int64 {
		if n.Kind == yaml.AliasNode {
			if n.Alias == nil {
				return 0
			}
			n = n.Alias
		}
		if s, ok := anchored[n]; ok {
			return s
		}
		if n.Anchor != "" {
			anchored[n] = 0
		}
		s := int64(1 + len(n.Value))
		for _, c := range n.Content {
			if s += size(c); s > budget {
				break
			}
		}
		s = min(s, budget+1)
		if n.Anchor != "" {
			anchored[n] = s
		}
		return s
	}
	return size(root) > budget
}

// mayHaveAliases is false only when the file cannot hold both an anchor
// and an alias: it has no "&name" or no "*name" followed by what ends one
// for the YAML scanner. Text that is not UTF-8 may be UTF-16, which the
// parser reads too, so it always counts.
func mayHaveAliases(data []byte) bool {
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return true
	}
	return hasToken(data, '&') && hasToken(data, '*')
}

// hasToken reports whether data holds indicator followed by a name of
// [0-9A-Za-z_-] and then a blank, the end, a non-ASCII byte (a Unicode line
// break) or one of ?:,]}%@` — the only way the YAML scanner reads an anchor
// or an alias.
func hasToken(data []byte, indicator byte) bool {
	for i := bytes.IndexByte(data, indicator); i >= 0; {
		j := i + 1
		for j < len(data) && isNameChar(data[j]) {
			j++
		}
		if j > i+1 && (j == len(data) || endsName(data[j])) {
			return true
		}
		next := bytes.IndexByte(data[j:], indicator)
		if next < 0 {
			return false
		}
		i = j + next
	}
	return false
}

func isNameChar(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b == '_' || b == '-'
}

func endsName(b byte) bool {
	switch b {
	case ' ', '\t', '\r', '\n', '?', ':', ',', ']', '}', '%', '@', '`':
		return true
	}
	return b >= 0x80
}
