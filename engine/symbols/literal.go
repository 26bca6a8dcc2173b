package symbols

// This file defines the lexing of string literals: quotes, raw strings,
// char literals and lifetimes, and the interpolations of template literals,
// f-strings and Kotlin and C# strings, whose expressions are lexed as code.

import (
	"strings"
	"unicode/utf8"
)

// pythonString lexes a Python string literal at pos (after its prefix).
func (lx *lexer) pythonString(f bool) tokKind {
	src := lx.src
	q := src[lx.pos]
	single := 0
	if q == '\'' {
		single = 1
	}
	triple := 0
	if strings.HasPrefix(src[lx.pos:], strings.Repeat(string(q), 3)) {
		triple = 1
	}
	fi := 0
	if f {
		fi = 1
	}
	qt := pyQuotes[triple][fi][single]
	lx.pos += len(qt.delim)
	return lx.body(qt, tString, tStrOpen)
}

// rustRaw lexes a Rust raw string r#"..."# at pos (after its prefix), or a
// raw identifier r#name.
func (lx *lexer) rustRaw() (tokKind, bool) {
	src := lx.src
	i := lx.pos
	for i < len(src) && src[i] == '#' {
		i++
	}
	hashes := i - lx.pos
	if i < len(src) && src[i] == '"' {
		closing := "\"" + strings.Repeat("#", hashes)
		end := len(src)
		if j := strings.Index(src[i+1:], closing); j >= 0 {
			end = i + 1 + j + len(closing)
		}
		lx.advance(end)
		return tString, true
	}
	if hashes == 1 && i < len(src) && isIdentByte(src[i], false) {
		lx.pos = i
		for lx.pos < len(src) && isIdentByte(src[lx.pos], false) {
			lx.pos++
		}
		return tIdent, true
	}
	return 0, false
}

// cppRaw lexes a C++ raw string R"delim(...)delim" at its '"'.
func (lx *lexer) cppRaw() {
	src := lx.src
	open := strings.IndexByte(src[lx.pos:], '(')
	nl := strings.IndexByte(src[lx.pos:], '\n')
	if open < 0 || nl >= 0 && nl < open || open > 17 {
		lx.pos++ // not a raw string after all: a plain string
		lx.body(qDouble, tString, tString)
		return
	}
	closing := ")" + src[lx.pos+1:lx.pos+open] + "\""
	end := len(src)
	if j := strings.Index(src[lx.pos+open+1:], closing); j >= 0 {
		end = lx.pos + open + 1 + j + len(closing)
	}
	lx.advance(end)
}

// csharpString lexes C#'s @"", $"", $@"", @$"" strings at pos.
func (lx *lexer) csharpString() (tokKind, bool) {
	src := lx.src
	i := lx.pos
	verbatim, interp := false, false
	for i < len(src) && (src[i] == '@' || src[i] == '$') {
		if src[i] == '@' {
			verbatim = true
		} else {
			interp = true
		}
		i++
	}
	if i >= len(src) || src[i] != '"' || i-lx.pos > 3 {
		return 0, false
	}
	if strings.HasPrefix(src[i:], `"""`) {
		lx.pos = i
		lx.rawQuotes()
		return tString, true
	}
	lx.pos = i + 1
	q := qCSVerbatim
	switch {
	case verbatim && interp:
		q = qCSVerbInt
	case interp:
		q = qCSInterp
	}
	return lx.body(q, tString, tStrOpen), true
}

// rawQuotes lexes a literal opened by three or more '"' and closed by as many
// (C# raw strings).
func (lx *lexer) rawQuotes() {
	src := lx.src
	i := lx.pos
	for i < len(src) && src[i] == '"' {
		i++
	}
	closing := src[lx.pos:i]
	end := len(src)
	if j := strings.Index(src[i:], closing); j >= 0 {
		end = i + j + len(closing)
	}
	lx.advance(end)
}

