package policy

import (
	"slices"
	"testing"

	"github.com/apiver/apiver/diff"
)

func TestGroups(t *testing.T) {
	t.Parallel()
	at := func(line int) *diff.Location { return &diff.Location{File: "api.yaml", Line: line} }
	f := func(op, change, message string, loc *diff.Location) Finding {
		return Finding{Rule: BreakingChangeWithoutNewVersion, Severity: Error, Operation: op, Version: "2023-01-01", Change: change, Message: message, Location: loc}
	}
	const enum = "request-property-enum-value-removed"
	r := &Report{Findings: []Finding{
		// One edit of a shared component, seen through properties of other
		// names and through two oneOf branches of one operation.
		f("POST /a", enum, "removed the enum value `X` of the request property `role`", at(10)),
		f("POST /b", enum, "removed the enum value `X` of the request property `roles/items/roleName`", at(10)),
		f("POST /c", enum, "removed the enum value `X` of the request property `oneOf[subschema #1: A]/role`", at(10)),
		f("POST /c", enum, "removed the enum value `X` of the request property `oneOf[subschema #2: B]/role`", at(10)),
		// Two properties on one line of one operation: two edits.
		f("POST /d", "request-property-became-required", "the request property `a` became required", at(20)),
		f("POST /d", "request-property-became-required", "the request property `b` became required", at(20)),
		// Without a place, property names tell edits apart.
		f("POST /e", "request-property-removed", "removed the request property `x/a`", nil),
		f("POST /f", "request-property-removed", "removed the request property `y/b`", nil),
		// A warning with the widest reach still comes after the errors.
		{Rule: BreakingChangeWithoutNewVersion, Severity: Warning, Operation: "GET /w1", Change: "w", Message: "m", Location: at(30)},
		{Rule: BreakingChangeWithoutNewVersion, Severity: Warning, Operation: "GET /w2", Change: "w", Message: "m", Location: at(30)},
		{Rule: BreakingChangeWithoutNewVersion, Severity: Warning, Operation: "GET /w3", Change: "w", Message: "m", Location: at(30)},
		{Rule: BreakingChangeWithoutNewVersion, Severity: Warning, Operation: "GET /w4", Change: "w", Message: "m", Location: at(30)},
		// A change of the whole document reaches no operation.
		{Rule: BreakingChangeWithoutNewVersion, Severity: Error, Change: "api-security-removed", Message: "removed the security scheme `k`", Location: at(2)},
	}}
	groups := r.Groups(nil)
	type want struct {
		change     string
		operations []string
	}
	got := make([]want, len(groups))
	for i, g := range groups {
		got[i] = want{g.Change, g.Operations}
	}
	wants := []want{
		{enum, []string{"POST /a@2023-01-01", "POST /b@2023-01-01", "POST /c@2023-01-01"}},
		{"request-property-became-required", []string{"POST /d@2023-01-01"}},
		{"request-property-became-required", []string{"POST /d@2023-01-01"}},
		{"request-property-removed", []string{"POST /e@2023-01-01"}},
		{"request-property-removed", []string{"POST /f@2023-01-01"}},
		{"api-security-removed", []string{}},
		{"w", []string{"GET /w1", "GET /w2", "GET /w3", "GET /w4"}},
	}
	if !slices.EqualFunc(got, wants, func(a, b want) bool { return a.change == b.change && slices.Equal(a.operations, b.operations) }) {
		t.Fatalf("groups:\n%v\nwant:\n%v", got, wants)
	}
	if m := groups[0].Message; m != "removed the enum value `X` of the request property `role`" {
		t.Errorf("shared group's message %q, want its root message", m)
	}
	if !slices.Equal(groups[0].Members, []int{0, 1, 2, 3}) {
		t.Errorf("members %v", groups[0].Members)
	}
	ids := map[string]bool{}
	for _, g := range groups {
		ids[g.ID] = true
	}
	if len(ids) != len(groups) {
		t.Errorf("group ids not unique: %v", ids)
	}
	// Ids do not depend on lines.
	for i := range r.Findings {
		if l := r.Findings[i].Location; l != nil {
			l.Line += 7
		}
	}
	if moved := r.Groups(nil); moved[0].ID != groups[0].ID {
		t.Errorf("moving lines changed the id")
	}
	if c := r.CountGroups(groups); c != (Counts{Errors: 6, Warnings: 1}) {
		t.Errorf("counts %+v", c)
	}
}

// TestGroupAnchor: a group located in the base is anchored by the anchor
// function; one in the revision is not.
func TestGroupAnchor(t *testing.T) {
	t.Parallel()
	r := &Report{Findings: []Finding{
		{Rule: OperationRemoved, Severity: Error, Operation: "GET /gone", Message: "removed", Location: &diff.Location{File: "api.yaml", Line: 40, Ref: "main"}},
		{Rule: SunsetOverdueRule, Severity: Warning, Operation: "GET /old", Version: "2020-01-01", Message: "overdue", Location: &diff.Location{File: "api.yaml", Line: 9}},
	}}
	anchor := func(loc diff.Location, operation string) *diff.Location {
		if loc.Ref == "" {
			return nil
		}
		return &diff.Location{File: loc.File, Line: 3}
	}
	groups := r.Groups(anchor)
	if a := groups[0].Annotated(); a == nil || a.Line != 3 || a.Ref != "" {
		t.Errorf("removal annotated at %+v, want api.yaml:3", a)
	}
	if a := groups[1].Annotated(); a == nil || a.Line != 9 {
		t.Errorf("revision finding annotated at %+v, want its own line", a)
	}
}

