package syntax

// This file defines the balanced-delimiter check: a lexical scan that skips
// comments and literals as described by a [lexicon] and matches (), [] and
// {}. It is not a parser: it finds unbalanced or crossed delimiters and
// unterminated strings and comments, nothing else.

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// open is an unclosed delimiter on the scanner's stack.
type open struct {
	ch   byte // '(', '[', '{', or '$' for a template literal's "${"
	off  int  // offset of the delimiter
	tmpl int  // for '$': offset of the template literal's opening backquote
}

// name is how messages write the delimiter.
func (o open) name() string {
	if o.ch == '$' {
		return "${"
	}
	return string(o.ch)
}

// delimScanner holds the state of one delimiter check.
type delimScanner struct {
	lx    *lexicon
	src   []byte
	p     *positions
	i     int    // current offset
	stack []open // unclosed delimiters, innermost last

	// regexOK reports whether a '/' here would start a regular expression
	// literal rather than divide: the previous token was an operator, an
	// opener or a keyword such as return.
	regexOK bool

	// Where the first closer sits at a different indentation from the line
	// of the opener it closes, a hint for unbalanced files; -1 if none.
	oddClose, oddOpen int
}

// checkDelimiters reports the first delimiter, string or comment error in
// src under lx's rules.
func checkDelimiters(lx *lexicon, src []byte) []Error {
	s := &delimScanner{lx: lx, src: src, p: &positions{src: src}, regexOK: true, oddClose: -1, oddOpen: -1}
	if e := s.run(); e != nil {
		return []Error{*e}
	}
	return nil
}

// errorAt returns an error at offset.
func (s *delimScanner) errorAt(off int, format string, args ...any) *Error {
	e := s.p.errorAt(off, fmt.Sprintf(format, args...))
	return &e
}

// run scans the whole text.
func (s *delimScanner) run() *Error {
	src := s.src
	if bytes.HasPrefix(src, []byte("#!")) && !bytes.HasPrefix(src, []byte("#![")) && !s.lx.cssURL {
		s.skipLine() // a shebang line
	}
	inCode := !s.lx.php
	for s.i < len(src) {
		if !inCode {
			// PHP: skip HTML up to the next <?php or <?= (short <? tags
			// are not recognized: <?xml is HTML).
			j := phpOpenTag(src[s.i:])
			if j < 0 {
				break
			}
			s.i += j
			inCode, s.regexOK = true, true
			continue
		}
		c := src[s.i]
		var err *Error
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.i++
		case s.lx.php && c == '?' && s.peek(1) == '>':
			s.i += 2
			inCode = false
		case s.atLineComment():
			s.skipLine()
		case s.lx.blockOpen != "" && bytes.HasPrefix(src[s.i:], []byte(s.lx.blockOpen)):
			err = s.blockComment()
		case s.lx.directives && c == '#' && s.atLineStart():
			err = s.directive()
		case c == '(' || c == '[' || c == '{':
			s.stack = append(s.stack, open{ch: c, off: s.i})
			s.i++
			s.regexOK = true
		case c == ')' || c == ']' || c == '}':
			err = s.close(c)
		case s.lx.triple != "" && bytes.IndexByte([]byte(s.lx.triple), c) >= 0 && s.run3(c) >= 3:
			err = s.tripleString(s.i, c, 3, s.lx.tripleEscapes, s.lx.tripleRun)
		case c == '`' && s.lx.templates:
			start := s.i
			s.i++
			err = s.template(start)
		case c == '`' && s.lx.backtickIdents:
			err = s.str(c, false, false, false, "quoted identifier")
		case c == '\'' && s.lx.charQuote:
			if end := charLiteralEnd(src, s.i); end > 0 {
				s.i = end
				s.regexOK = false
			} else {
				s.i++ // a lifetime, label or symbol
			}
		case s.lx.csharp && (c == '@' || c == '$' || c == '"' && s.run3('"') == 3):
			err = s.csharpString()
		case bytes.IndexByte([]byte(s.lx.quotes), c) >= 0:
			err = s.str(c, s.lx.multiline, true, false, "string literal")
		case s.lx.swiftRaw && c == '#':
			err = s.hashRaw(s.i, s.i)
		case s.lx.php && c == '<' && bytes.HasPrefix(src[s.i:], []byte("<<<")):
			err = s.heredoc()
		case c == '/' && s.lx.regex && s.regexOK:
			if !s.regexLiteral() {
				s.i++
			}
		case isWordByte(c):
			err = s.word()
		default:
			s.i++ // an operator
			s.regexOK = true
		}
		if err != nil {
			return err
		}
	}
	if n := len(s.stack); n > 0 {
		top := s.stack[n-1]
		if top.ch == '$' {
			return s.errorAt(top.tmpl, "unterminated template literal: `${` opened at %s is never closed", s.p.pos(top.off))
		}
		msg := fmt.Sprintf("`%s` is never closed", top.name())
		if n > 1 {
			msg += fmt.Sprintf(" (%d delimiters are still open at the end of the file; this is the innermost)", n)
		}
		return s.errorAt(top.off, "%s%s", msg, s.hint())
	}
	return nil
}

