package symbols

// This file defines the lexer: it splits source into identifiers, numbers,
// punctuation, literals and comments, so that braces and keywords inside
// strings, runes, raw strings, template literals, regular expressions and
// comments are never mistaken for code.
//
// The lexer is a value: copying it (see [cursor]) gives an independent
// lookahead, which is how declaration headers are parsed without backing up.

import (
	"strings"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF       tokKind = iota
	tIdent             // identifier or keyword; also a Rust lifetime 'a
	tNumber            // numeric literal
	tString            // a whole string, char, rune, or regular-expression literal
	tStrOpen           // literal text up to an interpolation's opener: `a${  f"a{
	tStrMid            // from an interpolation's end to the next opener: }b${
	tStrClose          // from the last interpolation's end to the closing quote: }c`
	tComment           // a comment
	tDirective         // a C preprocessor line
	tPunct             // an operator or a bracket
)

// token is one lexeme: src[start:end], on lines line..endLine (1-based).
type token struct {
	kind          tokKind
	nl            bool // first on its line (lexer); a line break since the previous code token (cursor)
	start, end    int
	line, endLine int
}

// maxFrames bounds the nesting of interpolations the lexer follows; deeper
// ones are lexed as plain string text.
const maxFrames = 16

// frame is an open interpolation: the string to resume and the bracket depth
// inside the interpolated expression.
type frame struct {
	q     *quote
	depth int32
}

type lexer struct {
	src      string
	lang     *language
	pos      int
	line     int // line at pos
	lastLine int // endLine of the previous token of any kind
	regexOK  bool
	nframes  int
	frames   [maxFrames]frame
}

func newLexer(src string, lang *language) lexer {
	return lexer{src: src, lang: lang, line: 1, regexOK: true}
}

func isIdentByte(c byte, dollar bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c >= utf8.RuneSelf || dollar && c == '$'
}

// advance moves pos to end, counting the line breaks passed.
func (lx *lexer) advance(end int) {
	if end > len(lx.src) {
		end = len(lx.src)
	}
	lx.line += strings.Count(lx.src[lx.pos:end], "\n")
	lx.pos = end
}

// next returns the next token, comments and directives included.
func (lx *lexer) next() token {
	src := lx.src
	for lx.pos < len(src) {
		c := src[lx.pos]
		if c == '\n' {
			lx.line++
		} else if c == '\\' && lx.lang.python && lx.pos+1 < len(src) && (src[lx.pos+1] == '\n' ||
			src[lx.pos+1] == '\r' && lx.pos+2 < len(src) && src[lx.pos+2] == '\n') {
			// An explicit line joining: the next line continues this one.
			lx.pos++
			if src[lx.pos] == '\r' {
				lx.pos++
			}
			lx.pos++
			lx.line++
			lx.lastLine = lx.line
			continue
		} else if c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v' {
			break
		}
		lx.pos++
	}
	t := token{start: lx.pos, line: lx.line, nl: lx.line > lx.lastLine}
	t.kind = lx.scan(t.nl)
	t.end = lx.pos
	t.endLine = lx.line
	if t.kind == tEOF {
		t.endLine = t.line
	}
	if t.kind != tComment && t.kind != tDirective {
		lx.noteRegex(t)
	}
	lx.lastLine = t.endLine
	return t
}

// scan lexes one token at pos and returns its kind.
func (lx *lexer) scan(firstOnLine bool) tokKind {
	src, lang := lx.src, lx.lang
	if lx.pos >= len(src) {
		return tEOF
	}
	c := src[lx.pos]
	var c1 byte
	if lx.pos+1 < len(src) {
		c1 = src[lx.pos+1]
	}
	switch {
	case lx.pos == 0 && c == '#' && c1 == '!' && !strings.HasPrefix(src, "#!["):
		lx.lineComment()
		return tComment
	case c == '#' && lang.python:
		lx.lineComment()
		return tComment
	case c == '#' && lang.directives && firstOnLine:
		lx.directive()
		return tDirective
	case c == '/' && c1 == '/' && !lang.python:
		lx.lineComment()
		return tComment
	case c == '/' && c1 == '*' && !lang.python:
		lx.blockComment()
		return tComment
	case c == '/' && lang.regex && lx.regexOK && lx.regexLiteral():
		return tString
	case c >= '0' && c <= '9':
		lx.number()
		return tNumber
	case isIdentByte(c, lang.dollarIdent):
		return lx.ident()
	case c == '"' || c == '\'' || c == '`':
		return lx.quoted()
	case lang.id == langCSharp && (c == '@' || c == '$'):
		if k, ok := lx.csharpString(); ok {
			return k
		}
	}
	if lx.nframes > 0 {
		if k, ok := lx.interpolationPunct(c); ok {
			return k
		}
	}
	lx.punct()
	return tPunct
}

