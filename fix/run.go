package fix

import (
	"fmt"
	"slices"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/load"
	"github.com/apiver/apiver/policy"
	"github.com/apiver/apiver/specs"
	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// Options are what Run needs besides the two snapshots: the check's
// inputs and the new version.
type Options struct {
	Config policy.Config
	// Date is the policy's today.
	Date    civil.Date
	Product string
	// Version names the new versions; it may be empty only when nothing is
	// fixable.
	Version         string
	AllowRemoteRefs bool
	// LoadAgainstRevision, when set, loads the revision and the fixed
	// revision as a pair, for Verify's diff of the two, which reads only
	// the pairs that changed, of the operations ("METHOD /path") for which
	// moved is true: the snapshots may leave out the others, and what no
	// operation kept reaches; both are nil when it keeps none. Nil loads
	// the fixed revision whole.
	LoadAgainstRevision func(edited []byte, moved func(operation string) bool) (revision, fixed *specs.Snapshot, err error)
	// LoadChanges and Checked, when both are set, make the check of the
	// fixed text cost what the fix changed: LoadChanges loads the base and
	// the fixed text (its bytes) as a pair that may leave out the
	// operations the same in both, and those that plan, of the revision
	// against the fixed text, finds the same in both (nil: none); those
	// are taken from Checked, the diff of the base with the revision that
	// the fix answers (diff.Result.Answer). A finding on an operation left
	// out then has the base's or the revision's location: the fix reads
	// its check for which findings remain, never where. Nil loads the
	// fixed revision whole against Base.
	LoadChanges func(edited []byte) (base, fixed *specs.Snapshot, plan *load.Plan, err error)
	Checked     *diff.Result
	// Trees, when set, gives the parse tree the caller holds of a text
	// (base, revision or the fixed text; nil when it holds none), which
	// the fix reads instead of parsing the text again. The fix asks for
	// the base's and the revision's at once.
	Trees func(data []byte) *yaml.Node
}

// Run fixes what the check of base against revision (before) found
// fixable, and checks the base against the result: the errors of the
// returned report are what a new version cannot fix. An operation none of
// whose errors the fix removes has them outside its media types (in
// parameters, security), so it is left as it was.
func Run(base, revision *specs.Snapshot, before *policy.Report, opts Options) (*Result, *policy.Report, error) {
	var targets []Target
	for _, f := range before.Findings {
		if f.Fixable() {
			targets = append(targets, Target{Operation: f.Operation, Version: f.Version})
		}
	}
	if opts.Version == "" && len(targets) > 0 {
		return nil, nil, fmt.Errorf("%s: no date in its name: give --version or --date for the new version", revision.Path)
	}
	in := Input{Base: base, Revision: revision, Product: opts.Product, Targets: targets, Version: opts.Version, MaxSize: opts.Config.MaxSpecSize(), trees: opts.Trees}
	if opts.Checked != nil {
		in.baseOps, in.revOps = opts.Checked.Base, opts.Checked.Revision
	}
	res, after, err := fixAndCheck(in, opts)
	if err != nil {
		return nil, nil, err
	}
	helped := map[string]bool{}
	for i, fixed := range Fixed(before, after) {
		if fixed {
			helped[before.Findings[i].Operation] = true
		}
	}
	if kept := slices.DeleteFunc(slices.Clone(targets), func(t Target) bool { return !helped[t.Operation] }); len(kept) < len(targets) {
		in.Targets = kept
		return fixAndCheck(in, opts)
	}
	return res, after, nil
}

// baseOperations are the base's operations: the check's (Checked), where
// it read them, else read here.
func (o Options) baseOperations(base *specs.Snapshot) []*versions.Operation {
	if o.Checked != nil {
		return o.Checked.Base
	}
	return versions.Operations(base.Doc, o.Product)
}

// Fixed tells, for each finding of before, whether a fix resolved it: it
// was fixable and the check of the fixed revision (after) no longer finds
// it.
func Fixed(before, after *policy.Report) []bool {
	type key struct{ operation, version, change, message string }
	still := map[key]bool{}
	for _, f := range after.Findings {
		still[key{f.Operation, f.Version, f.Change, f.Message}] = true
	}
	fixed := make([]bool, len(before.Findings))
	for i, f := range before.Findings {
		fixed[i] = f.Fixable() && !still[key{f.Operation, f.Version, f.Change, f.Message}]
	}
	return fixed
}

// fixAndCheck fixes the revision and checks the base against the result.
func fixAndCheck(in Input, opts Options) (*Result, *policy.Report, error) {
	res, err := Fix(in)
	if err != nil {
		return nil, nil, err
	}
	base := in.Base
	var fixed *specs.Snapshot
	var plan *load.Plan
	changesOnly := opts.Checked != nil && opts.LoadChanges != nil
	if changesOnly {
		base, fixed, plan, err = opts.LoadChanges(res.Data)
	} else {
		var doc *openapi3.T
		doc, err = load.Parse(in.Revision.Path, res.Data, opts.AllowRemoteRefs)
		whole := *in.Revision
		whole.Doc, whole.Data = doc, res.Data
		fixed = &whole
	}
	if err != nil {
		return nil, nil, fmt.Errorf("the fixed revision does not load: %w", err)
	}
	result, err := diff.Compare(base, fixed, diff.Options{Product: in.Product, Levels: opts.Config.ChangeLevels(), Date: opts.Date})
	if err != nil {
		return nil, nil, err
	}
	if changesOnly {
		result.Answer(opts.Checked, plan)
	}
	return res, policy.Check(policy.Input{Base: base, Revision: fixed, Result: result, Date: opts.Date, Config: opts.Config}), nil
}
