package lex

// This file defines the string forms and the lexing of their bodies:
// escapes, doubled quotes, multi-line and triple-quoted strings, and the
// interpolations of template literals, f-strings and Kotlin and C#
// strings, whose expressions are lexed as code.

import (
	"fmt"
	"strings"
)

// quote describes one kind of string literal: how it ends and what may
// appear inside.
type quote struct {
	delim     string // the closing delimiter
	what      string // how errors name the literal: "string literal"
	esc       bool   // a backslash escapes the next byte
	multiline bool   // the literal may span lines (else a newline ends it)
	doubled   bool   // a doubled delimiter is an escaped delimiter (C# @"")
	run       bool   // the literal ends at the end of a run of delimiter bytes (Kotlin """"")
	lenient   bool   // unterminated on its line, the quote was text (JSX)
	interp    uint8  // how an interpolated expression opens
	spec      bool   // ':' at the top of an interpolation starts a format spec (Python, C#)
	ident     bool   // the literal is a quoted identifier
}

// Interpolation openers.
const (
	interpNone   = iota
	interpDollar // ${ expr } (JavaScript, Kotlin)
	interpBrace  // { expr }, with {{ as a literal brace (Python, C#)
)

// forms are the string forms of one language, by opener.
type forms struct {
	double, single, triple *quote
	python                 [2][2][2]*quote // [triple][f-string][quote is ']
}

// The forms that do not vary between languages.
var (
	qTemplate   = &quote{delim: "`", what: "template literal", esc: true, multiline: true, interp: interpDollar}
	qGoRaw      = &quote{delim: "`", what: "raw string literal", multiline: true}
	qBacktickID = &quote{delim: "`", what: "quoted identifier", ident: true}
	qCSVerbatim = &quote{delim: `"`, what: "verbatim string", multiline: true, doubled: true}
	qCSInterp   = &quote{delim: `"`, what: "string literal", esc: true, interp: interpBrace, spec: true}
	qCSVerbInt  = &quote{delim: `"`, what: "verbatim string", multiline: true, doubled: true, interp: interpBrace, spec: true}
)

// makeForms derives l's string forms from its fields.
func makeForms(l *Language) forms {
	var interp uint8
	if l.DollarInterp {
		interp = interpDollar
	}
	plain := func(d string, interp uint8) *quote {
		return &quote{delim: d, what: "string literal", esc: true, multiline: l.Multiline,
			lenient: l.Lenient, interp: interp}
	}
	f := forms{double: plain(`"`, interp), single: plain(`'`, interpNone),
		triple: &quote{delim: `"""`, what: "multi-line string", esc: l.TripleEscapes, multiline: true,
			run: l.TripleRun, interp: interp}}
	if !l.PyPrefixes {
		return f
	}
	for t := range 2 {
		for fs := range 2 {
			for sq, d := range []string{`"`, `'`} {
				q := &quote{delim: d, what: "string literal", esc: true}
				if t == 1 {
					q.delim, q.what, q.multiline = strings.Repeat(d, 3), "multi-line string", true
				}
				if fs == 1 {
					q.interp, q.spec = interpBrace, true
				}
				f.python[t][fs][sq] = q
			}
		}
	}
	return f
}

// quoted lexes a literal that opens with ", ' or `.
func (s *Scanner) quoted() Kind {
	src, lang, start := s.src, s.lang, s.pos
	c := src[s.pos]
	switch {
	case lang.PyPrefixes:
		return s.pythonString(start, false)
	case c == '`' && lang.Template:
		s.pos++
		return s.body(qTemplate, start, String, StrOpen)
	case c == '`' && lang.BacktickRaw:
		s.pos++
		return s.body(qGoRaw, start, String, String)
	case c == '`' && lang.BacktickIdents:
		s.pos++
		return s.body(qBacktickID, start, Ident, Ident)
	case c == '"' && lang.CSharp && strings.HasPrefix(src[s.pos:], `"""`):
		return s.rawQuotes(start)
	case c == '"' && strings.IndexByte(lang.Triple, '"') >= 0 && strings.HasPrefix(src[s.pos:], `"""`):
		s.pos += 3
		return s.body(lang.forms.triple, start, String, StrOpen)
	case strings.IndexByte(lang.Quotes, c) >= 0:
		q := lang.forms.double
		if c == '\'' {
			q = lang.forms.single
		}
		s.pos++
		return s.body(q, start, String, StrOpen)
	}
	s.pos++ // a stray quote
	return Punct
}

// pythonString lexes a Python string literal whose prefix starts at start,
// pos being on its quote.
func (s *Scanner) pythonString(start int, f bool) Kind {
	q := s.src[s.pos]
	single, triple, fi := 0, 0, 0
	if q == '\'' {
		single = 1
	}
	if strings.HasPrefix(s.src[s.pos:], strings.Repeat(string(q), 3)) {
		triple = 1
	}
	if f {
		fi = 1
	}
	qt := s.lang.forms.python[triple][fi][single]
	s.pos += len(qt.delim)
	return s.body(qt, start, String, StrOpen)
}