// TestGroupsGatherEdits: the values removed from one enum, one a line, are
// one root change; so is the same edit made to sibling schemas. Another
// enum of the same property name losing other values is another.
func TestGroupsGatherEdits(t *testing.T) {
	t.Parallel()
	at := func(line int) *diff.Location { return &diff.Location{File: "api.yaml", Line: line} }
	f := func(op, change, message string, line int) Finding {
		return Finding{Rule: BreakingChangeWithoutNewVersion, Severity: Error, Operation: op, Version: "2023-01-01", Change: change, Message: message, Location: at(line)}
	}
	const enum, pattern = "request-property-enum-value-removed", "request-property-pattern-added"
	r := &Report{Findings: []Finding{
		f("POST /a", enum, "removed the enum value `B` of the request property `role`", 11),
		f("POST /a", enum, "removed the enum value `A` of the request property `role`", 10),
		f("POST /b", enum, "removed the enum value `A` of the request property `roles/items/role`", 10),
		f("POST /b", enum, "removed the enum value `B` of the request property `roles/items/role`", 11),
		f("POST /c", enum, "removed the enum value `C` of the request property `role`", 40),
		f("POST /c", enum, "removed the enum value `` of the request property `role`", 41),
		f("POST /n", pattern, "added the pattern `^a$` to the request property `oneOf[#/components/schemas/EmailNotification]/notifierId`", 70),
		f("POST /n", pattern, "added the pattern `^a$` to the request property `oneOf[#/components/schemas/SlackNotification]/notifierId`", 60),
		f("POST /n", pattern, "added the pattern `^b$` to the request property `oneOf[#/components/schemas/TeamNotification]/notifierId`", 80),
		// The same edit of two operations' own bodies: nothing names the
		// schemas apart, so each stays at its place.
		f("POST /p", pattern, "added the pattern `^c$` to the request property `code`", 90),
		f("POST /q", pattern, "added the pattern `^c$` to the request property `code`", 95),
	}}
	groups := r.Groups(nil)
	type want struct {
		members []int
		line    int
		message string
	}
	wants := []want{
		{[]int{0, 1, 2, 3}, 10, "removed the enum values `A`, `B` of the request property `role`"},
		{[]int{4, 5}, 40, "removed the enum values `C`, `\"\"` of the request property `role`"},
		{[]int{6, 7}, 60, "added the pattern `^a$` to the request property `notifierId` in 2 notification schemas: Email, Slack"},
		{[]int{8}, 80, "added the pattern `^b$` to the request property `oneOf[#/components/schemas/TeamNotification]/notifierId`"},
		{[]int{9}, 90, "added the pattern `^c$` to the request property `code`"},
		{[]int{10}, 95, "added the pattern `^c$` to the request property `code`"},
	}
	if len(groups) != len(wants) {
		t.Fatalf("%d groups, want %d: %+v", len(groups), len(wants), groups)
	}
	for i, w := range wants {
		g := groups[i]
		if !slices.Equal(g.Members, w.members) || g.Location.Line != w.line || g.Message != w.message {
			t.Errorf("group %d: members %v at line %d, %q\nwant members %v at line %d, %q", i, g.Members, g.Location.Line, g.Message, w.members, w.line, w.message)
		}
	}
}

// TestGroupsParametersStayAtTheirPlace: a parameter is no sibling schema's
// property. Two made required, each in its own operation, are two root
// changes at their lines; a shared component's, reached by two operations,
// is one.
func TestGroupsParametersStayAtTheirPlace(t *testing.T) {
	t.Parallel()
	f := func(op string, line int) Finding {
		return Finding{Rule: BreakingChangeWithoutNewVersion, Severity: Error, Operation: op, Version: "2023-01-01", Change: "request-parameter-became-required",
			Message: "the `query` request parameter `dry` became required", Location: &diff.Location{File: "api.yaml", Line: line}}
	}
	r := &Report{Findings: []Finding{f("GET /p", 90), f("GET /q", 95), f("GET /r", 99), f("GET /s", 99)}}
	got := map[int][]int{}
	for _, g := range r.Groups(nil) {
		got[g.Location.Line] = g.Members
	}
	want := map[int][]int{90: {0}, 95: {1}, 99: {2, 3}}
	if len(got) != len(want) {
		t.Fatalf("groups at lines %v, want %v", got, want)
	}
	for line, members := range want {
		if !slices.Equal(got[line], members) {
			t.Errorf("line %d: members %v, want %v", line, got[line], members)
		}
	}
}
