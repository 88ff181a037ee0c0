package policy

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/apiver/apiver/internal/escape"
	"io"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cloud.google.com/go/civil"
	"github.com/apiver/apiver/diff"
	"github.com/apiver/apiver/internal/sizelimit"
	"github.com/apiver/apiver/internal/suggest"
	"github.com/apiver/apiver/specs"
	"go.yaml.in/yaml/v3"
)

// SnapshotMode says what a snapshot publishes.
type SnapshotMode string

const (
	// AllVersions: every supported version of each operation is in the
	// snapshot, so a version missing from it was removed.
	AllVersions SnapshotMode = "all-versions"
	// LatestVersion: only the newest version of each operation is, so a
	// version replaced by a newer one was deprecated, not removed.
	LatestVersion SnapshotMode = "latest-version"
)

// DefaultConfigFile is read from the current directory when --config is not
// given.
const DefaultConfigFile = "apiver.yaml"

// Config is apiver.yaml.
type Config struct {
	// Product is the <product> of the vendor media types; detected when empty.
	Product string `yaml:"product"`
	// DeprecationMonths is the stable period in months; 0 when sunset:
	// sets it instead.
	DeprecationMonths int `yaml:"deprecationMonths,omitempty"`
	// Sunset maps stability levels (oasdiff's or vervet's names) to their
	// deprecation periods, "91 days"; see Periods.
	Sunset   map[string]string `yaml:"sunset,omitempty"`
	Snapshot SnapshotMode      `yaml:"snapshot"`
	// FailOnPreexisting lets findings already true of the base fail the
	// check; by default only what the revision introduced can.
	FailOnPreexisting bool `yaml:"failOnPreexisting"`
	// SnapshotDeclared: the file sets snapshot:, so the snapshots are read
	// as it says and never as they look (DetectSnapshot).
	SnapshotDeclared bool `yaml:"-"`
	// Severity maps apiver rule ids and oasdiff check ids to error, warning,
	// info or off.
	Severity   map[string]string `yaml:"severity"`
	Exemptions []Exemption       `yaml:"exemptions"`
	// MaxSpecSizeMiB is the largest snapshot or $ref'd file read; a bigger
	// one is refused before it is read.
	MaxSpecSizeMiB int `yaml:"maxSpecSizeMiB"`
	// MaxSpecNodes is the most nodes a snapshot or $ref'd file may have; a
	// bigger one is refused before it is built.
	MaxSpecNodes int `yaml:"maxSpecNodes"`
	// Versioning says how versions are published and how clients choose
	// one.
	Versioning Versioning `yaml:"versioning"`
	// Warnings are one line each about the file (an old oasdiff id it
	// names), for the command to print.
	Warnings []string `yaml:"-"`
}

// How versions are published (Versioning.By).
const (
	// ByMediaType: one document, each operation's versions in vendor media
	// types application/vnd.PRODUCT.YYYY-MM-DD+json.
	ByMediaType = "media-type"
	// ByDocument: one document per version, named with its date.
	ByDocument = "document"
	// ByResource: a resource tree, vervet's layout: a folder per resource,
	// a folder per version of it (RESOURCE/YYYY-MM-DD[~stability]/spec.yaml).
	ByResource = "resource"
)

// Layout is how a folder input's documents are read.
func (c Config) Layout() specs.Layout {
	switch c.Versioning.By {
	case ByDocument:
		return specs.LayoutDocuments
	case ByResource:
		return specs.LayoutResources
	}
	return specs.LayoutAuto
}

// Versioning is the config's versioning: section.
type Versioning struct {
	// By is ByMediaType, ByDocument or ByResource; unset, a folder input
	// is read as version documents (a resource tree when its shape says
	// so) and a file as media types.
	By string `yaml:"by"`
	// Select is how a client asks for a version, for the messages, the
	// migration guides and the site.
	Select Selection `yaml:"select"`
}

// Selection is the request header or query parameter that names the
// version a client wants; at most one is set.
type Selection struct {
	Header string `yaml:"header"`
	Query  string `yaml:"query"`
}

