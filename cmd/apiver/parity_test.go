package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/policy"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	oasdiff "github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"
)

// Peer parity (issue 22): on oasdiff's own fixtures, paired as oasdiff's
// checker tests pair them, `apiver diff` reports the same changes (id and
// operation) as oasdiff's checker run with every check, as its changelog
// command runs it, at apiver's default levels. The fixtures have no vendor
// media types, so every operation is unversioned in apiver. The pairs where
// apiver differs on purpose are parityExceptions, each for a reason that
// docs/rules.md ("Differences from oasdiff") states.

// parityExceptions are the pairs apiver answers differently on purpose, by
// pair (as fixturePair.String names it), with the reason.
var parityExceptions = map[string]string{
	"checker/common_request_parameter_max_items_updated_revision.yaml → checker/common_request_parameter_max_items_updated_base.yaml":           "a change to a path-level parameter is reported on each operation (oasdiff: only with --flatten-params)",
	"checker/request_parameter_default_value_changed_base_renamed.yaml → checker/request_parameter_default_value_changed_revision_renamed.yaml": "an operation whose path parameters were renamed is named as the revision writes it (oasdiff: as the base does)",
	"param-deprecation/deprecated-with-sunset-path.yaml → param-deprecation/deprecated-no-sunset-path-renamed.yaml":                             "an operation whose path parameters were renamed is named as the revision writes it (oasdiff: as the base does)",
	"new_endpoints/base_with_path_param.yaml → new_endpoints/revision_with_path_param.yaml":                                                     "an operation whose path parameters were renamed is named as the revision writes it; the base's path parameter does not match its template",
	"required-properties/write-only-changed-base.yaml → required-properties/write-only-changed-revision.yaml":                                   "writeOnly set on a request property is no change (equivalence access-mode-unseen)",
	"required-properties/write-only-changed-revision.yaml → required-properties/write-only-changed-base.yaml":                                   "writeOnly cleared on a request property is no change (equivalence access-mode-unseen)",
	"checker/webhook_operation_base.yaml → checker/webhook_operation_revision.yaml":                                                             webhookInDirection,
	"checker/webhook_base.yaml → checker/webhook_revision.yaml":                                                                                 webhookAsOperation,
	"openapi-test1.yaml → openapi-test3.yaml":                                                                                                   callbacksInDirection,
	"openapi-test1.yaml → openapi-test5.yaml":                                                                                                   "a maxLength removed beside an anchored pattern is rated against the pattern's bounds (equivalence pattern-implied-length)",
	// apiver diffs allOf merged (oasdiff: member by member).
	"checker/request_property_all_of_added_base.yaml → checker/request_property_all_of_added_revision.yaml":                                                         allOfMerged,
	"checker/request_property_all_of_removed_base.yaml → checker/request_property_all_of_removed_revision.yaml":                                                     allOfMerged,
	"checker/request_property_all_of_inline_added_base.yaml → checker/request_property_all_of_inline_added_revision.yaml":                                           allOfMerged,
	"checker/request_property_all_of_annotation_only_added_base.yaml → checker/request_property_all_of_annotation_only_added_revision.yaml":                         allOfMerged,
	"checker/request_property_all_of_annotation_only_added_at_property_base.yaml → checker/request_property_all_of_annotation_only_added_at_property_revision.yaml": allOfMerged,
	"checker/response_property_all_of_added_base.yaml → checker/response_property_all_of_added_revision.yaml":                                                       allOfMerged,
	"checker/response_property_all_of_inline_added_base.yaml → checker/response_property_all_of_inline_added_revision.yaml":                                         allOfMerged,
	"checker/response_property_all_of_removed_base.yaml → checker/response_property_all_of_removed_revision.yaml":                                                   allOfMerged,
	"checker/response_property_all_of_annotation_only_added_base.yaml → checker/response_property_all_of_annotation_only_added_revision.yaml":                       allOfMerged,
	"checker/disclaimer_allof_base.yaml → checker/disclaimer_allof_revision.yaml":                                                                                   allOfMerged,
	"checker/disclaimer_nested_allof_base.yaml → checker/disclaimer_nested_allof_revision.yaml":                                                                     allOfMerged,
	// oasdiff reads an x-sunset that is not a date as none; apiver refuses
	// the input (exit 2, naming file, line and value), so that a sunset is
	// never misread.
	"deprecation/base.yaml → deprecation/deprecated-with-invalid-sunset.yaml":   refusedSunset,
	"deprecation/deprecated-invalid.yaml → deprecation/deprecated-invalid.yaml": refusedSunset,
	"deprecation/deprecated-future.yaml → deprecation/deprecated-invalid.yaml":  refusedSunset,
	"deprecation/deprecated-invalid.yaml → deprecation/deprecated-future.yaml":  refusedSunset,
}

