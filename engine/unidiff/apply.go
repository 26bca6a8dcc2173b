package unidiff

// This file defines [Apply] and [Range].

import (
	"cmp"
	"slices"
	"strings"
)

// Range is the 1-based inclusive line range a hunk occupies in the result of
// [Apply]. For a pure deletion End < Start, and Start is the line that now
// follows the deleted lines (where they were).
type Range struct{ Start, End int }

// Apply applies hunks to content: a file's text, lines separated by "\n",
// possibly without a final newline. "\r" is line content (see the package
// doc).
//
// Every hunk's old side must match, as whole lines, exactly once anywhere in
// the original content (there is no forward cursor, so hunks may come in any
// order). A hunk with no old lines (no context, no removals) appends at EOF,
// after any hunk that ends there, in hunk order. Overlapping hunks are an
// error. All hunks apply or none: on error Apply returns "", nil and the
// [*HunkError] of the first failing hunk in index order (overlaps are
// checked once every hunk has matched).
//
// Apply returns the new content and, for each hunk in the order given, the
// lines it occupies in the new content.
func Apply(content string, hunks []Hunk) (string, []Range, error) {
	if out, ranges, ok := applySearch(content, hunks); ok {
		return out, ranges, nil
	}
	return applyLines(content, hunks)
}

// applyLines is [Apply] by lines: it splits the content into lines once
// and matches each hunk line by line. It decides every case, and explains
// every failure.
func applyLines(content string, hunks []Hunk) (string, []Range, error) {
	f := splitLines(content)
	places := make([]place, len(hunks))
	for i := range hunks {
		at, err := f.locate(&hunks[i], i+1)
		if err != nil {
			return "", nil, err
		}
		places[i] = place{hunk: i, start: at, end: at + len(hunks[i].Old)}
	}
	slices.SortStableFunc(places, func(a, b place) int { return cmp.Compare(a.start, b.start) })
	if err := checkOverlaps(hunks, places); err != nil {
		return "", nil, err
	}
	out, ranges := f.build(hunks, places)
	return out, ranges, nil
}

// place is where a hunk applies: original lines [start, end), 0-based.
type place struct{ hunk, start, end int }

// file is content split into lines once, by offsets.
type file struct {
	s      string
	starts []int // starts[i] is line i's first byte; starts[n] is one past the last line's "\n" (real or missing)
	eol    bool  // the last line ends with "\n" (true for the empty file)
}

func splitLines(s string) *file {
	f := &file{s: s, eol: s == "" || s[len(s)-1] == '\n'}
	f.starts = make([]int, 0, strings.Count(s, "\n")+2)
	for off := 0; off < len(s); {
		f.starts = append(f.starts, off)
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			break // the last line has no "\n"
		}
		off += i + 1
	}
	if s == "" {
		f.starts = append(f.starts, 0)
	} else if f.eol {
		f.starts = append(f.starts, len(s))
	} else {
		f.starts = append(f.starts, len(s)+1)
	}
	return f
}

// n is the number of lines.
func (f *file) n() int { return len(f.starts) - 1 }

// line returns line i's content, without its "\n".
func (f *file) line(i int) string { return f.s[f.starts[i] : f.starts[i+1]-1] }

// equalAt reports whether lines [at, at+len(old)) equal old.
func (f *file) equalAt(at int, old []string) bool {
	for j, l := range old {
		if f.line(at+j) != l {
			return false
		}
	}
	return true
}

// maxMatches bounds how many match lines an error collects.
const maxMatches = 50

// locate returns the 0-based line where h applies, or a *HunkError.
func (f *file) locate(h *Hunk, index int) (int, error) {
	n, k := f.n(), len(h.Old)
	if k == 0 {
		// An insertion without context can only append; refuse one whose
		// header says it belongs mid-file rather than put it elsewhere.
		if c := parseCounts(h.Header); c.ok && c.old == 0 && c.oldStart > 0 && c.oldStart < n {
			return 0, misplacedAppend(h, index, c.oldStart, n)
		}
		return n, nil
	}
	var matches, rejected []int
	first := h.Old[0]
	for at := 0; at+k <= n; at++ {
		if f.line(at) != first || !f.equalAt(at, h.Old) {
			continue
		}
		atEOF := at+k == n
		if (h.OldNoEOL || h.NewNoEOL) && !atEOF || h.OldNoEOL && f.eol {
			rejected = append(rejected, at)
			continue
		}
		matches = append(matches, at)
		if len(matches) == maxMatches {
			break
		}
	}
	switch {
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) > 1:
		return 0, ambiguous(h, index, matches)
	case len(rejected) > 0:
		return 0, markerMismatch(h, index, rejected[0], f)
	}
	return 0, noMatch(h, index, f)
}

// checkOverlaps refuses overlapping places (sorted by start), and an append
// after a hunk whose new side ends the file without a newline.
func checkOverlaps(hunks []Hunk, places []place) error {
	for i := 1; i < len(places); i++ {
		a, b := places[i-1], places[i]
		if b.start < a.end {
			return overlap(hunks, a, b)
		}
		if b.start == b.end && b.start == a.end && hunks[a.hunk].NewNoEOL {
			return appendAfterNoEOL(hunks, a, b)
		}
	}
	return nil
}

// build writes the result of applying hunks at places (sorted by start).
func (f *file) build(hunks []Hunk, places []place) (string, []Range) {
	size := len(f.s) + 1
	for _, h := range hunks {
		for _, l := range h.New {
			size += len(l) + 1
		}
	}
	var b strings.Builder
	b.Grow(size)
	ranges := make([]Range, len(hunks))
	eol := f.eol
	prev, out := 0, 0 // next original line to copy; lines written
	for _, p := range places {
		f.copyLines(&b, prev, p.start)
		out += p.start - prev
		h := &hunks[p.hunk]
		for _, l := range h.New {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		ranges[p.hunk] = Range{Start: out + 1, End: out + len(h.New)}
		out += len(h.New)
		prev = p.end
		if p.end == f.n() { // this hunk ends the file
			switch {
			case h.NewNoEOL:
				eol = false
			case h.OldNoEOL || len(h.Old) == 0:
				eol = true
			}
		}
	}
	f.copyLines(&b, prev, f.n())
	s := b.String()
	if !eol && s != "" {
		s = s[:len(s)-1]
	}
	return s, ranges
}

// copyLines writes original lines [from, to), each with a "\n".
func (f *file) copyLines(b *strings.Builder, from, to int) {
	if from >= to {
		return
	}
	start, end := f.starts[from], f.starts[to]
	if end > len(f.s) {
		b.WriteString(f.s[start:])
		b.WriteByte('\n')
		return
	}
	b.WriteString(f.s[start:end])
}
