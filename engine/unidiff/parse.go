package unidiff

// This file defines [Hunk], [Parse] and [ParseError].

import (
	"fmt"
	"strconv"
	"strings"
)

// Hunk is one @@ hunk of a unified diff.
type Hunk struct {
	Index  int      // 1-based
	Header string   // the "@@ -a,b +c,d @@ section" line as written (without its line break)
	Line   int      // 1-based line of the header in the diff text
	Old    []string // context + removed lines, content only (no "\n")
	New    []string // context + added lines

	// OldNoEOL and NewNoEOL report a "\ No newline at end of file" marker
	// after the last old / new line.
	OldNoEOL, NewNoEOL bool
}

// ParseError reports a diff that [Parse] cannot read.
type ParseError struct {
	Line int    // 1-based line of the diff; 0 when the error is about the whole diff
	Text string // that line, without its line break
	Msg  string // what is wrong and what to do
}

// Error returns the line number, the line and the message.
func (e *ParseError) Error() string {
	if e.Line == 0 {
		return "diff: " + e.Msg
	}
	return fmt.Sprintf("diff line %d %s: %s", e.Line, quote(e.Text), e.Msg)
}

// gitHeaders are the header lines of git (and diff -u) that [Parse] skips.
var gitHeaders = []string{
	"diff ", "index ", "--- ", "+++ ",
	"new file mode ", "deleted file mode ", "old mode ", "new mode ",
	"similarity index ", "dissimilarity index ",
	"rename from ", "rename to ", "copy from ", "copy to ",
	"Binary files ",
}