// phpOpenTag returns the offset just past the first "<?php" or "<?=" in
// b, or -1.
func phpOpenTag(b []byte) int {
	for off := 0; ; {
		j := bytes.Index(b[off:], []byte("<?"))
		if j < 0 {
			return -1
		}
		off += j + 2
		if bytes.HasPrefix(b[off:], []byte("php")) {
			return off + 3
		}
		if off < len(b) && b[off] == '=' {
			return off + 1
		}
	}
}

// peek returns the byte k ahead of the current one, or 0 past the end.
func (s *delimScanner) peek(k int) byte {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return 0
}

// run3 counts the run of c starting at the current offset, up to 3.
func (s *delimScanner) run3(c byte) int {
	n := 0
	for n < 3 && s.peek(n) == c {
		n++
	}
	return n
}

// atLineComment reports whether a line comment starts here.
func (s *delimScanner) atLineComment() bool {
	for _, lc := range s.lx.lineComments {
		if bytes.HasPrefix(s.src[s.i:], []byte(lc)) {
			// PHP 8 attributes #[...] are code.
			return !(s.lx.php && lc == "#" && s.peek(1) == '[')
		}
	}
	return false
}

// skipLine moves to the end of the line (the '\n' itself is left), or, in
// PHP, to a "?>" that ends the code first.
func (s *delimScanner) skipLine() {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		if s.lx.php && s.src[s.i] == '?' && s.peek(1) == '>' {
			return
		}
		s.i++
	}
}