// Request says how a client asks for version: "send `X-GitHub-Api-Version:
// 2026-03-10`", "send `?api-version=2026-03-10`"; "" when the config does
// not say. The code span is fenced past any backtick in the header name
// (a legal one): a header X`*E*` is fenced with two.
func (s Selection) Request(version string) string {
	switch {
	case s.Header != "":
		return "send " + escape.Code(s.Header+": "+version)
	case s.Query != "":
		return "send " + escape.Code("?"+s.Query+"="+version)
	}
	return ""
}

// Exemption lets matching findings pass until it expires.
type Exemption struct {
	// Rule defaults to breaking-change-without-new-version.
	Rule string `yaml:"rule"`
	// Operation is "METHOD /path": the method, or * for any; the path
	// literal, where a segment that is * matches any one segment.
	Operation string     `yaml:"operation"`
	Version   string     `yaml:"version"`
	Change    string     `yaml:"change"`
	Reason    string     `yaml:"reason"`
	Expires   civil.Date `yaml:"expires"`
	// Also are the ids an old oasdiff id in Change now goes by.
	Also []string `yaml:"-"`
}

// DefaultConfig is the policy without a config file.
func DefaultConfig() Config {
	return Config{DeprecationMonths: 12, Snapshot: AllVersions, MaxSpecSizeMiB: int(sizelimit.Default >> 20), MaxSpecNodes: int(specs.DefaultMaxNodes)}
}

// MaxSpecSize is MaxSpecSizeMiB in bytes; 0 (a Config not from
// DefaultConfig) means sizelimit.Default.
func (c *Config) MaxSpecSize() int64 {
	return int64(c.MaxSpecSizeMiB) << 20
}

// largestDeprecationMonths keeps every sunset a real date after its
// deprecation: a period of billions of months overflows the calendar.
const largestDeprecationMonths = 600

// MaxNodes is MaxSpecNodes; 0 (a Config not from DefaultConfig) means
// specs.DefaultMaxNodes.
func (c *Config) MaxNodes() int64 {
	return int64(c.MaxSpecNodes)
}

// largestSpecNodes keeps the setting a count a machine could hold.
const largestSpecNodes = 1_000_000_000

// largestSpecSizeMiB bounds the setting so that it stays a size in bytes.
const largestSpecSizeMiB = 1 << 20

// LoadConfig reads a config file. With path empty it reads apiver.yaml from
// the current directory if there is one, and otherwise uses the defaults.
func LoadConfig(path string) (Config, error) {
	if path == "" {
		if _, err := os.Stat(DefaultConfigFile); err != nil {
			return DefaultConfig(), nil
		}
		path = DefaultConfigFile
	}
	data, err := readFile(path)
	if err != nil {
		return Config{}, err
	}
	return ParseConfig(path, data)
}

// ParseConfig reads config bytes strictly: an unknown key or a bad value is
// an error naming it.
func ParseConfig(name string, data []byte) (Config, error) {
	cfg := DefaultConfig()
	cfg.DeprecationMonths = 0
	if err := decodeStrict(data, &cfg); err != nil {
		return Config{}, fmt.Errorf("%s: %s", name, err)
	}
	// Whether a key is there is read from the keys, not from a value that
	// stands for "left out": any value the file can hold is judged.
	declared := topLevelKeys(data)
	cfg.SnapshotDeclared = declared["snapshot"]
	monthsDeclared := declared["deprecationMonths"]
	if err := cfg.validate(monthsDeclared); err != nil {
		return Config{}, fmt.Errorf("%s: %s", name, atKeyLine(data, err.Error()))
	}
	for i, w := range cfg.Warnings {
		cfg.Warnings[i] = name + ": " + w
	}
	return cfg, nil
}

// LoadExemptions reads a separate exemptions file: the same list under
// `exemptions:`. The warnings name the file.
func LoadExemptions(path string) ([]Exemption, []string, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	return ParseExemptions(path, data)
}

// ParseExemptions reads the bytes of an exemptions file strictly; name names
// it in errors and warnings.
func ParseExemptions(name string, data []byte) ([]Exemption, []string, error) {
	var file struct {
		Exemptions []Exemption `yaml:"exemptions"`
	}
	if err := decodeStrict(data, &file); err != nil {
		return nil, nil, fmt.Errorf("%s: %s", name, err)
	}
	var warnings []string
	for i := range file.Exemptions {
		warning, err := file.Exemptions[i].validate()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: exemptions[%d]: %s", name, i, err)
		}
		if warning != "" {
			warnings = append(warnings, fmt.Sprintf("%s: exemptions[%d]: %s", name, i, warning))
		}
	}
	return file.Exemptions, warnings, nil
}

