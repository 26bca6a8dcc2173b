package patch

// This file defines [Hunk], [Match] and [Apply]: finding hunks in a file's
// lines with one forward cursor, and turning them into line replacements.

import (
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

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
	// FinalNewline is set when the last New line was written with a
	// terminator that the file should keep: matched at the end of a file
	// without a final newline, the hunk gives it one (the edit step's
	// replace ending in "\n"). Unset, the file keeps its final-newline
	// state.
	FinalNewline bool
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
		reps = appendPieces(reps, start, len(lines), h)
		cursor = start + len(h.Old)
	}
	return append(reps, appends...), nil
}

// Apply matches hunks in doc (see [Match]) and returns the changed Doc. doc
// itself is never modified; on error the result is nil.
func Apply(doc *text.Doc, hunks []Hunk) (*text.Doc, error) {
	reps, ok := matchDoc(doc, hunks)
	if !ok {
		var err error
		if reps, err = Match(doc.Texts(), hunks); err != nil {
			return nil, err
		}
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

// appendPieces appends the replacements that turn the matched lines
// [start, start+len(h.Old)) into h.New, leaving the lines that both share
// (by go-udiff's longest common subsequence) in place with their own
// terminators. An Old and a New line are shared when the patch wrote them
// the same, terminator included; a line written back with another
// terminator is replaced, which changes its terminator.
func appendPieces(reps []text.LineReplacement, start, n int, h *Hunk) []text.LineReplacement {
	first := len(reps)
	old := make([]string, len(h.Old))
	for i, l := range h.Old {
		old[i] = l + "\x00" + h.oldEOL(i)
	}
	nw := make([]string, len(h.New))
	for j, l := range h.New {
		nw[j] = l.Text + "\x00" + l.EOL
	}
	for _, d := range lcs.DiffLines(old, nw) {
		reps = append(reps, text.LineReplacement{Start: start + d.Start, End: start + d.End, Lines: h.New[d.ReplStart:d.ReplEnd]})
	}
	if !h.FinalNewline || start+len(h.Old) != n || len(h.New) == 0 {
		return reps
	}
	// The hunk reaches the end of the file and asks for a final newline:
	// the piece that reaches the end carries the request; when the last
	// line is kept, it is replaced by itself to carry it.
	if k := len(reps) - 1; k >= first && reps[k].End == n {
		reps[k].FinalNewline = true
		return reps
	}
	return append(reps, text.LineReplacement{Start: n - 1, End: n, Lines: h.New[len(h.New)-1:], FinalNewline: true})
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
