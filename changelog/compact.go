package changelog

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/versions"
)

// Line is one statement of a release as people read it, and the
// operation-versions it applies to. One line may stand for many entries of
// the history: the same change seen for several response statuses, oneOf
// branches, enum values, properties or operations. Lines only ever merge
// entries whose combinations all happened, so nothing is lost or implied.
type Line struct {
	// Text is the statement, `quoted` names included, without the
	// operations.
	Text     string
	Breaking bool
	Exempted bool
	// ID is the change id the line was made from.
	ID   string
	Uses []Use
	// Notes are the hand-written notes of the entries the line stands for.
	Notes []string
	// Entries is how many history entries the line stands for.
	Entries int
	// Heading is what the line is listed under apart from the operations'
	// changes: "Webhooks" for a webhook's, "" for the others.
	Heading string
}

// Use is one operation-version a line applies to.
type Use struct {
	Operation string
	Version   string
	// Detail says where in this operation the line applies when that
	// differs between its operations: the property (`roles[].roleName`)
	// or the response status (201 response). "" when the text says it.
	Detail string
}

// String is the operation with its version in parentheses, and its detail.
func (u Use) String() string {
	s := u.Operation
	if u.Version != "" {
		s += " (" + u.Version + ")"
	}
	if u.Detail != "" {
		s += " (" + u.Detail + ")"
	}
	return s
}

// item is a change being merged: the parts of its message with the sets a
// merge widens (statuses, enum values, oneOf branches, properties,
// operations).
type item struct {
	e    Entry
	t    *diff.Template
	args []string
	rest string
	// text replaces the message for lifecycle entries and messages that do
	// not follow their pattern.
	text string

	statuses, values, variants, targets []string
	// prefix and suffix surround the branch in the target's path.
	prefix, suffix string
	uses           []Use
	// perUseTargets is set when each use names its own properties.
	perUseTargets bool
	notes         []string
	entries       int
}

func (it *item) key(skip string) string {
	var b strings.Builder
	field := func(name string, parts ...string) {
		if name == skip {
			return
		}
		b.WriteString(name)
		for _, p := range parts {
			b.WriteString("\x00")
			b.WriteString(p)
		}
		b.WriteString("\x01")
	}
	// A webhook's change is listed apart, so it never merges with an
	// operation's.
	field("entry", it.e.ID, fmt.Sprint(it.e.Breaking), fmt.Sprint(it.e.Exempted), it.text, it.rest, it.prefix, it.suffix, versions.HeadingOf(it.e.Operation))
	field("args", it.args...)
	field("statuses", it.statuses...)
	field("values", it.values...)
	field("variants", it.variants...)
	field("targets", it.targets...)
	uses := make([]string, len(it.uses))
	for i, u := range it.uses {
		uses[i] = u.Operation + "\x02" + u.Version + "\x02" + u.Detail
	}
	field("uses", uses...)
	return b.String()
}

// merge joins items equal in everything but dim, widening dim's set.
func merge(items []*item, dim string) []*item {
	byKey := map[string]*item{}
	var out []*item
	for _, it := range items {
		k := it.key(dim)
		into, ok := byKey[k]
		if !ok {
			byKey[k] = it
			out = append(out, it)
			continue
		}
		switch dim {
		case "statuses":
			into.statuses = union(into.statuses, it.statuses)
		case "values":
			into.values = union(into.values, it.values)
		case "variants":
			into.variants = union(into.variants, it.variants)
		case "targets":
			into.targets = union(into.targets, it.targets)
		case "uses":
			for _, u := range it.uses {
				if !slices.Contains(into.uses, u) {
					into.uses = append(into.uses, u)
				}
			}
		}
		into.notes = union(into.notes, it.notes)
		into.entries += it.entries
	}
	return out
}