func isHeader(s string) bool {
	for _, p := range gitHeaders {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// Parse parses a unified diff for one file.
//
// git's header lines (diff --git, index, ---/+++, new file mode, similarity,
// rename from/to, old mode/new mode, Binary files...) are skipped, as are
// blank lines before the first hunk and a Markdown fence (a first line
// starting with "```" and a last line "```"). Any other text before the first
// hunk is an error. Header line counts and positions are not trusted: the body
// decides where a hunk ends (the next "@@", the next file header, or EOF).
//
// The diff is split on "\n" only; a "\r" before it is part of the line (see
// the package doc). In a hunk body a line starting with ' ', '-' or '+' is a
// context, removed or added line, a line starting with '\' is a "\ No newline
// at end of file" marker for the line before it, and an empty line (or "\r")
// is an empty context line, since many tools strip trailing spaces. Blank
// lines that end a hunk are context only as far as the header's counts call
// for them (all of them are dropped when the header has no counts): they are
// usually separators or the diff's trailing newlines.
//
// A diff naming more than one file (a second ---/+++ pair or diff line) is an
// error saying to patch one file per call, and so is a diff with no hunk.
// Every error is a [*ParseError].
func Parse(diff string) ([]Hunk, error) {
	lines := strings.Split(diff, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the diff's final line break
	}
	p := parser{lines: lines}
	p.skipFence()
	for p.i = 0; p.i < len(lines); p.i++ {
		if err := p.line(); err != nil {
			return nil, err
		}
	}
	if err := p.endHunk(); err != nil {
		return nil, err
	}
	if len(p.hunks) == 0 {
		msg := `the diff has no @@ hunk: write the change as hunks that start with "@@ -a,b +c,d @@" followed by ' ', '-' and '+' lines`
		if p.binary {
			msg = "the diff has no @@ hunk (it describes a binary change, which cannot be patched): " + msg
		}
		return nil, &ParseError{Msg: msg}
	}
	return p.hunks, nil
}

// parser is the state of [Parse].
type parser struct {
	lines  []string
	skip   [2]int // 1-based fence lines to skip, 0 if none
	i      int    // current line, 0-based
	hunks  []Hunk
	cur    *Hunk // the hunk being read, nil before the first hunk
	counts hunkCounts
	blanks []int // 0-based blank lines not yet known to be context
	last   byte  // kind of the last body line: ' ', '-', '+' or 0

	sawDiff, sawMinus, binary bool
}

// skipFence marks a Markdown fence around the diff for skipping.
func (p *parser) skipFence() {
	first, last := -1, -1
	for i, l := range p.lines {
		if strings.TrimSpace(l) != "" {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first >= 0 && first < last && strings.HasPrefix(p.lines[first], "```") &&
		strings.TrimSpace(p.lines[last]) == "```" {
		p.skip = [2]int{first + 1, last + 1}
	}
}

func (p *parser) errorf(format string, args ...any) *ParseError {
	return &ParseError{Line: p.i + 1, Text: p.lines[p.i], Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) secondFile() *ParseError {
	return p.errorf("the diff names a second file: patch one file per call")
}

// line reads line p.i.
func (p *parser) line() error {
	if p.i+1 == p.skip[0] || p.i+1 == p.skip[1] {
		return nil
	}
	raw := p.lines[p.i]
	t := strings.TrimSuffix(raw, "\r")
	if strings.HasPrefix(t, "@@@") {
		return p.errorf("combined diffs (@@@) are not supported: send a unified diff of one file against one parent")
	}
	if strings.HasPrefix(t, "@@") {
		if err := p.endHunk(); err != nil {
			return err
		}
		p.hunks = append(p.hunks, Hunk{Index: len(p.hunks) + 1, Header: t, Line: p.i + 1})
		p.cur = &p.hunks[len(p.hunks)-1]
		p.counts = parseCounts(t)
		p.last = 0
		return nil
	}
	if p.cur != nil {
		if strings.HasPrefix(raw, "--- ") && p.i+1 < len(p.lines) &&
			strings.HasPrefix(p.lines[p.i+1], "+++ ") && !p.wantsMore() {
			return p.secondFile()
		}
		switch {
		case raw == "" || raw == "\r":
			p.blanks = append(p.blanks, p.i)
			return nil
		case raw[0] == ' ' || raw[0] == '-' || raw[0] == '+' || raw[0] == '\\':
			return p.body(raw)
		case isHeader(t):
			return p.secondFile()
		}
		return p.errorf(`unexpected line in hunk %d (%s): every line of a hunk starts with ' ' (context), '-' (removed), '+' (added) or '\' (no newline marker); start a new hunk with "@@"`,
			p.cur.Index, p.cur.Header)
	}
	switch {
	case strings.TrimSpace(t) == "":
	case strings.HasPrefix(t, "diff "):
		if p.sawDiff || p.sawMinus {
			return p.secondFile()
		}
		p.sawDiff = true
	case strings.HasPrefix(t, "--- "):
		if p.sawMinus {
			return p.secondFile()
		}
		p.sawMinus = true
	case strings.HasPrefix(t, "GIT binary patch"):
		return p.errorf("binary patches are not supported")
	case strings.HasPrefix(t, "Binary files "):
		p.binary = true
	case isHeader(t):
	case strings.HasPrefix(t, "```"):
		return p.errorf("unexpected Markdown fence: send the diff alone, or fenced by a first line \"```\" and a last line \"```\"")
	default:
		return p.errorf(`unexpected line before the first hunk: a unified diff has optional "---"/"+++" header lines, then hunks that start with "@@ -a,b +c,d @@"`)
	}
	return nil
}

// wantsMore reports whether the current hunk's header counts call for more
// lines. It is false when the header has no counts.
func (p *parser) wantsMore() bool {
	if !p.counts.ok {
		return false
	}
	old, new := len(p.cur.Old)+len(p.blanks), len(p.cur.New)+len(p.blanks)
	return old < p.counts.old || new < p.counts.new
}

// body reads a hunk body line that is not blank.
func (p *parser) body(raw string) error {
	h := p.cur
	if raw[0] == '\\' {
		if err := p.flushBlanks(len(p.blanks)); err != nil {
			return err
		}
		switch {
		case p.last == 0:
			return p.errorf(`a "\ No newline at end of file" marker must follow the line it is about`)
		case p.last != '+' && h.OldNoEOL, p.last != '-' && h.NewNoEOL:
			return p.errorf(`a second "\ No newline at end of file" marker for the same side`)
		}
		h.OldNoEOL = h.OldNoEOL || p.last != '+'
		h.NewNoEOL = h.NewNoEOL || p.last != '-'
		return nil
	}
	if err := p.flushBlanks(len(p.blanks)); err != nil {
		return err
	}
	return p.add(raw[0], raw[1:], p.i)
}

// add appends one body line of the given kind to the current hunk; at is its
// 0-based line in the diff.
func (p *parser) add(kind byte, s string, at int) error {
	h := p.cur
	if kind != '+' && h.OldNoEOL || kind != '-' && h.NewNoEOL {
		return &ParseError{Line: at + 1, Text: p.lines[at],
			Msg: `a line after "\ No newline at end of file": the marker must follow the hunk's last line on its side`}
	}
	if kind != '+' {
		h.Old = append(h.Old, s)
	}
	if kind != '-' {
		h.New = append(h.New, s)
	}
	p.last = kind
	return nil
}

// flushBlanks makes the first n pending blank lines empty context lines and
// drops the rest.
func (p *parser) flushBlanks(n int) error {
	for _, at := range p.blanks[:n] {
		if err := p.add(' ', p.lines[at], at); err != nil {
			return err
		}
	}
	p.blanks = p.blanks[:0]
	return nil
}

// endHunk finishes the current hunk, if any.
func (p *parser) endHunk() error {
	h := p.cur
	if h == nil {
		return nil
	}
	// Keep trailing blank lines as context only as far as the counts go.
	keep := 0
	if p.counts.ok {
		for keep < len(p.blanks) &&
			(len(h.Old)+keep < p.counts.old || len(h.New)+keep < p.counts.new) {
			keep++
		}
	}
	if err := p.flushBlanks(keep); err != nil {
		return err
	}
	if len(h.Old) == 0 && len(h.New) == 0 {
		return &ParseError{Line: h.Line, Text: p.lines[h.Line-1],
			Msg: fmt.Sprintf("hunk %d has no lines: remove its header or add its ' ', '-' and '+' lines", h.Index)}
	}
	p.cur = nil
	return nil
}

// hunkCounts are the counts, and the old start, of a hunk header.
type hunkCounts struct {
	oldStart, old, new int
	ok                 bool
}

// parseCounts reads "@@ -a[,b] +c[,d] @@" (an omitted count is 1).
func parseCounts(header string) hunkCounts {
	f := strings.Fields(header)
	if len(f) < 3 || f[0] != "@@" {
		return hunkCounts{}
	}
	os, oc, ok1 := parseRange(f[1], '-')
	_, nc, ok2 := parseRange(f[2], '+')
	if !ok1 || !ok2 {
		return hunkCounts{}
	}
	return hunkCounts{oldStart: os, old: oc, new: nc, ok: true}
}

func parseRange(s string, sign byte) (start, count int, ok bool) {
	if len(s) < 2 || s[0] != sign {
		return 0, 0, false
	}
	a, b, comma := strings.Cut(s[1:], ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	count = 1
	if comma {
		if count, err = strconv.Atoi(b); err != nil || count < 0 {
			return 0, 0, false
		}
	}
	return start, count, true
}

// quote quotes s for a message, shortened to about 100 bytes.
func quote(s string) string {
	const max = 100
	if len(s) > max {
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
			cut--
		}
		return strconv.Quote(s[:cut]) + "..."
	}
	return strconv.Quote(s)
}