// charQuote lexes what a ' opens where it may also start a lifetime, label
// or symbol: a character literal ('x', '\n', '\u{1F600}') if one closes,
// else 'name as an identifier, else the quote alone.
func (s *Scanner) charQuote() Kind {
	if end := charLiteralEnd(s.src, s.pos); end > 0 {
		s.pos = end
		return String
	}
	s.pos++
	if s.pos < len(s.src) && isIdentByte(s.src[s.pos], false) {
		for s.pos < len(s.src) && isIdentByte(s.src[s.pos], false) {
			s.pos++
		}
		return Ident
	}
	return Punct
}

// charLiteralEnd returns the offset just past a character literal opened at
// i, or 0 if the quote does not open one.
func charLiteralEnd(src string, i int) int {
	j := i + 1
	if j >= len(src) {
		return 0
	}
	switch src[j] {
	case '\\':
		// The escaped byte may be a quote, but not a line break.
		for k := j + 1; k < len(src) && k <= j+12; k++ {
			switch src[k] {
			case '\n':
				return 0
			case '\'':
				if k > j+1 {
					return k + 1
				}
			}
		}
		return 0
	case '\'', '\n', '\r':
		return 0
	}
	size := 1
	if src[j] >= 0x80 {
		for size < 4 && j+size < len(src) && src[j+size]&0xC0 == 0x80 {
			size++
		}
	}
	if j+size < len(src) && src[j+size] == '\'' {
		return j + size + 1
	}
	return 0
}

// body lexes string text from pos up to and including the closing
// delimiter of q, or up to an interpolation's opener. It returns whole if
// the literal ended, or open after pushing a frame for the interpolation.
// start is where the literal began, for errors.
func (s *Scanner) body(q *quote, start int, whole, open Kind) Kind {
	src := s.src
	i := s.pos
	d0 := q.delim[0]
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\' && q.esc:
			if strings.HasPrefix(src[i+1:], "\r\n") {
				i++
			}
			i += 2
			if i <= len(src) && src[i-1] == '\n' {
				s.line++
			}
			continue
		case c == '\n':
			if !q.multiline {
				return s.unterminated(q, start, i, whole)
			}
			s.line++
		case c == d0 && strings.HasPrefix(src[i:], q.delim):
			switch {
			case q.doubled && i+1 < len(src) && src[i+1] == d0:
				i += 2
				continue
			case q.run:
				for i+len(q.delim) < len(src) && src[i+len(q.delim)] == d0 {
					i++
				}
			}
			s.pos = i + len(q.delim)
			return whole
		case q.interp == interpDollar && c == '$' && i+1 < len(src) && src[i+1] == '{':
			if s.push(q, start) {
				s.pos = i + 2
				return open
			}
		case q.interp == interpBrace && c == '{':
			if i+1 < len(src) && src[i+1] == '{' {
				i += 2
				continue
			}
			if s.push(q, start) {
				s.pos = i + 1
				return open
			}
		}
		i++
	}
	return s.unterminated(q, start, len(src), whole)
}

// unterminated ends a literal of q that started at start and is cut at
// end, a line break or the end of the text, and records the error; a
// lenient quote is punctuation instead.
func (s *Scanner) unterminated(q *quote, start, end int, whole Kind) Kind {
	if q.lenient {
		s.line -= strings.Count(s.src[start:end], "\n")
		s.pos = start + 1
		return Punct
	}
	s.pos = end
	switch {
	case len(q.delim) > 1 || q == qTemplate:
		s.fail(start, fmt.Sprintf("unterminated %s: no closing %s", q.what, q.delim))
	case end < len(s.src):
		s.fail(start, fmt.Sprintf("unterminated %s: no closing %s on its line", q.what, q.delim))
	default:
		s.fail(start, fmt.Sprintf("unterminated %s: no closing %s before the end of the file", q.what, q.delim))
	}
	return whole
}

func (s *Scanner) push(q *quote, start int) bool {
	if s.nframes == maxFrames {
		return false
	}
	s.frames[s.nframes] = frame{q: q, start: start}
	s.nframes++
	return true
}

// interpolationPunct handles brackets inside an interpolated expression:
// the '}' that closes it (or a format spec's ':') resumes the string.
func (s *Scanner) interpolationPunct(c byte) (Kind, bool) {
	f := &s.frames[s.nframes-1]
	switch c {
	case '(', '[', '{':
		f.depth++
	case ')', ']':
		if f.depth > 0 {
			f.depth--
		}
	case '}':
		if f.depth > 0 {
			f.depth--
			break
		}
		s.pos++
		return s.resume(), true
	case ':':
		if f.depth == 0 && f.q.spec && !strings.HasPrefix(s.src[s.pos:], ":=") {
			s.formatSpec()
			return s.resume(), true
		}
	}
	return 0, false
}

// formatSpec skips a format spec up to and including the '}' that ends its
// interpolation (nested {width} fields included).
func (s *Scanner) formatSpec() {
	src := s.src
	nest := 0
	for i := s.pos + 1; i < len(src); i++ {
		switch src[i] {
		case '{':
			nest++
		case '}':
			if nest == 0 {
				s.advance(i + 1)
				return
			}
			nest--
		case '\n':
			if !s.frames[s.nframes-1].q.multiline {
				s.advance(i)
				return
			}
		}
	}
	s.advance(len(src))
}

// resume continues the string of the innermost frame after an
// interpolation.
func (s *Scanner) resume() Kind {
	s.nframes--
	f := s.frames[s.nframes]
	return s.body(f.q, f.start, StrClose, StrMid)
}
