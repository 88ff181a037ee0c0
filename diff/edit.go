package diff

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// One edit of a spec often shows as many changes: one per enum value
// removed from (or added to) the enum, one per sibling schema given the
// same change (a pattern added to `notifierId` in 13 notification types),
// besides one per operation and oneOf branch that reaches a shared schema
// (see RootMessage). Edit takes a change's message apart so that the
// changes of one edit can be gathered (GatherEdits) and stated as one
// (EditMessage).

// Edit is what a change's message says, taken apart.
type Edit struct {
	// Key is the same for every change of one edit: the root message with
	// the enum value taken out.
	Key string
	// Value is the enum value the change adds or removes (Valued: it may
	// be the empty string); "" for other changes.
	Value  string
	Valued bool
	// Property is the changed property's own name, "" when the message
	// names none: only changes of a property are made to sibling schemas.
	// Parameter says it names a parameter instead, which no sibling schema
	// has.
	Property  string
	Parameter bool
	// Place is the path of the changed property without the property's
	// own name: it tells sibling schemas apart. "" for a property at the
	// top of a body and for changes of no property.
	Place string
}

// EditOf takes apart the message of a change of that oasdiff check id.
func EditOf(id, message string) Edit {
	t := TemplateOf(id)
	if t == nil {
		return Edit{Key: RootMessage(message)}
	}
	args, rest, ok := t.Args(message)
	if !ok {
		return Edit{Key: RootMessage(message)}
	}
	var e Edit
	if t.Value >= 0 {
		e.Value, e.Valued = args[t.Value], true
		args[t.Value] = "…"
	}
	if t.Target >= 0 {
		e.Place, e.Property = splitProperty(args[t.Target])
		e.Parameter = t.Parameter
	}
	e.Key = RootMessage(t.message(args, rest))
	return e
}

// message writes args back into the template.
func (t *Template) message(args []string, rest string) string {
	var b strings.Builder
	for i, part := range t.Parts {
		b.WriteString(part)
		if i < len(args) {
			b.WriteString("`" + args[i] + "`")
		}
	}
	return b.String() + rest
}

// splitProperty cuts a property path before the property's own name (its
// last step that is neither items nor a oneOf/anyOf/allOf branch):
// `a/oneOf[#/components/schemas/B]/c/items/` is `a/oneOf[#/components/schemas/B]` and `c`.
func splitProperty(path string) (place, name string) {
	// A branch may hold slashes (#/components/schemas/B): hidden, so that
	// only the path's own slashes cut it.
	masked := branchOnly.ReplaceAllStringFunc(path, func(s string) string { return strings.Repeat("[", len(s)) })
	end := len(masked)
	for end > 0 {
		i := strings.LastIndexByte(masked[:end], '/')
		step := masked[i+1 : end]
		if step != "" && step != "items" && !strings.Contains(step, "[") {
			return strings.TrimSuffix(path[:i+1], "/"), path[i+1 : end]
		}
		if i < 0 {
			break
		}
		end = i
	}
	return "", path
}

// BranchStep is a oneOf/anyOf/allOf step of a property path, with the
// branch inside the brackets.
var BranchStep = regexp.MustCompile(`(?:oneOf|anyOf|allOf)\[([^\]]*)\]/?`)

var branchOnly = regexp.MustCompile(`(?:oneOf|anyOf|allOf)\[[^\]]*\]`)

// BranchName is what a reader calls a branch, from what is inside its
// brackets: the schema's name, the discriminator value, or its position.
// A branch whose name changed ("subschema #1: OIDC -> subschema #1: OIDC
// WORKFORCE") is called by its name in the revision.
func BranchName(inside string) string {
	if i := strings.LastIndex(inside, " -> "); i >= 0 && branchLike(inside[i+4:]) {
		inside = inside[i+4:]
	}
	inside = strings.TrimPrefix(inside, "#/components/schemas/")
	if rest, ok := strings.CutPrefix(inside, "subschema "); ok {
		if _, value, found := strings.Cut(rest, ": "); found {
			return value
		}
		return rest
	}
	return inside
}

// branchLike reports whether s is how oasdiff names a branch: by its
// position and title, or by its component.
func branchLike(s string) bool {
	return strings.HasPrefix(s, "subschema #") || strings.HasPrefix(s, "#/components/schemas/")
}

