package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// splitResourceTree splits a media-type snapshot into a resource tree, as
// vervet lays one out: the operations grouped into resources by the first
// two fixed segments of their paths after the API's version (v2, v1.0), or
// after the prefix all paths share when they name none
// (/api/atlas/v2/groups/{groupId}/clusters/... is resource
// groups-clusters), and each
// resource's document of version V declaring the operations with a version
// V, that version's media types renamed as writeVersionDocuments renames
// them, and the components they reach. An operation without a version V
// carries forward; an unversioned one is declared in its resource's first
// version. The result is by path in the tree (RESOURCE/V/spec.yaml).
func splitResourceTree(doc *yaml.Node, product string) map[string]*yaml.Node {
	versioned := versionedType(product)
	root := doc.Content[0]
	paths := pairs(lookup(root, "paths"))
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
	apiVersion := regexp.MustCompile(`^v\d+(\.\d+)?$`)
	resourceOf := func(segs []string) string {
		from := shared
		for i, s := range segs {
			if apiVersion.MatchString(s) {
				from = i + 1
			}
		}
		var fixed []string
		for _, s := range segs[from:] {
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
	var unversioned []struct {
		resource string
		d        declared
	}
	for i, p := range paths {
		resource := resourceOf(names[i])
		if byVersion[resource] == nil {
			byVersion[resource] = map[string][]declared{}
		}
		for _, mp := range pairs(p[1]) {
			if !slices.Contains(methodNames, mp[0].Value) {
				continue
			}
			d := declared{p[0].Value, mp[0].Value, p[1], mp[1]}
			versions := map[string]bool{}
			eachOperationContent(mp[1], func(content *yaml.Node) {
				for _, kv := range pairs(content) {
					if m := versioned.FindStringSubmatch(kv[0].Value); m != nil {
						versions[m[1]] = true
					}
				}
			})
			if len(versions) == 0 {
				unversioned = append(unversioned, struct {
					resource string
					d        declared
				}{resource, d})
			}
			for v := range versions {
				byVersion[resource][v] = append(byVersion[resource][v], d)
			}
		}
	}
	for _, u := range unversioned {
		versions := slices.Sorted(maps.Keys(byVersion[u.resource]))
		first := "2000-01-01"
		if len(versions) > 0 {
			first = versions[0]
		}
		byVersion[u.resource][first] = append(byVersion[u.resource][first], u.d)
	}

	out := map[string]*yaml.Node{}
	for resource, versions := range byVersion {
		for v, ops := range versions {
			split := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for _, kv := range pairs(root) {
				if kv[0].Value != "paths" && kv[0].Value != "components" {
					split.Content = append(split.Content, deepCopy(kv[0]), deepCopy(kv[1]))
				}
			}
			newPaths := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			items := map[string]*yaml.Node{}
			for _, d := range ops {
				item := items[d.path]
				if item == nil {
					item = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
					for _, kv := range pairs(d.item) {
						if !slices.Contains(methodNames, kv[0].Value) {
							item.Content = append(item.Content, deepCopy(kv[0]), deepCopy(kv[1]))
						}
					}
					items[d.path] = item
					newPaths.Content = append(newPaths.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: d.path}, item)
				}
				op := deepCopy(d.op)
				keepVersion(op, versioned, v)
				item.Content = append(item.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: d.method}, op)
			}
			split.Content = append(split.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "paths"}, newPaths)
			if components := reachedComponents(lookup(root, "components"), newPaths); components != nil {
				split.Content = append(split.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "components"}, components)
			}
			out[resource+"/"+v+"/spec.yaml"] = &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{split}}
		}
	}
	return out
}

// componentRef is a local $ref to a component.
var componentRef = regexp.MustCompile(`^#/components/([^/]+)/([^/]+)$`)

// reachedComponents is a copy of the components that from reaches through
// $refs and discriminator mappings, and everything reached from them, in the components' order; the
// security schemes are kept whole (the global security names them).
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
		// A $ref, or a discriminator's mapping, names a component.
		if m := componentRef.FindStringSubmatch(n.Value); n.Kind == yaml.ScalarNode && m != nil && !reached[[2]string{m[1], m[2]}] {
			reached[[2]string{m[1], m[2]}] = true
			walk(lookup(lookup(components, m[1]), m[2]))
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(from)
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, kind := range pairs(components) {
		kept := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, kv := range pairs(kind[1]) {
			if kind[0].Value == "securitySchemes" || reached[[2]string{kind[0].Value, kv[0].Value}] {
				kept.Content = append(kept.Content, deepCopy(kv[0]), deepCopy(kv[1]))
			}
		}
		if len(kept.Content) > 0 {
			out.Content = append(out.Content, deepCopy(kind[0]), kept)
		}
	}
	if len(out.Content) == 0 {
		return nil
	}
	return out
}

// writeResourceTree writes splitResourceTree's documents under dir.
func writeResourceTree(t *testing.T, dir string, doc *yaml.Node, product string) {
	t.Helper()
	tree := splitResourceTree(doc, product)
	for _, name := range slices.Sorted(maps.Keys(tree)) {
		writeCaseFile(t, filepath.Join(dir, filepath.FromSlash(name)), encodeYAML(t, tree[name]))
	}
	if len(tree) == 0 {
		t.Fatal(fmt.Sprintf("%s: no resource", dir))
	}
}
