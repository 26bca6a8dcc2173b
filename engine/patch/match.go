package patch

// This file defines [Hunk], [Match] and [Apply]: finding hunks in a file's
// lines with one forward cursor, and turning them into line replacements.

import (
	"slices"
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// Hunk is one change to a file: the lines to find and the lines that replace
// them.
type Hunk struct {
	// Hint is the text after "@@ " ("" if none). It only narrows an
	// ambiguous match; it never moves a unique one.
	Hint string
	// Old is the context and removed lines, content only. A trailing "\r"
	// is ignored when matching. No Old lines means a pure addition, which
	// appends at the end of the file.
	Old []string
	// OldEOL is nil when no line of Old carried "\r\n" in the patch. When
	// one did, the hunk was written from the file's real bytes and states
	// every terminator: OldEOL holds each Old line's as written ("\r\n",
	// "\n", or "" for a last line without one), and each New line's EOL is
	// its own as written, "\n" included.
	OldEOL []string
	// New is the context and added lines. A line with EOL "" takes the
	// file's dominant terminator; a line that carried "\r" in the patch
	// has EOL "\r\n"; a line has EOL "\n" only when OldEOL is set.
	New []text.Line
	// EOF ("*** End of File") requires the match to end at the last line.
	EOF bool
	// Line is the 1-based line of the patch text where the hunk starts, for
	// errors; 0 when the hunk did not come from a patch (the edit step).
	Line int
}

// Match finds every hunk in lines (a file's line contents, without
// terminators), in order, with one forward cursor: each hunk must match at or
// after the end of the previous match. It returns the replacements to apply,
// ascending and non-overlapping, or a [*MatchError] and no replacements.
//
// A hunk may yield several replacements or none: lines that it keeps (its
// context) are not replaced, so they keep their own terminators. Pure
// additions (no Old lines) neither need nor move the cursor; they are
// appended after everything else, in hunk order.
func Match(lines []string, hunks []Hunk) ([]text.LineReplacement, error) {
	var reps, appends []text.LineReplacement
	cursor := 0
	for i := range hunks {
		h := &hunks[i]
		if len(h.Old) == 0 {
			if len(h.New) > 0 {
				appends = append(appends, text.LineReplacement{Start: len(lines), End: len(lines), Lines: h.New})
			}
			continue
		}
		start, err := locate(lines, h, i+1, cursor)
		if err != nil {
			return nil, err
		}
		reps = appendPieces(reps, start, h)
		cursor = start + len(h.Old)
	}
	return append(reps, appends...), nil
}

// Apply matches hunks in doc (see [Match]) and returns the changed Doc. doc
// itself is never modified; on error the result is nil.
func Apply(doc *text.Doc, hunks []Hunk) (*text.Doc, error) {
	reps, err := Match(doc.Texts(), hunks)
	if err != nil {
		return nil, err
	}
	return doc.ReplaceMany(reps), nil
}

// locate returns the 0-based start of hunk h (number n) at or after cursor.
func locate(lines []string, h *Hunk, n, cursor int) (int, error) {
	var cands []int
	if h.EOF {
		if p := len(lines) - len(h.Old); p >= cursor && matchAt(lines, p, h.Old) {
			cands = []int{p}
		}
	} else {
		cands = findAll(lines, h.Old, cursor, len(lines), -1)
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		return 0, noMatchError(lines, h, n, cursor)
	}
	hintLine, narrowed := -1, []int(nil)
	if hint := strings.TrimSpace(h.Hint); hint != "" {
		for j := cursor; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == hint {
				hintLine = j
				break
			}
		}
		if hintLine >= 0 {
			for _, c := range cands {
				if c > hintLine {
					narrowed = append(narrowed, c)
				}
			}
			if len(narrowed) == 1 {
				return narrowed[0], nil
			}
		}
	}
	return 0, ambiguousError(h, n, cursor, cands, hintLine, narrowed)
}

