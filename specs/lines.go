package specs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apiver/apiver/internal/jsonline"
	"go.yaml.in/yaml/v3"
)

// notText recognizes a file that is not text at all, which the YAML parser
// would report as a puzzling character error.
func notText(data []byte) (what string, binary bool) {
	switch {
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		return "a gzip-compressed file, not YAML or JSON: decompress it first", true
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return "binary data, not YAML or JSON text", true
	}
	return "", false
}

// jsonErrorLine is the line of the first JSON syntax error, 0 when there is
// none (kin-openapi's own error carries no position).
func jsonErrorLine(data []byte) int {
	var syntax *json.SyntaxError
	if err := json.Unmarshal(data, new(any)); errors.As(err, &syntax) {
		return jsonline.Of(data, syntax)
	}
	return 0
}

// refLine is the line of the first $ref of the document whose value
// satisfies match, or 0 when none does (the $ref is in another file, or the
// document does not parse).
func refLine(data []byte, match func(ref string) bool) int {
	root := ParseNode(data)
	if root == nil {
		return 0
	}
	line := 0
	eachRef(root, func(ref string, l int) bool {
		if match(ref) {
			line = l
			return true
		}
		return false
	})
	return line
}

// brokenLocalRef finds the first $ref within the document ("#/...") that
// points to nothing, and says what is missing where. kin-openapi's own
// error names neither the $ref nor its line.
func brokenLocalRef(data []byte) (line int, msg string, found bool) {
	root := ParseNode(data)
	if root == nil {
		return 0, "", false
	}
	eachRef(root, func(ref string, l int) bool {
		u, err := url.Parse(ref)
		if !strings.HasPrefix(ref, "#/") || err != nil {
			return false
		}
		missing, parent, ok := missingPart(root, u.Fragment)
		if ok {
			line, found = l, true
			msg = fmt.Sprintf("$ref %q points to nothing: no %q in #%s", ref, missing, parent)
		}
		return ok
	})
	return line, msg, found
}

// eachRef calls fn with each $ref value under n and its line, in document
// order, until fn returns true. Aliases are not expanded, so the walk costs
// no more than the document's size.
func eachRef(n *yaml.Node, fn func(ref string, line int) bool) bool {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "$ref" && v.Kind == yaml.ScalarNode && fn(v.Value, v.Line) {
				return true
			}
		}
	}
	for _, c := range n.Content {
		if eachRef(c, fn) {
			return true
		}
	}
	return false
}

// missingPart follows a JSON pointer (/components/schemas/X) from root and
// returns the first part that is not there and the pointer to its parent.
func missingPart(root *yaml.Node, pointer string) (missing, parent string, ok bool) {
	parts := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	n := root
	for i, raw := range parts {
		part := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		if n = child(n, part); n == nil {
			return part, "/" + strings.Join(parts[:i], "/"), true
		}
	}
	return "", "", false
}

func child(n *yaml.Node, key string) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
	case yaml.SequenceNode:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(n.Content) {
			return n.Content[i]
		}
	}
	return nil
}
