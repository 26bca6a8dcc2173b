package lex

// This file defines the literals whose end is spelled by their start: raw
// strings (Rust, C++, Swift, C#), C#'s prefixed strings, PHP heredocs, and
// CSS's unquoted url(...).

import (
	"fmt"
	"strings"
)

// hashRaw lexes a raw string whose quote, at or after i, follows n '#' and
// which closes with a quote and n '#' (Rust r#"..."#, whose prefix starts
// at start; Swift #"..."#, start == i). Without a quote after the '#'s it
// lexes a Rust raw identifier (r#match), the prefix word alone, or Swift's
// '#'s as punctuation.
func (s *Scanner) hashRaw(start, i int) Kind {
	src := s.src
	n := 0
	for i+n < len(src) && src[i+n] == '#' {
		n++
	}
	if i+n >= len(src) || src[i+n] != '"' {
		switch {
		case start == i:
			s.pos = i + n
			return Punct
		case n == 1 && i+1 < len(src) && isIdentByte(src[i+1], false):
			s.pos = i + 1
			for s.pos < len(src) && isIdentByte(src[s.pos], false) {
				s.pos++
			}
		}
		return Ident
	}
	closer := `"` + strings.Repeat("#", n)
	body := i + n + 1
	if s.lang.SwiftRaw && strings.HasPrefix(src[i+n:], `"""`) {
		body = i + n + 3
	}
	return s.closeAt(start, body, closer, "raw string literal")
}

// closeAt ends a literal that started at start at the first closer at or
// after from, or at the end of the text with an error.
func (s *Scanner) closeAt(start, from int, closer, what string) Kind {
	j := strings.Index(s.src[from:], closer)
	if j < 0 {
		s.advance(len(s.src))
		s.fail(start, fmt.Sprintf("unterminated %s: no closing %s", what, closer))
		return String
	}
	s.advance(from + j + len(closer))
	return String
}

// cppRaw lexes a C++ raw string R"delim(...)delim" whose prefix starts at
// start, pos being on the quote. A quote not followed by a valid delimiter
// and '(' opens an ordinary string.
func (s *Scanner) cppRaw(start int) Kind {
	q := s.pos
	p := strings.IndexByte(s.src[q:min(len(s.src), q+18)], '(')
	if p < 0 || strings.ContainsAny(s.src[q+1:q+p], " \\)\t\n\"") {
		s.pos++
		return s.body(s.lang.forms.double, q, String, String)
	}
	return s.closeAt(start, q+p+1, ")"+s.src[q+1:q+p]+`"`, "raw string literal")
}

// rawQuotes lexes a literal opened by three or more '"' at pos and closed by
// as many (C# raw strings).
func (s *Scanner) rawQuotes(start int) Kind {
	i := s.pos
	for i < len(s.src) && s.src[i] == '"' {
		i++
	}
	return s.closeAt(start, i, s.src[s.pos:i], "multi-line string")
}

// csharpString lexes C#'s @"", $"", $@"", @$"" strings at pos. A prefix
// without a quote is not a string (@class, a stray $).
func (s *Scanner) csharpString() (Kind, bool) {
	src, start := s.src, s.pos
	i := s.pos
	verbatim, interp := false, false
	for i < len(src) && (src[i] == '@' || src[i] == '$') {
		if src[i] == '@' {
			verbatim = true
		} else {
			interp = true
		}
		i++
	}
	if i >= len(src) || src[i] != '"' || i-s.pos > 3 {
		return 0, false
	}
	s.pos = i
	if strings.HasPrefix(src[i:], `"""`) {
		return s.rawQuotes(start), true
	}
	s.pos++
	q := qCSVerbatim
	switch {
	case verbatim && interp:
		q = qCSVerbInt
	case interp:
		q = qCSInterp
	}
	return s.body(q, i, String, StrOpen), true
}

// cssURL lexes "(...)" after url, pos being on the '(', when the URL is not
// quoted: it may hold "//" (url(//cdn.example.com/x.png)), which is no
// comment there. Otherwise the token is the word url alone.
func (s *Scanner) cssURL() Kind {
	src := s.src
	j := s.pos + 1
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j < len(src) && (src[j] == '"' || src[j] == '\'') {
		return Ident
	}
	if k := strings.IndexAny(src[j:], ")\n"); k >= 0 && src[j+k] == ')' {
		s.pos = j + k + 1
		return String
	}
	return Ident
}

// heredoc lexes a PHP heredoc or nowdoc (<<<ID, <<<"ID", <<<'ID') up to
// the line that starts, after indentation, with its identifier; or "<<<"
// as an operator.
func (s *Scanner) heredoc() Kind {
	src, start := s.src, s.pos
	j := s.pos + 3
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j < len(src) && (src[j] == '"' || src[j] == '\'') {
		j++
	}
	k := j
	for k < len(src) && isIdentByte(src[k], false) {
		k++
	}
	if k == j {
		s.pos += 3
		return Punct
	}
	id := src[j:k]
	for {
		line := strings.IndexByte(src[k:], '\n')
		if line < 0 {
			break
		}
		p := k + line + 1
		for p < len(src) && (src[p] == ' ' || src[p] == '\t') {
			p++
		}
		if strings.HasPrefix(src[p:], id) && (p+len(id) == len(src) || !isIdentByte(src[p+len(id)], false)) {
			s.advance(p + len(id))
			return String
		}
		k = p
	}
	s.advance(len(src))
	s.fail(start, fmt.Sprintf("unterminated heredoc: no closing %s line", id))
	return String
}