// webhooksInDirection: apiver judges a webhook's or a callback's payload
// as a response (the consumer reads it) and the consumer's answer as a
// request; oasdiff judges a webhook as if the client sent it, and does not
// compare callbacks.
const (
	webhookInDirection   = "a webhook's payload is judged as a response, the consumer reads it (oasdiff: as a request); a payload is always sent, so a request body made required is no change"
	webhookAsOperation   = "a webhook added or removed is named by its operation, METHOD webhook:NAME (oasdiff: no operation)"
	callbacksInDirection = "callbacks are compared, each payload as a response, under the operation that registers them (oasdiff: not compared); the document's security is not theirs"
)

// allOfMerged: apiver merges allOf before it diffs, so it reports what
// the merged schema changed, not which members came or went.
const allOfMerged = "allOf is diffed merged (oasdiff: member by member): a member added or removed is the change it makes to the merged schema, if any"

const refusedSunset = "an x-sunset that is not a date is an input error (oasdiff: no sunset)"

// refusedVersion is apiver's refusal of an OpenAPI version other than 3.0
// and 3.1, whose grammar the fast pass knows (oasdiff reads 3.2 too).
const refusedVersion = "is not supported: only 3.0 and 3.1 are"

// parityMinimumPairs guards the reading of oasdiff's tests: v1.35.0's give
// 443 distinct pairs.
const parityMinimumPairs = 400

// maxRefusedVersions is how many of v1.35.0's pairs are OpenAPI 3.2.
const maxRefusedVersions = 3

func TestParityWithOasdiff(t *testing.T) {
	dir := oasdiffModuleDir(t)
	pairs, err := oasdiffFixturePairs(filepath.Join(dir, "checker"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) < parityMinimumPairs {
		t.Fatalf("found %d fixture pairs in oasdiff's checker tests, want at least %d", len(pairs), parityMinimumPairs)
	}
	fastPipelineOnly(t)
	t.Chdir(t.TempDir()) // no apiver.yaml of the repository applies
	defaults := policy.DefaultConfig()
	levels := defaults.ChangeLevels()

	// agree counts the pairs that agree, in all and of data/checker alone
	// (oasdiff's fixtures named for its checks).
	var agree, checkerPairs, checkerAgree, refused int
	for _, p := range pairs {
		inChecker := strings.HasPrefix(p.base, "data/checker/")
		if inChecker {
			checkerPairs++
		}
		base, revision := filepath.Join(dir, p.base), filepath.Join(dir, p.revision)
		want, err := oasdiffChanges(base, revision, levels)
		if err != nil {
			t.Errorf("%s: oasdiff: %v", p, err)
			continue
		}
		got, err := apiverChanges(base, revision, false)
		if err != nil && parityExceptions[p.String()] == refusedSunset {
			t.Logf("%s: differs on purpose: %s", p, refusedSunset)
			continue
		}
		if err != nil && strings.Contains(err.Error(), refusedVersion) {
			refused++
			t.Logf("%s: differs on purpose: OpenAPI 3.2 %s", p, refusedVersion)
			continue
		}
		if err != nil {
			t.Errorf("%s: apiver: %v", p, err)
			continue
		}
		// The fast pipeline may never change what is reported.
		if full, err := apiverChanges(base, revision, true); err != nil || !slices.Equal(full, got) {
			t.Errorf("%s: the full pipeline reports %v (%v), the fast one %v", p, full, err, got)
		}
		reason, excepted := parityExceptions[p.String()]
		switch {
		case slices.Equal(got, want) && excepted:
			t.Errorf("%s: agrees with oasdiff; drop it from parityExceptions (%s)", p, reason)
		case slices.Equal(got, want):
			agree++
			if inChecker {
				checkerAgree++
			}
		case excepted:
			t.Logf("%s: differs on purpose: %s", p, reason)
		default:
			t.Errorf("%s:\n  oasdiff %v\n  apiver  %v", p, want, got)
		}
	}
	t.Logf("%d of %d fixture pairs agree with oasdiff (of data/checker: %d of %d); %d differ on purpose, %d are OpenAPI 3.2", agree, len(pairs), checkerAgree, checkerPairs, len(parityExceptions), refused)
	if refused > maxRefusedVersions {
		t.Errorf("%d fixture pairs refused as OpenAPI other than 3.0 and 3.1, want at most %d", refused, maxRefusedVersions)
	}
}

// oasdiffModuleDir is where the oasdiff module go.mod requires is: its
// fixtures and tests are the reference. go mod download puts it there.
func oasdiffModuleDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/oasdiff/oasdiff").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("the oasdiff module is not in the module cache (go mod download): %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "checker")); err != nil {
		t.Skipf("oasdiff's checker fixtures are not in %s: %v", dir, err)
	}
	return dir
}

