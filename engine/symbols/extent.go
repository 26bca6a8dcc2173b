package symbols

// This file defines how a declaration's extent ends: a header and its
// { body }, a brace-less declaration, or a statement.

import "fmt"

// extent returns the last line of d.
func (d *decl) extent(src string, lang *language) (int, error) {
	p := &parser{src: src, lang: lang, c: d.from, tok: d.last}
	var end int
	var err error
	switch d.mode {
	case extBlock:
		end, err = p.blockEnd()
	case extStmt:
		end, err = p.stmtEnd()
	case extPython:
		end = p.suiteEnd(d.indent)
	}
	if err != nil {
		return 0, fmt.Errorf("the %s %s declared at line %d: %w", d.kind, d.name, d.declLine, err)
	}
	return max(end, d.declLine), nil
}

// blockEnd finds the end of a header and its { body }, or of a brace-less
// declaration.
func (p *parser) blockEnd() (int, error) {
	open, end, err := p.header()
	if err != nil || end != 0 {
		return end, err
	}
	return p.bodyEnd(open)
}

// header reads a declaration header up to the '{' that opens its body and
// returns it; or, for a brace-less declaration, returns its last line: at a
// ';', a line break that ends the statement, the end of the enclosing block,
// or the end of an expression body ('= expr').
func (p *parser) header() (token, int, error) {
	lang := p.lang
	prev := p.tok
	paren, angle := 0, 0
	for {
		t := p.next()
		if t.kind == tEOF {
			if paren > 0 {
				return t, 0, fmt.Errorf("its header's bracket at line %d is %w", prev.line, errUnclosed)
			}
			return t, prev.endLine, nil
		}
		if paren == 0 && angle == 0 && t.nl && lang.nlStmt && canEnd(p.src, lang, prev) &&
			!continues(p.src, lang, t) && !p.is(t, "{") {
			return t, prev.endLine, nil
		}
		switch t.kind {
		case tStrOpen:
			paren++
		case tStrClose:
			paren--
		case tPunct:
			switch p.text(t) {
			case "(", "[":
				paren++
			case ")", "]":
				if paren == 0 {
					return t, prev.endLine, nil
				}
				paren--
			case "<":
				if lang.angles && paren == 0 {
					angle++
				}
			case ">":
				if angle > 0 && paren == 0 {
					angle--
				}
			case "{":
				if paren > 0 {
					break
				}
				if angle > 0 || p.typeLiteral(prev) {
					if !p.skipGroup() {
						return t, 0, fmt.Errorf("the { at line %d is %w", t.line, errUnclosed)
					}
					break
				}
				return t, 0, nil
			case "}":
				if paren == 0 {
					return t, prev.endLine, nil
				}
			case ";":
				if paren == 0 {
					return t, t.endLine, nil
				}
			case "=", "=>":
				if paren == 0 && angle == 0 && lang.eqBody && (p.text(t) == "=" || lang.id == langCSharp) {
					end, err := p.stmtEnd()
					return t, end, err
				}
			}
		}
		prev = p.tok
	}
}

// typeLiteral reports whether a '{' after prev opens a type rather than the
// body: Go's struct{...} and interface{...}, TypeScript's object types.
func (p *parser) typeLiteral(prev token) bool {
	switch p.lang.id {
	case langGo:
		return p.is(prev, "struct") || p.is(prev, "interface")
	case langJS:
		if prev.kind != tPunct {
			return false
		}
		switch p.text(prev) {
		case ")", "]", ">":
			return false
		}
		return true
	}
	return false
}

// bodyEnd matches the '{' open and returns the line of its '}' (for C and
// C++, of the ';' ending 'struct S { } s;').
func (p *parser) bodyEnd(open token) (int, error) {
	depth := 0
	for t := open; ; t = p.next() {
		if t.kind == tEOF {
			return 0, fmt.Errorf("its { at line %d is %w", open.line, errUnclosed)
		}
		if t.kind != tPunct {
			continue
		}
		switch p.src[t.start] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				if p.lang.trailingDecl {
					return p.trailingDeclarators(t), nil
				}
				return t.endLine, nil
			}
		}
	}
}

// trailingDeclarators extends 'struct S { ... }' over ' s, *t;'.
func (p *parser) trailingDeclarators(closer token) int {
	c := p.c
	for {
		t := c.next()
		switch {
		case t.kind == tIdent, p.is(t, "*"), p.is(t, ","), p.is(t, "&"):
			continue
		case p.is(t, ";"):
			return t.endLine
		}
		return closer.endLine
	}
}

// stmtEnd finds the end of a statement: a ';' or a line break ending it (Go,
// JavaScript, Kotlin) with all brackets closed, or the end of the enclosing
// block or group.
func (p *parser) stmtEnd() (int, error) {
	lang := p.lang
	prev := p.tok
	depth := 0
	for {
		t := p.next()
		if t.kind == tEOF {
			if depth > 0 {
				return 0, fmt.Errorf("a bracket after line %d is %w", prev.line, errUnclosed)
			}
			return prev.endLine, nil
		}
		if depth == 0 && t.nl && lang.nlStmt && canEnd(p.src, lang, prev) && !continues(p.src, lang, t) {
			return prev.endLine, nil
		}
		switch t.kind {
		case tStrOpen:
			depth++
		case tStrClose:
			depth--
		case tPunct:
			switch p.src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth == 0 {
					return prev.endLine, nil
				}
				depth--
			case ';':
				if depth == 0 {
					return t.endLine, nil
				}
			}
		}
		prev = t
	}
}
