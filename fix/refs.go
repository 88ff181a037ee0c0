package fix

import (
	"reflect"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// component names one entry of components: its kind (schemas, responses,
// ...) and name.
type component struct{ kind, name string }

func (c component) pointer() string {
	return "#/components/" + c.kind + "/" + strings.ReplaceAll(strings.ReplaceAll(c.name, "~", "~0"), "/", "~1")
}

// componentOf reads a local $ref into the component it points into; ok is
// false for any other $ref (another file, a path).
func componentOf(ref string) (component, bool) {
	rest, ok := strings.CutPrefix(ref, "#/components/")
	if !ok {
		return component{}, false
	}
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return component{}, false
	}
	name := strings.ReplaceAll(strings.ReplaceAll(parts[1], "~1", "/"), "~0", "~")
	return component{parts[0], name}, true
}

// renameRef rewrites a $ref that points into a renamed component.
func renameRef(renamed map[component]string) func(string) string {
	return func(ref string) string {
		c, ok := componentOf(ref)
		if !ok {
			return ref
		}
		to, ok := renamed[c]
		if !ok {
			return ref
		}
		return component{c.kind, to}.pointer() + strings.TrimPrefix(ref, c.pointer())
	}
}

// componentText finds a local component pointer in a line of YAML:
// preceded by a quote, a space or flow punctuation, ended by a quote, space
// or the end. refValue finds any $ref's value.
var (
	componentText = regexp.MustCompile(`(['"\s{:,\[])(#/components/[^'"\s,}\]]+)`)
	refValue      = regexp.MustCompile(`(\$ref['"]?\s*:\s*['"]?)([^'"\s,}#][^'"\s,}]*)`)
)

func rewriteRefText(line string, rewrite func(string) string) string {
	if rewrite == nil || !strings.Contains(line, "#") {
		return line
	}
	line = componentText.ReplaceAllStringFunc(line, func(m string) string {
		return m[:1] + rewrite(m[1:])
	})
	return refValue.ReplaceAllStringFunc(line, func(m string) string {
		parts := refValue.FindStringSubmatch(m)
		return parts[1] + rewrite(parts[2])
	})
}

// eachRef calls fn with every local component pointer under n: $ref
// values, and the other strings that name one (a discriminator's mapping),
// those under an alias's anchor too, which the alias uses where it stands.
// (The loader refuses an anchor that contains its alias.)
func eachRef(n *yaml.Node, fn func(string)) {
	if n == nil {
		return
	}
	if n.Kind == yaml.AliasNode {
		eachRef(n.Alias, fn)
		return
	}
	if n.Kind == yaml.ScalarNode && strings.HasPrefix(n.Value, "#/components/") {
		fn(n.Value)
	}
	for _, c := range n.Content {
		eachRef(c, fn)
	}
}

// closure is every component the nodes refer to, directly or through other
// components of d.
func (d *doc) closure(nodes []*yaml.Node) map[component]bool {
	seen := map[component]bool{}
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		eachRef(n, func(ref string) {
			c, ok := componentOf(ref)
			if !ok || seen[c] {
				return
			}
			seen[c] = true
			visit(d.component(c))
		})
	}
	for _, n := range nodes {
		visit(n)
	}
	return seen
}

// component is the value node of c in d, nil when d has none.
func (d *doc) component(c component) *yaml.Node {
	return d.at([]string{"components", c.kind, c.name})
}

// sameValue reports whether two nodes hold the same data, however written.
func sameValue(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	var x, y any
	if a.Decode(&x) != nil || b.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
