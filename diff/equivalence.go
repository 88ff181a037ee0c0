package diff

import (
	"math"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	oasdiff "github.com/oasdiff/oasdiff/diff"
)

// Equivalence is a schema rewrite that does not change the set of values a
// schema accepts or may return: both snapshots are judged by their effective
// contract, so an edit that only moves between equivalent forms is no
// change, and an edit beyond it is rated against the effective values.
type Equivalence struct {
	ID      string
	Purpose string
}

// Equivalence ids.
const (
	PatternImpliedLength = "pattern-implied-length"
	EnumOnArrayOrItems   = "enum-on-array-or-items"
	EnumOrder            = "enum-order"
	AccessModeUnseen     = "access-mode-unseen"
	RenamedBranch        = "renamed-branch"
	ConstAsEnum          = "const-as-enum"
	NullableAsTypeNull   = "nullable-as-type-null"
	NullableWrap         = "nullable-wrap"
	ExclusiveBoundForm   = "exclusive-bound-form"
	ByteAsBase64         = "byte-as-base64"
	BinaryAsOctetStream  = "binary-as-octet-stream"
	TypeListAsBranches   = "type-list-as-branches"
)

// Equivalences is the catalogue `apiver rules` prints.
var Equivalences = []Equivalence{
	{PatternImpliedLength, "minLength/maxLength within the lengths an anchored pattern already allows (^[a-f0-9]{24}$ fixes 24) are no change; a limit beyond them is rated against the pattern's bounds."},
	{EnumOnArrayOrItems, "An enum moved between an array schema and its items, with the same values, is no change; changed values are rated as a change of the items' enum."},
	{EnumOrder, "The same enum values in another order are no change."},
	{ConstAsEnum, "A const and an enum of that one value take the same value: a move between them (OpenAPI 3.1's const for a one-value enum) is no change; a move that takes other values is rated as the enum's values removed and added (enum: [json, xml] made const: json is xml removed)."},
	{NullableAsTypeNull, "nullable: true (OpenAPI 3.0) and \"null\" in a type list (OpenAPI 3.1) both take null: a move between them is no change, nor is null listed in the enum of a schema that takes null (as 3.1 lists it)."},
	{NullableWrap, "A schema with nullable: true (OpenAPI 3.0) and the wrapper of it that OpenAPI 3.1 writes, oneOf or anyOf [the schema, {type: \"null\"}], take the same values: the move is rated by what changed in the schema, not as nullability removed and branches added."},
	{ExclusiveBoundForm, "minimum: 0 with exclusiveMinimum: true (OpenAPI 3.0) and exclusiveMinimum: 0 (OpenAPI 3.1) are the same bound, as are the maximum's; bounds are rated by the tightest value they allow, whichever keyword sets it (of integers, exclusiveMaximum: 6 allows what maximum: 5 does)."},
	{ByteAsBase64, "format: byte (OpenAPI 3.0) and contentEncoding: base64 (OpenAPI 3.1) both say a base64-encoded string: a move between them is no change."},
	{BinaryAsOctetStream, "format: binary (OpenAPI 3.0) and contentMediaType: application/octet-stream (OpenAPI 3.1) both say raw bytes: a move between them is no change."},
	{TypeListAsBranches, "A type list (OpenAPI 3.1: type: [string, integer]) and a oneOf or anyOf of one bare type a branch take the same values where they name the same types (not a oneOf of number and integer, which refuses an integer): a move between them is no change."},
	{RenamedBranch, "A oneOf/anyOf branch whose $ref names another component is the same branch where the discriminator maps the same value to both: a client sends and receives that value for it. The same schema is no change; another is rated by what changed in it, not as a branch removed and one added."},
	{AccessModeUnseen, "readOnly set or cleared on a property as a response returns it, or writeOnly as a request sends it, is no change: the keyword restricts only the other direction."},
}

