package benchspec

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// VersionedMediaType matches product's dated vendor media types
// (application/vnd.PRODUCT.YYYY-MM-DD+SUFFIX): the date, then the suffix.
func VersionedMediaType(product string) *regexp.Regexp {
	return regexp.MustCompile(`^application/vnd\.` + regexp.QuoteMeta(product) + `\.(\d{4}-\d{2}-\d{2})\+(.+)$`)
}

// KeepVersion renames version's media types of op to application/SUFFIX
// and drops the other versions'; a request body or response left with no
// media type goes too, as a version's view drops it.
func KeepVersion(op *yaml.Node, versioned *regexp.Regexp, version string) {
	trim := func(holder *yaml.Node) bool { // reports whether holder lost all its content
		content := value(holder, "content")
		if content == nil || len(content.Content) == 0 {
			return false
		}
		for i := 0; i+1 < len(content.Content); {
			k := content.Content[i]
			if m := versioned.FindStringSubmatch(k.Value); m != nil {
				if m[1] != version {
					content.Content = slices.Delete(content.Content, i, i+2)
					continue
				}
				k.Value = "application/" + m[2]
			}
			i += 2
		}
		return len(content.Content) == 0
	}
	if body := value(op, "requestBody"); body != nil && trim(body) {
		remove(op, "requestBody")
	}
	responses := value(op, "responses")
	for _, kv := range entries(responses) {
		if trim(kv[1]) {
			remove(responses, kv[0].Value)
		}
	}
}

// methods are the keys of a path item that are operations.
var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// apiVersion is a path segment that names the API's version (v2, v1.0).
var apiVersion = regexp.MustCompile(`^v\d+(\.\d+)?$`)

// SplitResources splits a snapshot whose versions are product's dated media
// types into a resource tree, as vervet lays one out: the operations
// grouped into resources by the first two fixed segments of their paths
// after the API's version (v2, v1.0), or after the prefix all paths share
// when they name none (/api/atlas/v2/groups/{groupId}/clusters/... is
// resource groups-clusters), and each resource's document of version V
// declaring the operations with a version V, that version's media types
// renamed (KeepVersion), and the components they reach. An operation
// without a version V carries forward; an unversioned one is declared in
// its resource's first version. The result is the documents' YAML, by
// their path in the tree (RESOURCE/V/spec.yaml); none without paths.
func SplitResources(text []byte, product string) (map[string][]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not a mapping at the top")
	}
	versioned := VersionedMediaType(product)
	root := doc.Content[0]
	paths := entries(value(root, "paths"))
	if len(paths) == 0 {
		return map[string][]byte{}, nil
	}
	var names [][]string
	for _, p := range paths {
		names = append(names, strings.Split(strings.Trim(p[0].Value, "/"), "/"))
	}
	shared := 0 // the segments every path starts with
	for shared < len(names[0]) && !slices.ContainsFunc(names, func(segs []string) bool {
		return len(segs) <= shared || segs[shared] != names[0][shared]
	}) {
		shared++
	}
	resourceOf := func(segs []string) string {
		from := shared
		for i, s := range segs {
			if apiVersion.MatchString(s) {
				from = i + 1
			}
		}
		var fixed []string
		for _, s := range segs[min(from, len(segs)):] {
			if !strings.HasPrefix(s, "{") && len(fixed) < 2 {
				fixed = append(fixed, s)
			}
		}
		if len(fixed) == 0 {
			return "root"
		}
		return strings.Join(fixed, "-")
	}
	type declared struct {
		path, method string
		item, op     *yaml.Node
	}
	byVersion := map[string]map[string][]declared{} // resource -> version -> operations
	unversioned := map[string][]declared{}          // by resource
	for i, p := range paths {
		resource := resourceOf(names[i])
		if byVersion[resource] == nil {
			byVersion[resource] = map[string][]declared{}
		}
		for _, mp := range entries(p[1]) {
			if !slices.Contains(methods, mp[0].Value) {
				continue
			}
			d := declared{p[0].Value, mp[0].Value, p[1], mp[1]}
			versions := map[string]bool{}
			for _, holder := range append([]*yaml.Node{value(mp[1], "requestBody")}, values(value(mp[1], "responses"))...) {
				for _, kv := range entries(value(holder, "content")) {
					if m := versioned.FindStringSubmatch(kv[0].Value); m != nil {
						versions[m[1]] = true
					}
				}
			}
			if len(versions) == 0 {
				unversioned[resource] = append(unversioned[resource], d)
			}
			for v := range versions {
				byVersion[resource][v] = append(byVersion[resource][v], d)
			}
		}
	}
	for resource, ops := range unversioned {
		first := "2000-01-01"
		if versions := slices.Sorted(maps.Keys(byVersion[resource])); len(versions) > 0 {
			first = versions[0]
		}
		byVersion[resource][first] = append(byVersion[resource][first], ops...)
	}

	out := map[string][]byte{}
	for resource, versions := range byVersion {
		for v, ops := range versions {
			split := mappingNode()
			for _, kv := range entries(root) {
				if kv[0].Value != "paths" && kv[0].Value != "components" {
					split.Content = append(split.Content, copyNode(kv[0]), copyNode(kv[1]))
				}
			}
			newPaths := mappingNode()
			items := map[string]*yaml.Node{}
			for _, d := range ops {
				item := items[d.path]
				if item == nil {
					item = mappingNode()
					for _, kv := range entries(d.item) {
						if !slices.Contains(methods, kv[0].Value) {
							item.Content = append(item.Content, copyNode(kv[0]), copyNode(kv[1]))
						}
					}
					items[d.path] = item
					newPaths.Content = append(newPaths.Content, scalar(d.path), item)
				}
				op := copyNode(d.op)
				KeepVersion(op, versioned, v)
				item.Content = append(item.Content, scalar(d.method), op)
			}
			split.Content = append(split.Content, scalar("paths"), newPaths)
			if components := reachedComponents(value(root, "components"), newPaths); components != nil {
				split.Content = append(split.Content, scalar("components"), components)
			}
			var b bytes.Buffer
			enc := yaml.NewEncoder(&b)
			enc.SetIndent(2)
			if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{split}}); err != nil {
				return nil, err
			}
			if err := enc.Close(); err != nil {
				return nil, err
			}
			out[resource+"/"+v+"/spec.yaml"] = b.Bytes()
		}
	}
	return out, nil
}

