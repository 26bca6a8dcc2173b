package patch

// This file defines [MatchError], the error of [Match] and [Apply], and the
// near-miss search that makes a failed match say where it almost matched.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/devbroker/devbroker/engine/fault"
)

// Sentinels for the two ways a hunk fails to match. Their texts are the
// seed's messages, verbatim; a [*MatchError] begins with one of them and
// unwraps to it.
var (
	// ErrAmbiguous reports a hunk that matches more than once.
	ErrAmbiguous = errors.New("patch context is ambiguous and matches multiple locations")
	// ErrNoMatch reports a hunk that matches nowhere.
	ErrNoMatch = errors.New("the patch could not be applied cleanly to the source text")
)

// The kinds of a [MatchError]: the error kinds every hunk matcher uses
// (engine/unidiff's HunkError too), so a caller classifies a
// failed match by its Kind alone.
const (
	Ambiguous = fault.Ambiguous // several candidates
	NoMatch   = fault.NoMatch   // no candidate
)

// MatchError reports a hunk that is ambiguous or matches nowhere. Its message
// begins with [ErrAmbiguous] or [ErrNoMatch] (which it unwraps to), then
// names the hunk, its first lines and where it matched or almost matched.
type MatchError struct {
	Kind fault.Kind // Ambiguous or NoMatch
	// Hunk is the failing hunk's 1-based index.
	Hunk int
	// Lines are 1-based file lines: every candidate start (Ambiguous), or
	// the start of the closest near miss, if one was found (NoMatch).
	Lines []int
	// Msg is the whole message, as Error returns it.
	Msg string

	patchLine int    // the hunk's line in the patch text, 0 if none
	subject   string // the hunk's first lines, quoted
	detail    string // where it matched, or almost did
}

// Error returns Msg.
func (e *MatchError) Error() string { return e.Msg }

// Unwrap returns [ErrAmbiguous] or [ErrNoMatch].
func (e *MatchError) Unwrap() error {
	if e.Kind == Ambiguous {
		return ErrAmbiguous
	}
	return ErrNoMatch
}

// Relabel returns a copy of e whose message calls the hunk noun (the edit
// step says "edit", so its message reads "edit 2") and, when path is not
// empty, names the file. The message still begins with the seed's sentence.
func (e *MatchError) Relabel(noun, path string) *MatchError {
	c := *e
	c.Msg = c.compose(noun, path)
	return &c
}

func (e *MatchError) compose(noun, path string) string {
	var b strings.Builder
	b.WriteString(e.Unwrap().Error())
	fmt.Fprintf(&b, ": %s %d", noun, e.Hunk)
	if path != "" {
		b.WriteString(" in " + path)
	}
	b.WriteString(" (")
	if e.patchLine > 0 {
		fmt.Fprintf(&b, "patch line %d; ", e.patchLine)
	}
	b.WriteString(e.subject + ") " + e.detail)
	return b.String()
}

func newMatchError(kind fault.Kind, h *Hunk, n int, lines []int, detail string) *MatchError {
	e := &MatchError{Kind: kind, Hunk: n, Lines: lines, patchLine: h.Line, detail: detail}
	if len(h.Old) == 1 {
		e.subject = "the line " + quote(h.Old[0])
	} else {
		e.subject = fmt.Sprintf("%d lines starting %s, %s", len(h.Old), quote(h.Old[0]), quote(h.Old[1]))
	}
	e.Msg = e.compose("hunk", "")
	return e
}

// maxListed is how many candidate lines a message lists.
const maxListed = 10

func ambiguousError(h *Hunk, n, cursor int, cands []int, hintLine int, narrowed []int) *MatchError {
	ones := make([]int, len(cands))
	for i, c := range cands {
		ones[i] = c + 1
	}
	var b strings.Builder
	b.WriteString("matches at lines " + listLines(ones))
	if cursor > 0 {
		fmt.Fprintf(&b, " (searching from line %d, after the previous match)", cursor+1)
	}
	switch hint := strings.TrimSpace(h.Hint); {
	case hint == "":
	case hintLine < 0:
		fmt.Fprintf(&b, "; its @@ hint %s matches no line, so it was ignored", quote(hint))
	case len(narrowed) == 0:
		fmt.Fprintf(&b, "; its @@ hint %s (line %d) leaves none of them after it", quote(hint), hintLine+1)
	default:
		fmt.Fprintf(&b, "; its @@ hint %s (line %d) leaves %d of them", quote(hint), hintLine+1, len(narrowed))
	}
	b.WriteString("; add surrounding lines so that it matches only once")
	if h.Line > 0 {
		b.WriteString(", or name a line above the intended place after \"@@ \"")
	}
	return newMatchError(Ambiguous, h, n, ones, b.String())
}

