package prune

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// loaderJSON is the JSON that the loader's YAML reading (github.com/oasdiff/yaml,
// timestamps off) makes of a YAML tree before it unmarshals it into
// kin-openapi's types: written straight from the tree, so that a part the
// validator reads is not written as YAML and parsed again. It writes what
// json.Marshal writes of the values that reading decodes (keys sorted,
// numbers as json.Marshal formats them); ok is false for any node whose
// conversion it does not reproduce exactly (explicit tags, merge keys,
// keys that are not strings or canonical integers, integers and floats
// written in another form, keys that coincide once converted), and the
// caller reads that part through the loader's own reading.
type loaderJSON struct {
	buf []byte
	// remove holds the key nodes of entries left out.
	remove map[*yaml.Node]bool
	// emptied holds the values written as "" (Doc.emptied); blank the
	// schemas written as {} (by a skeleton, or read already), but for top,
	// the node written, and for any reached through an alias.
	emptied, blank map[*yaml.Node]bool
	top            *yaml.Node
	// dry only says whether the tree converts: a string, which always
	// does, is not written.
	dry bool
	// expanding holds the aliased nodes being written: an alias inside
	// what it names would expand for ever (the loader refuses it).
	expanding map[*yaml.Node]bool
}

// value appends n's JSON; false when it cannot say exactly what the loader
// makes of n.
func (c *loaderJSON) value(n *yaml.Node) bool {
	if c.emptied[n] {
		c.buf = append(c.buf, `""`...)
		return true
	}
	if c.blank[n] && n != c.top {
		c.buf = append(c.buf, "{}"...)
		return true
	}
	if n.Style&yaml.TaggedStyle != 0 {
		return false
	}
	switch n.Kind {
	case yaml.AliasNode:
		// The loader's reading expands aliases; what an alias reaches may
		// sit where the blank node is read otherwise.
		if n.Alias == nil || c.expanding[n.Alias] {
			return false
		}
		if c.expanding == nil {
			c.expanding = map[*yaml.Node]bool{}
		}
		blank := c.blank
		c.blank, c.expanding[n.Alias] = nil, true
		defer func() { c.blank, c.expanding[n.Alias] = blank, false }()
		return c.value(n.Alias)
	case yaml.MappingNode:
		return c.mapping(n)
	case yaml.SequenceNode:
		c.buf = append(c.buf, '[')
		for i, e := range n.Content {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			if !c.value(e) {
				return false
			}
		}
		c.buf = append(c.buf, ']')
		return true
	case yaml.ScalarNode:
		return c.scalar(n)
	}
	return false
}

type jsonEntry struct {
	key   string
	value *yaml.Node
}

// mapping writes a mapping as json.Marshal writes a map: keys sorted.
func (c *loaderJSON) mapping(n *yaml.Node) bool {
	entries := make([]jsonEntry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if c.remove[k] {
			continue
		}
		key, ok := loaderKey(k)
		if !ok {
			return false
		}
		entries = append(entries, jsonEntry{key, n.Content[i+1]})
	}
	slices.SortFunc(entries, func(a, b jsonEntry) int { return strings.Compare(a.key, b.key) })
	c.buf = append(c.buf, '{')
	for i, e := range entries {
		if i > 0 {
			if entries[i-1].key == e.key {
				// A key twice: the reading refuses it, or keeps one of
				// the two as Go's map order falls.
				return false
			}
			c.buf = append(c.buf, ',')
		}
		if !c.dry {
			c.buf = appendJSONString(c.buf, e.key)
		}
		c.buf = append(c.buf, ':')
		if !c.value(e.value) {
			return false
		}
	}
	c.buf = append(c.buf, '}')
	return true
}

// loaderKey is the string a mapping key becomes: a string as it is, a
// canonical integer (a response status) as written.
func loaderKey(k *yaml.Node) (string, bool) {
	if k.Kind != yaml.ScalarNode || k.Style&yaml.TaggedStyle != 0 {
		return "", false
	}
	switch k.Tag {
	case "!!str", "!!timestamp":
		return k.Value, true
	case "!!int":
		return k.Value, canonicalInt(k.Value)
	}
	return "", false
}

// canonicalInt reports whether s is an integer as strconv writes it, which
// the reading decodes to that integer and json.Marshal writes back as s.
func canonicalInt(s string) bool {
	i, err := strconv.ParseInt(s, 10, 64)
	return err == nil && strconv.FormatInt(i, 10) == s
}

func (c *loaderJSON) scalar(n *yaml.Node) bool {
	if n.Tag == "!!str" || n.Tag == "!!timestamp" {
		// With timestamps off, a date is read as the string written.
		if !c.dry {
			c.buf = appendJSONString(c.buf, n.Value)
		}
		return true
	}
	var ok bool
	c.buf, ok = appendLoaderScalar(c.buf, n)
	return ok
}

// appendLoaderScalar appends the JSON of a scalar that is not a string as
// the loader's reading converts it; false when it cannot say exactly.
func appendLoaderScalar(buf []byte, n *yaml.Node) ([]byte, bool) {
	switch n.Tag {
	case "!!null":
		return append(buf, "null"...), true
	case "!!bool":
		switch n.Value {
		case "true", "True", "TRUE":
			return append(buf, "true"...), true
		case "false", "False", "FALSE":
			return append(buf, "false"...), true
		}
	case "!!int":
		if canonicalInt(n.Value) {
			return append(buf, n.Value...), true
		}
	case "!!float":
		// As the reading resolves a plain float: strconv's parse of the
		// text, written by json.Marshal (which refuses infinities and NaN).
		if !yamlStyleFloat(n.Value) {
			return buf, false
		}
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil {
			return buf, false
		}
		out, err := json.Marshal(f)
		if err != nil {
			return buf, false
		}
		return append(buf, out...), true
	}
	return buf, false
}

// yamlStyleFloat reports whether s is a float in the form the YAML
// reader resolves by strconv.ParseFloat alone:
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func yamlStyleFloat(s string) bool {
	digits := func(s string) (rest string, n int) {
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return s[n:], n
	}
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	var n int
	if strings.HasPrefix(s, ".") {
		if s, n = digits(s[1:]); n == 0 {
			return false
		}
	} else {
		if s, n = digits(s); n == 0 {
			return false
		}
		if strings.HasPrefix(s, ".") {
			s, _ = digits(s[1:])
		}
	}
	if strings.HasPrefix(s, "e") || strings.HasPrefix(s, "E") {
		s = s[1:]
		if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
			s = s[1:]
		}
		if s, n = digits(s); n == 0 {
			return false
		}
	}
	return s == ""
}

// appendJSONString appends s as json.Marshal writes a string: HTML
// characters escaped, invalid UTF-8 replaced. Plain ASCII is written as it
// is; anything else goes through json.Marshal itself.
func appendJSONString(buf []byte, s string) []byte {
	if !plainASCII(s) {
		out, _ := json.Marshal(s)
		return append(buf, out...)
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}