// parityChange is what the comparison keeps of a change.
type parityChange struct{ id, operation string }

func (c parityChange) String() string { return c.id + " " + strconv.Quote(c.operation) }

func sortedChanges(cs []parityChange) []parityChange {
	slices.SortFunc(cs, func(a, b parityChange) int {
		return strings.Compare(a.id+"\x00"+a.operation, b.id+"\x00"+b.operation)
	})
	return cs
}

// oasdiffChanges runs oasdiff as its changelog command does (external
// $refs allowed, every check down to info), leaving out the checks
// apiver's defaults turn off and those whose verdict reads the wall clock
// (apiver judges those against --date, or drops them).
func oasdiffChanges(base, revision string, levels map[string]string) ([]parityChange, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = true
	loader.IncludeOrigin = true
	s1, err := load.NewSpecInfo(loader, load.NewSource(base))
	if err != nil {
		return nil, err
	}
	s2, err := load.NewSpecInfo(loader, load.NewSource(revision))
	if err != nil {
		return nil, err
	}
	report, sources, err := oasdiff.GetWithOperationsSourcesMap(oasdiff.NewConfig(), s1, s2)
	if err != nil {
		return nil, err
	}
	changes := checker.CheckBackwardCompatibilityUntilLevel(checker.NewConfig(checker.GetAllChecks()), report, sources, checker.INFO)
	out := []parityChange{}
	for _, c := range changes {
		id := c.GetId()
		if levels[id] == diff.LevelOff || diff.DroppedForClock(id) || diff.JudgedByDate(id) {
			continue
		}
		operation := ""
		if api, ok := c.(checker.ApiChange); ok {
			operation = api.Operation + " " + api.Path
		}
		out = append(out, parityChange{id, operation})
	}
	return sortedChanges(out), nil
}

// apiverChanges runs `apiver diff` on the pair, through the full pipeline
// or the fast one.
func apiverChanges(base, revision string, full bool) ([]parityChange, error) {
	r := runPipeline(full, []string{"diff", base, revision, "--format", "json"})
	if r.code != exitPass {
		return nil, fmt.Errorf("%s", r)
	}
	var report struct{ Changes []diff.Change }
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		return nil, err
	}
	out := []parityChange{}
	for _, c := range report.Changes {
		if diff.JudgedByDate(c.ID) {
			continue
		}
		out = append(out, parityChange{c.ID, c.Operation})
	}
	return sortedChanges(out), nil
}

// fixturePair is a base and a revision, relative to the module.
type fixturePair struct{ base, revision string }

func (p fixturePair) String() string {
	return strings.TrimPrefix(p.base, "data/") + " → " + strings.TrimPrefix(p.revision, "data/")
}

// oasdiffFixturePairs reads oasdiff's checker tests and returns, in order
// and without repeats, every pair of fixtures under data/ that a test
// loads: the files each test loads taken two by two, following the
// helpers it calls and the table rows it ranges over. Composed-mode tests,
// which load whole folders, are left out.
func oasdiffFixturePairs(testDir string) ([]fixturePair, error) {
	files, err := filepath.Glob(filepath.Join(testDir, "*_test.go"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no tests in %s: %v", testDir, err)
	}
	slices.Sort(files)
	w := fixtureWalker{funcs: map[string]closure{}, consts: map[string]string{}}
	fset := token.NewFileSet()
	var tests []*ast.FuncDecl
	var vars []*ast.GenDecl
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					w.funcs[d.Name.Name] = closure{params: d.Type.Params, body: d.Body}
				}
				if strings.HasPrefix(d.Name.Name, "Test") && !strings.HasPrefix(d.Name.Name, "TestComposed") {
					tests = append(tests, d)
				}
			case *ast.GenDecl:
				vars = append(vars, d)
			}
		}
	}
	// Package values may call the helpers (dataFileFn), so they come after.
	for _, d := range vars {
		w.packageValues(d)
	}
	seen := map[fixturePair]bool{}
	var pairs []fixturePair
	for _, test := range tests {
		w.loaded, w.tables = nil, map[string]*ast.CompositeLit{}
		w.block(test.Body, map[string]string{}, 0)
		for i := 0; i+1 < len(w.loaded); i += 2 {
			p := fixturePair{w.loaded[i], w.loaded[i+1]}
			if !seen[p] && isFile(filepath.Join(testDir, "..", p.base)) && isFile(filepath.Join(testDir, "..", p.revision)) {
				seen[p] = true
				pairs = append(pairs, p)
			}
		}
	}
	return pairs, nil
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// closure is a function of the tests with the strings it captured.
type closure struct {
	params *ast.FieldList
	body   *ast.BlockStmt
	env    map[string]string
}