// unseenAccessModes are oasdiff's ids of a readOnly toggled in a response or
// a writeOnly toggled in a request: nothing a client sends or receives in
// that direction changes.
var unseenAccessModes = map[string]bool{
	"response-optional-property-became-read-only":     true,
	"response-optional-property-became-not-read-only": true,
	"response-required-property-became-read-only":     true,
	"response-required-property-became-not-read-only": true,
	"request-optional-property-became-write-only":     true,
	"request-optional-property-became-not-write-only": true,
	"request-required-property-became-write-only":     true,
	"request-required-property-became-not-write-only": true,
}

// normalize rewrites every schema diff of a report so that it states only
// changes of the effective contract, before oasdiff's checks rate it.
func normalize(report *oasdiff.Diff) {
	if report == nil {
		return
	}
	n := &normalizer{seen: map[uintptr]bool{}, branches: map[[2]*openapi3.Schema]*oasdiff.SchemaDiff{}, openAPI: [2]string{report.BaseOpenAPI, report.RevisionOpenAPI}}
	n.walk(reflect.ValueOf(report))
}

// normalizer is one normalize: the schema diffs it rewrote, and the diffs
// of the renamed branches it paired.
type normalizer struct {
	seen map[uintptr]bool
	// branches holds the diff of each pair of renamed branches, by their
	// schemas: nil while it is being normalized, or when they do not differ.
	branches map[[2]*openapi3.Schema]*oasdiff.SchemaDiff
	openAPI  [2]string
}

func (n *normalizer) walk(v reflect.Value) {
	walkSchemaDiffs(v, n.seen, func(d *oasdiff.SchemaDiff) {
		n.nullableWrap(d)
		normalizeLengths(d)
		normalizeArrayEnum(d)
		normalizeConstEnum(d)
		normalizeNullable(d)
		normalizeNumberBounds(d)
		normalizeBase64(d)
		normalizeBinary(d)
		normalizeTypeList(d)
		n.renamedBranches(d)
	})
}

var schemaDiffType = reflect.TypeFor[*oasdiff.SchemaDiff]()

// walkSchemaDiffs calls visit once for every schema diff reachable from v.
// oasdiff's report has no visitor of its own, and a schema diff can sit
// under properties, items, subschemas, parameters, headers and more.
func walkSchemaDiffs(v reflect.Value, seen map[uintptr]bool, visit func(*oasdiff.SchemaDiff)) {
	if v.Kind() != reflect.Interface && isDocumentType(v.Type()) {
		return // the schemas compared are documents, not diffs
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		if v.Type() == schemaDiffType {
			visit(v.Interface().(*oasdiff.SchemaDiff))
		}
		walkSchemaDiffs(v.Elem(), seen, visit)
	case reflect.Interface:
		if !v.IsNil() {
			walkSchemaDiffs(v.Elem(), seen, visit)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				walkSchemaDiffs(v.Field(i), seen, visit)
			}
		}
	case reflect.Map:
		if !mayHoldDiffs(v.Type().Elem()) {
			return
		}
		for it := v.MapRange(); it.Next(); {
			walkSchemaDiffs(it.Value(), seen, visit)
		}
	case reflect.Slice:
		if !mayHoldDiffs(v.Type().Elem()) {
			return
		}
		for i := range v.Len() {
			walkSchemaDiffs(v.Index(i), seen, visit)
		}
	}
}

var openapi3Package = reflect.TypeFor[openapi3.Schema]().PkgPath()

// isDocumentType reports types of kin-openapi's document model, which the
// report points into for context.
func isDocumentType(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	return t.PkgPath() == openapi3Package
}

// mayHoldDiffs reports element types that may hold diffs: plain values
// (strings, enum values) never do.
func mayHoldDiffs(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Struct, reflect.Map, reflect.Slice:
		return !isDocumentType(t)
	}
	return false
}

