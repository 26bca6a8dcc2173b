package text

// This file finds lines by their number in a Doc's content, and defines
// [Doc.ReplaceMany], which builds the edited content from byte ranges of
// the original.

import (
	"fmt"
	"strings"
)

// LineOffset returns the byte offset in s where 0-based line n starts
// (len(s) when s has fewer lines). It skips whole blocks of text by
// counting their newlines, so it runs at the speed of a byte count, not
// one call per line.
func LineOffset(s string, n int) int { return skipLines(s, 0, n) }

// skipLines returns the offset k lines after off, a line start in s
// (len(s) past the end).
func skipLines(s string, off, k int) int {
	const block = 4 << 10
	for k > 0 && off < len(s) {
		if end := off + block; end < len(s) {
			if c := strings.Count(s[off:end], LF); c < k {
				off, k = end, k-c
				continue
			}
		}
		j := strings.IndexByte(s[off:], '\n')
		if j < 0 {
			return len(s)
		}
		off, k = off+j+1, k-1
	}
	return off
}

// index returns each line's start offset, built on first use.
func (d *Doc) index() []int {
	if p := d.idx.Load(); p != nil {
		return *p
	}
	idx := make([]int, d.Len())
	off := 0
	for i := range idx {
		idx[i] = off
		off += strings.IndexByte(d.s[off:], '\n') + 1
	}
	d.idx.Store(&idx)
	return idx
}

// LineOffset returns the byte offset of 0-based line n in the content
// (without the BOM); the content's length when n >= Len.
func (d *Doc) LineOffset(n int) int {
	if n >= d.Len() {
		return len(d.s)
	}
	if p := d.idx.Load(); p != nil {
		return (*p)[n]
	}
	return skipLines(d.s, 0, n)
}

// ReplaceLines returns a new Doc with lines [start, end) replaced by repl.
// Replacement lines without a terminator take the Doc's dominant one, and the
// result keeps the original's final-newline state.
func (d *Doc) ReplaceLines(start, end int, repl []Line) *Doc {
	return d.ReplaceMany([]LineReplacement{{Start: start, End: end, Lines: repl}})
}

// LineReplacement replaces lines [Start, End) with Lines.
type LineReplacement struct {
	Start, End int
	Lines      []Line
	// FinalNewline, on a replacement that reaches the end of a file
	// without a final newline (End is the line count), gives the result
	// one: the change asked for a terminator after the file's last line.
	FinalNewline bool
}

// ReplaceMany applies non-overlapping replacements given in ascending order
// of Start. A replacement line without a terminator takes, in a file with
// mixed terminators, that of the kept lines around it (before and after)
// when they agree, else that of the lines it replaces when they agree,
// else the file's dominant one; in an all-LF or all-CRLF file, the file's. The result keeps
// the original's final-newline state, except that a replacement with
// FinalNewline that reaches the end of a file without one gives it one. It
// panics on overlapping or out-of-range replacements: callers have matched
// them.
//
// The kept lines are copied as byte ranges of the content, found with one
// forward walk, so the cost is one copy of the file.
func (d *Doc) ReplaceMany(reps []LineReplacement) *Doc {
	eol, final, n := d.EOL(), d.FinalNewline(), d.Len()
	size := len(d.s)
	for _, r := range reps {
		for _, l := range r.Lines {
			size += len(l.Text) + len(eol) + len(l.EOL)
		}
	}
	var b strings.Builder
	b.Grow(size)
	// lastEOL is the length of the terminator of the last line written;
	// open, that the last line written is the original's last line,
	// which has none, so whatever follows must first end it.
	lastEOL, open := 0, false
	line, off := 0, 0 // a cursor: line starts at off
	startOf := func(i int) int {
		off, line = skipLines(d.s, off, i-line), i
		return off
	}
	keep := func(from, to int) {
		if from >= to {
			return
		}
		a, z := startOf(from), startOf(to)
		b.WriteString(d.s[a:z])
		switch {
		case to == n && !final:
			lastEOL, open = 0, true
		case z >= 2 && d.s[z-2] == '\r':
			lastEOL = 2
		default:
			lastEOL = 1
		}
	}
	prev, wantFinal := 0, false
	for _, r := range reps {
		if r.Start < prev || r.End < r.Start || r.End > n {
			panic(fmt.Sprintf("text: bad line replacement [%d,%d) after %d of %d", r.Start, r.End, prev, n))
		}
		wantFinal = wantFinal || (r.FinalNewline && r.End == n)
		keep(prev, r.Start)
		around := eol
		if d.Mixed() {
			around = d.eolAround(r.Start, r.End)
		}
		for _, l := range r.Lines {
			if open {
				b.WriteString(eol)
				open = false
			}
			e := l.EOL
			if e == "" {
				e = around
			}
			b.WriteString(l.Text)
			b.WriteString(e)
			lastEOL = len(e)
		}
		prev = r.End
	}
	keep(prev, n)
	if wantFinal && open {
		b.WriteString(eol) // nothing was written after the last line
		open = false
	}
	out := b.String()
	if !final && !open && !wantFinal {
		// The result keeps the original's missing final newline.
		out = out[:len(out)-lastEOL]
	}
	return fromContent(d.bom, out)
}

