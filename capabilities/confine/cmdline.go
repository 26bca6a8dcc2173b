package confine

// This file splits command lines as clang's tools split them: a compile
// command's "command" string (clang's JSON compilation database), and a
// response file (@file, GNU style).

import "strings"

// splitCommand splits a compile command's "command" as clang's JSON
// compilation database does on POSIX systems: arguments separated by
// spaces (only: a tab is part of an argument), a backslash escaping the
// next character, double quotes (with backslash escapes) and single
// quotes (without) joining what they enclose to the argument.
func splitCommand(s string) []string {
	var out []string
	i := 0
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return out
		}
		var arg strings.Builder
		for i < len(s) && s[i] != ' ' {
			switch s[i] {
			case '"':
				i++
				for i < len(s) && s[i] != '"' {
					if s[i] == '\\' && i+1 < len(s) {
						i++
					}
					arg.WriteByte(s[i])
					i++
				}
				i++ // the closing quote
			case '\'':
				i++
				for i < len(s) && s[i] != '\'' {
					arg.WriteByte(s[i])
					i++
				}
				i++
			case '\\':
				if i+1 < len(s) {
					i++
				}
				arg.WriteByte(s[i])
				i++
			default:
				arg.WriteByte(s[i])
				i++
			}
		}
		out = append(out, arg.String())
	}
}

// splitResponse splits a response file's content as LLVM's GNU tokenizer
// does: arguments separated by whitespace, a backslash escaping the next
// character (but in single quotes), quotes joining what they enclose.
func splitResponse(s string) []string {
	var out []string
	var arg strings.Builder
	inArg := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			if inArg {
				out = append(out, arg.String())
				arg.Reset()
				inArg = false
			}
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] == '\n' || s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				// A backslash-newline joins lines.
				if s[i] == '\r' {
					i++
				}
				continue
			}
			arg.WriteByte(s[i])
			inArg = true
		case c == '"' || c == '\'':
			inArg = true
			for i++; i < len(s) && s[i] != c; i++ {
				if c == '"' && s[i] == '\\' && i+1 < len(s) {
					i++
				}
				arg.WriteByte(s[i])
			}
		default:
			arg.WriteByte(c)
			inArg = true
		}
	}
	if inArg {
		out = append(out, arg.String())
	}
	return out
}