// normalizeLengths rates a changed minLength/maxLength by the schema's
// effective bounds: the keyword narrowed by what an anchored pattern
// allows. A bound whose keyword did not change is left alone (a changed
// pattern is reported as a pattern change), and a pattern apiver cannot
// bound leaves oasdiff's verdict as it is.
func normalizeLengths(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil || (d.MinLengthDiff == nil && d.MaxLengthDiff == nil) ||
		(d.Base.Pattern == "" && d.Revision.Pattern == "") {
		return
	}
	base, ok := effectiveLength(d.Base)
	if !ok {
		return
	}
	revision, ok := effectiveLength(d.Revision)
	if !ok {
		return
	}
	if d.MinLengthDiff != nil {
		d.MinLengthDiff = valueDiff(base.min, revision.min)
	}
	if d.MaxLengthDiff != nil {
		d.MaxLengthDiff = valueDiff(maxLengthValue(base.max), maxLengthValue(revision.max))
	}
}

// effectiveLength is the length range a schema's keywords and pattern
// allow together; false when its pattern is not understood.
func effectiveLength(s *openapi3.Schema) (lengthBounds, bool) {
	b := unbounded
	if s.Pattern != "" {
		var ok bool
		if b, ok = patternBounds(s.Pattern); !ok {
			return b, false
		}
	}
	b.min = max(b.min, s.MinLength)
	if s.MaxLength != nil {
		b.max = min(b.max, *s.MaxLength)
	}
	return b, true
}

// maxLengthValue is a maxLength as oasdiff's diff holds it: nil when absent.
func maxLengthValue(n uint64) any {
	if n == math.MaxUint64 {
		return nil
	}
	return n
}

// valueDiff is oasdiff's diff of two keyword values, nil when equal.
func valueDiff(from, to any) *oasdiff.ValueDiff {
	if reflect.DeepEqual(from, to) {
		return nil
	}
	return &oasdiff.ValueDiff{From: from, To: to}
}

// normalizeArrayEnum judges an array whose enum moved between the array
// and its items by the enum of its items. Enum order needs nothing here:
// oasdiff compares enum values as sets.
func normalizeArrayEnum(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil || d.ItemsDiff == nil || d.ItemsDiff.Base == nil || d.ItemsDiff.Revision == nil {
		return
	}
	baseOnArray, revisionOnArray := arrayEnum(d.Base), arrayEnum(d.Revision)
	if baseOnArray == revisionOnArray || !scalars(d.Base.Enum) || !scalars(d.Revision.Enum) {
		return // no move between array and items
	}
	d.EnumDiff = nil
	d.ItemsDiff.EnumDiff = enumDiff(itemEnum(d.Base), itemEnum(d.Revision))
}

// normalizeConstEnum rates a move between a const and an enum by the
// values they take: the same one value is no change, and otherwise the
// values gone and added are the enum's changes (enum: [json, xml] made
// const: json is xml removed). A const changed, or one given where any
// value went, stays oasdiff's to rate.
func normalizeConstEnum(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil || (d.EnumDiff == nil && d.ConstDiff == nil) || (d.Base.Const == nil && d.Revision.Const == nil) {
		return
	}
	if d.Base.Const != nil && d.Revision.Const != nil && len(d.Base.Enum) == 0 && len(d.Revision.Enum) == 0 {
		return
	}
	base, ok := takenValues(d.Base)
	if !ok {
		return
	}
	if revision, ok := takenValues(d.Revision); ok {
		d.EnumDiff, d.ConstDiff = enumDiff(base, revision), nil
	}
}