// fixtureWalker follows the string values of a test far enough to know
// which fixtures it loads.
type fixtureWalker struct {
	funcs  map[string]closure
	consts map[string]string
	// tables are the test's local slices of structs, by variable name.
	tables map[string]*ast.CompositeLit
	loaded []string
}

// packageValues records package-level strings, and functions made by a
// helper (deprecationFile = dataFileFn("deprecation")).
func (w *fixtureWalker) packageValues(d *ast.GenDecl) {
	for _, spec := range d.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for i, name := range vs.Names {
			if i >= len(vs.Values) {
				continue
			}
			if s, ok := w.eval(vs.Values[i], nil, 0); ok {
				w.consts[name.Name] = s
			} else if fn, ok := w.madeFunc(vs.Values[i]); ok {
				w.funcs[name.Name] = fn
			}
		}
	}
}

// madeFunc is the function a helper call returns, when the helper's body
// is one return of a function literal.
func (w *fixtureWalker) madeFunc(e ast.Expr) (closure, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return closure{}, false
	}
	maker, ok := w.callee(call)
	if !ok || len(maker.body.List) != 1 {
		return closure{}, false
	}
	ret, ok := maker.body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return closure{}, false
	}
	lit, ok := ret.Results[0].(*ast.FuncLit)
	if !ok {
		return closure{}, false
	}
	return closure{params: lit.Type.Params, body: lit.Body, env: w.bind(maker, call, nil, 0)}, true
}

func (w *fixtureWalker) callee(c *ast.CallExpr) (closure, bool) {
	id, ok := c.Fun.(*ast.Ident)
	if !ok {
		return closure{}, false
	}
	fn, ok := w.funcs[id.Name]
	return fn, ok && fn.body != nil
}

// bind is a function's environment for a call: what it captured and the
// call's known string (or integer) arguments by parameter name.
func (w *fixtureWalker) bind(fn closure, c *ast.CallExpr, env map[string]string, depth int) map[string]string {
	inner := maps.Clone(fn.env)
	if inner == nil {
		inner = map[string]string{}
	}
	if fn.params == nil {
		return inner
	}
	i := 0
	for _, field := range fn.params.List {
		for _, param := range field.Names {
			if i < len(c.Args) {
				if s, ok := w.eval(c.Args[i], env, depth); ok {
					inner[param.Name] = s
				}
			}
			i++
		}
	}
	return inner
}

// maxDepth bounds how deep the walker follows helpers into helpers.
const maxDepth = 5

// eval is the value of a string expression, when the walker knows it.
func (w *fixtureWalker) eval(e ast.Expr, env map[string]string, depth int) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		switch e.Kind {
		case token.STRING:
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		case token.INT:
			return e.Value, true
		}
	case *ast.Ident:
		if s, ok := env[e.Name]; ok {
			return s, true
		}
		s, ok := w.consts[e.Name]
		return s, ok
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			s, ok := env[x.Name+"."+e.Sel.Name]
			return s, ok
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, okA := w.eval(e.X, env, depth)
			b, okB := w.eval(e.Y, env, depth)
			return a + b, okA && okB
		}
	case *ast.ParenExpr:
		return w.eval(e.X, env, depth)
	case *ast.CallExpr:
		return w.evalCall(e, env, depth)
	}
	return "", false
}

// evalCall is the value of fmt.Sprintf, or of a helper that returns one
// string expression.
func (w *fixtureWalker) evalCall(c *ast.CallExpr, env map[string]string, depth int) (string, bool) {
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == "fmt" && sel.Sel.Name == "Sprintf" && len(c.Args) > 0 {
			args := make([]any, len(c.Args)-1)
			format, ok := w.eval(c.Args[0], env, depth)
			for i, a := range c.Args[1:] {
				s, known := w.eval(a, env, depth)
				ok, args[i] = ok && known, s
			}
			return fmt.Sprintf(strings.ReplaceAll(format, "%d", "%s"), args...), ok
		}
		return "", false
	}
	fn, ok := w.callee(c)
	if !ok {
		if id, isIdent := c.Fun.(*ast.Ident); isIdent {
			fn, ok = w.funcs[id.Name], w.funcs[id.Name].body != nil
		}
	}
	if !ok || depth > maxDepth {
		return "", false
	}
	var result ast.Expr
	for _, stmt := range fn.body.List {
		if ret, isReturn := stmt.(*ast.ReturnStmt); isReturn && len(ret.Results) == 1 {
			result = ret.Results[0]
		}
	}
	if result == nil {
		return "", false
	}
	return w.eval(result, w.bind(fn, c, env, depth), depth+1)
}

