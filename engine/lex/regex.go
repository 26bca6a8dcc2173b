package lex

// This file defines the guess that JavaScript's lexers make: whether a '/'
// starts a regular expression or divides, from the token before it.

// regexLiteral lexes a regular expression at pos, if one ends on this line;
// otherwise it leaves pos alone and reports false.
func (s *Scanner) regexLiteral() bool {
	src := s.src
	class := false
	for i := s.pos + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				return false // an escape cannot carry the literal onto the next line
			}
			i++
		case '\n':
			return false
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if class {
				continue
			}
			if i == s.pos+1 {
				return false // "//" is a comment, taken before
			}
			i++
			for i < len(src) && isIdentByte(src[i], false) {
				i++
			}
			s.pos = i
			return true
		}
	}
	return false
}

// regexKeyword reports whether w is a word after which a '/' starts a
// regular expression. (A switch: a map's hashing cost a sixth of the
// delimiter check.)
func regexKeyword(w string) bool {
	switch w {
	case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
		"case", "do", "else", "yield", "await":
		return true
	}
	return false
}

// noteRegex records whether a '/' after t would start a regular expression:
// after an operator, an opener or a keyword such as return, not after an
// operand or a closer.
func (s *Scanner) noteRegex(t Token) {
	if !s.lang.Regex {
		return
	}
	switch t.Kind {
	case Ident:
		s.regexOK = regexKeyword(s.src[t.Start:s.pos])
	case Number, String, StrClose:
		s.regexOK = false
	case Punct:
		p := s.src[t.Start:s.pos]
		s.regexOK = p != ")" && p != "]" && p != "}" && p != "++" && p != "--"
	default:
		s.regexOK = true
	}
}