// normalizeNullable drops a move between nullable: true and "null" in a
// type list: the schema takes null before and after. A change of the other
// types stays.
func normalizeNullable(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil || (d.NullableDiff == nil && d.TypeDiff == nil) || takesNull(d.Base) != takesNull(d.Revision) {
		return
	}
	d.NullableDiff = nil
	if d.TypeDiff != nil {
		d.TypeDiff.Added = slices.DeleteFunc(d.TypeDiff.Added, isNull)
		d.TypeDiff.Deleted = slices.DeleteFunc(d.TypeDiff.Deleted, isNull)
		if len(d.TypeDiff.Added) == 0 && len(d.TypeDiff.Deleted) == 0 {
			d.TypeDiff = nil
		}
	}
	// OpenAPI 3.1 lists null in an enum that takes it; 3.0's nullable
	// takes it without.
	if e := d.EnumDiff; e != nil && takesNull(d.Base) {
		e.Added = slices.DeleteFunc(e.Added, isNil)
		e.Deleted = slices.DeleteFunc(e.Deleted, isNil)
		if !e.EnumAdded && !e.EnumDeleted && len(e.Added) == 0 && len(e.Deleted) == 0 {
			d.EnumDiff = nil
		}
	}
}

func isNull(t string) bool { return t == openapi3.TypeNull }

func isNil(v any) bool { return v == nil }

// takesNull reports whether a typed schema takes null: by nullable: true
// (OpenAPI 3.0), or by null in its type list where its enum, if any, lists
// null too (3.1).
func takesNull(s *openapi3.Schema) bool {
	if s.Nullable {
		return true
	}
	return s.Type != nil && s.Type.Includes(openapi3.TypeNull) && s.Const == nil && (len(s.Enum) == 0 || slices.Contains(s.Enum, nil))
}

// normalizeTypeList drops a move between a type list (OpenAPI 3.1:
// type: [string, integer]) and a oneOf or anyOf of one bare type a branch
// that takes the same types.
func normalizeTypeList(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil || (d.TypeDiff == nil && d.ListOfTypesDiff == nil) {
		return
	}
	base, baseList, ok := typesTaken(d.Base)
	if !ok {
		return
	}
	revision, revisionList, ok := typesTaken(d.Revision)
	if !ok || baseList == revisionList || !slices.Equal(base, revision) {
		return
	}
	d.TypeDiff, d.ListOfTypesDiff, d.OneOfDiff, d.AnyOfDiff = nil, nil, nil, nil
	d.OneOfWrappingDiff, d.NullableWrappingDiff = nil, nil
}

// typesTaken are the types a schema takes, sorted, by a type list of two
// or more (list) or by the branches of a oneOf or an anyOf, each one bare
// type; false otherwise. A oneOf of number and integer is not: an integer
// matches both branches, and oneOf refuses it.
func typesTaken(s *openapi3.Schema) ([]string, bool, bool) {
	if s.Type != nil && len(*s.Type) >= 2 && len(s.OneOf) == 0 && len(s.AnyOf) == 0 {
		return slices.Sorted(slices.Values(*s.Type)), true, true
	}
	branches := s.OneOf
	if len(s.AnyOf) > 0 {
		branches = s.AnyOf
	}
	if len(branches) < 2 || len(s.OneOf) > 0 && len(s.AnyOf) > 0 || (s.Type != nil && len(*s.Type) > 0) {
		return nil, false, false
	}
	var types []string
	for _, b := range branches {
		if b == nil || b.Value == nil || b.Value.Type == nil || len(*b.Value.Type) != 1 || composed(b.Value) {
			return nil, false, false
		}
		rest := *b.Value
		rest.Type = nil
		if !rest.IsEmpty() || rest.Discriminator != nil {
			return nil, false, false
		}
		types = append(types, (*b.Value.Type)[0])
	}
	slices.Sort(types)
	if len(s.OneOf) > 0 && (slices.Contains(types, openapi3.TypeNumber) && slices.Contains(types, openapi3.TypeInteger) || len(slices.Compact(slices.Clone(types))) != len(types)) {
		return nil, false, false
	}
	return slices.Compact(types), false, true
}

