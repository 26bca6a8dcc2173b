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

// regexKeywords are the words after which a '/' starts a regular expression.
var regexKeywords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
	"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
	"yield": true, "await": true,
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
		s.regexOK = regexKeywords[s.src[t.Start:s.pos]]
	case Number, String, StrClose:
		s.regexOK = false
	case Punct:
		p := s.src[t.Start:s.pos]
		s.regexOK = p != ")" && p != "]" && p != "}" && p != "++" && p != "--"
	default:
		s.regexOK = true
	}
}