// NamedBranches writes a path's branches by their names where they have
// one (`oneOf[subschema #2: Mid]` is `oneOf[Mid]`): the position of a named
// branch differs between the schemas that hold it.
func NamedBranches(path string) string {
	return BranchStep.ReplaceAllStringFunc(path, func(step string) string {
		m := BranchStep.FindStringSubmatchIndex(step)
		name := BranchName(step[m[2]:m[3]])
		if strings.HasPrefix(name, "#") {
			return step
		}
		return step[:m[2]] + name + step[m[3]:]
	})
}

// SplitBranch cuts a property path at the branch that names the schema
// holding the property (holdingBranch): the path before it, the branch's
// name and the path after it. found is false when there is none.
func SplitBranch(path string) (prefix, name, rest string, found bool) {
	loc := holdingBranch(path)
	if loc == nil {
		return path, "", "", false
	}
	return path[:loc[0]], BranchName(path[loc[2]:loc[3]]), path[loc[1]:], true
}

// holdingBranch locates the oneOf/anyOf/allOf branch of a path that
// something follows and that is nearest to the property, skipping those
// known only by their position (`subschema #2`) when a named one comes
// before: "Datadog Notification" in
// `oneOf[subschema #1: Any Other]/notifications/items/oneOf[subschema #1: Datadog Notification]/notifierId`.
// nil when there is none.
func holdingBranch(path string) []int {
	var found []int
	for _, loc := range BranchStep.FindAllStringSubmatchIndex(path, -1) {
		if loc[1] == len(path) {
			continue
		}
		if found == nil || !strings.HasPrefix(BranchName(path[loc[2]:loc[3]]), "#") {
			found = loc
		}
	}
	return found
}

// SchemaName is what a reader calls the schema at a place (Edit.Place):
// the oneOf/anyOf/allOf branch that holds it when it has a name, else the
// place itself, an array's items named after the array.
func SchemaName(place string) string {
	// The place ends where the property's name was cut off: a branch at
	// its end holds the property too.
	if loc := holdingBranch(place + "/…"); loc != nil {
		if name := BranchName(place[loc[2]:loc[3]]); !strings.HasPrefix(name, "#") {
			return name
		}
	}
	for strings.HasSuffix(place, "/items") {
		place = strings.TrimSuffix(place, "/items")
	}
	return place
}

// EditPart is a change, or changes already known to be one edit's, to
// gather with others.
type EditPart struct {
	// Key holds what the changes of one edit share: the caller's own
	// (the rule, the severity, the file) and Edit.Key.
	Key string
	// Node tells the changed schema node apart from others: its place, in
	// each operation-version it is seen from.
	Node string
	// Values are the enum values the part adds or removes.
	Values []string
}

// GatherEdits gathers parts into edits: first the parts of one node that
// differ by their enum values (the values of one enum, removed together),
// then the nodes that share everything else, values included (the same
// edit made to sibling schemas). Each edit lists its nodes, each node its
// parts' indices, in the order of their first part.
func GatherEdits(parts []EditPart) [][][]int {
	type node struct {
		parts  []int
		values []string
	}
	var nodes []*node
	byNode := map[[2]string]*node{}
	for i, p := range parts {
		k := [2]string{p.Key, p.Node}
		n, ok := byNode[k]
		if !ok {
			n = &node{}
			byNode[k] = n
			nodes = append(nodes, n)
		}
		n.parts = append(n.parts, i)
		n.values = append(n.values, p.Values...)
	}
	var edits [][][]int
	byEdit := map[[2]string]int{}
	for _, n := range nodes {
		values := slices.Clone(n.values)
		slices.Sort(values)
		k := [2]string{parts[n.parts[0]].Key, strings.Join(slices.Compact(values), "\x00")}
		i, ok := byEdit[k]
		if !ok {
			i = len(edits)
			byEdit[k] = i
			edits = append(edits, nil)
		}
		edits[i] = append(edits[i], n.parts)
	}
	return edits
}

// ApartByName splits the edits of GatherEdits so that no two nodes of one
// edit share a schema name (names: those of the places each node is seen
// at, as SchemaName gives them): the same edit made to schemas that its
// statement could not tell apart (the own bodies of two operations, each
// changed at its top level) is an edit at each place. A node joins the
// first of its edit's parts that has none of its names.
func ApartByName(edits [][][]int, names func(node []int) []string) [][][]int {
	var out [][][]int
	for _, nodes := range edits {
		var parts [][][]int
		var seen []map[string]bool
		for _, node := range nodes {
			own := names(node)
			i := slices.IndexFunc(seen, func(taken map[string]bool) bool {
				return !slices.ContainsFunc(own, func(n string) bool { return taken[n] })
			})
			if i < 0 {
				i = len(parts)
				parts, seen = append(parts, nil), append(seen, map[string]bool{})
			}
			parts[i] = append(parts[i], node)
			for _, n := range own {
				seen[i][n] = true
			}
		}
		out = append(out, parts...)
	}
	return out
}