// atLineStart reports whether only spaces and tabs precede s.i on its line.
func (s *delimScanner) atLineStart() bool {
	for j := s.i - 1; j >= 0; j-- {
		switch s.src[j] {
		case ' ', '\t':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

// blockComment skips a block comment, nested if the language nests them.
func (s *delimScanner) blockComment() *Error {
	start, depth := s.i, 0
	op, cl := []byte(s.lx.blockOpen), []byte(s.lx.blockClose)
	for s.i < len(s.src) {
		switch rest := s.src[s.i:]; {
		case bytes.HasPrefix(rest, op) && (depth == 0 || s.lx.nested):
			depth++
			s.i += len(op)
		case bytes.HasPrefix(rest, cl):
			depth--
			s.i += len(cl)
			if depth == 0 {
				return nil
			}
		default:
			s.i++
		}
	}
	return s.errorAt(start, "unterminated block comment")
}

// directive skips a preprocessor directive line (with its backslash
// continuations), minding comments, which may run past the line.
func (s *delimScanner) directive() *Error {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		switch {
		case s.src[s.i] == '\\':
			s.i += 2
		case bytes.HasPrefix(s.src[s.i:], []byte("/*")):
			if err := s.blockComment(); err != nil {
				return err
			}
		case bytes.HasPrefix(s.src[s.i:], []byte("//")):
			s.skipLine()
		default:
			s.i++
		}
	}
	return nil
}

// close matches the closer c at s.i against the innermost opener.
func (s *delimScanner) close(c byte) *Error {
	n := len(s.stack)
	if n == 0 {
		return s.errorAt(s.i, "unmatched `%c`: nothing is open here%s", c, s.hint())
	}
	top := s.stack[n-1]
	if top.ch == '$' && c == '}' {
		s.stack = s.stack[:n-1]
		s.i++
		return s.template(top.tmpl)
	}
	if top.ch != opener(c) {
		return s.errorAt(s.i, "`%c` closes `%s` opened at %s", c, top.name(), s.p.pos(top.off))
	}
	if s.oddClose < 0 && s.atLineStart() && s.endsLine(top.off) && indent(s.src, top.off) != indent(s.src, s.i) {
		s.oddClose, s.oddOpen = s.i, top.off
	}
	s.stack = s.stack[:n-1]
	s.i++
	s.regexOK = false
	return nil
}

// hint describes the first closer indented differently from its opener's
// line, a likely place for a missing or extra delimiter, or is "".
func (s *delimScanner) hint() string {
	if s.oddClose < 0 {
		return ""
	}
	return fmt.Sprintf("; check near the `%c` at %s, which is indented differently from the line of the `%c` it closes (%s)",
		s.src[s.oddClose], s.p.pos(s.oddClose), s.src[s.oddOpen], s.p.pos(s.oddOpen))
}

// endsLine reports whether only spaces, tabs and a line comment follow off
// on its line.
func (s *delimScanner) endsLine(off int) bool {
	for j := off + 1; j < len(s.src); j++ {
		switch s.src[j] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return bytes.HasPrefix(s.src[j:], []byte("//")) || (s.src[j] == '#' && !s.lx.directives)
		}
	}
	return true
}

// indent returns the leading spaces and tabs of off's line.
func indent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// opener returns the opening delimiter for a closing one.
func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// str skips a string opened by q at s.i. Escapes are backslash escapes;
// doubled means a doubled quote stands for one (C# verbatim strings). A
// string that may not span lines and reaches the end of its line is an
// error, or, in a lenient family, was not a string: the scan resumes just
// after the quote.
func (s *delimScanner) str(q byte, multiline, escapes, doubled bool, what string) *Error {
	start := s.i
	s.i++
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == '\\' && escapes:
			s.i += 2
			if s.i < len(s.src) && s.src[s.i-1] == '\r' && s.src[s.i] == '\n' {
				s.i++
			}
		case c == q && doubled && s.peek(1) == q:
			s.i += 2
		case c == q:
			s.i++
			s.regexOK = false
			return nil
		case c == '\n' && !multiline:
			if s.lx.lenient {
				s.i = start + 1
				return nil
			}
			return s.errorAt(start, "unterminated %s: no closing %c on its line", what, q)
		default:
			s.i++
		}
	}
	if s.lx.lenient && !multiline {
		s.i = start + 1
		return nil
	}
	return s.errorAt(start, "unterminated %s: no closing %c before the end of the file", what, q)
}

// tripleString skips a string opened at start by n quotes q, s.i being on
// the first quote. It closes at the next n quotes; with run, at the end of
// that run of quotes.
func (s *delimScanner) tripleString(start int, q byte, n int, escapes, run bool) *Error {
	s.i += n
	for s.i < len(s.src) {
		c := s.src[s.i]
		if c == '\\' && escapes {
			s.i += 2
			continue
		}
		if c == q {
			k := 0
			for s.peek(k) == q {
				k++
			}
			if k >= n {
				if !run {
					k = n
				}
				s.i += k
				s.regexOK = false
				return nil
			}
			s.i += k
			continue
		}
		s.i++
	}
	return s.errorAt(start, "unterminated multi-line string: no closing %s", bytes.Repeat([]byte{q}, n))
}

