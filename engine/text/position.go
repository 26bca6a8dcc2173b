package text

// This file defines [Mapper], the one type that converts positions.
//
// Encodings: a byte offset counts UTF-8 bytes from the start of the content
// (after any BOM). Lines are 0-based here; a column is counted from the start
// of its line in one of three units: bytes (Go's go/token), UTF-16 code units
// (the Language Server Protocol's default), or Unicode characters (what
// devbroker reports to people and models, 1-based at the edges). A column
// past the end of its line clamps to the line's end; a line past the end of
// the text clamps to the end of the text.

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Unit is the unit a column is counted in.
type Unit int

const (
	Bytes Unit = iota // UTF-8 bytes
	UTF16             // UTF-16 code units
	Chars             // Unicode code points
)

// Mapper converts positions in one text.
type Mapper struct {
	s      string
	starts []int // byte offset of each line start
}

// NewMapper returns a Mapper for s (content without BOM).
func NewMapper(s string) *Mapper {
	// strings.Count and strings.IndexByte find the newlines many bytes
	// at a time: a mapper is built for every file an answer names.
	starts := make([]int, 1, strings.Count(s, "\n")+1)
	for off := 0; ; {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	return &Mapper{s: s, starts: starts}
}

// Lines is the number of line starts (a text ending in '\n' has an empty
// last line here, as LSP sees it).
func (m *Mapper) Lines() int { return len(m.starts) }

// lineEnd is the offset of the end of line's content (before "\r\n" or "\n").
func (m *Mapper) lineEnd(line int) int {
	end := len(m.s)
	if line+1 < len(m.starts) {
		end = m.starts[line+1] - 1
		if end > m.starts[line] && m.s[end-1] == '\r' {
			end--
		}
	}
	return end
}

// Offset converts a 0-based line and a column in unit to a byte offset.
func (m *Mapper) Offset(line, col int, unit Unit) int {
	if line < 0 {
		return 0
	}
	if line >= len(m.starts) {
		return len(m.s)
	}
	start, end := m.starts[line], m.lineEnd(line)
	if col <= 0 {
		return start
	}
	switch unit {
	case Bytes:
		if start+col > end {
			return end
		}
		return start + col
	default:
		n := 0
		for off := start; off < end; {
			r, size := utf8.DecodeRuneInString(m.s[off:end])
			w := 1
			if unit == UTF16 && r >= 0x10000 {
				w = 2
			}
			if n+w > col {
				return off
			}
			n += w
			off += size
			if n == col {
				return off
			}
		}
		return end
	}
}

// Position converts a byte offset to a 0-based line and a column in unit.
// An offset inside a multi-byte character maps to that character's start.
func (m *Mapper) Position(offset int, unit Unit) (line, col int) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(m.s) {
		offset = len(m.s)
	}
	line = sort.Search(len(m.starts), func(i int) bool { return m.starts[i] > offset }) - 1
	start := m.starts[line]
	if end := m.lineEnd(line); offset > end {
		offset = end
	}
	for offset > start && offset < len(m.s) && !utf8.RuneStart(m.s[offset]) {
		offset--
	}
	switch unit {
	case Bytes:
		return line, offset - start
	default:
		n := 0
		for _, r := range m.s[start:offset] {
			n++
			if unit == UTF16 && r >= 0x10000 {
				n++
			}
		}
		return line, n
	}
}

// Convert converts a column on a 0-based line from one unit to another.
func (m *Mapper) Convert(line, col int, from, to Unit) int {
	_, c := m.Position(m.Offset(line, col, from), to)
	return c
}