// quoted lexes a literal that opens with ", ' or `.
func (lx *lexer) quoted() tokKind {
	src := lx.src
	c := src[lx.pos]
	switch lx.lang.id {
	case langPython:
		return lx.pythonString(false)
	case langGo:
		switch c {
		case '`':
			lx.pos++
			return lx.body(qGoRaw, tString, tString)
		case '\'':
			lx.pos++
			return lx.body(qSingle, tString, tString)
		}
	case langJS:
		switch c {
		case '`':
			lx.pos++
			return lx.body(qJSTemplate, tString, tStrOpen)
		case '\'':
			lx.pos++
			return lx.body(qSingle, tString, tString)
		}
	case langRust:
		if c == '\'' {
			return lx.rustQuote()
		}
		lx.pos++
		return lx.body(qDoubleML, tString, tString)
	case langKotlin:
		switch {
		case c == '`':
			lx.pos++
			lx.body(qKtIdent, tIdent, tIdent)
			return tIdent
		case strings.HasPrefix(src[lx.pos:], `"""`):
			lx.pos += 3
			return lx.body(qKtRaw, tString, tStrOpen)
		case c == '"':
			lx.pos++
			return lx.body(qKtString, tString, tStrOpen)
		}
	case langJava:
		if strings.HasPrefix(src[lx.pos:], `"""`) {
			lx.pos += 3
			return lx.body(qTextBlock, tString, tString)
		}
	case langCSharp:
		if strings.HasPrefix(src[lx.pos:], `"""`) {
			lx.rawQuotes()
			return tString
		}
	}
	switch c {
	case '"':
		lx.pos++
		return lx.body(qDouble, tString, tString)
	case '\'':
		lx.pos++
		return lx.body(qSingle, tString, tString)
	}
	lx.pos++ // a stray backtick
	return tPunct
}

// rustQuote lexes a Rust char literal, or a lifetime or label ('a) as an
// identifier.
func (lx *lexer) rustQuote() tokKind {
	src := lx.src
	i := lx.pos + 1
	if i < len(src) && src[i] == '\\' {
		lx.pos++
		return lx.body(qSingle, tString, tString)
	}
	if i < len(src) {
		_, size := utf8.DecodeRuneInString(src[i:])
		if i+size < len(src) && src[i+size] == '\'' && src[i] != '\n' {
			lx.pos = i + size + 1
			return tString
		}
	}
	lx.pos = i
	for lx.pos < len(src) && isIdentByte(src[lx.pos], false) {
		lx.pos++
	}
	return tIdent
}

// body lexes string text from pos up to and including the closing delimiter
// of q, or up to an interpolation's opener. It returns whole if the literal
// ended, or open after pushing a frame for the interpolation.
func (lx *lexer) body(q *quote, whole, open tokKind) tokKind {
	src := lx.src
	i := lx.pos
	d0 := q.delim[0]
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\' && q.esc:
			i += 2
			if i <= len(src) && src[i-1] == '\n' {
				lx.line++
			}
			continue
		case c == '\n':
			if !q.multiline {
				lx.pos = i
				return whole
			}
			lx.line++
		case c == d0 && strings.HasPrefix(src[i:], q.delim):
			if q.doubled && i+1 < len(src) && src[i+1] == d0 {
				i += 2
				continue
			}
			lx.pos = i + len(q.delim)
			return whole
		case q.interp == interpDollar && c == '$' && i+1 < len(src) && src[i+1] == '{':
			if lx.push(q) {
				lx.pos = i + 2
				return open
			}
		case q.interp == interpBrace && c == '{':
			if i+1 < len(src) && src[i+1] == '{' {
				i += 2
				continue
			}
			if lx.push(q) {
				lx.pos = i + 1
				return open
			}
		}
		i++
	}
	if i > len(src) {
		i = len(src)
	}
	lx.pos = i
	return whole
}

func (lx *lexer) push(q *quote) bool {
	if lx.nframes == maxFrames {
		return false
	}
	lx.frames[lx.nframes] = frame{q: q}
	lx.nframes++
	return true
}

// interpolationPunct handles brackets inside an interpolated expression: the
// '}' that closes it (or a format spec's ':') resumes the string.
func (lx *lexer) interpolationPunct(c byte) (tokKind, bool) {
	f := &lx.frames[lx.nframes-1]
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
		lx.pos++
		return lx.resume(f.q), true
	case ':':
		if f.depth == 0 && f.q.spec && !strings.HasPrefix(lx.src[lx.pos:], ":=") {
			lx.formatSpec()
			return lx.resume(f.q), true
		}
	}
	return 0, false
}

// formatSpec skips a format spec up to and including the '}' that ends its
// interpolation (nested {width} fields included).
func (lx *lexer) formatSpec() {
	src := lx.src
	nest := 0
	for i := lx.pos + 1; i < len(src); i++ {
		switch src[i] {
		case '{':
			nest++
		case '}':
			if nest == 0 {
				lx.advance(i + 1)
				return
			}
			nest--
		case '\n':
			if !lx.frames[lx.nframes-1].q.multiline {
				lx.advance(i)
				return
			}
		}
	}
	lx.advance(len(src))
}

// resume continues the string of the innermost frame after an interpolation.
func (lx *lexer) resume(q *quote) tokKind {
	lx.nframes--
	k := lx.body(q, tStrClose, tStrMid)
	return k
}
