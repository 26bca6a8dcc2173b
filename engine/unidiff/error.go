package unidiff

// This file defines [HunkError], the error of [Apply], and the near-miss
// search that makes a failed match say where it almost matched.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
)

// Kinds of [HunkError]: the error kinds every hunk matcher uses
// (engine/patch's MatchError too), so a caller classifies a failed match
// by its Kind alone.
const (
	KindNoMatch   = fault.NoMatch     // the hunk matches nowhere (or cannot go where it would)
	KindAmbiguous = fault.Ambiguous   // the hunk matches several places
	KindOverlap   = fault.BadArgument // two hunks change the same lines: the diff contradicts itself
)

// HunkError reports a hunk that [Apply] cannot apply.
type HunkError struct {
	Hunk   int        // the hunk's 1-based index (for an overlap, the later of the two)
	Header string     // its header line
	Kind   fault.Kind // KindNoMatch, KindAmbiguous or KindOverlap
	// Lines are 1-based lines of the original content: the closest near
	// miss, if one was found (no_match); the start of every match, at most
	// 50 (ambiguous); the first and last line both hunks cover (overlap).
	Lines []int
	Msg   string // the whole message, as Error returns it
}

// Error returns Msg.
func (e *HunkError) Error() string { return e.Msg }

// name is "hunk N (@@ ... @@)".
func name(h *Hunk, index int) string {
	if h.Header == "" {
		return "hunk " + strconv.Itoa(index)
	}
	return fmt.Sprintf("hunk %d (%s)", index, h.Header)
}

func ambiguous(h *Hunk, index int, matches []int) *HunkError {
	lines := make([]int, len(matches))
	for i, m := range matches {
		lines[i] = m + 1
	}
	count := strconv.Itoa(len(lines))
	if len(lines) == maxMatches {
		count = "at least " + count
	}
	return &HunkError{Hunk: index, Header: h.Header, Kind: KindAmbiguous, Lines: lines,
		Msg: fmt.Sprintf("%s matches %s places (lines %s): add context lines so it matches exactly once",
			name(h, index), count, listLines(lines))}
}

func listLines(lines []int) string {
	const shown = 10
	var b strings.Builder
	for i, l := range lines {
		if i == shown {
			fmt.Fprintf(&b, ", ... %d more", len(lines)-shown)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(l))
	}
	return b.String()
}

// markerMismatch reports a hunk whose lines match at 0-based line at, where
// its "\ No newline at end of file" marker does not hold.
func markerMismatch(h *Hunk, index, at int, f *file) *HunkError {
	end := at + len(h.Old)
	var why string
	switch {
	case end < f.n():
		why = fmt.Sprintf("the file goes on to line %d", f.n())
	default:
		why = "the file ends with a newline"
	}
	return &HunkError{Hunk: index, Header: h.Header, Kind: KindNoMatch, Lines: []int{at + 1},
		Msg: fmt.Sprintf(`%s matches at line %d, but it is marked "\ No newline at end of file" and %s: remove the marker, or match the file's last lines`,
			name(h, index), at+1, why)}
}

func misplacedAppend(h *Hunk, index, after, n int) *HunkError {
	return &HunkError{Hunk: index, Header: h.Header, Kind: KindNoMatch, Lines: []int{after},
		Msg: fmt.Sprintf(`%s has no context or "-" lines, so it can only append at the end of the file (after line %d), but its header puts it after line %d: add context lines around the insertion point`,
			name(h, index), n, after)}
}

func overlap(hunks []Hunk, a, b place) *HunkError {
	i, j := a.hunk, b.hunk
	if i > j {
		i, j = j, i
	}
	first, last := b.start+1, min(a.end, b.end)
	lines := []int{first, last}
	where := fmt.Sprintf("lines %d-%d", first, last)
	if first == last {
		lines, where = lines[:1], fmt.Sprintf("line %d", first)
	}
	return &HunkError{Hunk: j + 1, Header: hunks[j].Header, Kind: KindOverlap, Lines: lines,
		Msg: fmt.Sprintf("hunks %d and %d overlap at %s of the file (%s and %s): merge them into one hunk",
			i+1, j+1, where, hunks[i].Header, hunks[j].Header)}
}

func appendAfterNoEOL(hunks []Hunk, a, b place) *HunkError {
	return &HunkError{Hunk: b.hunk + 1, Header: hunks[b.hunk].Header, Kind: KindOverlap, Lines: []int{a.end},
		Msg: fmt.Sprintf(`%s appends at the end of the file, but %s ends the file with "\ No newline at end of file": merge them into one hunk`,
			name(&hunks[b.hunk], b.hunk+1), name(&hunks[a.hunk], a.hunk+1))}
}

// noMatch reports a hunk that matches nowhere, with its closest near miss.
func noMatch(h *Hunk, index int, f *file) *HunkError {
	e := &HunkError{Hunk: index, Header: h.Header, Kind: KindNoMatch}
	prefix := fmt.Sprintf(`%s does not match the file: its old side (context and "-" lines) must appear byte-for-byte`, name(h, index))
	at, equal := closest(h, f)
	if equal == 0 {
		e.Msg = prefix + "; none of its lines is in the file: view the file and copy the lines exactly"
		return e
	}
	e.Lines = []int{at + 1}
	var diff string
	for j, want := range h.Old {
		if at+j >= f.n() {
			diff = fmt.Sprintf("the file ends at line %d where the hunk still has %s", f.n(), quote(want))
			break
		}
		if got := f.line(at + j); got != want {
			diff = fmt.Sprintf("line %d of the file is %s where the hunk has %s", at+j+1, quote(got), quote(want))
			break
		}
	}
	e.Msg = fmt.Sprintf("%s; the closest place is line %d: %d of its %d old lines are equal there; %s",
		prefix, at+1, equal, len(h.Old), diff)
	return e
}

// closestBudget bounds the work of closest on pathological inputs (many
// repeated lines in both the hunk and the file).
const closestBudget = 20_000_000

// closest returns the 0-based window start where the most of h.Old's lines
// are equal to the file's, position by position, and how many are; ties go
// to the window nearest the header's old start, then to the first.
func closest(h *Hunk, f *file) (at, equal int) {
	n, k := f.n(), len(h.Old)
	last := max(0, n-k) // windows start in [0, last]
	where := make(map[string][]int, k)
	for j, l := range h.Old {
		where[l] = append(where[l], j)
	}
	score := make([]int32, last+1)
	work := 0
	for i := 0; i < n && work < closestBudget; i++ {
		for _, j := range where[f.line(i)] {
			if s := i - j; s >= 0 && s <= last {
				score[s]++
			}
			work++
		}
	}
	hint := -1
	if c := parseCounts(h.Header); c.ok {
		hint = c.oldStart - 1
	}
	best := -1
	for s, v := range score {
		if v == 0 {
			continue
		}
		if best < 0 || v > score[best] || v == score[best] && hint >= 0 && abs(s-hint) < abs(best-hint) {
			best = s
		}
	}
	if best < 0 {
		return 0, 0
	}
	return best, int(score[best])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