// readFile reads a config or exemptions file, up to the default size limit:
// the limit a config sets cannot apply to reading the config itself.
func readFile(path string) ([]byte, error) {
	data, err := sizelimit.ReadFile(path, sizelimit.Default)
	var tooBig *sizelimit.Error
	if errors.As(err, &tooBig) {
		return nil, fmt.Errorf("%s: %v for a config file", path, tooBig)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s", path, sizelimit.Problem(err))
	}
	return data, nil
}

// topLevelKeys are the keys of a document's root mapping (data decoded:
// it parses).
func topLevelKeys(data []byte) map[string]bool {
	var root yaml.Node
	_ = yaml.Unmarshal(data, &root)
	keys := map[string]bool{}
	if len(root.Content) == 1 {
		mappingKeys(root.Content[0], keys)
	}
	return keys
}

// mappingKeys adds the keys of the mapping n to keys, those a merge key
// (<<) brings in included, as the decoder merges them. (The document
// decoded: no alias holds itself.)
func mappingKeys(n *yaml.Node, keys map[string]bool) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.SequenceNode:
		for _, c := range n.Content {
			mappingKeys(c, keys)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Tag == "!!merge" {
				mappingKeys(n.Content[i+1], keys)
			} else {
				keys[k.Value] = true
			}
		}
	}
}

func decodeStrict(data []byte, out any) error {
	if err := checkDocument(data); err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(out)
	if errors.Is(err, io.EOF) {
		return nil
	}
	var typeErr *yaml.TypeError
	if errors.As(err, &typeErr) {
		var root yaml.Node
		_ = yaml.Unmarshal(data, &root) // it decoded: it parses
		msgs := make([]string, len(typeErr.Errors))
		for i, m := range typeErr.Errors {
			if u := unknownField.FindStringSubmatch(m); u != nil {
				m = unknownField.ReplaceAllString(m, `unknown key "$1"`) + didYouMean(u[1], knownKeys(reflect.TypeOf(out)))
			} else if l := errorLine.FindStringSubmatch(m); l != nil {
				// yaml names the line, not the key: name the key too.
				line, _ := strconv.Atoi(l[1])
				if key := keyAt(&root, line, ""); key != "" {
					m = l[0] + key + ": " + strings.TrimPrefix(m, l[0])
				}
			}
			msgs[i] = lineBreaks.Replace(m)
		}
		return errors.New(strings.Join(msgs, "; "))
	}
	if err != nil {
		return errors.New(strings.TrimPrefix(lineBreaks.Replace(err.Error()), "yaml: "))
	}
	return nil
}

// lineBreaks escapes the line breaks of a value quoted in a YAML error, so
// that the error stays one line.
var lineBreaks = strings.NewReplacer("\r", `\r`, "\n", `\n`)

var (
	unknownField = regexp.MustCompile(`field (\S+) not found in type \S+`)
	errorLine    = regexp.MustCompile(`^line (\d+): `)
)

// atKeyLine prefixes a refusal of a value with the line of the key it
// starts with (deprecationMonths, sunset.beta), as the decoder's refusals
// name theirs.
func atKeyLine(data []byte, msg string) string {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 {
		return msg
	}
	n := root.Content[0]
	var at *yaml.Node
	for _, step := range keyStep.FindAllStringSubmatch(keyPath.FindString(msg), -1) {
		at = nil
		if n.Kind != yaml.MappingNode {
			break
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == step[1] {
				at, n = n.Content[i], n.Content[i+1]
				break
			}
		}
		if at != nil && step[2] != "" {
			// An item of a list: the line it starts on.
			i, _ := strconv.Atoi(step[2])
			if n.Kind != yaml.SequenceNode || i >= len(n.Content) {
				break
			}
			at, n = n.Content[i], n.Content[i]
		}
		if at == nil {
			break
		}
	}
	if at == nil {
		return msg
	}
	return fmt.Sprintf("line %d: %s", at.Line, msg)
}

