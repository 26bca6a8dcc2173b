package projscope

// This file defines [StandardJSON]: JSON with comments and trailing
// commas (tsconfig.json, jsconfig.json and pyrightconfig.json allow both)
// made plain JSON, so encoding/json reads it.

import (
	"bytes"
	"fmt"
)

// StandardJSON returns src, JSON with `//` and `/* */` comments and
// commas before a closing `]` or `}` (as TypeScript and pyright read their
// configuration files), as plain JSON: comments become spaces and those
// commas are dropped, so byte offsets and line numbers are kept for every
// other character. A UTF-8 byte order mark is dropped too. A comment or a
// string left open is an error naming its line; anything else is left for
// the JSON decoder to judge.
func StandardJSON(src []byte) ([]byte, error) {
	out := bytes.Clone(bytes.TrimPrefix(src, []byte("\ufeff")))
	if len(out) < len(src) {
		out = append([]byte("   "), out...) // keep the offsets
	}
	lastComma := -1 // the index of a comma not yet followed by a value
	for i := 0; i < len(out); i++ {
		switch c := out[i]; c {
		case '"':
			lastComma = -1
			end := stringEnd(out, i)
			if end < 0 {
				return nil, fmt.Errorf("line %d: a string is not closed", lineOf(out, i))
			}
			i = end
		case '/':
			if i+1 >= len(out) {
				continue
			}
			switch out[i+1] {
			case '/':
				for i < len(out) && out[i] != '\n' {
					blank(out, i)
					i++
				}
			case '*':
				start := i
				blank(out, i)
				blank(out, i+1)
				i += 2
				for ; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
					blank(out, i)
				}
				if i >= len(out) {
					return nil, fmt.Errorf("line %d: a /* comment is not closed", lineOf(out, start))
				}
				blank(out, i)
				blank(out, i+1)
				i++
			}
		case ',':
			lastComma = i
		case ']', '}':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case ' ', '\t', '\r', '\n':
		default:
			lastComma = -1
		}
	}
	return out, nil
}

// blank makes out[i] a space, keeping line breaks.
func blank(out []byte, i int) {
	if out[i] != '\n' && out[i] != '\r' {
		out[i] = ' '
	}
}

// stringEnd is the index of the quote that closes the string opened at
// src[i], or -1.
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j
		case '\n':
			return -1
		}
	}
	return -1
}

// lineOf is the 1-based line of the byte at i.
func lineOf(src []byte, i int) int {
	return bytes.Count(src[:i], []byte("\n")) + 1
}
