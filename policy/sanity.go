package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"cloud.google.com/go/civil"
	"go.yaml.in/yaml/v3"
)

// checkDocument refuses, before the config is decoded, what decoding would
// take silently: a second YAML document (ignored), a null value (read as
// the default), a float (truncated to an integer) and a date that is not a
// calendar date with a four-digit year (Go's parser names neither key nor
// line). The error says "line N: KEY: why".
func checkDocument(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil // empty, or a syntax error the strict decode reports
	}
	var second yaml.Node
	if err := dec.Decode(&second); !errors.Is(err, io.EOF) {
		line := second.Line
		if err != nil || line == 0 {
			return errors.New("holds more than one YAML document: a config is one document")
		}
		return fmt.Errorf("line %d: a second YAML document: a config is one document", line)
	}
	return checkNode(&doc, "")
}

// dateKeys are the keys whose values are dates (an empty one is "any"
// or "missing", which validation judges).
var dateKeys = map[string]bool{"expires": true, "version": true}

var decimal = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

var isoDate = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

func checkNode(n *yaml.Node, key string) error {
	fail := func(format string, args ...any) error {
		name := key
		if name == "" {
			name = "the config"
		}
		return fmt.Errorf("line %d: %s: %s", n.Line, name, fmt.Sprintf(format, args...))
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := checkNode(c, key); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if key != "" {
				k = key + "." + k
			}
			if err := checkNode(n.Content[i+1], k); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := checkNode(c, fmt.Sprintf("%s[%d]", key, i)); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return fail("null is not a value: give one, or leave the key out")
		case "!!float":
			return fail("%s is not an integer", n.Value)
		case "!!int":
			// YAML 1.1 reads 012 as octal 10, YAML 1.2 and JSON Schema
			// editors as 12: a number is written in decimal digits.
			if n.Style == 0 && !decimal.MatchString(n.Value) {
				return fail("%s is not written in decimal digits (0 or 1-9 first)", n.Value)
			}
		}
		if dateKeys[lastKey(key)] && n.Value != "" {
			if _, err := civil.ParseDate(n.Value); err != nil || !isoDate.MatchString(n.Value) {
				return fail("%q is not a calendar date YYYY-MM-DD with a four-digit year", n.Value)
			}
		}
	}
	return nil
}

// lastKey is the last key of a path such as exemptions[0].expires.
func lastKey(path string) string {
	return path[strings.LastIndex(path, ".")+1:]
}
