package text

import "github.com/aymanbagabas/go-udiff/lcs"

// RestoreEOL returns lf — an edited version of orig's LF form (see
// [Doc.LFContent]) — as a Doc whose lines keep orig's terminators: every
// line that the edit kept (matched by a line diff) keeps its own
// terminator, and every new line takes orig's dominant one. The BOM is
// kept, and so is lf's own final-newline state. It is how a matcher that
// works on LF text leaves a mixed-ending file mixed.
func RestoreEOL(orig *Doc, lf string) *Doc {
	eol := orig.EOL()
	final := lf == "" || lf[len(lf)-1] == '\n'
	out := SplitLines(lf)
	old := orig.Lines()
	for i := range out {
		out[i].EOL = eol
	}
	// Kept lines: the common prefix, the common suffix, then a line diff
	// of what is between.
	a, b := 0, 0
	for a < len(old) && a < len(out) && old[a].Text == out[a].Text {
		out[a].EOL = old[a].EOL
		a++
	}
	ea, eb := len(old), len(out)
	for ea > a && eb > a && old[ea-1].Text == out[eb-1].Text {
		out[eb-1].EOL = old[ea-1].EOL
		ea, eb = ea-1, eb-1
	}
	b = a
	if ea > a && eb > b {
		as := make([]string, ea-a)
		for i := range as {
			as[i] = old[a+i].Text
		}
		bs := make([]string, eb-b)
		for i := range bs {
			bs[i] = out[b+i].Text
		}
		// Walk the equal stretches between the diff's changes.
		ai, bi := 0, 0
		for _, d := range lcs.DiffLines(as, bs) {
			for ai < d.Start && bi < d.ReplStart {
				out[b+bi].EOL = old[a+ai].EOL
				ai, bi = ai+1, bi+1
			}
			ai, bi = d.End, d.ReplEnd
		}
		for ai < len(as) && bi < len(bs) {
			out[b+bi].EOL = old[a+ai].EOL
			ai, bi = ai+1, bi+1
		}
	}
	for i := range out {
		if out[i].EOL == "" {
			out[i].EOL = eol
		}
	}
	if n := len(out); n > 0 && !final {
		out[n-1].EOL = ""
	}
	return newDoc(orig.BOM(), out)
}