// mergeAcrossOperations joins the items that differ only in their
// operations and the statuses or properties they name (a POST answering 201
// where a PUT answers 200, one enum removed from `roles[].roleName` here and
// from `roles[]` there): each operation then carries its own detail.
func mergeAcrossOperations(items []*item) []*item {
	byKey := map[string][]*item{}
	var keys []string
	for _, it := range items {
		saved := [2][]string{it.statuses, it.targets}
		it.statuses, it.targets = nil, nil
		k := it.key("uses")
		it.statuses, it.targets = saved[0], saved[1]
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], it)
	}
	out := make([]*item, 0, len(keys))
	for _, k := range keys {
		group := byKey[k]
		if len(group) == 1 {
			out = append(out, group[0])
			continue
		}
		sameStatuses, sameTargets := true, true
		for _, it := range group[1:] {
			sameStatuses = sameStatuses && slices.Equal(it.statuses, group[0].statuses)
			sameTargets = sameTargets && slices.Equal(it.targets, group[0].targets)
		}
		into := group[0]
		var uses []Use
		for _, it := range group {
			var detail []string
			if !sameTargets {
				detail = append(detail, codeList(it.targets, identity))
			}
			if !sameStatuses && len(it.statuses) > 0 {
				detail = append(detail, statusWords(it.statuses))
			}
			for _, u := range it.uses {
				u.Detail = strings.Join(append(slices.DeleteFunc(slices.Clone(detail), func(s string) bool { return s == "" }), nonEmpty(u.Detail)...), ", ")
				uses = append(uses, u)
			}
			if it != into {
				into.notes = union(into.notes, it.notes)
				into.entries += it.entries
			}
		}
		into.uses = uses
		if !sameStatuses {
			into.statuses = nil
		}
		if !sameTargets {
			into.targets, into.perUseTargets = nil, true
		}
		out = append(out, into)
	}
	return out
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// statusWords is "200 response" or "200 and 201 responses".
func statusWords(statuses []string) string {
	if len(statuses) == 1 {
		return statuses[0] + " response"
	}
	return andList(statuses) + " responses"
}

