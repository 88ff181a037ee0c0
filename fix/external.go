package fix

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apiver/apiver/internal/sizelimit"
	"go.yaml.in/yaml/v3"
)

// addition is a component to add to the revision: src under name, with
// rewrite applied to its $refs.
type addition struct {
	name    string
	src     entry
	rewrite func(string) string
}

// localize handles restored content that refers to another file: fix edits
// only the spec file, so when the revision changed what such a $ref points
// at (file#/components/KIND/NAME), the base's version of it, with the
// components it uses in that file, is copied into the spec's components
// and the restored content points at the copy. It returns the $refs
// replaced and their local pointers. A file read from git, a pointer of
// another shape, or a copy that refers to yet another file are left as they
// are: the check after the fix lists what remains.
func (p *planner) localize() (map[string]string, error) {
	if p.in.Base.Ref != "" || p.in.Revision.Ref != "" {
		return nil, nil
	}
	var refs []string
	line := map[string]int{}
	for _, n := range p.restored {
		eachExternalRefNode(n, func(v *yaml.Node) {
			if _, seen := line[v.Value]; !seen {
				line[v.Value] = v.Line
				refs = append(refs, v.Value)
			}
		})
	}
	slices.Sort(refs)
	local := map[string]string{}
	adds := map[string][]addition{}
	taken := map[component]bool{}
	for _, ref := range refs {
		file, pointer, _ := strings.Cut(ref, "#")
		c, ok := componentOf("#" + pointer)
		if !ok || pointer != strings.TrimPrefix(c.pointer(), "#") || strings.Contains(file, "://") {
			continue
		}
		// Confined as loading confines a $ref, wherever this one sits (an
		// x- extension too, which loading does not follow): nothing
		// outside the spec's folder is read, let alone copied in.
		basePath, err := confined(p.in.Base.Path, file)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", p.in.Base.Path, line[ref], err)
		}
		revPath, err := confined(p.in.Revision.Path, file)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", p.in.Base.Path, line[ref], err)
		}
		baseDoc, err := p.external(basePath)
		if err != nil {
			return nil, err
		}
		revDoc, err := p.external(revPath)
		if err != nil {
			return nil, err
		}
		if baseDoc == nil || baseDoc.component(c) == nil {
			continue
		}
		deps := baseDoc.closure([]*yaml.Node{baseDoc.component(c)})
		deps[c] = true
		changed, foreign := false, false
		for d := range deps {
			changed = changed || revDoc == nil || !sameValue(baseDoc.component(d), revDoc.component(d))
			eachExternalRef(baseDoc.component(d), func(string) { foreign = true })
		}
		if !changed || foreign || p.rev.json {
			continue
		}
		names := map[component]string{}
		for _, d := range slices.SortedFunc(maps.Keys(deps), compareComponents) {
			names[d] = p.freeName(d, taken)
		}
		rewrite := renameRef(names)
		for _, d := range slices.SortedFunc(maps.Keys(deps), compareComponents) {
			k, v := lookup(baseDoc.at([]string{"components", d.kind}), d.name, false)
			adds[d.kind] = append(adds[d.kind], addition{name: names[d], src: entry{d: baseDoc, key: k, value: v}, rewrite: rewrite})
		}
		local[ref] = component{c.kind, names[c]}.pointer()
	}
	return local, p.addComponents(adds)
}

// confined is the file a $ref of the spec at specPath names, refused when
// it lies outside the spec's folder tree: an absolute path, ../, or a
// symbolic link that leads out, as the loader refuses it.
func confined(specPath, file string) (string, error) {
	refused := fmt.Errorf("$ref %q leaves the directory of the spec: refused", file)
	if file == "" || filepath.IsAbs(filepath.FromSlash(file)) || strings.HasPrefix(file, "/") || filepath.VolumeName(file) != "" {
		return "", refused
	}
	dir := filepath.Dir(specPath)
	path := filepath.Join(dir, filepath.FromSlash(file))
	root, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	real, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	} else if r, err := filepath.EvalSymlinks(filepath.Dir(real)); err == nil {
		real = filepath.Join(r, filepath.Base(real))
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", refused
	}
	return path, nil
}