func (lx *lexer) lineComment() {
	if i := strings.IndexByte(lx.src[lx.pos:], '\n'); i >= 0 {
		lx.pos += i
	} else {
		lx.pos = len(lx.src)
	}
}

func (lx *lexer) directive() {
	for {
		lx.lineComment()
		if lx.pos < len(lx.src) && lx.pos > 0 && lx.src[lx.pos-1] == '\\' ||
			lx.pos > 1 && lx.src[lx.pos-1] == '\r' && lx.src[lx.pos-2] == '\\' {
			lx.pos++
			lx.line++
			continue
		}
		return
	}
}

func (lx *lexer) blockComment() {
	src := lx.src
	if !lx.lang.nestedComments {
		end := len(src)
		if i := strings.Index(src[lx.pos+2:], "*/"); i >= 0 {
			end = lx.pos + 2 + i + 2
		}
		lx.advance(end)
		return
	}
	depth := 0
	i := lx.pos
	for i < len(src) {
		switch {
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			depth++
			i += 2
		case src[i] == '*' && i+1 < len(src) && src[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				lx.advance(i)
				return
			}
		default:
			i++
		}
	}
	lx.advance(len(src))
}

func (lx *lexer) number() {
	src := lx.src
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case isIdentByte(c, false) || c == '.' && lx.pos+1 < len(src) && src[lx.pos+1] != '.':
			lx.pos++
		case c == '\'' && lx.lang.digitSep && lx.pos+1 < len(src) && isIdentByte(src[lx.pos+1], false):
			lx.pos++
		case (c == '+' || c == '-') && (src[lx.pos-1] == 'e' || src[lx.pos-1] == 'E'):
			lx.pos++
		default:
			return
		}
	}
}

// ident lexes an identifier, or a string literal whose prefix it is
// (Python r"", f"", Rust r#""#, C++ R"()").
func (lx *lexer) ident() tokKind {
	src := lx.src
	start := lx.pos
	for lx.pos < len(src) && isIdentByte(src[lx.pos], lx.lang.dollarIdent) {
		lx.pos++
	}
	if lx.pos >= len(src) {
		return tIdent
	}
	word, next := src[start:lx.pos], src[lx.pos]
	switch lx.lang.id {
	case langPython:
		if (next == '"' || next == '\'') && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbuft") == "" {
			f := strings.ContainsAny(word, "fFtT")
			return lx.pythonString(f)
		}
	case langRust:
		if word == "r" || word == "br" || word == "cr" {
			if k, ok := lx.rustRaw(); ok {
				return k
			}
		}
	case langC:
		if strings.HasSuffix(word, "R") && next == '"' && (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R") {
			lx.cppRaw()
			return tString
		}
	}
	return tIdent
}

// regexLiteral lexes a JavaScript regular expression at pos, if one ends on
// this line; otherwise it leaves pos alone and reports false.
func (lx *lexer) regexLiteral() bool {
	src := lx.src
	class := false
	for i := lx.pos + 1; i < len(src); i++ {
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
			if i == lx.pos+1 {
				return false
			}
			i++
			for i < len(src) && isIdentByte(src[i], false) {
				i++
			}
			lx.pos = i
			return true
		}
	}
	return false
}

// regexKeywords are the words after which a '/' starts a regular expression.
var regexKeywords = set("return", "typeof", "instanceof", "in", "of", "new", "delete",
	"void", "throw", "case", "do", "else", "yield", "await")

// noteRegex records whether a '/' after t would start a regular expression.
func (lx *lexer) noteRegex(t token) {
	if !lx.lang.regex {
		return
	}
	switch t.kind {
	case tIdent:
		lx.regexOK = regexKeywords[lx.src[t.start:t.end]]
	case tNumber, tString, tStrClose:
		lx.regexOK = false
	case tPunct:
		c := lx.src[t.start]
		lx.regexOK = !(c == ')' || c == ']') && lx.src[t.start:t.end] != "++" && lx.src[t.start:t.end] != "--"
	default:
		lx.regexOK = true
	}
}

// punctuators of more than one byte, longest first.
var multiPunct = []string{"...", "===", "!==", "::", "->", "=>", "<-", "?.", "??", "++", "--",
	"&&", "||", "==", "!=", "<=", ">=", ":=", ".."}

func (lx *lexer) punct() {
	rest := lx.src[lx.pos:]
	if c := rest[0]; c >= utf8.RuneSelf {
		_, size := utf8.DecodeRuneInString(rest)
		lx.pos += size
		return
	} else if !strings.ContainsRune(".=!:-<?+&|", rune(c)) || len(rest) == 1 {
		lx.pos++
		return
	}
	for _, p := range multiPunct {
		if strings.HasPrefix(rest, p) {
			if p == "<-" && lx.lang.id != langGo {
				continue
			}
			lx.pos += len(p)
			return
		}
	}
	_, size := utf8.DecodeRuneInString(rest)
	lx.pos += size
}