// nullableWrap rates a schema with nullable: true made the OpenAPI 3.1
// wrapper of it (oneOf or anyOf: [the schema, {type: "null"}]), or back, by
// the diff of the schema without nullable and the wrapper's other branch:
// both sides take those values and null. oasdiff pairs a wrapper only with
// a schema that refuses null.
func (n *normalizer) nullableWrap(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil {
		return
	}
	var base, revision *openapi3.SchemaRef
	if plain, ok := nullableForm(d.Base); ok {
		if payload, ok := nullableWrapper(d.Revision); ok {
			base, revision = plain, payload
		}
	} else if payload, ok := nullableWrapper(d.Base); ok {
		if plain, ok := nullableForm(d.Revision); ok {
			base, revision = payload, plain
		}
	}
	if base == nil {
		return
	}
	sub, ok := n.branchDiff(base, revision)
	switch {
	case !ok:
	case sub == nil:
		*d = oasdiff.SchemaDiff{Base: base.Value, Revision: revision.Value}
	default:
		*d = *sub
	}
}

// nullableForm is a typed schema that takes null by nullable: true (and
// no composition), without it.
func nullableForm(s *openapi3.Schema) (*openapi3.SchemaRef, bool) {
	if !s.Nullable || s.Type == nil || len(*s.Type) == 0 || s.Type.Includes(openapi3.TypeNull) || composed(s) {
		return nil, false
	}
	plain := *s
	plain.Nullable = false
	return &openapi3.SchemaRef{Value: &plain}, true
}

// nullableWrapper is the other branch of a schema that is only a oneOf or
// an anyOf of two branches, one of them {type: "null"} and the other a
// typed schema that refuses null (so that oneOf takes null once).
func nullableWrapper(s *openapi3.Schema) (*openapi3.SchemaRef, bool) {
	branches := s.OneOf
	if len(s.AnyOf) > 0 {
		branches = s.AnyOf
	}
	rest := *s
	rest.OneOf, rest.AnyOf = nil, nil
	if len(branches) != 2 || len(s.OneOf) > 0 && len(s.AnyOf) > 0 || composed(&rest) || !rest.IsEmpty() || rest.Discriminator != nil {
		return nil, false
	}
	var payload *openapi3.SchemaRef
	nulls := 0
	for _, b := range branches {
		switch {
		case b == nil || b.Value == nil:
			return nil, false
		case bareNull(b.Value):
			nulls++
		default:
			payload = b
		}
	}
	if nulls != 1 || payload.Value.Type == nil || len(*payload.Value.Type) == 0 || takesNull(payload.Value) || payload.Value.Always != nil {
		return nil, false
	}
	return payload, true
}

// bareNull reports the schema {type: "null"}, descriptions aside.
func bareNull(s *openapi3.Schema) bool {
	if s.Type == nil || len(*s.Type) != 1 || (*s.Type)[0] != openapi3.TypeNull || composed(s) {
		return false
	}
	rest := *s
	rest.Type = nil
	return rest.IsEmpty()
}

// composed reports a schema with a composition or a boolean form, which
// IsEmpty does not read.
func composed(s *openapi3.Schema) bool {
	return len(s.OneOf) > 0 || len(s.AnyOf) > 0 || len(s.AllOf) > 0 || s.Not != nil || s.Always != nil
}

