package symbols

// This file defines the scanner of the brace languages: it walks the code
// tokens once, keeps the stack of open brackets, and at each statement start
// asks the language's declaration parser whether a declaration begins there.
// Extents are computed only for the declarations the caller asks about.

import (
	"errors"

	"github.com/devbroker/devbroker/engine/lex"
)

// The token kinds the scanner sees (it asks lex to skip Space).
type tokKind = lex.Kind

const (
	tEOF       = lex.EOF
	tIdent     = lex.Ident // also a Rust lifetime 'a
	tNumber    = lex.Number
	tString    = lex.String // a whole string, char, rune, or regular-expression literal
	tStrOpen   = lex.StrOpen
	tStrMid    = lex.StrMid
	tStrClose  = lex.StrClose
	tComment   = lex.Comment
	tDirective = lex.Directive
	tPunct     = lex.Punct
)

// token is one lexeme: src[start:end], on lines line..endLine (1-based).
type token struct {
	kind          tokKind
	nl            bool // first on its line (lexer); a line break since the previous code token (cursor)
	start, end    int
	line, endLine int
}

// cursor yields code tokens, skipping comments and directives, and tracks the
// runs of comment-only lines so that a declaration can claim its doc comment.
// Copying a cursor gives an independent lookahead.
type cursor struct {
	lx       lex.Scanner
	prevEnd  int // endLine of the previous code token (0: none)
	runStart int // the current run of comment-only lines starts...
	runEnd   int // ...and ends on these lines (runEnd 0: no run)
	doc      int // the first line of the doc comment of the last token returned, or 0
}

func newCursor(src string, lang *language) cursor {
	return cursor{lx: lex.New(src, lang.lex, lex.SkipSpace)}
}

// newCursorAt returns a cursor that starts at offset pos, on line line,
// where a cursor from the start would have no comment run open (see
// [lex.NewAt]).
func newCursorAt(src string, lang *language, pos, line int) cursor {
	return cursor{lx: lex.NewAt(src, lang.lex, lex.SkipSpace, pos, line)}
}

// next returns the next code token. Its nl field reports a line break
// between it and the previous code token.
func (c *cursor) next() token {
	for {
		lt := c.lx.Next()
		if lt.Kind == lex.Text {
			continue
		}
		t := token{kind: lt.Kind, nl: lt.NL, start: lt.Start, end: lt.End, line: lt.Line, endLine: lt.EndLine}
		switch t.kind {
		case tComment:
			switch {
			case !t.nl:
				c.runEnd = 0 // a comment after code on its line
			case c.runEnd != 0 && t.line == c.runEnd+1:
				c.runEnd = t.endLine
			default:
				c.runStart, c.runEnd = t.line, t.endLine
			}
			continue
		case tDirective:
			c.runEnd = 0
			continue
		}
		c.doc = 0
		if t.nl && c.runEnd != 0 && c.runEnd == t.line-1 {
			c.doc = c.runStart
		}
		c.runEnd = 0
		t.nl = t.line > c.prevEnd
		c.prevEnd = t.endLine
		return t
	}
}

// Extent modes.
const (
	extBlock  = iota // a header, then a { body } or a brace-less end
	extStmt          // a statement: up to ';' or the end of its line, brackets balanced
	extPython        // a header up to ':', then an indented suite
)

// decl is a declaration found by a parser, before its extent is computed.
type decl struct {
	name      string
	more      []string // the other names of 'var a, b = ...'
	outer     string   // the container (class, receiver type, trait of an impl), or ""
	sep       string   // between outer and name in the qualified name: "." if "", or " for "
	kind      string
	keyword   string
	startLine int // the first decorator, attribute or modifier (or the keyword)
	doc       int // first line of the attached doc comment, or 0
	declLine  int
	mode      int
	from      cursor // where the extent scan starts
	last      token  // the token just before from
	indent    int    // Python: the column of the header

	container string // the kind of scope its body opens ("class", "ns"), or ""
	group     bool   // Go 'type (': the next '(' opens a group of specs
}

