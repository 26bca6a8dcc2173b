package symbols

// This file defines the keyword parsers of JavaScript/TypeScript, Rust,
// Kotlin, and the type declarations of Java, C#, C and C++.

// jsDecl parses function, class, interface, type, enum, namespace, and
// const/let/var declarations.
func (s *scanner) jsDecl(p *parser, d *decl) bool {
	switch d.keyword {
	case "function":
		d.kind = "function"
		if p.is(p.peek(), "*") {
			p.next()
		}
		return p.name(d)
	case "class", "interface", "enum":
		d.kind = d.keyword
		if d.keyword != "enum" {
			d.container = "class"
		}
		return p.name(d)
	case "namespace", "module":
		d.kind = "module"
		d.container = "ns"
		if !p.name(d) {
			return false
		}
		for p.is(p.peek(), ".") { // namespace a.b.c
			p.next()
			if !p.name(d) {
				return false
			}
		}
		return true
	case "type":
		d.kind, d.mode = "type", extStmt
		if !p.name(d) {
			return false
		}
		n := p.peek()
		return p.is(n, "=") || p.is(n, "<")
	default: // const, let, var
		if !p.name(d) {
			return false
		}
		d.mode = extStmt
		d.kind = "var"
		if d.keyword == "const" {
			d.kind = "const"
		}
		if p.jsFunctionValue() {
			d.kind = "function"
		} else if !s.atTopLevel() {
			return false // a local variable
		}
		return true
	}
}

// jsFunctionValue reports whether the declaration whose name is p.tok is
// initialized with a function: '= function', '= async (', '= (...) =>',
// '= x =>', '= <T>(...) =>', with an optional type annotation.
func (p *parser) jsFunctionValue() bool {
	q := *p
	n := q.next()
	if q.is(n, ":") { // a type annotation: skip to the '=' at depth 0
		for {
			n = q.next()
			switch {
			case n.kind == tEOF || q.is(n, ";"):
				return false
			case q.is(n, "(") || q.is(n, "[") || q.is(n, "{") || q.is(n, "<"):
				if !q.skipGroup() {
					return false
				}
				continue
			}
			if q.is(n, "=") || n.nl {
				break
			}
		}
	}
	if !q.is(n, "=") {
		return false
	}
	n = q.next()
	if q.is(n, "async") {
		n = q.next()
	}
	switch {
	case q.is(n, "function"):
		return true
	case n.kind == tIdent:
		return q.is(q.next(), "=>")
	case q.is(n, "<"):
		return true
	case q.is(n, "("):
		if !q.skipGroup() {
			return false
		}
		n = q.next()
		return q.is(n, "=>") || q.is(n, ":")
	}
	return false
}

// jsMembers are the modifiers of a class member.
var jsMembers = set("static", "async", "get", "set", "public", "private", "protected",
	"readonly", "abstract", "override", "declare", "accessor")

// jsMember parses a member of a JavaScript/TypeScript class or interface
// body: a method name(...) { }, or a field name = ... / name: T.
func (s *scanner) jsMember(p *parser, d *decl, class string) (*decl, bool) {
	t := p.tok
	for p.is(t, "@") {
		if !p.annotation() {
			return nil, false
		}
		t = p.next()
	}
	for t.kind == tIdent && jsMembers[p.text(t)] {
		n := p.peek()
		if !(n.kind == tIdent || n.kind == tString || p.is(n, "*") || p.is(n, "#") || p.is(n, "[")) || n.nl {
			break // the modifier is the member's name: get() {}
		}
		if w := p.text(t); w == "get" || w == "set" {
			d.keyword = w
		}
		t = p.next()
	}
	if p.is(t, "*") {
		t = p.next()
	}
	name := ""
	switch {
	case p.is(t, "#"):
		n := p.next()
		if n.kind != tIdent || n.start != t.end {
			return nil, false
		}
		name = "#" + p.text(n)
	case t.kind == tIdent:
		name = p.text(t)
	default:
		return nil, false
	}
	n := p.peek()
	if p.is(n, "?") || p.is(n, "!") {
		p.next()
		n = p.peek()
	}
	d.name, d.outer, d.declLine = name, class, t.line
	switch {
	case p.is(n, "(") || p.is(n, "<"):
		d.kind, d.mode = "method", extBlock
	case p.is(n, "=") || p.is(n, ":") || p.is(n, ";") || n.nl || p.is(n, "}"):
		d.kind, d.mode = "field", extStmt
		if p.jsFunctionValue() {
			d.kind = "method"
		}
	default:
		return nil, false
	}
	d.from, d.last = p.c, p.tok
	return d, true
}

