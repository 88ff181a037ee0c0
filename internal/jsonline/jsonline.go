// Package jsonline finds the line of a JSON decoding error, which
// encoding/json reports only as a byte offset.
package jsonline

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Of is the line of data where err, returned by decoding data, occurred;
// 0 when err carries no offset. An unexpected end is on the last line, not
// after its final newline.
func Of(data []byte, err error) int {
	var offset int64
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		offset = syntax.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	default:
		return 0
	}
	before := data[:min(int(offset), len(data))]
	if int(offset) >= len(data) {
		before = bytes.TrimRight(before, " \t\r\n")
	}
	return 1 + bytes.Count(before, []byte("\n"))
}
