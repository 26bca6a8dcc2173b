package symbols

// This file defines the declaration parsers of the brace languages: given
// the first token of a statement, each reads the decorators, attributes and
// modifiers, then the declaring keyword and the name, and says where the
// extent scan starts.

import "strings"

// declAt parses a declaration starting at t, the first token of a statement.
func (s *scanner) declAt(t token) (*decl, bool) {
	s.p = parser{src: s.src, lang: s.lang, c: s.cur, tok: t, limited: true, left: lookahead}
	s.d = decl{startLine: t.line, doc: s.cur.doc}
	p, d := &s.p, &s.d
	if top := s.top(); top != nil && top.group != "" {
		return s.goSpec(p, d, top.group)
	}
	if class, ok := s.inClass(); ok && s.lang.id == langJS {
		return s.jsMember(p, d, class)
	}
	lastMod := ""
	for {
		switch {
		case p.is(t, "@") && (s.lang.id == langJS || s.lang.id == langKotlin || s.lang.id == langJava):
			if n := p.peek(); s.lang.id == langJava && p.is(n, "interface") {
				p.next()
				t = p.tok
				d.keyword = "@interface"
				return s.keyword(p, d, t, lastMod)
			}
			if !p.annotation() {
				return nil, false
			}
		case p.is(t, "#") && s.lang.id == langRust:
			if n := p.next(); !p.is(n, "[") || !p.skipGroup() {
				return nil, false // an inner attribute #![...] belongs to no declaration
			}
		case p.is(t, "[") && (s.lang.id == langCSharp || s.lang.id == langC):
			if !p.skipGroup() {
				return nil, false
			}
		case t.kind == tIdent && s.lang.modifiers[p.text(t)]:
			if !p.modifier() {
				return s.keyword(p, d, t, lastMod)
			}
			lastMod = p.text(t)
		default:
			return s.keyword(p, d, t, lastMod)
		}
		t = p.next()
	}
}

// annotation skips an annotation or decorator @a.b(...) at p.tok.
func (p *parser) annotation() bool {
	n := p.next()
	if !p.isIdent(n) {
		return false
	}
	for {
		n := p.peek()
		switch {
		case p.is(n, ".") || p.is(n, ":"): // @a.b, Kotlin's @file:JvmName
			p.next()
			if !p.isIdent(p.next()) {
				return false
			}
		case p.is(n, "(") && !n.nl:
			p.next()
			return p.skipGroup()
		default:
			return true
		}
	}
}

// modifier reports whether the word at p.tok is a modifier here (it is
// followed by another modifier or a keyword), and skips its arguments:
// Rust's pub(crate) and extern "C", C++'s template<...>.
func (p *parser) modifier() bool {
	w := p.text(p.tok)
	n := p.peek()
	switch {
	case w == "pub" && p.is(n, "("):
		p.next()
		return p.skipGroup()
	case w == "extern" && n.kind == tString:
		p.next()
		return true
	case w == "template" && p.is(n, "<"):
		p.next()
		return p.skipGroup()
	case w == "pub":
		return true
	}
	if n.kind != tIdent {
		return false
	}
	nw := p.text(n)
	return p.lang.keywords[nw] || p.lang.modifiers[nw]
}

// keyword parses the declaration whose keyword is t.
func (s *scanner) keyword(p *parser, d *decl, t token, lastMod string) (*decl, bool) {
	if t.kind != tIdent {
		return nil, false
	}
	kw := p.text(t)
	if !s.lang.keywords[kw] && d.keyword == "" {
		return nil, false
	}
	if d.keyword == "" {
		d.keyword = kw
	}
	d.declLine = t.line
	d.mode = extBlock
	var ok bool
	switch s.lang.id {
	case langGo:
		ok = s.goDecl(p, d)
	case langJS:
		ok = s.jsDecl(p, d)
	case langRust:
		ok = s.rustDecl(p, d)
	case langKotlin:
		ok = s.kotlinDecl(p, d)
	default:
		ok = s.typeDecl(p, d, lastMod)
	}
	if !ok {
		return nil, false
	}
	d.from, d.last = p.c, p.tok
	return d, true
}

// name reads the declared name after the keyword.
func (p *parser) name(d *decl) bool {
	n := p.next()
	if n.kind != tIdent {
		return false
	}
	d.name = strings.Trim(p.text(n), "`")
	return d.name != ""
}

// member sets d's kind and qualified name for a declaration that is a
// member of a class-like body when it is in one.
func (s *scanner) member(d *decl, fn bool) {
	if class, ok := s.inClass(); ok {
		d.outer = class
		if fn {
			d.kind = "method"
		}
	}
}

// goDecl parses Go's func, type, var and const.
func (s *scanner) goDecl(p *parser, d *decl) bool {
	switch d.keyword {
	case "func":
		d.kind = "function"
		n := p.peek()
		if p.is(n, "(") {
			p.next()
			recv := p.receiver()
			if recv == "" {
				return false
			}
			d.kind, d.outer = "method", recv
		}
		if !p.name(d) {
			return false
		}
		if n := p.peek(); !p.is(n, "(") && !p.is(n, "[") {
			return false
		}
		return true
	default: // type, var, const
		if !s.atTopLevel() {
			return false
		}
		if n := p.peek(); p.is(n, "(") {
			d.group = true
			d.name = ""
			p.next()
			return true
		}
		return s.goNames(p, d)
	}
}

// receiver reads a Go receiver (r *T[K]) at p.tok and returns T.
func (p *parser) receiver() string {
	name := ""
	depth := 0
	for t := p.tok; ; t = p.next() {
		switch {
		case t.kind == tEOF:
			return ""
		case p.is(t, "(") || p.is(t, "["):
			depth++
		case p.is(t, ")") || p.is(t, "]"):
			depth--
			if depth == 0 {
				return name
			}
		case t.kind == tIdent && depth == 1:
			name = p.text(t)
		}
	}
}

// goNames reads the names of a Go spec (a, b int = ...) and its kind.
func (s *scanner) goNames(p *parser, d *decl) bool {
	if !p.name(d) {
		return false
	}
	d.mode = extStmt
	switch d.keyword {
	case "var", "const":
		d.kind = d.keyword
		p.moreNames(d)
	case "type":
		d.kind = p.goTypeKind()
	}
	return true
}

// goSpec parses one spec of a Go 'type (', 'var (' or 'const (' group.
func (s *scanner) goSpec(p *parser, d *decl, keyword string) (*decl, bool) {
	t := p.tok
	if t.kind != tIdent {
		return nil, false
	}
	d.keyword = keyword
	d.declLine = t.line
	d.name = p.text(t)
	d.mode = extStmt
	d.kind = keyword
	switch keyword {
	case "var", "const":
		p.moreNames(d)
	case "type":
		d.kind = p.goTypeKind()
	}
	d.from, d.last = p.c, p.tok
	return d, true
}

// moreNames reads the other names of 'var a, b, c = ...'.
func (p *parser) moreNames(d *decl) {
	for p.is(p.peek(), ",") {
		p.next()
		n := p.next()
		if n.kind != tIdent {
			return
		}
		d.more = append(d.more, p.text(n))
	}
}

// goTypeKind looks past a Go type's name (and type parameters) and returns
// "struct", "interface" or "type".
func (p *parser) goTypeKind() string {
	q := *p
	n := q.next()
	if q.is(n, "[") && q.skipGroup() {
		n = q.next()
	}
	if q.is(n, "=") {
		n = q.next()
	}
	if q.is(n, "struct") || q.is(n, "interface") {
		return q.text(n)
	}
	return "type"
}
