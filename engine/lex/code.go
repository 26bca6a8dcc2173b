package lex

// This file defines the lexemes of code outside literals: comments,
// preprocessor lines, numbers, identifiers (and the literals an identifier
// prefixes, which it hands to raw.go and quote.go), punctuators, and PHP's
// HTML text.

import (
	"strings"
	"unicode/utf8"
)

// atLineComment reports whether a line comment starts at pos.
func (s *Scanner) atLineComment() bool {
	for _, lc := range s.lang.LineComments {
		if strings.HasPrefix(s.src[s.pos:], lc) {
			// PHP 8 attributes #[...] are code.
			return !(s.lang.PHP && lc == "#" && s.peek(1) == '[')
		}
	}
	return false
}

// lineComment moves to the end of the line (the '\n' itself is left), or,
// in PHP, to a "?>" that ends the code first.
func (s *Scanner) lineComment() {
	rest := s.src[s.pos:]
	end := strings.IndexByte(rest, '\n')
	if end < 0 {
		end = len(rest)
	}
	if s.lang.PHP {
		if i := strings.Index(rest[:end], "?>"); i >= 0 {
			end = i
		}
	}
	s.pos += end
}

// blockComment lexes a block comment, nested if the language nests them.
func (s *Scanner) blockComment() {
	src, start := s.src, s.pos
	op, cl := s.lang.BlockOpen, s.lang.BlockClose
	if !s.lang.NestedComments {
		if j := strings.Index(src[start+len(op):], cl); j >= 0 {
			s.advance(start + len(op) + j + len(cl))
			return
		}
		s.advance(len(src))
		s.fail(start, "unterminated block comment")
		return
	}
	depth, i := 0, s.pos
	for i < len(src) {
		switch rest := src[i:]; {
		case strings.HasPrefix(rest, op):
			depth++
			i += len(op)
		case strings.HasPrefix(rest, cl):
			depth--
			i += len(cl)
			if depth == 0 {
				s.advance(i)
				return
			}
		default:
			i++
		}
	}
	s.advance(len(src))
	s.fail(start, "unterminated block comment")
}

// directive lexes a preprocessor line with its backslash continuations,
// minding comments, which may run past the line.
func (s *Scanner) directive() {
	src := s.src
	for s.pos < len(src) && src[s.pos] != '\n' {
		switch {
		case src[s.pos] == '\\':
			n := 2
			if strings.HasPrefix(src[s.pos+1:], "\r\n") {
				n = 3
			}
			s.advance(s.pos + n)
		case strings.HasPrefix(src[s.pos:], "/*"):
			s.blockComment()
		case strings.HasPrefix(src[s.pos:], "//"):
			s.lineComment()
		default:
			s.pos++
		}
	}
}

func (s *Scanner) number() {
	src := s.src
	for s.pos < len(src) {
		c := src[s.pos]
		switch {
		case isIdentByte(c, false) || c == '.' && s.pos+1 < len(src) && src[s.pos+1] != '.':
			s.pos++
		case c == '\'' && s.lang.DigitSep && s.pos+1 < len(src) && isIdentByte(src[s.pos+1], false):
			s.pos++
		case (c == '+' || c == '-') && (src[s.pos-1] == 'e' || src[s.pos-1] == 'E'):
			s.pos++
		default:
			return
		}
	}
}

// ident lexes an identifier, or a literal whose prefix it is (Python r"",
// f"", Rust r#""#, C++ R"()", CSS url(...)).
func (s *Scanner) ident() Kind {
	src, lang := s.src, s.lang
	start := s.pos
	for s.pos < len(src) && isIdentByte(src[s.pos], lang.DollarIdent) {
		s.pos++
	}
	if s.pos >= len(src) {
		return Ident
	}
	word, next := src[start:s.pos], src[s.pos]
	switch {
	case lang.PyPrefixes && (next == '"' || next == '\'') && len(word) <= 2 &&
		strings.Trim(strings.ToLower(word), "rbuft") == "":
		return s.pythonString(start, strings.ContainsAny(word, "fFtT"))
	case lang.RustRaw && (next == '"' || next == '#') && (word == "r" || word == "br" || word == "cr"):
		return s.hashRaw(start, s.pos)
	case lang.CppRaw && next == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR"):
		return s.cppRaw(start)
	case lang.CSSURL && next == '(' && (word == "url" || word == "URL"):
		return s.cssURL()
	}
	return Ident
}

// punctuators of more than one byte, longest first.
var multiPunct = []string{"...", "===", "!==", "::", "->", "=>", "<-", "?.", "??", "++", "--",
	"&&", "||", "==", "!=", "<=", ">=", ":=", ".."}

// multiStart holds the bytes of the punctuators in multiPunct.
var multiStart = func() (t [256]bool) {
	for _, p := range multiPunct {
		for i := range len(p) {
			t[p[i]] = true
		}
	}
	return t
}()

func (s *Scanner) punct() {
	rest := s.src[s.pos:]
	if c := rest[0]; c >= utf8.RuneSelf {
		_, size := utf8.DecodeRuneInString(rest)
		s.pos += size
		return
	} else if len(rest) == 1 || !multiStart[c] || !multiStart[rest[1]] {
		s.pos++
		return
	}
	for _, p := range multiPunct {
		if strings.HasPrefix(rest, p) {
			if p == "<-" && s.lang.Name != "go" {
				continue
			}
			s.pos += len(p)
			return
		}
	}
	s.pos++
}

// htmlText lexes PHP's HTML up to and including the next "<?php" or "<?="
// (short "<?" tags are not recognized: <?xml is HTML), or to the end.
func (s *Scanner) htmlText() {
	rest := s.src[s.pos:]
	end := len(rest)
	for off := 0; ; {
		j := strings.Index(rest[off:], "<?")
		if j < 0 {
			break
		}
		off += j + 2
		if strings.HasPrefix(rest[off:], "php") {
			end = off + 3
			break
		}
		if off < len(rest) && rest[off] == '=' {
			end = off + 1
			break
		}
	}
	s.advance(s.pos + end)
	s.html = false
	s.regexOK = true
}