// template scans a template literal's text from s.i, just after its opening
// backquote or after the '}' that closes a "${" hole, to its closing
// backquote or its next "${", which it pushes.
func (s *delimScanner) template(start int) *Error {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case '\\':
			s.i += 2
		case '`':
			s.i++
			s.regexOK = false
			return nil
		case '$':
			if s.peek(1) == '{' {
				s.stack = append(s.stack, open{ch: '$', off: s.i, tmpl: start})
				s.i += 2
				s.regexOK = true
				return nil
			}
			s.i++
		default:
			s.i++
		}
	}
	return s.errorAt(start, "unterminated template literal: no closing `")
}

// charLiteralEnd returns the offset just past a character literal opened at
// i ('x', '\n', '\u{1F600}'), or 0 if the quote does not open one.
func charLiteralEnd(src []byte, i int) int {
	j := i + 1
	if j >= len(src) {
		return 0
	}
	switch src[j] {
	case '\\':
		for k := j + 2; k < len(src) && k <= j+12; k++ {
			switch src[k] {
			case '\n':
				return 0
			case '\'':
				return k + 1
			}
		}
		return 0
	case '\'', '\n', '\r':
		return 0
	}
	_, size := utf8.DecodeRune(src[j:])
	if j+size < len(src) && src[j+size] == '\'' {
		return j + size + 1
	}
	return 0
}

// regexLiteral skips a regular expression literal at s.i and its flags. It
// reports false, moving nothing, when no closing '/' is on the line: then
// the '/' was a division after all.
func (s *delimScanner) regexLiteral() bool {
	inClass := false
	for j := s.i + 1; j < len(s.src); j++ {
		switch s.src[j] {
		case '\\':
			j++
		case '\n':
			return false
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				s.i = j + 1
				for s.i < len(s.src) && isWordByte(s.src[s.i]) {
					s.i++
				}
				s.regexOK = false
				return true
			}
		}
	}
	return false
}

// regexKeywords are the words after which a '/' starts a regular
// expression.
var regexKeywords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
	"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
	"yield": true, "await": true,
}

// isWordByte reports whether c can be part of an identifier or a number.
// Bytes of multi-byte characters count as word bytes.
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// word skips an identifier, keyword or number, and a raw string that the
// word prefixes.
func (s *delimScanner) word() *Error {
	start := s.i
	number := '0' <= s.src[start] && s.src[start] <= '9'
	for s.i < len(s.src) {
		c := s.src[s.i]
		if isWordByte(c) || number && s.lx.digitSep && c == '\'' && isAlnum(s.peek(1)) {
			s.i++
			continue
		}
		break
	}
	w := string(s.src[start:s.i])
	s.regexOK = regexKeywords[w]
	next := s.peek(0)
	switch {
	case s.lx.rustRaw && (w == "r" || w == "br" || w == "cr") && (next == '"' || next == '#'):
		return s.hashRaw(start, s.i)
	case s.lx.cppRaw && next == '"' && (w == "R" || w == "u8R" || w == "uR" || w == "UR" || w == "LR"):
		return s.cppRawString(start)
	case s.lx.cssURL && (w == "url" || w == "URL") && next == '(':
		s.cssURLToken()
	}
	return nil
}

// hashRaw skips a raw string whose quote, at or after s.i == i, is preceded
// by n '#' and which closes with a quote followed by n '#' (Rust r#"..."#,
// Swift #"..."#). Without a quote after the '#'s, it moves past them only.
func (s *delimScanner) hashRaw(start, i int) *Error {
	n := 0
	for i+n < len(s.src) && s.src[i+n] == '#' {
		n++
	}
	if i+n >= len(s.src) || s.src[i+n] != '"' {
		s.i = i + n
		s.regexOK = true
		return nil
	}
	closer := append([]byte{'"'}, bytes.Repeat([]byte{'#'}, n)...)
	body := i + n + 1
	if s.lx.swiftRaw && bytes.HasPrefix(s.src[i+n:], []byte(`"""`)) {
		body = i + n + 3
	}
	j := bytes.Index(s.src[body:], closer)
	if j < 0 {
		return s.errorAt(start, "unterminated raw string literal: no closing %s", closer)
	}
	s.i = body + j + len(closer)
	s.regexOK = false
	return nil
}

