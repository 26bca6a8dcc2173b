package syntax

// This file defines the JSON check: plain JSON (RFC 8259) by encoding/json.

import (
	"encoding/json"
	"errors"
	"strings"
)

// checkJSON reports the first JSON syntax error in src: an invalid
// character, a premature end, an empty file, or data after the top-level
// value. Comments and trailing commas are errors.
//
// It uses json.Unmarshal into a json.RawMessage rather than a Decoder:
// Unmarshal validates the whole input first, so trailing data and a premature
// end come back as *json.SyntaxError with a byte offset, where a Decoder
// reports io.ErrUnexpectedEOF without one and stops after the first value.
func checkJSON(src []byte) []Error {
	p := &positions{src: src}
	if isJSONSpace(src) {
		return []Error{p.errorAt(len(src), "empty file: a JSON file must hold a value")}
	}
	var raw json.RawMessage
	err := json.Unmarshal(src, &raw)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return []Error{p.errorAt(0, err.Error())}
	}
	off := int(se.Offset)
	if !strings.HasPrefix(se.Error(), "unexpected end") {
		// Offset counts the bytes read, including the offending one.
		off--
	}
	return []Error{p.errorAt(max(off, 0), se.Error())}
}

// isJSONSpace reports whether src holds only JSON whitespace.
func isJSONSpace(src []byte) bool {
	for _, c := range src {
		switch c {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}
