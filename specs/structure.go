package specs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apiver/apiver/internal/jsonscan"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/specs/prune"
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

// DefaultMaxNodes is the most nodes (mappings, sequences, keys and values,
// with YAML aliases expanded) a document may have unless the config says
// otherwise (maxSpecNodes). Loading costs about 2.4 KB of memory per node
// for wide documents (SECURITY.md has the figures), so a check, which holds
// two documents and their diff, stays under 2 GiB; the largest real
// snapshot we know has 96,000 nodes.
const DefaultMaxNodes int64 = 300_000

var (
	tooDeepMsg       = fmt.Sprintf("refused: nested deeper than %d levels", maxDepth)
	aliasesExpandMsg = fmt.Sprintf("refused: its YAML aliases expand it by more than %d MiB", maxAliasExpansion>>20)
)

func tooManyNodesMsg(limit int64) string {
	return fmt.Sprintf("refused: it has more than %d nodes, the maxSpecNodes limit (the config raises it; each node costs about 2.4 KB of memory)", limit)
}

// checkStructure refuses, before kin-openapi builds it, a document that
// nests deeper than maxDepth, whose YAML aliases add more than
// maxAliasExpansion bytes, or that has more than maxNodes nodes (0:
// DefaultMaxNodes); it returns why, or "". A document that does not parse
// passes: the loader reports its syntax error.
func checkStructure(data []byte, maxNodes int64) string {
	why, _ := checkParsed(data, maxNodes)
	return why
}

// checkParsed is checkStructure, and says whether data failed to parse as
// YAML (the loader then refuses it).
func checkParsed(data []byte, maxNodes int64) (why string, unparsed bool) {
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	if trimmed, ok := jsonText(data); ok {
		return checkJSON(trimmed, maxNodes), false
	}
	if deepJSON(data) {
		return tooDeepMsg, false
	}
	root := ParseNode(data)
	return checkTree(data, root, maxNodes), root == nil
}

// yamlSyntax is the YAML parser's refusal of data, with its line, nil when
// data is JSON or parses; it is asked only once a parse failed.
func yamlSyntax(file string, data []byte) *Error {
	if _, isJSON := jsonText(data); isJSON {
		return nil
	}
	var root yaml.Node
	err := yaml.Unmarshal(data, &root)
	if err == nil {
		return nil
	}
	return yamlError(file, strings.ReplaceAll(err.Error(), "\n", " "))
}

// jsonText is data without its surrounding space when it is a JSON object,
// which the loader reads as JSON.
func jsonText(data []byte) ([]byte, bool) {
	trimmed := bytes.TrimSpace(data)
	return trimmed, len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed)
}

// deepJSON reports whether data, read as JSON, nests deeper than
// maxDepth. JSON that Go's decoder refuses for its own depth limit (10,000)
// is valid all the same: it is refused for its depth, not as invalid.
func deepJSON(data []byte) bool {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	depth, _ := jsonShape(trimmed)
	return depth > maxDepth
}

// checkJSON is checkStructure of valid JSON; JSON has no aliases.
func checkJSON(trimmed []byte, maxNodes int64) string {
	depth, nodes := jsonShape(trimmed)
	switch {
	case depth > maxDepth:
		return tooDeepMsg
	case nodes > maxNodes:
		return tooManyNodesMsg(maxNodes)
	}
	return ""
}

// CheckText runs the checks every load makes of a document's text before
// kin-openapi reads it (parseChecked), at most maxNodes nodes (0:
// DefaultMaxNodes): the problem, its File unset, nil when there is none.
func CheckText(data []byte, maxNodes int64) *Error {
	_, _, problem, _ := parseChecked(data, maxNodes, nil)
	return problem
}

// parseChecked parses a document once for the checks every load makes:
// its size and shape (checkStructure) and the objects OpenAPI requires
// (prune.Check). It returns the tree, whether the text was JSON (which
// the loader reads as JSON), and the problem, nil when there is none. A
// text that does not parse passes: the loader reports its syntax error.
// A YAML text copies the chunks it shares with from (ParseReusing), and
// returns its own.
func parseChecked(data []byte, maxNodes int64, from *Chunks) (root *yaml.Node, isJSON bool, problem *Error, chunks *Chunks) {
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	if trimmed, ok := jsonText(data); ok {
		if why := checkJSON(trimmed, maxNodes); why != "" {
			return nil, true, &Error{Msg: why}, nil
		}
		root, isJSON = prune.JSONTree(data), true
		// The YAML parser refuses a key given twice; the JSON reading
		// would keep the last without a word.
		if line, msg := duplicateKey(root); msg != "" {
			return nil, true, &Error{Line: line, Msg: msg}, nil
		}
	} else if deepJSON(data) {
		return nil, true, &Error{Msg: tooDeepMsg}, nil
	} else {
		root, chunks = ParseReusing(data, from)
		if why := checkTree(data, root, maxNodes); why != "" {
			return nil, false, &Error{Msg: why}, nil
		}
	}
	if root == nil {
		return nil, isJSON, nil, nil
	}
	if line, msg := prune.Check(root); msg != "" {
		return nil, isJSON, &Error{Line: line, Msg: msg}, nil
	}
	if line, msg := checkSunsets(root); msg != "" {
		return nil, isJSON, &Error{Line: line, Msg: msg}, nil
	}
	if line, msg := checkStabilities(root); msg != "" {
		return nil, isJSON, &Error{Line: line, Msg: msg}, nil
	}
	if !isJSON {
		if line, msg := prune.KeyClash(root); msg != "" {
			return nil, false, &Error{Line: line, Msg: msg}, nil
		}
	}
	return root, isJSON, nil, chunks
}