// open is an open bracket on the scanner's stack.
type open struct {
	ch    byte   // '{', '(', '[', or '$' for an interpolation
	scope string // for '{': "class" (members are methods), "ns" (like top level), or ""
	name  string // the container's name
	group string // Go: the keyword of a 'type (' / 'var (' / 'const (' group
}

// pending is a container whose '{' or a Go group whose '(' comes next.
type pending struct {
	bodyAt int    // the offset of the container's '{', or -1
	scope  string // the container's scope
	name   string // the container's name
	group  string // the group's keyword
}

// scanner walks a brace-language file.
type scanner struct {
	src   string
	lang  *language
	cur   cursor
	prev  token // the previous code token (kind tEOF: none)
	stack []open

	pending      pending // a container or group whose opening bracket comes next
	pendingDepth int
	skipTo       int // no statement starts before this offset (inside a found header)

	p parser // the parser of the current statement (reused)
	d decl   // the declaration found last (reused: visit must copy it to keep it)
}

// errUnclosed reports a declaration whose body never closes.
var errUnclosed = errors.New("never closed")

// scanBraces calls visit for each declaration in src, in order. The *decl is
// valid only during the call.
func scanBraces(src string, lang *language, visit func(*decl) error) error {
	return scanBracesFrom(src, lang, newCursor(src, lang), len(src), visit)
}

// scanBracesFrom is scanBraces from cur, at top level with no bracket
// open, up to the first token that starts at stop or later.
func scanBracesFrom(src string, lang *language, cur cursor, stop int, visit func(*decl) error) error {
	s := &scanner{src: src, lang: lang, cur: cur, pending: pending{bodyAt: -1}}
	for {
		t := s.cur.next()
		if t.kind == tEOF || t.start >= stop {
			return nil
		}
		if t.start >= s.skipTo && s.stmtStart(t) {
			if d, ok := s.declAt(t); ok {
				s.skipTo = d.from.lx.Pos()
				s.pending = pending{bodyAt: -1}
				s.pendingDepth = len(s.stack)
				if d.group {
					s.pending.group = d.keyword
				}
				if d.container != "" {
					s.p = parser{src: s.src, lang: s.lang, c: d.from, tok: d.last, limited: true, left: lookahead}
					if open, end, err := s.p.header(); err == nil && end == 0 {
						s.pending = pending{bodyAt: open.start, scope: d.container, name: d.name}
					}
				}
				if d.name != "" { // a Go group has none: its specs follow
					if err := visit(d); err != nil {
						return err
					}
				}
			}
		}
		s.track(t)
	}
}

// track updates the bracket stack with t.
func (s *scanner) track(t token) {
	s.prev = t
	switch t.kind {
	case tStrOpen:
		s.stack = append(s.stack, open{ch: '$'})
		return
	case tStrClose:
		s.pop('$')
		return
	case tPunct:
	default:
		return
	}
	switch c := s.src[t.start]; c {
	case '{', '(', '[':
		o := open{ch: c}
		if d := s.pending; c == '{' && t.start == d.bodyAt {
			o.scope, o.name = d.scope, d.name
			s.pending = pending{bodyAt: -1}
		} else if c == '(' && d.group != "" && len(s.stack) == s.pendingDepth {
			o.group = d.group
			s.pending = pending{bodyAt: -1}
		}
		s.stack = append(s.stack, o)
	case '}':
		s.pop('{')
	case ')':
		s.pop('(')
	case ']':
		s.pop('[')
	case ';':
		if len(s.stack) == s.pendingDepth {
			s.pending = pending{bodyAt: -1}
		}
	}
}

// pop closes the innermost bracket ch, tolerating unbalanced input.
func (s *scanner) pop(ch byte) {
	for i := len(s.stack) - 1; i >= 0; i-- {
		if s.stack[i].ch == ch {
			s.stack = s.stack[:i]
			return
		}
		if s.stack[i].ch == '{' || s.stack[i].ch == '$' {
			return // do not let a stray closer unwind a block
		}
	}
}