// external reads and parses another file of a snapshot once; nil when it
// is not there.
func (p *planner) external(path string) (*doc, error) {
	if d, ok := p.files[path]; ok {
		return d, nil
	}
	data, err := sizelimit.ReadFile(path, p.in.MaxSize)
	if err != nil {
		p.files[path] = nil
		return nil, nil
	}
	d, err := parseDoc(path, data)
	if err != nil {
		return nil, err
	}
	d.anchors = p.base.anchors
	p.files[path] = d
	return d, nil
}

// freeName is c's name, or the first of Name2, Name3, ... that neither
// snapshot's spec file nor an earlier copy uses.
func (p *planner) freeName(c component, taken map[component]bool) string {
	name := c.name
	for n := 2; ; n++ {
		try := component{c.kind, name}
		if !taken[try] && p.rev.component(try) == nil && p.base.component(try) == nil {
			taken[try] = true
			return name
		}
		name = fmt.Sprintf("%s%d", c.name, n)
	}
}

// addComponents adds the copies to the revision's components: after the
// last entry of each kind's mapping, or as a new mapping after the last
// entry of components, or as a new components at the end of the document.
func (p *planner) addComponents(adds map[string][]addition) error {
	components := p.rev.at([]string{"components"})
	var missing strings.Builder
	for _, kind := range slices.Sorted(maps.Keys(adds)) {
		parent := p.rev.at([]string{"components", kind})
		if parent != nil && parent.Kind == yaml.MappingNode && len(parent.Content) > 0 {
			for _, a := range adds[kind] {
				p.edits = append(p.edits, edit{kind: insertAfter, parent: parent, anchor: parent.Content[len(parent.Content)-2], src: a.src, key: a.name, rewrite: a.rewrite})
			}
			continue
		}
		if parent != nil {
			return fmt.Errorf("%s:%d: cannot add to an empty or flow-style components.%s", p.rev.path, parent.Line, kind)
		}
		fmt.Fprintf(&missing, "  %s:\n", kind)
		for _, a := range adds[kind] {
			text, err := a.src.text(4, a.name, a.rewrite)
			if err != nil {
				return err
			}
			missing.WriteString(text)
		}
	}
	if missing.Len() == 0 {
		return nil
	}
	// The new mappings become a document of their own whose entries are
	// inserted like any other.
	parent, text := components, missing.String()
	if parent == nil {
		parent, text = p.rev.root, "components:\n"+text
	} else if parent.Kind != yaml.MappingNode || len(parent.Content) == 0 {
		return fmt.Errorf("%s:%d: cannot add to an empty or flow-style components", p.rev.path, parent.Line)
	}
	if parent == components {
		text = string(shiftText(text, -2))
	}
	made, err := parseDoc(p.rev.path, []byte(text))
	if err != nil {
		return err
	}
	for i := 0; i+1 < len(made.root.Content); i += 2 {
		k, v := made.root.Content[i], made.root.Content[i+1]
		p.edits = append(p.edits, edit{kind: insertAfter, parent: parent, anchor: parent.Content[len(parent.Content)-2], src: entry{d: made, key: k, value: v}, key: k.Value})
	}
	return nil
}

func shiftText(text string, delta int) string {
	return strings.Join(shift(strings.Split(text, "\n"), delta), "\n")
}

// FirstExternalRef is the first $ref into another file that a document's
// text holds, "" when none (or the text does not parse).
func FirstExternalRef(data []byte) string {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil {
		return ""
	}
	first := ""
	eachExternalRef(&root, func(ref string) {
		if first == "" {
			first = ref
		}
	})
	return first
}

// eachExternalRef calls fn with every $ref under n into another file.
func eachExternalRef(n *yaml.Node, fn func(string)) {
	eachExternalRefNode(n, func(v *yaml.Node) { fn(v.Value) })
}

// eachExternalRefNode calls fn with the value node of every $ref under n
// into another file, in extensions too.
func eachExternalRefNode(n *yaml.Node, fn func(*yaml.Node)) {
	if n == nil {
		return
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if v := n.Content[i+1]; n.Content[i].Value == "$ref" && v.Kind == yaml.ScalarNode && v.Value != "" && !strings.HasPrefix(v.Value, "#") {
				fn(v)
			}
		}
	}
	for _, c := range n.Content {
		eachExternalRefNode(c, fn)
	}
}
