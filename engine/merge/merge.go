// Package merge is the three-way line merge behind a write whose file
// changed on disk since the workspace read it: the session's change
// ("ours") and the change made outside ("theirs"), both made from the
// content the session read ("base"), are combined when they touch
// different lines of the base.
//
// The principal function is [Lines]. It is byte-exact: lines are compared
// with their terminators, so a CRLF line stays CRLF, a last line without a
// newline stays without one, and a change of a line's ending is a change
// of that line. Changes that overlap, or touch adjacent lines (no unchanged
// line of the base between them), are a [Conflict], as git's merge treats
// them, unless both sides made the very same change there.
package merge

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// Range is a run of lines, 1-based and inclusive: lines Start..End. An
// empty run (End = Start-1) is the place before line Start, where lines
// were inserted or from which lines were deleted.
type Range struct{ Start, End int }

// Empty reports whether r holds no line.
func (r Range) Empty() bool { return r.End < r.Start }

// String is "10-12", "10" for one line, and "before line 10" for an empty
// run.
func (r Range) String() string {
	switch {
	case r.Empty():
		return fmt.Sprintf("before line %d", r.Start)
	case r.Start == r.End:
		return fmt.Sprintf("%d", r.Start)
	}
	return fmt.Sprintf("%d-%d", r.Start, r.End)
}

// Part is one change of one side: lines Base of the base became lines
// Lines of the merged content.
type Part struct {
	Base  Range
	Lines Range
}

// Result is a merge without conflict.
type Result struct {
	// Content is the merged text.
	Content string
	// Ours and Theirs are the changes each side made, where they lie in
	// the base and in Content, in order. A change both sides made alike
	// is in both.
	Ours, Theirs []Part
}

// Clash is one place where the two sides' changes overlap or touch.
type Clash struct {
	// Base is the lines of the base that both changes cover or lie
	// next to (the union of the two sides' runs there).
	Base Range
	// Ours and Theirs are the runs of the base each side changed there.
	Ours, Theirs []Range
}

// Conflict is a merge refused: the changes of the two sides meet.
type Conflict struct {
	Clashes []Clash
}

func (c *Conflict) Error() string {
	parts := make([]string, len(c.Clashes))
	for i, cl := range c.Clashes {
		parts[i] = cl.String()
	}
	return strings.Join(parts, "; ")
}

// String says where the clash is: "lines 10-12 (yours: 10-11; on disk:
// 12)".
func (cl Clash) String() string {
	where := "lines " + cl.Base.String()
	if cl.Base.Empty() {
		where = cl.Base.String()
	}
	return fmt.Sprintf("%s (your change: %s; the change on disk: %s)", where, ranges(cl.Ours), ranges(cl.Theirs))
}

func ranges(rs []Range) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		if r.Empty() {
			s[i] = "inserted " + r.String()
		} else {
			s[i] = "lines " + r.String()
		}
	}
	return strings.Join(s, ", ")
}

// Split splits s into lines, each with its terminator ("\n", which a
// "\r\n" ends in too); a last line without one is a line. "" is no line.
func Split(s string) []string {
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// hunk is one change of one side over base lines [start, end) (0-based),
// replaced by lines [rs, re) of that side.
type hunk struct {
	start, end int
	rs, re     int
	ours       bool
}

// Lines merges ours and theirs, both made from base, line by line. It
// returns the merged content and where each side's changes lie, or a
// [Conflict] naming every place where the changes meet. It never fails
// otherwise; equal sides, or one side equal to the base, merge to the
// other.
func Lines(base, ours, theirs string) (*Result, *Conflict) {
	b, o, t := Split(base), Split(ours), Split(theirs)
	var hs []hunk
	for _, d := range lcs.DiffLines(b, o) {
		hs = append(hs, hunk{d.Start, d.End, d.ReplStart, d.ReplEnd, true})
	}
	nours := len(hs)
	for _, d := range lcs.DiffLines(b, t) {
		hs = append(hs, hunk{d.Start, d.End, d.ReplStart, d.ReplEnd, false})
	}
	// Each side's hunks are in order; merge the two lists by start
	// (ours first among equals).
	sorted := make([]hunk, 0, len(hs))

	i, j := 0, nours
	for i < nours || j < len(hs) {
		if j == len(hs) || (i < nours && hs[i].start <= hs[j].start) {
			sorted = append(sorted, hs[i])
			i++
		} else {
			sorted = append(sorted, hs[j])
			j++
		}
	}
	var (
		out       strings.Builder
		res       Result
		conflict  Conflict
		pos       int // base lines before pos are done
		outLine   int // lines written to out
		writeBase = func(to int) {
			for ; pos < to; pos++ {
				out.WriteString(b[pos])
				outLine++
			}
		}
	)
	out.Grow(max(len(ours), len(theirs)))
	for k := 0; k < len(sorted); {
		// A group: hunks that overlap or touch, whichever side.
		gs, ge := sorted[k].start, sorted[k].end
		n := k + 1
		for n < len(sorted) && sorted[n].start <= ge {
			ge = max(ge, sorted[n].end)
			n++
		}
		group := sorted[k:n]
		k = n
		var mine, yours []hunk
		for _, h := range group {
			if h.ours {
				mine = append(mine, h)
			} else {
				yours = append(yours, h)
			}
		}
		writeBase(gs)
		switch {
		case len(yours) == 0 || len(mine) == 0:
			hs := mine
			if len(mine) == 0 {
				hs = yours
			}
			lines := t
			if hs[0].ours {
				lines = o
			}
			at := outLine
			text := apply(b, gs, ge, hs, lines)
			out.WriteString(strings.Join(text, ""))
			outLine += len(text)
			p := Part{Base: Range{gs + 1, ge}, Lines: Range{at + 1, outLine}}
			if hs[0].ours {
				res.Ours = append(res.Ours, p)
			} else {
				res.Theirs = append(res.Theirs, p)
			}
		default:
			a := apply(b, gs, ge, mine, o)
			c := apply(b, gs, ge, yours, t)
			if strings.Join(a, "") != strings.Join(c, "") {
				conflict.Clashes = append(conflict.Clashes, Clash{Base: Range{gs + 1, ge}, Ours: baseRuns(mine), Theirs: baseRuns(yours)})
				pos = ge
				continue
			}
			at := outLine
			out.WriteString(strings.Join(a, ""))
			outLine += len(a)
			p := Part{Base: Range{gs + 1, ge}, Lines: Range{at + 1, outLine}}
			res.Ours = append(res.Ours, p)
			res.Theirs = append(res.Theirs, p)
		}
		pos = ge
	}
	if len(conflict.Clashes) > 0 {
		return nil, &conflict
	}
	writeBase(len(b))
	res.Content = out.String()
	return &res, nil
}

// apply is base lines [gs, ge) with hs, hunks of one side within them,
// replaced by that side's lines.
func apply(b []string, gs, ge int, hs []hunk, lines []string) []string {
	var out []string
	at := gs
	for _, h := range hs {
		out = append(out, b[at:h.start]...)
		out = append(out, lines[h.rs:h.re]...)
		at = h.end
	}
	return append(out, b[at:ge]...)
}

// baseRuns is where hs lie in the base, 1-based.
func baseRuns(hs []hunk) []Range {
	out := make([]Range, len(hs))
	for i, h := range hs {
		out[i] = Range{h.start + 1, h.end}
	}
	return out
}