// EditMessage states one edit from the distinct messages of its changes
// (all of check id id): with every enum value it adds or removes, and,
// made to sibling schemas at several places, with the schemas' names, at
// most max of them (0: all). When the messages differ otherwise (the
// edit of a shared schema seen from several operations), the statement
// is their root message.
func EditMessage(id string, messages, values, places []string, max int) string {
	if len(messages) == 0 {
		return ""
	}
	m := messages[0]
	if len(values) > 1 {
		m = withValues(id, m, values)
	}
	differ := false
	for _, other := range messages[1:] {
		if withValues(id, other, []string{"…"}) != withValues(id, messages[0], []string{"…"}) {
			differ = true
		}
	}
	if differ || len(places) > 1 {
		m = RootMessage(m)
	}
	if len(places) > 1 {
		names := make([]string, 0, len(places))
		top := false
		for _, p := range places {
			if p == "" {
				top = true
				continue
			}
			names = append(names, SchemaName(p))
		}
		slices.Sort(names)
		names = slices.Compact(names)
		if top {
			names = append(names, "the top level")
		}
		if len(names) > 1 {
			m += " " + SiblingsPhrase(names, "schemas", max)
		}
	}
	return m
}

// withValues names every value in the message where it names one.
func withValues(id, message string, values []string) string {
	t := TemplateOf(id)
	if t == nil || t.Value < 0 {
		return message
	}
	args, rest, ok := t.Args(message)
	if !ok {
		return message
	}
	quoted := make([]string, len(values))
	for i, v := range values {
		if strings.TrimSpace(v) != v || v == "" {
			// An empty or blank value would be an empty code span.
			v = strconv.Quote(v)
		}
		quoted[i] = "`" + v + "`"
	}
	var b strings.Builder
	for i, part := range t.Parts {
		if i == t.Value+1 {
			part = PluralizeStart(part)
		}
		if i == t.Value {
			part = PluralizeEnd(part)
		}
		b.WriteString(part)
		switch {
		case i == t.Value:
			b.WriteString(strings.Join(quoted, ", "))
		case i < len(args):
			b.WriteString("`" + args[i] + "`")
		}
	}
	return b.String() + rest
}

// SiblingsPhrase names several sibling schemas: "in 3 schemas: A, B, C",
// or, when their names share a tail, "in 7 alert configuration schemas:
// Any Other, Billing Threshold, …", with noun for "schemas"; at most max
// names (0: all), then how many more.
func SiblingsPhrase(names []string, noun string, max int) string {
	split := make([][]string, len(names))
	common := -1
	for i, n := range names {
		if strings.Contains(n, " ") {
			split[i] = strings.Fields(n)
		} else {
			split[i] = camelWords(n)
		}
		if i == 0 {
			common = len(split[i]) - 1
			continue
		}
		k := 0
		for k < common && k < len(split[i])-1 && split[i][len(split[i])-1-k] == split[0][len(split[0])-1-k] {
			k++
		}
		common = k
	}
	kind := noun
	short := names
	if common > 0 {
		tail := split[0][len(split[0])-common:]
		words := make([]string, len(tail))
		for i, w := range tail {
			w = strings.ToLower(w)
			if long, ok := spelledOut[w]; ok {
				w = long
			}
			words[i] = w
		}
		kind = strings.Join(words, " ") + " " + noun
		short = make([]string, len(names))
		for i, s := range split {
			short[i] = strings.Join(s[:len(s)-common], " ")
		}
	}
	list := strings.Join(short, ", ")
	if max > 0 && len(short) > max {
		list = strings.Join(short[:max], ", ") + " and " + strconv.Itoa(len(short)-max) + " more"
	}
	return "in " + strconv.Itoa(len(names)) + " " + kind + ": " + list
}

// camelWords splits AnyOtherAlertConfig into Any, Other, Alert, Config.
func camelWords(s string) []string {
	var words []string
	runes := []rune(s)
	start := 0
	for i := 1; i < len(runes); i++ {
		if unicode.IsUpper(runes[i]) && (unicode.IsLower(runes[i-1]) || (i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1]))) {
			words = append(words, string(runes[start:i]))
			start = i
		}
	}
	return append(words, string(runes[start:]))
}

// spelledOut are the abbreviations of schema names a reader sees spelled out.
var spelledOut = map[string]string{"config": "configuration", "configs": "configurations"}
