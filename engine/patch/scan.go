package patch

// This file is [Apply]'s fast path: it finds hunks in a Doc's content with
// substring search, without splitting the file into lines. When a hunk
// does not match exactly once, [Match] over the split lines decides (hint
// narrowing) and explains (errors), so both paths give the same answer.

import (
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// matchDoc is [Match] over doc for hunks that each match exactly once at
// or after the cursor; ok is false when some hunk does not, and then
// [Match] must decide.
func matchDoc(doc *text.Doc, hunks []Hunk) (reps []text.LineReplacement, ok bool) {
	c := scanner{s: doc.Content(), n: doc.Len()}
	var appends []text.LineReplacement
	for i := range hunks {
		h := &hunks[i]
		if len(h.Old) == 0 {
			if len(h.New) > 0 {
				appends = append(appends, text.LineReplacement{Start: c.n, End: c.n, Lines: h.New})
			}
			continue
		}
		start, ok := c.locate(h)
		if !ok {
			return nil, false
		}
		reps = appendPieces(reps, start, c.n, h)
		c.advance(start + len(h.Old))
	}
	return append(reps, appends...), true
}

// scanner is a forward cursor over a text's lines: line starts at off.
type scanner struct {
	s         string
	n         int // lines
	line, off int
}

// advance moves the cursor forward to line.
func (c *scanner) advance(line int) {
	c.off = text.LineOffset(c.s[c.off:], line-c.line) + c.off
	c.line = line
}

// lineAt returns the line that starts at off, without its terminator, and
// the offset of the next line.
func (c *scanner) lineAt(off int) (string, int) {
	j := strings.IndexByte(c.s[off:], '\n')
	if j < 0 {
		return c.s[off:], len(c.s)
	}
	l := c.s[off : off+j]
	return strings.TrimSuffix(l, "\r"), off + j + 1
}

// locate returns the one start of h at or after the cursor, if there is
// exactly one.
func (c *scanner) locate(h *Hunk) (int, bool) {
	last := c.n - len(h.Old) // the last possible start
	if h.EOF {
		if last < c.line {
			return 0, false
		}
		return last, c.matchAt(text.LineOffset(c.s[c.off:], last-c.line)+c.off, h.Old)
	}
	first := trimCR(h.Old[0])
	if first == "" {
		return 0, false // a blank first line: too many candidates to search for
	}
	found, at := 0, 0
	line, counted := c.line, c.off // line is the line at offset counted
	for pos := c.off; pos < len(c.s); {
		i := strings.Index(c.s[pos:], first)
		if i < 0 {
			break
		}
		o := pos + i
		if o > 0 && c.s[o-1] != '\n' {
			// Not at a line start: go on from the next line.
			j := strings.IndexByte(c.s[o:], '\n')
			if j < 0 {
				break
			}
			pos = o + j + 1
			continue
		}
		line += strings.Count(c.s[counted:o], "\n")
		counted = o
		if line > last {
			break
		}
		l, next := c.lineAt(o)
		if trimCR(l) == first && c.matchAt(o, h.Old) {
			if found++; found > 1 {
				return 0, false
			}
			at = line
		}
		pos = next
	}
	return at, found == 1
}

// matchAt reports whether old matches the lines from offset off on.
func (c *scanner) matchAt(off int, old []string) bool {
	for _, o := range old {
		if off >= len(c.s) {
			return false
		}
		l, next := c.lineAt(off)
		if trimCR(l) != trimCR(o) {
			return false
		}
		off = next
	}
	return true
}