func union(a, b []string) []string {
	out := append(slices.Clip(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func newItem(e Entry, text string) *item {
	it := &item{e: e, uses: []Use{{Operation: e.Operation, Version: e.Version}}, entries: 1}
	if e.Note != "" {
		it.notes = []string{e.Note}
	}
	if text != "" {
		it.text = text
		return it
	}
	t := diff.TemplateOf(e.ID)
	if t == nil {
		it.text = e.Text
		return it
	}
	// The other paths at which an operation reaches a shared schema differ
	// between sibling schemas changed alike: they would keep apart lines
	// that say the same.
	args, rest, ok := t.Args(diff.WithoutElsewhere(e.Text))
	if !ok {
		it.text = e.Text
		return it
	}
	it.t, it.rest = t, rest
	it.args = slices.Clone(args)
	if t.Status >= 0 {
		it.statuses = []string{args[t.Status]}
		it.args[t.Status] = ""
	}
	if t.Value >= 0 {
		it.values = []string{args[t.Value]}
		it.args[t.Value] = ""
	}
	if t.Target >= 0 {
		path := args[t.Target]
		if prefix, name, suffix, found := diff.SplitBranch(path); found {
			it.prefix, it.suffix, it.variants = diff.NamedBranches(prefix), suffix, []string{name}
			path = ""
		}
		it.targets = []string{path}
		it.args[t.Target] = ""
	}
	return it
}

// Lines groups a release's changes for reading. The history names each
// version's deprecation and sunset for lifecycle lines; it may be nil.
// Breaking lines come first, then the lines used by most operations; a
// webhook's lines come after all others, under their heading.
func Lines(r Release, history *Lifecycles) []*Line {
	items := make([]*item, 0, len(r.Changes))
	for _, e := range r.Changes {
		items = append(items, newItem(e, history.text(r, e)))
	}
	// The order matters: each merge only joins items equal in every other
	// set, so a merged line states a full cross product of what happened.
	for _, dim := range []string{"values", "statuses", "variants", "uses", "targets", "uses"} {
		items = merge(items, dim)
	}
	items = mergeAcrossOperations(items)
	out := make([]*Line, len(items))
	for i, it := range items {
		slices.SortStableFunc(it.uses, func(a, b Use) int {
			return cmp.Or(compareOperations(a.Operation, b.Operation), cmp.Compare(a.Version, b.Version))
		})
		out[i] = &Line{Text: capitalize(it.render()), Breaking: it.e.Breaking, Exempted: it.e.Exempted, ID: it.e.ID, Uses: it.uses, Notes: it.notes, Entries: it.entries,
			Heading: versions.HeadingOf(it.e.Operation)}
	}
	slices.SortStableFunc(out, func(a, b *Line) int {
		return cmp.Or(cmp.Compare(a.Heading, b.Heading), boolFirst(a.Breaking, b.Breaking), cmp.Compare(len(b.Uses), len(a.Uses)), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Text, b.Text))
	})
	return out
}

// render writes the item's statement back in the words of its pattern,
// each merged argument as a list.
func (it *item) render() string {
	if it.t == nil {
		return it.text
	}
	t := it.t
	parts := slices.Clone(t.Parts)
	var b strings.Builder
	for i, part := range parts {
		if i > 0 && len(merged(it, i-1)) > 1 {
			part = diff.PluralizeStart(part)
		}
		if i == len(parts)-1 {
			b.WriteString(part + readableCodes(it.rest))
			break
		}
		switch {
		case i == t.Status:
			// "for the response status `200`" reads "for the 200 and 201
			// responses"; "to the response with the `200` status", "to
			// the 200 response".
			noun := " response"
			if len(it.statuses) > 1 {
				noun = " responses"
			}
			codes := andList(it.statuses)
			switch {
			case len(it.statuses) == 0:
				// Each operation names its own statuses.
				if strings.HasSuffix(part, "the response with the ") && strings.HasPrefix(parts[i+1], " status") {
					b.WriteString(strings.TrimSuffix(part, " with the "))
					parts[i+1] = strings.TrimPrefix(parts[i+1], " status")
				} else {
					for _, phrase := range []string{"for the response status ", "for the status ", "for status ", "with the status "} {
						part = strings.TrimSuffix(part, phrase)
					}
					b.WriteString(strings.TrimRight(part, " "))
				}
			case strings.HasSuffix(part, "the response with the ") && strings.HasPrefix(parts[i+1], " status"):
				b.WriteString(strings.TrimSuffix(part, "response with the ") + codes + noun)
				parts[i+1] = strings.TrimPrefix(parts[i+1], " status")
			case hasAnySuffix(part, "for the response status ", "for the status ", "for status "):
				b.WriteString(part[:strings.LastIndex(part, "for ")] + "for the " + codes + noun)
			default:
				b.WriteString(part + codeList(it.statuses, identity))
			}
			continue
		case len(merged(it, i)) > 1:
			part = diff.PluralizeEnd(part)
		}
		var arg string
		switch i {
		case t.Value:
			arg = codeList(it.values, identity)
		case t.Target:
			switch {
			case len(it.variants) > 0:
				arg = codeOf(it.prefix + it.suffix)
			case len(it.targets) > 0:
				arg = codeList(it.targets, identity)
			}
			// Without targets each operation names its own property.
		default:
			arg = codeOf(it.args[i])
		}
		if arg == "" {
			if it.perUseTargets {
				part = diff.PluralizeEnd(part)
				parts[i+1] = diff.PluralizeStart(parts[i+1])
			}
			b.WriteString(strings.TrimSuffix(part, " "))
			continue
		}
		b.WriteString(part + arg)
	}
	if len(it.variants) > 0 {
		b.WriteString(" " + variantPhrase(it.variants))
	}
	return b.String()
}

func identity(s string) string { return s }

// merged is the set an argument shows, nil for a plain argument.
func merged(it *item, arg int) []string {
	switch arg {
	case it.t.Status:
		return it.statuses
	case it.t.Value:
		return it.values
	case it.t.Target:
		return it.targets
	}
	return nil
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}