// componentRef is a local reference to a component.
var componentRef = regexp.MustCompile(`^#/components/([^/]+)/([^/]+)$`)

// reachedComponents is a copy of the components that from reaches through
// $refs and discriminator mappings, and everything reached from them, in
// the components' order; the security schemes are kept whole (the global
// security names them).
func reachedComponents(components, from *yaml.Node) *yaml.Node {
	if components == nil {
		return nil
	}
	reached := map[[2]string]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if m := componentRef.FindStringSubmatch(n.Value); n.Kind == yaml.ScalarNode && m != nil && !reached[[2]string{m[1], m[2]}] {
			reached[[2]string{m[1], m[2]}] = true
			walk(value(value(components, m[1]), m[2]))
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(from)
	out := mappingNode()
	for _, kind := range entries(components) {
		kept := mappingNode()
		for _, kv := range entries(kind[1]) {
			if kind[0].Value == "securitySchemes" || reached[[2]string{kind[0].Value, kv[0].Value}] {
				kept.Content = append(kept.Content, copyNode(kv[0]), copyNode(kv[1]))
			}
		}
		if len(kept.Content) > 0 {
			out.Content = append(out.Content, copyNode(kind[0]), kept)
		}
	}
	if len(out.Content) == 0 {
		return nil
	}
	return out
}

func mappingNode() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }

func copyNode(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = copyNode(x)
	}
	return &c
}

// entries are a mapping's keys and values, aliases resolved.
func entries(n *yaml.Node) [][2]*yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := n.Content[i+1]
		for v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		out = append(out, [2]*yaml.Node{n.Content[i], v})
	}
	return out
}

// value is the value of key in the mapping n, nil when none.
func value(n *yaml.Node, key string) *yaml.Node {
	for _, kv := range entries(n) {
		if kv[0].Value == key {
			return kv[1]
		}
	}
	return nil
}

// values are a mapping's values.
func values(n *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	for _, kv := range entries(n) {
		out = append(out, kv[1])
	}
	return out
}

// remove deletes key from the mapping n.
func remove(n *yaml.Node, key string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content = slices.Delete(n.Content, i, i+2)
			return
		}
	}
}
