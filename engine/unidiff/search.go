package unidiff

// This file defines the fast path of [Apply]: the common case decided by
// searching the content for each hunk's old lines, without splitting the
// file into lines.

import (
	"cmp"
	"slices"
	"strings"
)

// maxSearchHunks is the most hunks applySearch takes on.
const maxSearchHunks = 2

// span is where a hunk applies: original bytes [from, to).
type span struct{ hunk, from, to int }

// applySearch applies up to [maxSearchHunks] hunks when each one's old
// lines occur exactly once, as whole lines, and no two overlap: the case
// [applyLines] would decide the same way, with the same result. Anything else (no match, several,
// an overlap, an append, a missing final newline on either side) it
// leaves to applyLines, which decides and explains (ok false).
func applySearch(content string, hunks []Hunk) (string, []Range, bool) {
	// Each hunk is one search of the content; splitting it into lines once
	// costs about two, so more hunks are matched by lines.
	if len(hunks) > maxSearchHunks || content == "" || content[len(content)-1] != '\n' {
		return "", nil, false
	}
	spans := make([]span, len(hunks))
	for i := range hunks {
		h := &hunks[i]
		if len(h.Old) == 0 || h.OldNoEOL || h.NewNoEOL {
			return "", nil, false
		}
		needle := strings.Join(h.Old, "\n") + "\n"
		at, ok := onlyLineMatch(content, needle)
		if !ok {
			return "", nil, false
		}
		spans[i] = span{hunk: i, from: at, to: at + len(needle)}
	}
	slices.SortStableFunc(spans, func(a, b span) int { return cmp.Compare(a.from, b.from) })
	size := len(content)
	for i, sp := range spans {
		if i > 0 && sp.from < spans[i-1].to {
			return "", nil, false
		}
		for _, l := range hunks[sp.hunk].New {
			size += len(l) + 1
		}
	}
	var b strings.Builder
	b.Grow(size)
	ranges := make([]Range, len(hunks))
	prev, out := 0, 0 // next original byte to copy; lines written
	for _, sp := range spans {
		b.WriteString(content[prev:sp.from])
		out += strings.Count(content[prev:sp.from], "\n")
		h := &hunks[sp.hunk]
		for _, l := range h.New {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		ranges[sp.hunk] = Range{Start: out + 1, End: out + len(h.New)}
		out += len(h.New)
		prev = sp.to
	}
	b.WriteString(content[prev:])
	return b.String(), ranges, true
}

// onlyLineMatch returns the offset of the one place where needle (whole
// lines, each ending in "\n") starts a line of content, and whether there
// is exactly one.
func onlyLineMatch(content, needle string) (int, bool) {
	found := -1
	for off := 0; off < len(content); {
		i := strings.Index(content[off:], needle)
		if i < 0 {
			break
		}
		at := off + i
		if at == 0 || content[at-1] == '\n' {
			if found >= 0 {
				return 0, false
			}
			found = at
		}
		off = at + 1
	}
	return found, found >= 0
}