// top returns the innermost open bracket, or nil at top level.
func (s *scanner) top() *open {
	if len(s.stack) == 0 {
		return nil
	}
	return &s.stack[len(s.stack)-1]
}

// stmtStart reports whether t begins a statement.
func (s *scanner) stmtStart(t token) bool {
	top := s.top()
	if top != nil && top.ch != '{' && top.group == "" {
		return false
	}
	p := s.prev
	if p.kind == tEOF {
		return true
	}
	if p.kind == tPunct {
		switch s.text(p) {
		case "{", "}", ";":
			return true
		case "(":
			return top != nil && top.group != ""
		case ")", "]":
			if t.nl && !s.lang.nlStmt {
				return true
			}
		}
	}
	return t.nl && s.lang.nlStmt && canEnd(s.src, s.lang, p)
}

// atTopLevel reports whether a value declaration here is worth finding: at
// top level, in a container or namespace body, or in a Go group.
func (s *scanner) atTopLevel() bool {
	top := s.top()
	return top == nil || top.scope != "" || top.group != ""
}

// inClass returns the name of the class-like body the statement is directly
// in, or "".
func (s *scanner) inClass() (string, bool) {
	if top := s.top(); top != nil && top.scope == "class" {
		return top.name, true
	}
	return "", false
}

func (s *scanner) text(t token) string { return s.src[t.start:t.end] }

// canEnd reports whether a line break after t can end a statement.
func canEnd(src string, lang *language, t token) bool {
	switch t.kind {
	case tIdent, tNumber, tString, tStrClose:
		return true
	case tPunct:
		switch src[t.start:t.end] {
		case ")", "]", "}", "++", "--":
			return true
		case ">", "?", "!":
			return lang.id == langKotlin
		}
	}
	return false
}

// continues reports whether t, first on its line, continues the statement
// of the line before (JavaScript and Kotlin; Go never looks ahead).
func continues(src string, lang *language, t token) bool {
	if lang.goSemicolons || t.kind != tPunct {
		return false
	}
	switch src[t.start:t.end] {
	case ".", "?.", "?", ":", "=>", "=", "==", "===", "!=", "!==", "+", "-", "*", "/", "%",
		"&&", "||", "??", "&", "|", "^", "<", ">", "<=", ">=", ",", "::":
		return true
	}
	return false
}

// parser reads a declaration header ahead of the scanner.
type parser struct {
	src     string
	lang    *language
	c       cursor
	tok     token
	limited bool // when set, next returns tEOF after left more tokens
	left    int
}

// lookahead bounds how far a header is read while scanning, so that
// unclosed brackets cannot make the scan quadratic.
const lookahead = 10000

func (p *parser) next() token {
	if p.limited {
		if p.left <= 0 {
			p.tok = token{kind: tEOF, start: p.tok.end, end: p.tok.end, line: p.tok.endLine, endLine: p.tok.endLine}
			return p.tok
		}
		p.left--
	}
	p.tok = p.c.next()
	return p.tok
}

func (p *parser) peek() token {
	c := p.c
	return c.next()
}

func (p *parser) text(t token) string { return p.src[t.start:t.end] }

// is reports whether t is the identifier or punctuator s.
func (p *parser) is(t token, s string) bool {
	return (t.kind == tIdent || t.kind == tPunct) && p.src[t.start:t.end] == s
}

func (p *parser) isIdent(t token) bool { return t.kind == tIdent }

// skipGroup advances from the opener p.tok ( [ { or < to its closer and
// reports whether it found one.
func (p *parser) skipGroup() bool {
	angle := p.is(p.tok, "<")
	depth := 0
	for t := p.tok; ; t = p.next() {
		switch t.kind {
		case tEOF:
			return false
		case tStrOpen:
			depth++
		case tStrClose:
			depth--
		case tPunct:
			switch p.text(t) {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case "<":
				if angle {
					depth++
				}
			case ">":
				if angle {
					depth--
				}
			case ";":
				if angle {
					return false
				}
			}
		}
		if depth <= 0 {
			return true
		}
	}
}
