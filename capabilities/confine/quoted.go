package confine

// This file defines how the go command splits and joins the values of CC,
// CXX and GOFLAGS (cmd/internal/quoted): fields separated by spaces, a
// field in single or double quotes taken as it is, no escapes.

import (
	"fmt"
	"strings"
)

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// split splits s into fields as the go command does.
func split(s string) ([]string, error) {
	var f []string
	for len(s) > 0 {
		for len(s) > 0 && isSpaceByte(s[0]) {
			s = s[1:]
		}
		if len(s) == 0 {
			break
		}
		if s[0] == '"' || s[0] == '\'' {
			quote := s[0]
			s = s[1:]
			i := strings.IndexByte(s, quote)
			if i < 0 {
				return nil, fmt.Errorf("unterminated %c string", quote)
			}
			f = append(f, s[:i])
			s = s[i+1:]
			continue
		}
		i := 0
		for i < len(s) && !isSpaceByte(s[i]) {
			i++
		}
		f = append(f, s[:i])
		s = s[i:]
	}
	return f, nil
}

// joinQuoted joins args so that split gives them back: an argument with a
// space or a quote is quoted with the quote it does not hold; one that
// holds both kinds cannot be written.
func joinQuoted(args []string) (string, error) {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		hasSpace := strings.ContainsAny(a, " \t\n\r")
		hasSingle, hasDouble := strings.Contains(a, "'"), strings.Contains(a, `"`)
		switch {
		case a != "" && !hasSpace && !hasSingle && !hasDouble:
			b.WriteString(a)
		case hasSingle && hasDouble:
			return "", fmt.Errorf("%q holds both kinds of quote, which the go command cannot read", a)
		case hasSingle:
			b.WriteString(`"` + a + `"`)
		default:
			b.WriteString("'" + a + "'")
		}
	}
	return b.String(), nil
}