// normalizeNumberBounds drops the changes of a lower or an upper bound
// whose tightest value allowed is the same before and after, whichever
// keywords set it (OpenAPI 3.0's minimum with exclusiveMinimum: true, 3.1's
// exclusiveMinimum: a number).
func normalizeNumberBounds(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil {
		return
	}
	for _, b := range []struct {
		nb               numberBound
		bound, exclusive **oasdiff.ValueDiff
	}{{numberBounds[0], &d.MinDiff, &d.ExclusiveMinDiff}, {numberBounds[1], &d.MaxDiff, &d.ExclusiveMaxDiff}} {
		if *b.bound == nil && *b.exclusive == nil {
			continue
		}
		base, revision := b.nb.limit(d.Base), b.nb.limit(d.Revision)
		if integers(d.Base) && integers(d.Revision) {
			base, revision = b.nb.integral(base), b.nb.integral(revision)
		}
		switch baseOld, revisionOld := b.nb.boolForm(d.Base), b.nb.boolForm(d.Revision); {
		case sameLimit(base, revision):
			*b.bound, *b.exclusive = nil, nil
		case baseOld != revisionOld:
			// One side in each form: the diff is read as both in
			// OpenAPI 3.1's (a minimum raised across the move is an
			// exclusiveMinimum increased, not a minimum unset).
			baseInclusive, baseExclusive := b.nb.numberForm(d.Base)
			revInclusive, revExclusive := b.nb.numberForm(d.Revision)
			*b.bound, *b.exclusive = valueDiff(baseInclusive, revInclusive), valueDiff(baseExclusive, revExclusive)
		}
	}
}

// normalizeBase64 drops a move between format: byte and contentEncoding:
// base64, which say the same encoding.
func normalizeBase64(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil || d.FormatDiff == nil || d.ContentEncodingDiff == nil {
		return
	}
	if base64Only(d.Base) && base64Only(d.Revision) {
		d.FormatDiff, d.ContentEncodingDiff = nil, nil
	}
}

// normalizeBinary drops a move between format: binary and
// contentMediaType: application/octet-stream, which say the same raw bytes.
func normalizeBinary(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil || d.FormatDiff == nil || d.ContentMediaTypeDiff == nil {
		return
	}
	if binaryOnly(d.Base) && binaryOnly(d.Revision) {
		d.FormatDiff, d.ContentMediaTypeDiff = nil, nil
	}
}

// binaryOnly reports a string said raw bytes by exactly one of the two
// forms, with no other format or media type.
func binaryOnly(s *openapi3.Schema) bool {
	byFormat, byMediaType := s.Format == "binary", strings.EqualFold(s.ContentMediaType, "application/octet-stream")
	return byFormat != byMediaType && (s.Format == "" || byFormat) && (s.ContentMediaType == "" || byMediaType)
}

// base64Only reports a string said base64-encoded by exactly one of the
// two forms, with no other format or encoding.
func base64Only(s *openapi3.Schema) bool {
	byFormat, byEncoding := s.Format == "byte", strings.EqualFold(s.ContentEncoding, "base64")
	return byFormat != byEncoding && (s.Format == "" || byFormat) && (s.ContentEncoding == "" || byEncoding)
}

// takenValues are the values a schema's const and enum take, where they
// take a few: its const (where its enum, if any, holds it), or its enum.
func takenValues(s *openapi3.Schema) ([]any, bool) {
	switch {
	case s.Const != nil && (len(s.Enum) == 0 || slices.ContainsFunc(s.Enum, equalTo(s.Const))):
		return []any{s.Const}, true
	case s.Const != nil:
		return []any{}, true // none
	case len(s.Enum) > 0:
		return s.Enum, true
	}
	return nil, false
}

// arrayEnum reports an enum written on an array schema, meant for its items.
func arrayEnum(s *openapi3.Schema) bool {
	return len(s.Enum) > 0 && s.Items != nil && s.Items.Value != nil && len(s.Items.Value.Enum) == 0
}

func itemEnum(s *openapi3.Schema) []any {
	if arrayEnum(s) {
		return s.Enum
	}
	return s.Items.Value.Enum
}

func scalars(values []any) bool {
	for _, v := range values {
		switch v.(type) {
		case []any, map[string]any:
			return false
		}
	}
	return true
}

// enumDiff is oasdiff's diff of two enums as sets, nil when equal.
func enumDiff(from, to []any) *oasdiff.EnumDiff {
	d := &oasdiff.EnumDiff{EnumAdded: from == nil && to != nil, EnumDeleted: from != nil && to == nil}
	d.Deleted = appendMissing(d.Deleted, from, newValueSet(to))
	d.Added = appendMissing(d.Added, to, newValueSet(from))
	if !d.EnumAdded && !d.EnumDeleted && len(d.Added) == 0 && len(d.Deleted) == 0 {
		return nil
	}
	return d
}