// eolAround is the terminator a line written in place of lines
// [start, end) takes in a mixed file: that of the kept lines around it
// (the line before and the line after, those that exist and have one)
// when they agree; else that of the lines it replaces when they all have
// the same; else the dominant one.
func (d *Doc) eolAround(start, end int) string {
	var got []string
	if start > 0 {
		got = append(got, d.eolOf(start-1))
	}
	if end < d.Len() {
		got = append(got, d.eolOf(end))
	}
	if e := agree(got); e != "" {
		return e
	}
	if e := d.commonEOL(start, end); e != "" {
		return e
	}
	return d.EOL()
}

// commonEOL is the terminator every line of [start, end) that has one
// ends with, or "" when they differ or none has one.
func (d *Doc) commonEOL(start, end int) string {
	var got []string
	for i := start; i < end; i++ {
		got = append(got, d.eolOf(i))
	}
	return agree(got)
}

// agree is the one terminator of eols, "" ones left out; "" when there
// are none or they differ.
func agree(eols []string) string {
	out := ""
	for _, e := range eols {
		switch {
		case e == "":
		case out == "":
			out = e
		case out != e:
			return ""
		}
	}
	return out
}

// eolOf is line i's terminator: CRLF, LF, or "" for a last line without
// one.
func (d *Doc) eolOf(i int) string {
	z := len(d.s)
	if idx := d.index(); i+1 < len(idx) {
		z = idx[i+1]
	}
	switch {
	case z == 0 || d.s[z-1] != '\n':
		return ""
	case z >= 2 && d.s[z-2] == '\r':
		return CRLF
	}
	return LF
}

// affixBlock is how many bytes CommonPrefix and CommonSuffix compare at
// once before they compare bytes.
const affixBlock = 1 << 10

// CommonPrefix is the length of the longest common prefix of a and b. It
// compares blocks first, at the speed of memory, then bytes.
func CommonPrefix(a, b string) int {
	n := min(len(a), len(b))
	p := 0
	for p+affixBlock <= n && a[p:p+affixBlock] == b[p:p+affixBlock] {
		p += affixBlock
	}
	for p < n && a[p] == b[p] {
		p++
	}
	return p
}

// CommonSuffix is the length of the longest common suffix of a and b.
func CommonSuffix(a, b string) int {
	n := min(len(a), len(b))
	q := 0
	for q+affixBlock <= n && a[len(a)-q-affixBlock:len(a)-q] == b[len(b)-q-affixBlock:len(b)-q] {
		q += affixBlock
	}
	for q < n && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	return q
}
