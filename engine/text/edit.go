package text

import (
	"fmt"
	"sort"
	"strings"
)

// Edit replaces the bytes [Start, End) of a text with New.
type Edit struct {
	Start, End int
	New        string
}

// Apply applies edits to s. Edits may come in any order; they are sorted by
// position. Apply refuses out-of-range and overlapping edits (two insertions
// at the same offset are applied in the given order) and returns s unchanged
// with the error.
func Apply(s string, edits []Edit) (string, error) {
	sorted := make([]Edit, len(edits))
	copy(sorted, edits)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Start != sorted[j].Start {
			return sorted[i].Start < sorted[j].Start
		}
		return sorted[i].End < sorted[j].End
	})
	size := len(s)
	prev := 0
	for _, e := range sorted {
		if e.Start < 0 || e.End < e.Start || e.End > len(s) {
			return s, fmt.Errorf("edit [%d,%d) is out of range for a text of %d bytes", e.Start, e.End, len(s))
		}
		if e.Start < prev {
			return s, fmt.Errorf("edit [%d,%d) overlaps the edit before it, which ends at %d", e.Start, e.End, prev)
		}
		prev = e.End
		size += len(e.New) - (e.End - e.Start)
	}
	var b strings.Builder
	b.Grow(size)
	last := 0
	for _, e := range sorted {
		b.WriteString(s[last:e.Start])
		b.WriteString(e.New)
		last = e.End
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// RangeEdit replaces the text between two positions given as 0-based
// lines and columns counted in some [Unit]: the shape of an LSP TextEdit,
// whichever package's type it arrives in.
type RangeEdit struct {
	StartLine, StartCol int
	EndLine, EndCol     int
	New                 string
}

// ApplyRanges applies edits whose positions count columns in unit over s,
// as an editor or a language server means them: positions past a line's
// end clamp to it (see [Mapper.Offset]). A range that ends before it
// starts is refused, naming the range; otherwise as [Apply]. It is the one
// applier of LSP edits, for the language-server driver and the editor
// endpoint alike.
func ApplyRanges(s string, edits []RangeEdit, unit Unit) (string, error) {
	m := NewMapper(s)
	es := make([]Edit, len(edits))
	for i, e := range edits {
		start, end := m.Offset(e.StartLine, e.StartCol, unit), m.Offset(e.EndLine, e.EndCol, unit)
		if end < start {
			return s, fmt.Errorf("range %d:%d-%d:%d ends before it starts", e.StartLine, e.StartCol, e.EndLine, e.EndCol)
		}
		es[i] = Edit{Start: start, End: end, New: e.New}
	}
	return Apply(s, es)
}