// renamedBranches pairs a oneOf/anyOf branch removed with one added under
// another component's name where the discriminator maps the same value to
// both (oasdiff pairs $ref branches by name): a client tells them apart by
// that value, so they are one branch. The same schema is no change;
// another is the branch modified, rated by what changed in it.
func (n *normalizer) renamedBranches(d *oasdiff.SchemaDiff) {
	if d.Base == nil || d.Revision == nil {
		return
	}
	n.renamed(d.OneOfDiff, d.Base.OneOf, d.Revision.OneOf, d.Base.Discriminator, d.Revision.Discriminator)
	n.renamed(d.AnyOfDiff, d.Base.AnyOf, d.Revision.AnyOf, d.Base.Discriminator, d.Revision.Discriminator)
}

func (n *normalizer) renamed(sd *oasdiff.SubschemasDiff, base, revision openapi3.SchemaRefs, baseDisc, revDisc *openapi3.Discriminator) {
	if sd == nil || len(sd.Added) == 0 || len(sd.Deleted) == 0 {
		return
	}
	matched := map[int]bool{}
	var deleted oasdiff.Subschemas
	for _, del := range sd.Deleted {
		found := false
		for ai, add := range sd.Added {
			if matched[ai] || del.Index >= len(base) || add.Index >= len(revision) {
				continue
			}
			b, r := base[del.Index], revision[add.Index]
			if b == nil || r == nil || b.Ref == "" || r.Ref == "" || b.Value == nil || r.Value == nil || !sameWire(b.Ref, r.Ref, baseDisc, revDisc) {
				continue
			}
			if !sameSchema(reflect.ValueOf(b.Value), reflect.ValueOf(r.Value), map[[2]uintptr]bool{}) {
				changed, ok := n.branchDiff(b, r)
				if !ok {
					continue
				}
				if changed != nil {
					sd.Modified = append(sd.Modified, &oasdiff.ModifiedSubschema{Base: del, Revision: add, Diff: changed})
				}
			}
			matched[ai], found = true, true
			break
		}
		if !found {
			deleted = append(deleted, del)
		}
	}
	if len(matched) == 0 {
		return
	}
	var added oasdiff.Subschemas
	for ai, add := range sd.Added {
		if !matched[ai] {
			added = append(added, add)
		}
	}
	sd.Added, sd.Deleted = added, deleted
}

// branchDiff is oasdiff's diff of two branches, normalized, nil when they
// do not differ; false when oasdiff fails on them (the branch stays removed
// and added). A pair met again inside its own diff (a branch that holds
// itself) adds nothing there: its changes are told where it was first met,
// as oasdiff's unrolled diff tells a schema's.
func (n *normalizer) branchDiff(b, r *openapi3.SchemaRef) (*oasdiff.SchemaDiff, bool) {
	pair := [2]*openapi3.Schema{b.Value, r.Value}
	if d, ok := n.branches[pair]; ok {
		return d, true
	}
	n.branches[pair] = nil
	// The branches as the request bodies of one operation: a diff of the
	// two alone, naming them by their $refs as the report does.
	doc := func(openAPI string, s *openapi3.SchemaRef) *openapi3.T {
		t := &openapi3.T{OpenAPI: openAPI, Paths: openapi3.NewPaths()}
		t.AddOperation("/", http.MethodPost, &openapi3.Operation{RequestBody: &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithJSONSchemaRef(s)}, Responses: openapi3.NewResponses()})
		return t
	}
	report, err := oasdiffReport(doc(n.openAPI[0], b), doc(n.openAPI[1], r))
	if err != nil {
		delete(n.branches, pair)
		return nil, false
	}
	var d *oasdiff.SchemaDiff
	if report != nil && report.PathsDiff != nil {
		if p := report.PathsDiff.Modified["/"]; p != nil && p.OperationsDiff != nil {
			if op := p.OperationsDiff.Modified[http.MethodPost]; op != nil && op.RequestBodyDiff != nil && op.RequestBodyDiff.ContentDiff != nil {
				if m := op.RequestBodyDiff.ContentDiff.MediaTypeModified["application/json"]; m != nil {
					d = m.SchemaDiff
				}
			}
		}
	}
	if d != nil {
		n.walk(reflect.ValueOf(d))
	}
	n.branches[pair] = d
	return d, true
}