// cppRawString skips a C++ raw string R"delim(...)delim" whose prefix
// starts at start, s.i being on the quote. A quote not followed by a valid
// delimiter and '(' opens an ordinary string.
func (s *delimScanner) cppRawString(start int) *Error {
	q := s.i
	p := bytes.IndexByte(s.src[q:min(len(s.src), q+18)], '(')
	if p < 0 || bytes.ContainsAny(s.src[q+1:q+p], " \\)\t\n\"") {
		return s.str('"', false, true, false, "string literal")
	}
	closer := []byte(")" + string(s.src[q+1:q+p]) + `"`)
	j := bytes.Index(s.src[q+p+1:], closer)
	if j < 0 {
		return s.errorAt(start, "unterminated raw string literal: no closing %s", closer)
	}
	s.i = q + p + 1 + j + len(closer)
	return nil
}

// cssURLToken skips "(...)" after url when the URL is not quoted: it may
// hold "//" (url(//cdn.example.com/x.png)), which is no comment there.
func (s *delimScanner) cssURLToken() {
	j := s.i + 1
	for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t') {
		j++
	}
	if j < len(s.src) && (s.src[j] == '"' || s.src[j] == '\'') {
		return
	}
	if k := bytes.IndexAny(s.src[j:], ")\n"); k >= 0 && s.src[j+k] == ')' {
		s.i = j + k + 1
		s.regexOK = false
	}
}

// csharpString skips a C# string with an @ and/or $ prefix at s.i: @"..."
// verbatim (multi-line, "" for a quote), $"..." interpolated (one line) or
// """...""" raw with any number of quotes. A prefix without a quote is an
// identifier prefix (@class) or an operator.
func (s *delimScanner) csharpString() *Error {
	start := s.i
	verbatim := false
	for s.i < len(s.src) && (s.src[s.i] == '@' || s.src[s.i] == '$') {
		verbatim = verbatim || s.src[s.i] == '@'
		s.i++
	}
	if s.peek(0) != '"' {
		return nil
	}
	if s.run3('"') == 3 {
		n := 0
		for s.peek(n) == '"' {
			n++
		}
		return s.tripleString(start, '"', n, false, false)
	}
	if verbatim {
		return s.str('"', true, false, true, "verbatim string")
	}
	return s.str('"', false, true, false, "string literal")
}

// heredoc skips a PHP heredoc or nowdoc (<<<ID, <<<"ID", <<<'ID') up to the
// line that starts, after indentation, with its identifier.
func (s *delimScanner) heredoc() *Error {
	start := s.i
	j := s.i + 3
	for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t') {
		j++
	}
	if j < len(s.src) && (s.src[j] == '"' || s.src[j] == '\'') {
		j++
	}
	k := j
	for k < len(s.src) && isWordByte(s.src[k]) {
		k++
	}
	if k == j {
		s.i += 3 // not a heredoc: an operator
		return nil
	}
	id := s.src[j:k]
	line := bytes.IndexByte(s.src[k:], '\n')
	for line >= 0 {
		p := k + line + 1
		for p < len(s.src) && (s.src[p] == ' ' || s.src[p] == '\t') {
			p++
		}
		if bytes.HasPrefix(s.src[p:], id) && (p+len(id) == len(s.src) || !isWordByte(s.src[p+len(id)])) {
			s.i = p + len(id)
			s.regexOK = false
			return nil
		}
		k = p
		line = bytes.IndexByte(s.src[k:], '\n')
	}
	return s.errorAt(start, "unterminated heredoc: no closing %s line", id)
}