// keyPath is the key path a refusal of a value starts with (sunset.beta,
// exemptions[0]), keyStep one step of it.
var (
	keyPath = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*(\[\d+\])?(\.[A-Za-z0-9_-]+(\[\d+\])?)*`)
	keyStep = regexp.MustCompile(`([A-Za-z0-9_-]+)(?:\[(\d+)\])?`)
)

// keyAt is the dotted path of the key whose scalar value sits on line, ""
// when none does.
func keyAt(n *yaml.Node, line int, path string) string {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if k := keyAt(c, line, path); k != "" {
				return k
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, value := n.Content[i], n.Content[i+1]
			p := key.Value
			if path != "" {
				p = path + "." + p
			}
			if value.Kind == yaml.ScalarNode && value.Line == line {
				return p
			}
			if k := keyAt(value, line, p); k != "" {
				return k
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			if c.Kind == yaml.ScalarNode && c.Line == line {
				return p
			}
			if k := keyAt(c, line, p); k != "" {
				return k
			}
		}
	}
	return ""
}

// knownKeys are the YAML keys of a struct type and of the structs in it.
func knownKeys(t reflect.Type) []string {
	var keys []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for f := range t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name != "" && name != "-" {
				keys = append(keys, name)
				walk(f.Type)
			}
		}
	}
	walk(t)
	return keys
}

// didYouMean suggests the known key nearest to an unknown one; "" when
// none is near.
func didYouMean(key string, known []string) string {
	if best := suggest.Nearest(key, known); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

var productName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// validate checks the config's values; monthsDeclared says whether the
// file sets deprecationMonths (else it is 0 here, and becomes the default
// unless sunset: sets the stable period).
func (c *Config) validate(monthsDeclared bool) error {
	if c.Product != "" && !productName.MatchString(c.Product) {
		return fmt.Errorf("product: %q is not a media type product name (lower-case letters, digits, -)", c.Product)
	}
	if monthsDeclared && (c.DeprecationMonths < 1 || c.DeprecationMonths > largestDeprecationMonths) {
		return fmt.Errorf("deprecationMonths: must be from 1 to %d (50 years), got %d", largestDeprecationMonths, c.DeprecationMonths)
	}
	periods, err := c.periods()
	if err != nil {
		return err
	}
	if periods[LevelStable].N == 0 {
		// Neither deprecationMonths nor sunset.stable: the default.
		c.DeprecationMonths = DefaultConfig().DeprecationMonths
	}
	if c.MaxSpecSizeMiB < 1 || c.MaxSpecSizeMiB > largestSpecSizeMiB {
		return fmt.Errorf("maxSpecSizeMiB: must be from 1 to %d, got %d", largestSpecSizeMiB, c.MaxSpecSizeMiB)
	}
	if c.MaxSpecNodes < 1 || c.MaxSpecNodes > largestSpecNodes {
		return fmt.Errorf("maxSpecNodes: must be from 1 to %d, got %d", largestSpecNodes, c.MaxSpecNodes)
	}
	if c.Snapshot != AllVersions && c.Snapshot != LatestVersion {
		return fmt.Errorf("snapshot: %q is not all-versions or latest-version", c.Snapshot)
	}
	if err := c.Versioning.validate(); err != nil {
		return err
	}
	// In key order, so that the same file always names the same problem.
	named := func(id string) bool { _, ok := c.Severity[id]; return ok }
	renamed := map[string]string{}
	for _, id := range slices.Sorted(maps.Keys(c.Severity)) {
		level := c.Severity[id]
		if _, isRule := LookupRule(id); !isRule {
			also, warning, ok := renamedTo(id, named)
			if !ok {
				return fmt.Errorf("severity: %q is neither an apiver rule id nor an oasdiff check id", id)
			}
			if warning != "" {
				c.Warnings = append(c.Warnings, "severity."+id+": "+warning)
			}
			for _, n := range also {
				renamed[n] = level
			}
		}
		switch level {
		case string(Error), string(Warning), string(Info), diff.LevelOff:
		default:
			return fmt.Errorf("severity.%s: %q is not error, warning, info or off", id, level)
		}
	}
	for id, level := range renamed {
		c.Severity[id] = level
	}
	for i := range c.Exemptions {
		warning, err := c.Exemptions[i].validate()
		if err != nil {
			return fmt.Errorf("exemptions[%d]: %s", i, err)
		}
		if warning != "" {
			c.Warnings = append(c.Warnings, fmt.Sprintf("exemptions[%d]: %s", i, warning))
		}
	}
	return nil
}

// headerName is an HTTP field name (a token); queryName a query parameter
// name that needs no escaping.
var (
	headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
	queryName  = regexp.MustCompile(`^[A-Za-z0-9._~-]+$`)
)

func (v Versioning) validate() error {
	switch v.By {
	case "", ByMediaType, ByDocument, ByResource:
	default:
		return fmt.Errorf("versioning.by: %q is not %s, %s or %s", v.By, ByMediaType, ByDocument, ByResource)
	}
	s := v.Select
	switch {
	case s.Header != "" && s.Query != "":
		return errors.New("versioning.select: set header or query, not both")
	case s.Header != "" && !headerName.MatchString(s.Header):
		return fmt.Errorf("versioning.select.header: %q is not an HTTP header name", s.Header)
	case s.Query != "" && !queryName.MatchString(s.Query):
		return fmt.Errorf("versioning.select.query: %q is not a query parameter name (letters, digits, . _ ~ -)", s.Query)
	}
	return nil
}

var operationPattern = regexp.MustCompile(`^(\*|[A-Za-z]+) (/\S*)$`)

// operationSchemaPattern is what validate accepts, for the JSON schema:
// operationPattern with validOperationPath's segments.
var operationSchemaPattern = regexp.MustCompile(`^(\*|[A-Za-z]+) (/(\*|[^/\s*?\[\]\\]*))+$`)

// validOperationPath reports whether an exemption's path is one the
// matching supports: literal segments, and * as a whole segment, which
// matches any one segment. Glob classes and a * inside a segment are
// refused rather than read one way or another in silence.
func validOperationPath(p string) bool {
	if strings.ContainsAny(p, `[]?\`) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg != "*" && strings.Contains(seg, "*") {
			return false
		}
	}
	return true
}

// matchOperationPath matches a path against an exemption's: segment by
// segment, * matching any one segment, every other segment literally.
func matchOperationPath(pattern, p string) bool {
	want, got := strings.Split(pattern, "/"), strings.Split(p, "/")
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i] != "*" && want[i] != got[i] {
			return false
		}
	}
	return true
}

// validate checks an exemption; the warning names the ids an old oasdiff
// id in change applies to.
func (e *Exemption) validate() (warning string, err error) {
	if e.Rule == "" {
		e.Rule = BreakingChangeWithoutNewVersion
	}
	if _, ok := LookupRule(e.Rule); !ok {
		return "", fmt.Errorf("rule: %q is not an apiver rule id", e.Rule)
	}
	if !operationPattern.MatchString(e.Operation) {
		return "", fmt.Errorf("operation: %q is not \"METHOD /path\"", e.Operation)
	}
	if _, p, _ := strings.Cut(e.Operation, " "); !validOperationPath(p) {
		return "", fmt.Errorf("operation: %q: a path is literal, with * only as a whole segment (/api/*/orgs); [, ], ? and \\ are not supported", e.Operation)
	}
	if e.Version != "" {
		if _, err := civil.ParseDate(e.Version); err != nil {
			return "", fmt.Errorf("version: %q is not a date", e.Version)
		}
	}
	if e.Change != "" {
		also, w, ok := renamedTo(e.Change, func(string) bool { return false })
		if !ok {
			return "", fmt.Errorf("change: %q is not an oasdiff check id", e.Change)
		}
		e.Also, warning = also, w
		if warning != "" {
			warning = "change: " + warning
		}
	}
	if strings.TrimSpace(e.Reason) == "" {
		return "", errors.New("reason: required")
	}
	if e.Expires.IsZero() {
		return "", errors.New("expires: required")
	}
	return warning, nil
}

// ResolveProduct is the configured product, or the one the snapshots'
// media types name.
func (c *Config) ResolveProduct(snapshots ...*specs.Snapshot) (string, error) {
	if c.Product != "" {
		return c.Product, nil
	}
	return specs.DetectProduct(snapshots...)
}

// ChangeLevels are the levels to give oasdiff's checks: apiver's defaults,
// then the config's overrides.
func (c *Config) ChangeLevels() map[string]string {
	levels := map[string]string{}
	for id, level := range DefaultChangeLevels {
		levels[id] = level
	}
	for id, level := range c.Severity {
		if diff.IsCheckID(id) {
			levels[id] = level
		}
	}
	return levels
}