func noMatchError(lines []string, h *Hunk, n, cursor int) *MatchError {
	var detail string
	switch {
	case h.EOF:
		detail = "does not match at the end of the file (\"*** End of File\")"
	case cursor > 0:
		detail = fmt.Sprintf("matches nowhere from line %d on (after the previous match)", cursor+1)
	case len(lines) == 0:
		detail = "matches nowhere: the file is empty"
	default:
		detail = "matches nowhere in the file"
	}
	at, why := nearMiss(lines, h, cursor)
	var near []int
	if at >= 0 {
		near = []int{at + 1}
	}
	if why != "" {
		detail += "; " + why
	}
	return newMatchError(NoMatch, h, n, near, detail)
}

// nearMiss looks, in linear time, for the closest thing to a match of h: an
// exact match that "*** End of File" or the cursor rules out, a match up to
// whitespace, or the longest run of its first lines. It returns the 0-based
// line (-1 if none) and a sentence saying what it found.
func nearMiss(lines []string, h *Hunk, cursor int) (int, string) {
	old := h.Old
	if h.EOF {
		if p := findAll(lines, old, cursor, len(lines), 1); len(p) > 0 {
			return p[0], fmt.Sprintf("it matches at line %d, but \"*** End of File\" requires it to end at the last line (%d)", p[0]+1, len(lines))
		}
	}
	if p := findAll(lines, old, 0, cursor, 1); len(p) > 0 {
		return p[0], fmt.Sprintf("it matches at line %d, but the previous match ends at line %d and matches must come in file order", p[0]+1, cursor)
	}
	for _, from := range []int{cursor, 0} {
		if p, i := fuzzyAt(lines, old, from); p >= 0 {
			return p, fmt.Sprintf("lines %d-%d match if leading and trailing whitespace is ignored: line %d is %s where the patch has %s (check tabs and spaces)",
				p+1, p+len(old), p+i+1, quote(lines[p+i]), quote(old[i]))
		}
		if cursor == 0 {
			break
		}
	}
	best, bestK := -1, 0
	first := trimCR(old[0])
	for p := cursor; p < len(lines); p++ {
		if trimCR(lines[p]) != first {
			continue
		}
		k := 1
		for k < len(old) && p+k < len(lines) && trimCR(lines[p+k]) == trimCR(old[k]) {
			k++
		}
		if k > bestK {
			best, bestK = p, k
		}
	}
	switch {
	case best < 0:
		return -1, "no line equals its first line"
	case best+bestK >= len(lines):
		return best, fmt.Sprintf("the closest is line %d, where its first %d line(s) match before the file ends", best+1, bestK)
	}
	return best, fmt.Sprintf("the closest is line %d, where its first %d line(s) match; then line %d is %s where the patch has %s",
		best+1, bestK, best+bestK+1, quote(lines[best+bestK]), quote(old[bestK]))
}

// fuzzyAt finds the first p >= from where old matches lines when leading and
// trailing whitespace is ignored, and the first line i that differs exactly.
// It returns -1, 0 if there is none.
func fuzzyAt(lines, old []string, from int) (int, int) {
	first := strings.TrimSpace(old[0])
	for p := from; p+len(old) <= len(lines); p++ {
		if strings.TrimSpace(lines[p]) != first {
			continue
		}
		diff := -1
		for i, o := range old {
			if strings.TrimSpace(lines[p+i]) != strings.TrimSpace(o) {
				diff = -2
				break
			}
			if diff == -1 && trimCR(lines[p+i]) != trimCR(o) {
				diff = i
			}
		}
		if diff >= 0 {
			return p, diff
		}
	}
	return -1, 0
}

// listLines writes 1-based line numbers as "3, 7 and 12", listing at most
// maxListed.
func listLines(ls []int) string {
	var b strings.Builder
	shown := min(len(ls), maxListed)
	for i := 0; i < shown; i++ {
		switch {
		case i == 0:
		case i == shown-1 && shown == len(ls):
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(ls[i]))
	}
	if shown < len(ls) {
		fmt.Fprintf(&b, ", ... (%d in all)", len(ls))
	}
	return b.String()
}

// quote quotes a line for a message, cut to a readable length.
func quote(s string) string {
	s = trimCR(s)
	const maxQuote = 80
	if len(s) > maxQuote {
		cut := maxQuote
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "..."
	}
	return strconv.Quote(s)
}
