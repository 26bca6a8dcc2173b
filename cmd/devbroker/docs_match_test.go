package main

// How the docs test (docs_test.go) compares what a document shows with
// what the binary printed. A document elides with "…" or "...":
//
//   - in text, a line that is only an ellipsis stands for any number of
//     lines, and an ellipsis inside a line for any run of characters;
//   - in JSON, an ellipsis as a value stands for any value, as an object's
//     member for any further members, as an array's element for any run of
//     elements; inside a string, for any run of characters.
//
// Without an ellipsis, an object has exactly the members shown and an array
// exactly the elements shown. What must vary from one machine to the next
// (version numbers, and the column widths of a table they change) is
// normalised on both sides; temporary paths are put back to the ones the
// document shows before the comparison (docs_test.go).

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// ellipses are the two ways a document elides.
var ellipses = []string{"…", "..."}

// isEllipsis reports whether s, trimmed, is an ellipsis alone.
func isEllipsis(s string) bool { return slices.Contains(ellipses, strings.TrimSpace(s)) }

var (
	spaceRun   = regexp.MustCompile(`[ \t]+`)
	versionNum = regexp.MustCompile(`\d+(\.\d+)+`)
)

// normText is how a line of text is compared: runs of blanks are one space,
// version numbers (any digits with dots) are "#.#", and trailing blanks
// are dropped.
func normText(s string) string {
	s = versionNum.ReplaceAllString(s, "#.#")
	return strings.TrimRight(spaceRun.ReplaceAllString(s, " "), " ")
}

// linePattern is a document's line as a regular expression: an ellipsis
// inside it matches any run of characters.
func linePattern(want string) *regexp.Regexp {
	return regexp.MustCompile("^" + splitQuote(normText(want)) + "$")
}

// splitQuote quotes the text between ellipses and joins it with ".*".
func splitQuote(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		i, n := -1, 0
		for _, e := range ellipses {
			if j := strings.Index(s, e); j >= 0 && (i < 0 || j < i) {
				i, n = j, len(e)
			}
		}
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(s))
			break
		}
		b.WriteString(regexp.QuoteMeta(s[:i]))
		b.WriteString("(?s:.*)")
		s = s[i+n:]
	}
	return b.String()
}

// matchText reports whether got is what want shows, line by line (see the
// file comment). Both end-of-text newlines are ignored.
func matchText(want, got string) bool {
	return matchLines(splitLines(want), splitLines(got))
}

func splitLines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// matchLines matches lines with the ellipsis lines as gaps (memoised, so
// that a long answer with several gaps costs len(want)*len(got)).
func matchLines(want, got []string) bool {
	pats := make([]*regexp.Regexp, len(want))
	for i, w := range want {
		if !isEllipsis(w) {
			pats[i] = linePattern(w)
		}
	}
	gotN := make([]string, len(got))
	for i, g := range got {
		gotN[i] = normText(g)
	}
	memo := map[[2]int]bool{}
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if i == len(want) {
			return j == len(got)
		}
		k := [2]int{i, j}
		if v, ok := memo[k]; ok {
			return v
		}
		var ok bool
		if pats[i] == nil {
			ok = match(i+1, j) || (j < len(got) && match(i, j+1))
		} else {
			ok = j < len(got) && pats[i].MatchString(gotN[j]) && match(i+1, j+1)
		}
		memo[k] = ok
		return ok
	}
	return match(0, 0)
}

// A jpat is a document's JSON with its ellipses: a pattern.
type jpat struct {
	kind jkind
	// str is a string's text (kString), or a scalar's JSON (kScalar).
	str string
	// members are an object's, in the document's order; open says an
	// ellipsis stood among them.
	members []jmember
	open    bool
	// elems are an array's; a kGap element is an ellipsis.
	elems []*jpat
}

type jkind int

const (
	kAny jkind = iota
	kScalar
	kString
	kObject
	kArray
	kGap
)

type jmember struct {
	key string
	val *jpat
}

// parsePattern parses a document's JSON, ellipses and all. Trailing
// commas are allowed, as a document may write "a, ...]".
func parsePattern(s string) (*jpat, error) {
	p := &jparser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, p.errorf("text after the value")
	}
	return v, nil
}

type jparser struct {
	s string
	i int
}

func (p *jparser) errorf(format string, args ...any) error {
	line := 1 + strings.Count(p.s[:p.i], "\n")
	return fmt.Errorf("line %d of the block: %s", line, fmt.Sprintf(format, args...))
}

func (p *jparser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// ellipsis consumes an ellipsis at the cursor, if there is one.
func (p *jparser) ellipsis() bool {
	for _, e := range ellipses {
		if strings.HasPrefix(p.s[p.i:], e) {
			p.i += len(e)
			return true
		}
	}
	return false
}

var scalar = regexp.MustCompile(`^(true|false|null|-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?)`)

func (p *jparser) value() (*jpat, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errorf("a value is missing")
	}
	if p.ellipsis() {
		return &jpat{kind: kAny}, nil
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jpat{kind: kString, str: s}, nil
	}
	m := scalar.FindString(p.s[p.i:])
	if m == "" {
		r, _ := utf8.DecodeRuneInString(p.s[p.i:])
		return nil, p.errorf("unexpected %q", r)
	}
	p.i += len(m)
	return &jpat{kind: kScalar, str: m}, nil
}

func (p *jparser) str() (string, error) {
	start := p.i
	p.i++
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\\':
			p.i += 2
			continue
		case '"':
			p.i++
			var s string
			if err := json.Unmarshal([]byte(p.s[start:p.i]), &s); err != nil {
				p.i = start
				return "", p.errorf("a string that is not JSON: %v", err)
			}
			return s, nil
		case '\n':
			p.i = start
			return "", p.errorf("a string runs past its line")
		}
		p.i++
	}
	p.i = start
	return "", p.errorf("a string is not closed")
}

