package search

// This file turns a search's pattern into a matcher: a literal string, or
// an RE2 regular expression matched line by line (a match never spans
// lines, as grep's do not), with a whole-content prefilter that passes
// over a file without a match in one pass.

import (
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
)

// matcher finds a pattern's matches in a file's content.
type matcher struct {
	lit string         // the literal pattern, when re is nil
	re  *regexp.Regexp // the regular expression, matched on one line
	// pre is re with ^ and $ at line boundaries, run once over the whole
	// content: a file without "\r" that it does not match holds no line
	// that re matches. Nil when the expression has \A or \z, which a whole content and a
	// line see differently.
	pre *regexp.Regexp
}

// compile makes the matcher for pattern: a literal, or with regex an
// RE2 expression. Every error is a bad_argument fault.
func compile(pattern string, regex bool) (*matcher, error) {
	if pattern == "" {
		return nil, fault.New(fault.BadArgument, "pattern is empty: give the text to search for (or, with regex, a regular expression)")
	}
	if !regex {
		if strings.ContainsAny(pattern, "\r\n") {
			return nil, fault.New(fault.BadArgument, "pattern holds a line break, but a search matches within one line: search for one line of the text")
		}
		return &matcher{lit: pattern}, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fault.Wrap(fault.BadArgument, err, "regex %q does not compile; give an RE2 regular expression (Go's syntax: no lookaround, no backreferences), or leave regex out to search for the text as it is", pattern)
	}
	m := &matcher{re: re}
	if wholeContentSafe(pattern) {
		m.pre = regexp.MustCompile("(?m)" + pattern)
	}
	return m, nil
}

// wholeContentSafe reports whether the expression, with (?m), matches
// somewhere in a text whenever it matches one of the text's lines: it
// has no \A or \z (begin and end of text), whose meaning differs.
func wholeContentSafe(pattern string) bool {
	re, err := syntax.Parse("(?m)"+pattern, syntax.Perl)
	if err != nil {
		return false
	}
	var textAnchor func(*syntax.Regexp) bool
	textAnchor = func(r *syntax.Regexp) bool {
		if r.Op == syntax.OpBeginText || r.Op == syntax.OpEndText {
			return true
		}
		for _, s := range r.Sub {
			if textAnchor(s) {
				return true
			}
		}
		return false
	}
	return !textAnchor(re)
}

// count returns the number of matches in s, without their places.
func (m *matcher) count(s string) int {
	if m.re == nil {
		return strings.Count(s, m.lit)
	}
	n := 0
	m.each(s, func() *text.Mapper { return text.NewMapper(s) }, func(_, _ int) { n++ })
	return n
}

// each calls fn with the byte range of every match in s, in order; a
// regular expression asks mapper for s's lines, once, when the prefilter
// lets s through. A literal's matches do not overlap (the next one starts
// after the last one ends, as strings.Count counts).
func (m *matcher) each(s string, mapper func() *text.Mapper, fn func(start, end int)) {
	if m.re == nil {
		for off := 0; ; {
			i := strings.Index(s[off:], m.lit)
			if i < 0 {
				return
			}
			fn(off+i, off+i+len(m.lit))
			off += i + len(m.lit)
		}
	}
	if m.pre != nil && strings.IndexByte(s, '\r') < 0 && !m.pre.MatchString(s) {
		return // (with a "\r", a line's $ may come before it: no prefilter)
	}
	mp := mapper()
	for i := range mp.Lines() {
		start := mp.Offset(i, 0, text.Bytes)
		if start == len(s) && i == mp.Lines()-1 {
			break // the empty "line" after a final newline is none
		}
		end := mp.Offset(i, len(s), text.Bytes)
		for _, loc := range m.re.FindAllStringIndex(s[start:end], -1) {
			fn(start+loc[0], start+loc[1])
		}
	}
}
