package symbols

// This file defines the scanner of Python, where a declaration's extent is
// its indented suite.

// scanPython calls visit for each def, async def and class in src, in order.
// Decorators belong to the declaration that follows them.
func scanPython(src string, lang *language, visit func(*decl) error) error {
	type scope struct {
		indent int
		name   string
		class  bool
	}
	var scopes []scope
	c := newCursor(src, lang)
	depth := 0
	headLine, headDoc := 0, 0 // the pending decorators' first line and doc comment
	for {
		t := c.next()
		if t.kind == tEOF {
			return nil
		}
		if depth == 0 && t.nl {
			col := indentOf(src, t.start)
			for len(scopes) > 0 && scopes[len(scopes)-1].indent >= col {
				scopes = scopes[:len(scopes)-1]
			}
			p := &parser{src: src, lang: lang, c: c, tok: t, limited: true, left: lookahead}
			switch w := p.text(t); {
			case w == "@":
				if headLine == 0 {
					headLine, headDoc = t.line, c.doc
				}
			case w == "def" || w == "class" || w == "async" && p.is(p.peek(), "def"):
				d := &decl{startLine: t.line, doc: c.doc, declLine: t.line, keyword: w,
					mode: extPython, indent: col}
				if headLine != 0 {
					d.startLine, d.doc = headLine, headDoc
				}
				headLine = 0
				if w == "async" {
					p.next()
					d.keyword = "async def"
				}
				if !p.name(d) {
					break
				}
				d.kind = "function"
				if w == "class" {
					d.kind = "class"
				}
				if n := len(scopes); n > 0 && scopes[n-1].class {
					d.outer = scopes[n-1].name
					if d.kind == "function" {
						d.kind = "method"
					}
				}
				d.from, d.last = p.c, p.tok
				if err := visit(d); err != nil {
					return err
				}
				scopes = append(scopes, scope{indent: col, name: d.name, class: w == "class"})
			default:
				headLine = 0
			}
		}
		switch t.kind {
		case tStrOpen:
			depth++
		case tStrClose:
			depth--
		case tPunct:
			switch src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth = max(depth-1, 0)
			}
		}
	}
}

// indentOf returns the column of the byte at offset, tabs advancing to the
// next multiple of 8.
func indentOf(src string, offset int) int {
	col := 0
	for i := offset - 1; i >= 0 && src[i] != '\n'; i-- {
		col++
	}
	if col == 0 {
		return 0
	}
	start := offset - col
	col = 0
	for i := start; i < offset; i++ {
		if src[i] == '\t' {
			col = col/8*8 + 8
		} else {
			col++
		}
	}
	return col
}

// suiteEnd finds the end of a Python header (up to its ':') and of its
// suite: the logical lines indented deeper than the header, or the rest of
// the header's line for 'def f(): return 1'. Blank and comment lines inside
// the suite do not end it; trailing ones are not part of it.
func (p *parser) suiteEnd(indent int) int {
	depth := 0
	last := p.tok
	for {
		t := p.next()
		if t.kind == tEOF || depth == 0 && t.nl {
			return last.endLine // no ':' (not valid Python): the header alone
		}
		last = t
		if p.pyDepth(t, &depth) && depth == 0 && p.is(t, ":") {
			break
		}
	}
	t := p.next()
	sameLine := !t.nl
	for ; t.kind != tEOF; t = p.next() {
		if depth == 0 && t.nl && (sameLine || indentOf(p.src, t.start) <= indent) {
			break
		}
		p.pyDepth(t, &depth)
		last = t
	}
	return last.endLine
}

// pyDepth updates the bracket depth with t and reports whether t is neither
// an opener nor a closer.
func (p *parser) pyDepth(t token, depth *int) bool {
	switch t.kind {
	case tStrOpen:
		*depth++
		return false
	case tStrClose:
		*depth--
		return false
	case tPunct:
		switch p.src[t.start] {
		case '(', '[', '{':
			*depth++
			return false
		case ')', ']', '}':
			*depth = max(*depth-1, 0)
			return false
		}
	}
	return true
}