// sameWire reports whether a branch renamed from baseRef to revRef is told
// apart on the wire as before: a discriminator maps one value to each (one
// without that mapping sends the component's name). Without a
// discriminator, a branch renamed is a change, as oasdiff rates it.
func sameWire(baseRef, revRef string, baseDisc, revDisc *openapi3.Discriminator) bool {
	if baseDisc == nil || revDisc == nil || baseDisc.PropertyName != revDisc.PropertyName {
		return false
	}
	for value, m := range baseDisc.Mapping {
		if mappedRef(m.Ref) == mappedRef(baseRef) {
			if r, ok := revDisc.Mapping[value]; ok && mappedRef(r.Ref) == mappedRef(revRef) {
				return true
			}
		}
	}
	return false
}

// mappedRef is a discriminator mapping's value, or a $ref, as the schema it
// names: a plain name is a component's, and escapes are read.
func mappedRef(ref string) string {
	if u, err := url.PathUnescape(ref); err == nil {
		ref = u
	}
	if !strings.ContainsAny(ref, "#/") {
		return "#/components/schemas/" + ref
	}
	return ref
}

// sameSchema compares two schemas by value, following $refs to what they
// name, as the diff reads them: their places (Origin), descriptions and
// examples aside, which it does not compare. Anything it cannot read (a
// $ref's sibling keywords) makes them differ.
func sameSchema(a, b reflect.Value, seen map[[2]uintptr]bool) bool {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		pair := [2]uintptr{a.Pointer(), b.Pointer()}
		if seen[pair] {
			return true // a cycle: equal unless something else differs
		}
		seen[pair] = true
		return sameSchema(a.Elem(), b.Elem(), seen)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameSchema(a.Elem(), b.Elem(), seen)
	case reflect.Struct:
		t := a.Type()
		followRef := t == schemaRefType || t == mappingRefType
		for i := range t.NumField() {
			f := t.Field(i)
			switch {
			case !f.IsExported():
				// (A $ref's sibling keywords: unread, so they must be none.)
				if lenOf(a.Field(i)) > 0 || lenOf(b.Field(i)) > 0 {
					return false
				}
				continue
			case unread[f.Name]:
				continue
			case f.Name == "Ref" && followRef && !a.FieldByName("Value").IsNil() && !b.FieldByName("Value").IsNil():
				continue
			}
			if !sameSchema(a.Field(i), b.Field(i), seen) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			other := b.MapIndex(it.Key())
			if !other.IsValid() || !sameSchema(it.Value(), other, seen) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameSchema(a.Index(i), b.Index(i), seen) {
				return false
			}
		}
		return true
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return false
	}
	return a.Equal(b)
}

var (
	schemaRefType  = reflect.TypeFor[openapi3.SchemaRef]()
	mappingRefType = reflect.TypeFor[openapi3.MappingRef]()
	// unread are the fields the diff does not compare (descriptions and
	// examples are excluded from it) or that say where a node is.
	unread = map[string]bool{"Origin": true, "Description": true, "Example": true, "Examples": true}
)

// lenOf is the length of a map, slice or string, else 0.
func lenOf(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Map, reflect.Slice, reflect.String, reflect.Array:
		return v.Len()
	}
	return 0
}
