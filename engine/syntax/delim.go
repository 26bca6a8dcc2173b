package syntax

// This file defines the balanced-delimiter check: it matches (), [] and {}
// in the token stream of engine/lex, which skips comments and literals. It
// is not a parser: it finds unbalanced or crossed delimiters and the
// lexer's unterminated strings and comments, nothing else.

import (
	"bytes"
	"fmt"

	"github.com/devbroker/devbroker/engine/lex"
)

// delimiterCheckers returns a checker for each lex language that has no
// checker of its own (see [checkers]).
func delimiterCheckers() []checker {
	var cs []checker
	for _, l := range lex.Languages() {
		if l.Name == "go" {
			continue // go/parser
		}
		cs = append(cs, checker{
			name:  "delimiters",
			exts:  l.Exts,
			check: func(src []byte) []Error { return checkDelimiters(l, src) },
		})
	}
	return cs
}

// open is an unclosed delimiter on the scanner's stack.
type open struct {
	ch   byte // '(', '[', '{', or '$' for an interpolation's "${" or "{"
	off  int  // offset of the delimiter
	tmpl int  // for '$': offset of the string it interpolates
}

// name is how messages write the delimiter.
func (o open) name(src []byte) string {
	if o.ch == '$' {
		if src[o.off] == '$' {
			return "${"
		}
		return "{"
	}
	return string(o.ch)
}

// delimScanner holds the state of one delimiter check.
type delimScanner struct {
	lang  *lex.Language
	src   []byte
	p     *positions
	stack []open // unclosed delimiters, innermost last

	// Where the first closer sits at a different indentation from the line
	// of the opener it closes, a hint for unbalanced files; -1 if none.
	oddClose, oddOpen int
}

// checkDelimiters reports the first delimiter, string or comment error in
// src lexed as lang.
func checkDelimiters(lang *lex.Language, src []byte) []Error {
	s := &delimScanner{lang: lang, src: src, p: &positions{src: src}, oddClose: -1, oddOpen: -1}
	if e := s.run(); e != nil {
		return []Error{*e}
	}
	return nil
}

// errorAt returns an error at offset.
func (s *delimScanner) errorAt(off int, format string, args ...any) *Error {
	e := s.p.errorAt(off, fmt.Sprintf(format, args...))
	return &e
}

// run scans the whole text.
func (s *delimScanner) run() *Error {
	sc := lex.New(string(s.src), s.lang, lex.SkipSpace)
	for {
		t := sc.Next()
		if e, ok := sc.Err(); ok {
			return s.errorAt(e.Offset, "%s", e.Msg)
		}
		var err *Error
		switch t.Kind {
		case lex.EOF:
			return s.atEnd()
		case lex.Punct:
			switch c := s.src[t.Start]; c {
			case '(', '[', '{':
				s.stack = append(s.stack, open{ch: c, off: t.Start})
			case ')', ']', '}':
				err = s.close(c, t.Start)
			}
		case lex.StrOpen:
			s.stack = append(s.stack, open{ch: '$', off: holeAt(s.src, t.End), tmpl: t.Start})
		case lex.StrMid, lex.StrClose:
			n := len(s.stack)
			if n == 0 || s.stack[n-1].ch != '$' {
				err = s.close('}', t.Start)
				break
			}
			top := s.stack[n-1]
			s.stack = s.stack[:n-1]
			if t.Kind == lex.StrMid {
				s.stack = append(s.stack, open{ch: '$', off: holeAt(s.src, t.End), tmpl: top.tmpl})
			}
		}
		if err != nil {
			return err
		}
	}
}

// holeAt returns the offset of the interpolation opener ("${" or "{") that
// ends at end.
func holeAt(src []byte, end int) int {
	if end >= 2 && src[end-2] == '$' {
		return end - 2
	}
	return end - 1
}

// atEnd reports the innermost delimiter left open at the end of the text.
func (s *delimScanner) atEnd() *Error {
	n := len(s.stack)
	if n == 0 {
		return nil
	}
	top := s.stack[n-1]
	if top.ch == '$' {
		what := "string literal"
		if s.src[top.tmpl] == '`' {
			what = "template literal"
		}
		return s.errorAt(top.tmpl, "unterminated %s: `%s` opened at %s is never closed", what, top.name(s.src), s.p.pos(top.off))
	}
	msg := fmt.Sprintf("`%s` is never closed", top.name(s.src))
	if n > 1 {
		msg += fmt.Sprintf(" (%d delimiters are still open at the end of the file; this is the innermost)", n)
	}
	return s.errorAt(top.off, "%s%s", msg, s.hint())
}

// close matches the closer c at off against the innermost opener.
func (s *delimScanner) close(c byte, off int) *Error {
	n := len(s.stack)
	if n == 0 {
		return s.errorAt(off, "unmatched `%c`: nothing is open here%s", c, s.hint())
	}
	top := s.stack[n-1]
	if top.ch != opener(c) {
		return s.errorAt(off, "`%c` closes `%s` opened at %s", c, top.name(s.src), s.p.pos(top.off))
	}
	if s.oddClose < 0 && atLineStart(s.src, off) && s.endsLine(top.off) && indent(s.src, top.off) != indent(s.src, off) {
		s.oddClose, s.oddOpen = off, top.off
	}
	s.stack = s.stack[:n-1]
	return nil
}

// hint describes the first closer indented differently from its opener's
// line, a likely place for a missing or extra delimiter, or is "".
func (s *delimScanner) hint() string {
	if s.oddClose < 0 {
		return ""
	}
	return fmt.Sprintf("; check near the `%c` at %s, which is indented differently from the line of the `%c` it closes (%s)",
		s.src[s.oddClose], s.p.pos(s.oddClose), s.src[s.oddOpen], s.p.pos(s.oddOpen))
}

// atLineStart reports whether only spaces and tabs precede off on its line.
func atLineStart(src []byte, off int) bool {
	for j := off - 1; j >= 0; j-- {
		switch src[j] {
		case ' ', '\t':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

// endsLine reports whether only spaces, tabs and a line comment follow off
// on its line.
func (s *delimScanner) endsLine(off int) bool {
	for j := off + 1; j < len(s.src); j++ {
		switch s.src[j] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return bytes.HasPrefix(s.src[j:], []byte("//")) || (s.src[j] == '#' && !s.lang.Directives)
		}
	}
	return true
}

// indent returns the leading spaces and tabs of off's line.
func indent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// opener returns the opening delimiter for a closing one.
func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}