func (p *jparser) object() (*jpat, error) {
	o := &jpat{kind: kObject}
	p.i++ // {
	for {
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errorf("an object is not closed")
		}
		if p.s[p.i] == '}' {
			p.i++
			return o, nil
		}
		if p.ellipsis() {
			o.open = true
		} else {
			if p.s[p.i] != '"' {
				return nil, p.errorf("an object member must start with its key")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, p.errorf("no ':' after the key %q", k)
			}
			p.i++
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			for _, m := range o.members {
				if m.key == k {
					return nil, p.errorf("the key %q twice", k)
				}
			}
			o.members = append(o.members, jmember{k, v})
		}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		} else if p.i < len(p.s) && p.s[p.i] != '}' {
			return nil, p.errorf("expected ',' or '}'")
		}
	}
}

func (p *jparser) array() (*jpat, error) {
	a := &jpat{kind: kArray}
	p.i++ // [
	for {
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errorf("an array is not closed")
		}
		if p.s[p.i] == ']' {
			p.i++
			return a, nil
		}
		if p.ellipsis() {
			a.elems = append(a.elems, &jpat{kind: kGap})
		} else {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			a.elems = append(a.elems, v)
		}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		} else if p.i < len(p.s) && p.s[p.i] != ']' {
			return nil, p.errorf("expected ',' or ']'")
		}
	}
}

// matchJSON reports where got (decoded JSON: map[string]any, []any,
// string, float64, bool, nil) differs from the pattern, or nil.
func matchJSON(p *jpat, got any) error { return p.match("$", got) }

func (p *jpat) match(at string, got any) error {
	switch p.kind {
	case kAny:
		return nil
	case kScalar:
		var want any
		if err := json.Unmarshal([]byte(p.str), &want); err != nil {
			return fmt.Errorf("%s: the document's %s is not JSON", at, p.str)
		}
		if want != got {
			return fmt.Errorf("%s: the document shows %s, the binary answered %s", at, p.str, short(got))
		}
		return nil
	case kString:
		s, ok := got.(string)
		if !ok {
			return fmt.Errorf("%s: the document shows a string, the binary answered %s", at, short(got))
		}
		if !regexp.MustCompile("^" + splitQuote(p.str) + "$").MatchString(s) {
			return fmt.Errorf("%s: the document shows %q, the binary answered %q", at, p.str, s)
		}
		return nil
	case kObject:
		m, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: the document shows an object, the binary answered %s", at, short(got))
		}
		var shown []string
		for _, mem := range p.members {
			shown = append(shown, mem.key)
			v, ok := m[mem.key]
			if !ok {
				return fmt.Errorf("%s: the document shows %q, which the binary's answer lacks (it has %s)", at, mem.key, keys(m))
			}
			if err := mem.val.match(at+"."+mem.key, v); err != nil {
				return err
			}
		}
		if !p.open {
			var extra []string
			for k := range m {
				if !slices.Contains(shown, k) {
					extra = append(extra, k)
				}
			}
			if len(extra) > 0 {
				sort.Strings(extra)
				return fmt.Errorf("%s: the binary's answer has %s, which the document neither shows nor elides with …", at, strings.Join(extra, ", "))
			}
		}
		return nil
	case kArray:
		a, ok := got.([]any)
		if !ok {
			return fmt.Errorf("%s: the document shows an array, the binary answered %s", at, short(got))
		}
		return p.matchArray(at, a)
	}
	return fmt.Errorf("%s: an ellipsis where a value belongs", at)
}

// matchArray matches elements in order, a gap taking any run of them.
func (p *jpat) matchArray(at string, a []any) error {
	var firstErr error
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if i == len(p.elems) {
			return j == len(a)
		}
		if p.elems[i].kind == kGap {
			for k := j; k <= len(a); k++ {
				if match(i+1, k) {
					return true
				}
			}
			return false
		}
		if j == len(a) {
			return false
		}
		if err := p.elems[i].match(fmt.Sprintf("%s[%d]", at, j), a[j]); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return false
		}
		return match(i+1, j+1)
	}
	if match(0, 0) {
		return nil
	}
	if firstErr != nil {
		return firstErr
	}
	return fmt.Errorf("%s: the document shows %d elements, the binary answered %d: %s", at, len(p.elems), len(a), short(a))
}

// String is the pattern as JSON again, ellipses as "…".
func (p *jpat) String() string {
	var b strings.Builder
	p.write(&b)
	return b.String()
}

func (p *jpat) write(b *strings.Builder) {
	switch p.kind {
	case kAny, kGap:
		b.WriteString("…")
	case kScalar:
		b.WriteString(p.str)
	case kString:
		q, _ := json.Marshal(p.str)
		b.Write(q)
	case kObject:
		b.WriteString("{")
		for i, m := range p.members {
			if i > 0 {
				b.WriteString(", ")
			}
			q, _ := json.Marshal(m.key)
			b.Write(q)
			b.WriteString(": ")
			m.val.write(b)
		}
		if p.open {
			if len(p.members) > 0 {
				b.WriteString(", ")
			}
			b.WriteString("…")
		}
		b.WriteString("}")
	case kArray:
		b.WriteString("[")
		for i, e := range p.elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.write(b)
		}
		b.WriteString("]")
	}
}

// get is the pattern of an object's member, or nil.
func (p *jpat) get(key string) *jpat {
	if p == nil || p.kind != kObject {
		return nil
	}
	for _, m := range p.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// short is a value as JSON, cut to a readable length.
func short(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}