// checkTree is checkStructure of YAML text already parsed into root (nil
// when it does not parse).
func checkTree(data []byte, root *yaml.Node, maxNodes int64) string {
	if root == nil {
		return ""
	}
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	m := measure(root, int64(len(data))+maxAliasExpansion, maxNodes)
	switch {
	case m.tooDeep:
		return tooDeepMsg
	case m.tooBig:
		return aliasesExpandMsg
	case m.tooMany:
		return tooManyNodesMsg(maxNodes)
	case m.containsItself != nil:
		// As the loader's YAML reading says it; nothing after the parser
		// may walk the tree, which has no end.
		return fmt.Sprintf("not valid YAML: anchor '%s' value contains itself (line %d)", m.containsItself.Value, m.containsItself.Line)
	}
	return ""
}

// jsonShape is the deepest nesting of valid JSON, counting a leaf as a
// level as measure does, and its nodes counted as YAML counts them: each
// object, array, key and value.
func jsonShape(data []byte) (depth int, nodes int64) {
	level, deepest := 0, 0
	prev := byte(',') // the last byte outside strings and spaces
	jsonscan.Outside(data, func(b byte) {
		switch b {
		case ' ', '\t', '\n', '\r':
			return
		case '"':
			nodes++
		case '[', '{':
			level++
			deepest = max(deepest, level)
			nodes++
		case ']', '}':
			level--
		default:
			// A number or literal: counted at its first byte.
			if prev == ':' || prev == ',' || prev == '[' {
				nodes++
			}
		}
		prev = b
	})
	return deepest + 1, nodes
}

// shape is a node's height (a leaf is 1), size (its bytes, about) and
// nodes with its aliases expanded.
type shape struct {
	height int
	size   int64
	nodes  int64
}

// measured is what measure finds: an excess, or an alias inside the
// value of the anchor it names.
type measured struct {
	tooDeep, tooBig, tooMany bool
	containsItself           *yaml.Node
}

// measure walks the tree with aliases expanded, without building the
// expansion: an anchored node, the only kind an alias names, is measured
// once. It stops at the first excess, so it never recurses more than
// maxDepth deep.
func measure(root *yaml.Node, budget, maxNodes int64) (m measured) {
	// A node still being measured counts as empty, so one that contains
	// itself (which the loader refuses) cannot recurse forever.
	anchored := map[*yaml.Node]shape{}
	open := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node, depth int) shape
	walk = func(n *yaml.Node, depth int) shape {
		if n.Kind == yaml.AliasNode {
			if n.Alias == nil {
				return shape{}
			}
			if open[n.Alias] && m.containsItself == nil {
				m.containsItself = n
			}
			n = n.Alias
		}
		if s, ok := anchored[n]; ok {
			m.tooDeep = m.tooDeep || depth+s.height-1 > maxDepth
			return s
		}
		if depth > maxDepth {
			m.tooDeep = true
			return shape{}
		}
		if n.Anchor != "" {
			anchored[n] = shape{}
			open[n] = true
			defer delete(open, n)
		}
		s := shape{height: 1, size: int64(1 + len(n.Value)), nodes: 1}
		for _, c := range n.Content {
			cs := walk(c, depth+1)
			s.height = max(s.height, 1+cs.height)
			if s.size += cs.size; s.size > budget {
				m.tooBig = true
			}
			if s.nodes += cs.nodes; s.nodes > maxNodes {
				m.tooMany = true
			}
			// Too many nodes does not stop the walk: aliases that also
			// expand too much are the better reason to give.
			if m.tooDeep || m.tooBig {
				return s
			}
		}
		if n.Anchor != "" {
			anchored[n] = s
		}
		return s
	}
	walk(root, 1)
	return m
}

// duplicateKey finds a key given twice in one mapping of a JSON tree: its
// second line and what to say; "" when there is none.
func duplicateKey(n *yaml.Node) (int, string) {
	if n == nil {
		return 0, ""
	}
	if n.Kind == yaml.MappingNode {
		seen := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if first, ok := seen[k.Value]; ok {
				return k.Line, fmt.Sprintf("not valid: the key %q is given twice in one object (first at line %d)", k.Value, first)
			}
			seen[k.Value] = k.Line
		}
	}
	for _, c := range n.Content {
		if line, msg := duplicateKey(c); msg != "" {
			return line, msg
		}
	}
	return 0, ""
}
