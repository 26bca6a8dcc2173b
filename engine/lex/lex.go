// Package lex splits source files into tokens for the lexical consumers of
// the engine: engine/symbols finds declarations in the token stream, and
// engine/syntax checks that its brackets balance. Both need the same thing
// of a language, which this package is the one place for: where comments,
// strings, raw strings, verbatim strings, template literals and regular
// expressions begin and end, so that the brackets and keywords inside them
// are never taken for code.
//
// Languages are data ([Language]), chosen by file extension from one table
// ([ForFile]). A [Scanner] yields every byte of its input in [Token]s, in
// order (whitespace and comments included), like rustc_lexer; like
// go/scanner, it records the first lexical error (an unterminated literal
// or comment) instead of stopping. A consumer that has no use for the
// whitespace asks for [SkipSpace], which saves a call per token. The
// scanner is a value: copying it gives an independent lookahead.
package lex

import (
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a [Token].
type Kind uint8

// Token kinds.
const (
	EOF       Kind = iota
	Space          // spaces, tabs and line breaks (and Python's backslash line joins)
	Text           // PHP: HTML outside <?php ... ?>, the opening tag included
	Comment        // a line or block comment, or a shebang line
	Directive      // a preprocessor line, with its continuations
	Ident          // an identifier or keyword; also a lifetime 'a and a quoted `name`
	Number         // a numeric literal
	String         // a whole string, character, regular-expression or url(...) literal
	StrOpen        // string text up to an interpolation's opener: `a${  f"a{
	StrMid         // from an interpolation's '}' to the next opener: }b${
	StrClose       // from the last interpolation's '}' to the closing quote: }c`
	Punct          // an operator or a bracket
)

// Token is one lexeme: src[Start:End], on lines Line..EndLine (1-based).
type Token struct {
	Kind          Kind
	NL            bool // the first token on its line other than Space
	Start, End    int
	Line, EndLine int
}

// Mode selects what a [Scanner] yields.
type Mode uint8

// Modes.
const (
	// SkipSpace leaves out the Space tokens: the tokens no longer tile
	// the input, but every other token is the same as without it.
	SkipSpace Mode = 1 << iota
)

// Error is a lexical error: an unterminated literal or comment.
type Error struct {
	Offset int // where the literal or comment starts
	Msg    string
}

// maxFrames bounds the nesting of interpolations the scanner follows;
// deeper ones are lexed as plain string text.
const maxFrames = 16

// frame is an open interpolation: the string to resume, where it started,
// and the bracket depth inside the interpolated expression.
type frame struct {
	q     *quote
	start int
	depth int32
}

// Scanner is the state of a scan.
type Scanner struct {
	src      string
	lang     *Language
	pos      int
	line     int // line at pos
	lastLine int // EndLine of the previous token other than Space
	regexOK  bool
	html     bool // PHP: outside <?php ... ?>
	mode     Mode
	err      Error
	nframes  int
	frames   [maxFrames]frame
}

// New returns a scanner of src in lang.
func New(src string, lang *Language, mode Mode) Scanner {
	return Scanner{src: src, lang: lang, line: 1, regexOK: true, html: lang.PHP, mode: mode}
}

// NewAt returns a scanner of src in lang that starts at offset pos, on
// line line, in the state that follows a token ending before pos on an
// earlier line: in code, no interpolation open, outside PHP's HTML, where a
// regular expression may start. The caller must know that a scan from the
// start is in that state at pos (engine/symbols proves it for Go at the
// line starts it resumes from).
func NewAt(src string, lang *Language, mode Mode, pos, line int) Scanner {
	return Scanner{src: src, lang: lang, pos: pos, line: line, lastLine: line - 1, regexOK: true, mode: mode}
}

// Pos returns the offset where the next token starts.
func (s *Scanner) Pos() int { return s.pos }

// Err returns the first lexical error met so far.
func (s *Scanner) Err() (Error, bool) { return s.err, s.err.Msg != "" }

// fail records an error at offset, if none is recorded yet.
func (s *Scanner) fail(offset int, msg string) {
	if s.err.Msg == "" {
		s.err = Error{Offset: offset, Msg: msg}
	}
}

func isIdentByte(c byte, dollar bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c >= utf8.RuneSelf || dollar && c == '$'
}

// advance moves pos to end, counting the line breaks passed.
func (s *Scanner) advance(end int) {
	end = min(end, len(s.src))
	s.line += strings.Count(s.src[s.pos:end], "\n")
	s.pos = end
}

// Next returns the next token; at the end, a token of kind EOF.
func (s *Scanner) Next() Token {
	t := Token{Start: s.pos, Line: s.line}
	switch {
	case s.pos >= len(s.src):
		t.Kind, t.NL = EOF, s.line > s.lastLine
	case s.html:
		s.htmlText()
		t.Kind = Text
	case s.space() && s.mode&SkipSpace == 0:
		t.Kind = Space
	case s.pos >= len(s.src): // after skipped space
		t.Start, t.Line = s.pos, s.line
		t.Kind, t.NL = EOF, s.line > s.lastLine
	default:
		t.Start, t.Line = s.pos, s.line
		t.NL = s.line > s.lastLine
		t.Kind = s.scan(t.NL)
		if t.Kind != Comment && t.Kind != Directive {
			s.noteRegex(t)
		}
	}
	t.End, t.EndLine = s.pos, s.line
	if t.Kind != Space {
		s.lastLine = t.EndLine
	}
	return t
}

// space skips whitespace at pos and reports whether there was any.
func (s *Scanner) space() bool {
	src, start := s.src, s.pos
	for s.pos < len(src) {
		switch c := src[s.pos]; c {
		case '\n':
			s.line++
		case ' ', '\t', '\r', '\f', '\v':
		case '\\':
			if !s.lang.LineJoin {
				return s.pos > start
			}
			// An explicit line join: the next line continues this one.
			rest := src[s.pos+1:]
			if strings.HasPrefix(rest, "\r\n") {
				s.pos++
			} else if !strings.HasPrefix(rest, "\n") {
				return s.pos > start
			}
			s.pos += 2
			s.line++
			s.lastLine = s.line
			continue
		default:
			return s.pos > start
		}
		s.pos++
	}
	return s.pos > start
}

// scan lexes one token at pos and returns its kind.
func (s *Scanner) scan(firstOnLine bool) Kind {
	src, lang := s.src, s.lang
	c := src[s.pos]
	if c >= 'A' && c != '`' && c != '|' && c != '~' && c < utf8.RuneSelf && isIdentByte(c, false) {
		return s.ident() // no comment, directive or literal starts with a letter or '_'
	}
	if !lang.starts[c] && s.pos > 0 {
		return s.punctOrResume(c)
	}
	c1 := s.peek(1)
	switch {
	case lang.PHP && c == '?' && c1 == '>':
		s.pos += 2
		s.html = true
		return Punct
	case s.pos == 0 && c == '#' && c1 == '!' && !lang.NoShebang && !strings.HasPrefix(src, "#!["):
		s.lineComment()
		return Comment
	case s.atLineComment():
		s.lineComment()
		return Comment
	case lang.BlockOpen != "" && strings.HasPrefix(src[s.pos:], lang.BlockOpen):
		s.blockComment()
		return Comment
	case c == '#' && lang.Directives && firstOnLine:
		s.directive()
		return Directive
	case c == '/' && lang.Regex && s.regexOK && s.regexLiteral():
		return String
	case c >= '0' && c <= '9':
		s.number()
		return Number
	case isIdentByte(c, lang.DollarIdent):
		return s.ident()
	case c == '\'' && lang.CharQuote:
		return s.charQuote()
	case c == '"' || c == '\'' || c == '`':
		return s.quoted()
	case lang.CSharp && (c == '@' || c == '$'):
		if k, ok := s.csharpString(); ok {
			return k
		}
	case lang.SwiftRaw && c == '#':
		return s.hashRaw(s.pos, s.pos)
	case lang.PHP && c == '<' && strings.HasPrefix(src[s.pos:], "<<<"):
		return s.heredoc()
	}
	return s.punctOrResume(c)
}

// punctOrResume lexes a punctuator at pos, c, or, inside an interpolation,
// the string text its '}' resumes.
func (s *Scanner) punctOrResume(c byte) Kind {
	if s.nframes > 0 {
		if k, ok := s.interpolationPunct(c); ok {
			return k
		}
	}
	s.punct()
	return Punct
}

// peek returns the byte k after pos, or 0 past the end.
func (s *Scanner) peek(k int) byte {
	if s.pos+k < len(s.src) {
		return s.src[s.pos+k]
	}
	return 0
}
