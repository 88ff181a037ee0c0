package specs

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/apiver/apiver/internal/sizelimit"
	"go.yaml.in/yaml/v3"
)

// maxDepth bounds how deeply a document's collections nest. kin-openapi
// decodes each nested schema by reading its whole subtree again, so time
// and memory grow with depth times size: 3,000 nested schemas in a 40 kB
// file took 25 s and 900 MB. Real specs nest 12 to 17 levels.
const maxDepth = 128

// maxAliasExpansion bounds how many bytes YAML aliases may add to a file.
// The YAML parser's own alias check counts nodes, not bytes: a few hundred
// aliases of a list of long strings would still turn a small file into
// gigabytes of memory.
const maxAliasExpansion = sizelimit.Default

var (
	tooDeepMsg       = fmt.Sprintf("refused: it nests more than %d levels deep", maxDepth)
	aliasesExpandMsg = fmt.Sprintf("refused: its YAML aliases expand it by more than %d MiB", maxAliasExpansion>>20)
)

// checkStructure refuses, before kin-openapi builds it, a document that
// nests deeper than maxDepth or whose YAML aliases add more than
// maxAliasExpansion bytes; it returns why, or "". A document that does not
// parse passes: the loader reports its syntax error.
func checkStructure(data []byte) string {
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		if jsonDepth(trimmed) > maxDepth {
			return tooDeepMsg
		}
		return "" // JSON has no aliases
	}
	return checkTree(data, parseNode(data))
}

// checkTree is checkStructure of YAML text already parsed into root (nil
// when it does not parse).
func checkTree(data []byte, root *yaml.Node) string {
	if root == nil {
		return ""
	}
	switch tooDeep, tooBig := measure(root, int64(len(data))+maxAliasExpansion); {
	case tooDeep:
		return tooDeepMsg
	case tooBig:
		return aliasesExpandMsg
	}
	return ""
}

// jsonDepth is the deepest nesting of valid JSON, counting a leaf as a
// level as measure does.
func jsonDepth(data []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '[' || b == '{':
			depth++
			deepest = max(deepest, depth)
		case b == ']' || b == '}':
			depth--
		}
	}
	return deepest + 1
}

// shape is a node's height (a leaf is 1) and size (its bytes, about) with
// its aliases expanded.
type shape struct {
	height int
	size   int64
}

// measure walks the tree with aliases expanded, without building the
// expansion: an anchored node, the only kind an alias names, is measured
// once. It stops at the first excess, so it never recurses more than
// maxDepth deep.
func measure(root *yaml.Node, budget int64) (tooDeep, tooBig bool) {
	// A node still being measured counts as empty, so one that contains
	// itself (which the loader refuses) cannot recurse forever.
	anchored := map[*yaml.Node]shape{}
	var walk func(n *yaml.Node, depth int) shape
	walk = func(n *yaml.Node, depth int) shape {
		if n.Kind == yaml.AliasNode {
			if n.Alias == nil {
				return shape{}
			}
			n = n.Alias
		}
		if s, ok := anchored[n]; ok {
			tooDeep = tooDeep || depth+s.height-1 > maxDepth
			return s
		}
		if depth > maxDepth {
			tooDeep = true
			return shape{}
		}
		if n.Anchor != "" {
			anchored[n] = shape{}
		}
		s := shape{height: 1, size: int64(1 + len(n.Value))}
		for _, c := range n.Content {
			cs := walk(c, depth+1)
			s.height = max(s.height, 1+cs.height)
			if s.size += cs.size; s.size > budget {
				tooBig = true
			}
			if tooDeep || tooBig {
				return s
			}
		}
		if n.Anchor != "" {
			anchored[n] = s
		}
		return s
	}
	walk(root, 1)
	return tooDeep, tooBig
}