func (w *fixtureWalker) block(body ast.Node, env map[string]string, depth int) {
	if body == nil || depth > maxDepth {
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			w.assign(n, env)
		case *ast.RangeStmt:
			w.rangeRows(n, env, depth)
			return false
		case *ast.FuncLit:
			return false // walked where it is called
		case *ast.CallExpr:
			return w.call(n, env, depth)
		}
		return true
	})
}

// assign records local strings, tables and helper functions.
func (w *fixtureWalker) assign(a *ast.AssignStmt, env map[string]string) {
	for i, lhs := range a.Lhs {
		id, ok := lhs.(*ast.Ident)
		if !ok || i >= len(a.Rhs) {
			continue
		}
		switch rhs := a.Rhs[i].(type) {
		case *ast.FuncLit:
			w.funcs[id.Name] = closure{params: rhs.Type.Params, body: rhs.Body, env: maps.Clone(env)}
		case *ast.CompositeLit:
			w.tables[id.Name] = rhs
		default:
			if s, ok := w.eval(rhs, env, 0); ok {
				env[id.Name] = s
			}
		}
	}
}

// call records a fixture loaded (load.NewSource inside load.NewSpecInfo,
// or LoadFromFile), follows a helper called with known strings, and walks
// the function literals passed along (t.Run bodies). It reports whether
// the walk should look inside the call's arguments.
func (w *fixtureWalker) call(c *ast.CallExpr, env map[string]string, depth int) bool {
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
		var file ast.Expr
		switch {
		case sel.Sel.Name == "LoadFromFile" && len(c.Args) == 1:
			file = c.Args[0]
		case sel.Sel.Name == "NewSpecInfo" && len(c.Args) > 1:
			if src, ok := c.Args[1].(*ast.CallExpr); ok && len(src.Args) == 1 {
				file = src.Args[0]
			}
		case sel.Sel.Name == "NewSource":
			return false // a source named in an expectation, not a file loaded
		}
		if file != nil {
			if s, ok := w.eval(file, env, depth); ok {
				if i := strings.Index(s, "data/"); i >= 0 {
					w.loaded = append(w.loaded, s[i:])
				}
			}
			return false
		}
	}
	for _, arg := range c.Args {
		if lit, ok := arg.(*ast.FuncLit); ok {
			w.block(lit.Body, env, depth)
		}
	}
	if fn, ok := w.callee(c); ok {
		w.block(fn.body, w.bind(fn, c, env, depth), depth+1)
	}
	return true
}

// rangeRows walks a loop's body once per row of the table of structs it
// ranges over, with the row's string fields known as VAR.FIELD.
func (w *fixtureWalker) rangeRows(r *ast.RangeStmt, env map[string]string, depth int) {
	table, ok := r.X.(*ast.CompositeLit)
	if id, isVar := r.X.(*ast.Ident); isVar {
		table, ok = w.tables[id.Name], w.tables[id.Name] != nil
	}
	value, named := r.Value.(*ast.Ident)
	if !ok || !named {
		w.block(r.Body, env, depth)
		return
	}
	var fields []string
	if at, ok := table.Type.(*ast.ArrayType); ok {
		if st, ok := at.Elt.(*ast.StructType); ok {
			for _, f := range st.Fields.List {
				for _, n := range f.Names {
					fields = append(fields, n.Name)
				}
			}
		}
	}
	for _, elt := range table.Elts {
		row, ok := elt.(*ast.CompositeLit)
		if !ok {
			continue
		}
		rowEnv := maps.Clone(env)
		for i, e := range row.Elts {
			key, v := "", e
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok {
					key, v = k.Name, kv.Value
				}
			} else if i < len(fields) {
				key = fields[i]
			}
			if s, ok := w.eval(v, env, depth); ok && key != "" {
				rowEnv[value.Name+"."+key] = s
			}
		}
		w.block(r.Body, rowEnv, depth)
	}
}
