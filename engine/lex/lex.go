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
// or comment) instead of stopping. The scanner is a value: copying it gives
// an independent lookahead.
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

var kindNames = [...]string{"EOF", "Space", "Text", "Comment", "Directive", "Ident", "Number",
	"String", "StrOpen", "StrMid", "StrClose", "Punct"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(?)"
}

// Token is one lexeme: src[Start:End], on lines Line..EndLine (1-based).
type Token struct {
	Kind          Kind
	NL            bool // the first token on its line other than Space
	Start, End    int
	Line, EndLine int
}

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
	err      Error
	nframes  int
	frames   [maxFrames]frame
}

// New returns a scanner of src in lang.
func New(src string, lang *Language) Scanner {
	return Scanner{src: src, lang: lang, line: 1, regexOK: true, html: lang.PHP}
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
	case s.space():
		t.Kind = Space
	default:
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
	depth, i := 0, s.pos
	for i < len(src) {
		switch rest := src[i:]; {
		case strings.HasPrefix(rest, op) && (depth == 0 || s.lang.NestedComments):
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