// rustDecl parses fn, struct, enum, union, trait, impl, mod, const, static,
// type and macro_rules!.
func (s *scanner) rustDecl(p *parser, d *decl) bool {
	switch d.keyword {
	case "fn":
		d.kind = "function"
		if !p.name(d) {
			return false
		}
		s.member(d, true)
		return true
	case "struct", "enum", "trait", "union":
		d.kind = d.keyword
		if d.keyword == "trait" {
			d.container = "class"
		}
		if !p.name(d) {
			return false
		}
		if d.keyword == "union" { // a contextual keyword
			n := p.peek()
			return p.is(n, "{") || p.is(n, "<") || p.is(n, "where")
		}
		return true
	case "impl":
		d.kind, d.container = "impl", "class"
		return p.rustImpl(d)
	case "mod":
		d.kind, d.container = "module", "ns"
		return p.name(d)
	case "macro_rules":
		d.kind = "macro"
		return p.is(p.next(), "!") && p.name(d)
	default: // const, static, type
		d.kind, d.mode = d.keyword, extStmt
		if d.keyword == "static" {
			d.kind = "var"
			if p.is(p.peek(), "mut") {
				p.next()
			}
		}
		if !p.name(d) {
			return false
		}
		s.member(d, false)
		return d.keyword == "type" || s.atTopLevel()
	}
}

// rustImpl reads 'impl<T> Trait for Type<T>' and names the declaration
// after Type (qualified name "Trait for Type").
func (p *parser) rustImpl(d *decl) bool {
	if p.is(p.peek(), "<") {
		p.next()
		if !p.skipGroup() {
			return false
		}
	}
	var trait, typ string // base names
	cur := &typ
	angle := 0
	for {
		n := p.peek()
		switch {
		case n.kind == tEOF || p.is(n, ";"):
			return false
		case angle == 0 && (p.is(n, "{") || p.is(n, "where")):
			if typ == "" {
				return false
			}
			d.name = typ
			if trait != "" {
				d.outer, d.sep = trait, " for "
			}
			return true
		case p.is(n, "<"):
			angle++
		case p.is(n, ">"):
			angle--
		case angle == 0 && p.is(n, "for"):
			trait, typ = typ, ""
		case angle == 0 && n.kind == tIdent && p.src[n.start] != '\'':
			switch p.text(n) {
			case "dyn", "mut", "const", "unsafe", "impl":
			default:
				*cur = p.text(n)
			}
		}
		p.next()
	}
}

// kotlinDecl parses fun, class, interface, object, typealias, val and var.
func (s *scanner) kotlinDecl(p *parser, d *decl) bool {
	switch d.keyword {
	case "fun":
		d.kind = "function"
		if p.is(p.peek(), "<") {
			p.next()
			if !p.skipGroup() {
				return false
			}
		}
		// [Receiver.]name(: the name is the last identifier before '('.
		recv := ""
		for {
			if !p.name(d) {
				return false
			}
			n := p.peek()
			if p.is(n, "<") {
				p.next()
				if !p.skipGroup() {
					return false
				}
				n = p.peek()
			}
			if p.is(n, "?") {
				p.next()
				n = p.peek()
			}
			if p.is(n, "(") {
				break
			}
			if !p.is(n, ".") {
				return false
			}
			p.next()
			recv = d.name
		}
		s.member(d, true)
		if recv != "" {
			d.outer = recv
		}
		return true
	case "class", "interface", "object":
		d.kind, d.container = d.keyword, "class"
		if !p.name(d) {
			return false
		}
		s.member(d, false)
		return true
	case "typealias":
		d.kind, d.mode = "type", extStmt
		return p.name(d)
	default: // val, var
		d.kind, d.mode = "var", extStmt
		if p.is(p.peek(), "<") {
			p.next()
			if !p.skipGroup() {
				return false
			}
		}
		if !p.name(d) {
			return false
		}
		for p.is(p.peek(), ".") { // an extension property
			p.next()
			if !p.name(d) {
				return false
			}
		}
		s.member(d, false)
		return s.atTopLevel()
	}
}

// typeDecl parses the type declarations of Java, C#, C and C++: class,
// interface, struct, union, enum, record, namespace.
func (s *scanner) typeDecl(p *parser, d *decl, lastMod string) bool {
	d.kind, d.container = d.keyword, "class"
	switch d.keyword {
	case "@interface":
		d.kind = "interface"
	case "namespace":
		d.kind, d.container = "module", "ns"
	case "class", "struct":
		if lastMod == "enum" { // C++ enum class, enum struct
			d.kind, d.keyword = "enum", "enum "+d.keyword
		}
	}
	if !p.name(d) {
		return false
	}
	for (d.keyword == "namespace" && p.is(p.peek(), "::")) || p.is(p.peek(), ".") {
		p.next()
		if !p.name(d) {
			return false
		}
	}
	s.member(d, false)
	if s.lang.id != langC {
		return true
	}
	// C and C++: 'struct S x;' and 'struct S *f()' use S; they do not declare it.
	n := p.peek()
	return p.is(n, "{") || p.is(n, ";") || p.is(n, ":") || p.is(n, "<") || p.is(n, "final")
}