// findAll returns the starts p in [from, to) where old matches lines, at
// most limit of them (limit < 0: all). It compares the first line first.
func findAll(lines, old []string, from, to, limit int) []int {
	var out []int
	first := trimCR(old[0])
	last := len(lines) - len(old)
	if to > last+1 {
		to = last + 1
	}
	for p := from; p < to; p++ {
		if trimCR(lines[p]) == first && matchAt(lines, p, old) {
			out = append(out, p)
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// matchAt reports whether old matches lines from p on.
func matchAt(lines []string, p int, old []string) bool {
	if p < 0 || p+len(old) > len(lines) {
		return false
	}
	for i, o := range old {
		if trimCR(lines[p+i]) != trimCR(o) {
			return false
		}
	}
	return true
}

// trimCR drops one trailing "\r".
func trimCR(s string) string {
	if n := len(s); n > 0 && s[n-1] == '\r' {
		return s[:n-1]
	}
	return s
}

// maxDiffCells bounds the table used to find a hunk's kept lines. A larger
// changed region is replaced as one block (its kept lines then take the
// dominant terminator, which only shows in a file with mixed endings).
const maxDiffCells = 1 << 20

// appendPieces appends the replacements that turn the matched lines
// [start, start+len(h.Old)) into h.New, leaving the lines that both share
// (by a longest common subsequence) in place with their own terminators.
// An Old and a New line are shared when the patch wrote them the same,
// terminator included; a line written back with another terminator is
// replaced, which changes its terminator.
func appendPieces(reps []text.LineReplacement, start int, h *Hunk) []text.LineReplacement {
	old, nw := h.Old, h.New
	eq := func(i, j int) bool { return old[i] == nw[j].Text && h.oldEOL(i) == nw[j].EOL }
	p := 0
	for p < len(old) && p < len(nw) && eq(p, p) {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(nw)-p && eq(len(old)-1-s, len(nw)-1-s) {
		s++
	}
	o, n := old[p:len(old)-s], nw[p:len(nw)-s]
	base := start + p
	switch {
	case len(o) == 0 && len(n) == 0:
		return reps
	case len(o) == 0 || len(n) == 0 || (len(o)+1)*(len(n)+1) > maxDiffCells:
		return append(reps, text.LineReplacement{Start: base, End: base + len(o), Lines: n})
	}
	// lcs[i*w+j] is the length of the longest common subsequence of o[i:]
	// and n[j:].
	w := len(n) + 1
	lcs := make([]int32, (len(o)+1)*w)
	for i := len(o) - 1; i >= 0; i-- {
		for j := len(n) - 1; j >= 0; j-- {
			switch {
			case eq(p+i, p+j):
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
				lcs[i*w+j] = lcs[(i+1)*w+j]
			default:
				lcs[i*w+j] = lcs[i*w+j+1]
			}
		}
	}
	i, j, ri, rj := 0, 0, 0, 0
	flush := func() {
		if i > ri || j > rj {
			reps = append(reps, text.LineReplacement{Start: base + ri, End: base + i, Lines: n[rj:j]})
		}
	}
	for i < len(o) && j < len(n) {
		switch {
		case eq(p+i, p+j) && lcs[i*w+j] == lcs[(i+1)*w+j+1]+1:
			flush()
			i, j = i+1, j+1
			ri, rj = i, j
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	i, j = len(o), len(n)
	flush()
	return reps
}

// oldEOL is Old line i's terminator as the patch states it ("" when the
// hunk states none).
func (h *Hunk) oldEOL(i int) string {
	if h.OldEOL == nil {
		return ""
	}
	return h.OldEOL[i]
}

// setTerminators settles how h states terminators, given each Old line's
// as written ("\r\n", "\n", or "" for none) and each New line's in its EOL.
// When an Old line carried "\r\n" they all stand (see [Hunk.OldEOL]);
// otherwise "\n" says nothing, and those New lines take the file's dominant
// terminator.
func (h *Hunk) setTerminators(oldEOL []string) {
	if slices.Contains(oldEOL, text.CRLF) {
		h.OldEOL = oldEOL
		return
	}
	h.OldEOL = nil
	for i := range h.New {
		if h.New[i].EOL == text.LF {
			h.New[i].EOL = ""
		}
	}
}
