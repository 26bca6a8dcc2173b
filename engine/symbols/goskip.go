package symbols

// This file lets a Go lookup scan only the parts of a file where the name
// occurs. A byte-level pass, which tracks only what the lexer needs to tell
// code from comments and strings and the scanner's bracket stack, finds
// the line starts where the scanner's state is provably the state it has
// at the start of the file; the scanner then runs, from such a line start,
// only over the stretches that hold an occurrence of the name.
//
// A line start L is a restart point when the pass is in code at L, the
// last code token before L is a '}' on the line above L (only spaces and
// a line comment after it), the bracket stack is empty after it, and the
// count of '(' and '[' minus ')' and ']' is zero at L and was never
// negative before. Then, for the scanner from the start of the file:
//   - the bracket stack is empty, so no Go group is open;
//   - no pending group: a group's '(' is the token right after its keyword;
//   - no declaration header spans L (skipTo <= L): a header is the
//     keyword, a receiver, a name, and more names, each after a ',' (the
//     token after a ',' ends the header when it is not a name); so only a
//     receiver goes on after a '}', and a receiver ends where the count
//     returns to its value before the receiver's '(', which it does before
//     L when the count is zero at L and never went below zero;
//   - the first token at L starts a statement, after '}' as at the start;
//   - no comment run is open (the '}' ended it, a comment after it on its
//     line does not start one), and every token at or after L is the first
//     on its line exactly when it is so for a fresh scan;
//   - Go has no regular expressions, interpolations or HTML.
//
// So a scan started fresh at L (on L's line) finds the same declarations
// at and after L, with the same extents, as the scan from the start. A
// declaration's header holds its name (and, for a qualified name, the
// last part of it), and no header spans a restart point, so a declaration
// that matches a name starts in a stretch between restart points that
// holds an occurrence of the name's last part. FuzzGoAround checks the
// equivalence against the scan of the whole file.

import "strings"

// goPass is the byte-level pass over a Go file.
type goPass struct {
	src   string
	i     int    // the next byte to read
	stack []byte // the open brackets, as the scanner's track keeps them
	count int    // '(' and '[' minus ')' and ']'
	bad   bool   // the count went below zero: no restart point from here on
}

// goStructural marks the bytes the pass stops at in code.
var goStructural = func() (t [256]bool) {
	for _, c := range "/\"'`{}()[]" {
		t[c] = true
	}
	return t
}()

// next returns the next restart point after the pass's position, or -1
// if there is none.
func (p *goPass) next() int {
	src := p.src
	i := p.i
	if i == 0 && strings.HasPrefix(src, "#!") && !strings.HasPrefix(src, "#![") {
		i = lineEnd(src, 0) // a shebang line
	}
	for i < len(src) {
		c := src[i]
		if !goStructural[c] {
			i++
			continue
		}
		switch c {
		case '/':
			i = goSlash(src, i)
		case '"', '\'':
			i = goQuoteEnd(src, i)
		case '`':
			i = closeAfter(src, i+1, "`")
		case '(', '[', '{':
			p.stack = append(p.stack, c)
			if c != '{' {
				p.count++
			}
			i++
		case ')':
			p.pop('(')
			p.count--
			p.bad = p.bad || p.count < 0
			i++
		case ']':
			p.pop('[')
			p.count--
			p.bad = p.bad || p.count < 0
			i++
		case '}':
			p.pop('{')
			i++
			if len(p.stack) == 0 && p.count == 0 && !p.bad {
				if l := restartAfter(src, i); l >= 0 {
					p.i = l
					return l
				}
			}
		}
	}
	p.i = len(src)
	return -1
}

// pop closes the innermost bracket open, as the scanner's pop does: a
// stray closer does not unwind a '{'.
func (p *goPass) pop(open byte) {
	for i := len(p.stack) - 1; i >= 0; i-- {
		if p.stack[i] == open {
			p.stack = p.stack[:i]
			return
		}
		if p.stack[i] == '{' {
			return
		}
	}
}

// goSlash returns the offset after what a '/' at i starts in code: a line
// comment (up to its line break), a block comment, or a punctuator.
func goSlash(src string, i int) int {
	if i+1 < len(src) {
		switch src[i+1] {
		case '/':
			return lineEnd(src, i)
		case '*':
			return closeAfter(src, i+2, "*/")
		}
	}
	return i + 1
}

// goQuoteEnd returns the offset after the string or rune literal opened at
// i, as the lexer ends it: at its closing quote, or, unterminated, at the
// line break or the end of the file. A backslash escapes the next byte
// (and a line break, which continues the literal).
func goQuoteEnd(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); {
		switch src[j] {
		case '\\':
			if strings.HasPrefix(src[j+1:], "\r\n") {
				j++
			}
			j += 2
			continue
		case '\n':
			return j
		case q:
			return j + 1
		}
		j++
	}
	return len(src)
}

// closeAfter returns the offset after the first delim at or after i, or
// the end of src.
func closeAfter(src string, i int, delim string) int {
	if j := strings.Index(src[i:], delim); j >= 0 {
		return i + j + len(delim)
	}
	return len(src)
}

// lineEnd returns the offset of the line break at or after i, or the end
// of src.
func lineEnd(src string, i int) int {
	if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// restartAfter returns the start of the next line if only spaces and a
// line comment follow i on its line, else -1.
func restartAfter(src string, i int) int {
	for ; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\r', '\f', '\v':
			continue
		case '\n':
			return i + 1
		case '/':
			if strings.HasPrefix(src[i:], "//") {
				if e := lineEnd(src, i); e < len(src) {
					return e + 1
				}
			}
		}
		return -1
	}
	return -1
}

// scanGoAround calls visit, in order, for the declarations of the Go file
// src found in the stretches between restart points that hold base, which
// include every declaration whose header holds base.
func scanGoAround(src string, lang *language, base string, visit func(*decl) error) error {
	p := &goPass{src: src}
	start, line, counted := 0, 1, 0 // the stretch's start and line; lines counted up to counted
	next := 0                       // the restart point after start, or -1
	for at := indexName(src, base, 0); at >= 0; {
		for next >= 0 && next <= at {
			start, next = next, p.next()
		}
		stop := len(src)
		if next >= 0 {
			stop = next
		}
		line += strings.Count(src[counted:start], "\n")
		counted = start
		if err := scanBracesFrom(src, lang, newCursorAt(src, lang, start, line), stop, visit); err != nil {
			return err
		}
		if next < 0 {
			return nil
		}
		at = indexName(src, base, stop)
	}
	return nil
}

// frequent ranks lower-case letters from the most frequent in source text;
// every other byte counts as rarer than all of them.
const frequent = "etirnaoslcdupfmgbhyvwkxzjq"

// indexName returns the offset of the first occurrence of name in src at
// or after from, or -1. It looks for the part of name from its rarest
// byte (by [frequent]) on: strings.Index skips to its first byte with
// IndexByte, which stops at every occurrence of a frequent letter.
func indexName(src, name string, from int) int {
	rank := func(c byte) int {
		if r := strings.IndexByte(frequent, c); r >= 0 {
			return r
		}
		return len(frequent)
	}
	k := 0
	for i := 1; i < len(name); i++ {
		if rank(name[i]) > rank(name[k]) {
			k = i
		}
	}
	for i := from + k; i <= len(src); {
		j := strings.Index(src[i:], name[k:])
		if j < 0 {
			return -1
		}
		if at := i + j - k; src[at:i+j] == name[:k] {
			return at
		}
		i += j + 1
	}
	return -1
}
