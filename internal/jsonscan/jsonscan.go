// Package jsonscan walks JSON text outside its strings, for the checks
// that measure a text before a decoder reads it.
package jsonscan

// Outside calls fn with each byte of the JSON text data outside its
// strings, in order; a string is given once, as its opening quote.
func Outside(data []byte, fn func(b byte)) {
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case !inString:
			inString = b == '"'
			fn(b)
		case escaped:
			escaped = false
		case b == '\\':
			escaped = true
		case b == '"':
			inString = false
		}
	}
}
