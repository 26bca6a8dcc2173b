// Package text is devbroker's model of a text file: its lines, each with its
// own terminator, its byte-order mark and its final-newline state, so that a
// file read and written again comes back byte for byte.
//
// The principal types are [Doc] (an immutable file), [Edit] (a byte-range
// replacement, applied with [Apply]) and [Mapper] (the one place where
// positions convert between bytes, lines, UTF-16 units and characters).
//
// This file defines [Doc], [Parse] and [Revision].
package text

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// BOM is the UTF-8 byte-order mark. It is held aside by [Parse] and put back
// by [Doc.Bytes].
const BOM = "\uFEFF"

// Line terminators.
const (
	LF   = "\n"
	CRLF = "\r\n"
)

// Line is one line of a file: its content, without the terminator, and the
// terminator itself ("\n", "\r\n", or "" for a last line without a newline).
type Line struct {
	Text string
	EOL  string
}

// Doc is an immutable text file. The zero Doc is the empty file.
//
// Invariant: only the last line may have an empty EOL, and no Text contains
// '\n' or ends in '\r' followed by its own "\n" terminator (that is CRLF).
type Doc struct {
	bom   bool
	lines []Line
	size  int // bytes on disk
}

// Sentinel errors for content that is not text.
var (
	// ErrBinary reports content with a NUL byte.
	ErrBinary = errors.New("binary content (it contains a NUL byte)")
	// ErrNotUTF8 reports content that is not valid UTF-8.
	ErrNotUTF8 = errors.New("not UTF-8 text")
)

// Parse splits data into a Doc. It fails with [ErrBinary] or [ErrNotUTF8]
// (wrapped with the byte offset) when data is not text.
func Parse(data []byte) (*Doc, error) {
	if err := Check(data); err != nil {
		return nil, err
	}
	return FromString(string(data)), nil
}

// Check reports whether data is text: valid UTF-8 with no NUL byte. It
// fails with [ErrBinary] or [ErrNotUTF8] wrapped with the byte offset of the
// first offending byte. Every entry that writes content applies this rule,
// the one acquisition applies when it reads a file.
func Check(data []byte) error {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return fmt.Errorf("%w at byte %d", ErrBinary, i)
	}
	if utf8.Valid(data) {
		return nil
	}
	return fmt.Errorf("%w: invalid byte at offset %d", ErrNotUTF8, invalidAt(string(data)))
}

// CheckString is [Check] for a string.
func CheckString(s string) error {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return fmt.Errorf("%w at byte %d", ErrBinary, i)
	}
	if utf8.ValidString(s) {
		return nil
	}
	return fmt.Errorf("%w: invalid byte at offset %d", ErrNotUTF8, invalidAt(s))
}

// invalidAt is the offset of the first byte of s that is not valid UTF-8.
func invalidAt(s string) int {
	off := 0
	for off < len(s) {
		r, size := utf8.DecodeRuneInString(s[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	return off
}

// FromString splits s, which must be valid text, into a Doc. A leading BOM is
// held aside.
func FromString(s string) *Doc {
	d := &Doc{}
	if strings.HasPrefix(s, BOM) {
		d.bom = true
		s = s[len(BOM):]
	}
	d.lines = SplitLines(s)
	d.size = len(s)
	if d.bom {
		d.size += len(BOM)
	}
	return d
}

// SplitLines splits s into lines, each keeping its own terminator. A final
// line without a terminator has EOL "". "a\nb\n" is two lines; "" is none.
func SplitLines(s string) []Line {
	if s == "" {
		return nil
	}
	lines := make([]Line, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, Line{Text: s})
			break
		}
		if i > 0 && s[i-1] == '\r' {
			lines = append(lines, Line{Text: s[:i-1], EOL: CRLF})
		} else {
			lines = append(lines, Line{Text: s[:i], EOL: LF})
		}
		s = s[i+1:]
	}
	return lines
}

// New builds a Doc from lines. It normalizes terminators so that the
// invariant holds: every line but the last gets eol if it has none.
func New(bom bool, lines []Line, eol string) *Doc {
	for i := 0; i < len(lines)-1; i++ {
		if lines[i].EOL == "" {
			lines[i].EOL = eol
		}
	}
	return newDoc(bom, lines)
}

func newDoc(bom bool, lines []Line) *Doc {
	d := &Doc{bom: bom, lines: lines}
	if bom {
		d.size = len(BOM)
	}
	for _, l := range lines {
		d.size += len(l.Text) + len(l.EOL)
	}
	return d
}

// Size is the file's size on disk in bytes.
func (d *Doc) Size() int { return d.size }

// BOM reports whether the file starts with a byte-order mark.
func (d *Doc) BOM() bool { return d.bom }

// Len is the number of lines. The empty file has 0 lines.
func (d *Doc) Len() int { return len(d.lines) }

// Line returns line i (0-based).
func (d *Doc) Line(i int) Line { return d.lines[i] }

// Lines returns the lines. The caller must not modify the slice.
func (d *Doc) Lines() []Line { return d.lines }

// Texts returns each line's content without its terminator.
func (d *Doc) Texts() []string {
	out := make([]string, len(d.lines))
	for i, l := range d.lines {
		out[i] = l.Text
	}
	return out
}

// FinalNewline reports whether the last line ends with a terminator. The
// empty file reports true: appending to it needs no newline first.
func (d *Doc) FinalNewline() bool {
	return len(d.lines) == 0 || d.lines[len(d.lines)-1].EOL != ""
}

// EOL returns the file's dominant line terminator: CRLF when more lines end
// in CRLF than in LF, LF otherwise.
func (d *Doc) EOL() string {
	crlf, lf := 0, 0
	for _, l := range d.lines {
		switch l.EOL {
		case CRLF:
			crlf++
		case LF:
			lf++
		}
	}
	if crlf > lf {
		return CRLF
	}
	return LF
}

// Mixed reports whether the file has both LF and CRLF terminators.
func (d *Doc) Mixed() bool {
	var crlf, lf bool
	for _, l := range d.lines {
		switch l.EOL {
		case CRLF:
			crlf = true
		case LF:
			lf = true
		}
	}
	return crlf && lf
}

// AllCRLF reports whether the file has at least one terminator and every
// terminator is CRLF.
func (d *Doc) AllCRLF() bool {
	seen := false
	for _, l := range d.lines {
		switch l.EOL {
		case LF:
			return false
		case CRLF:
			seen = true
		}
	}
	return seen
}

// Content is the text without the BOM, with every line's own terminator.
func (d *Doc) Content() string {
	n := 0
	for _, l := range d.lines {
		n += len(l.Text) + len(l.EOL)
	}
	var b strings.Builder
	b.Grow(n)
	for _, l := range d.lines {
		b.WriteString(l.Text)
		b.WriteString(l.EOL)
	}
	return b.String()
}

// LFContent is the text without the BOM and with every terminator written as
// "\n": what read_lines and view show.
func (d *Doc) LFContent() string {
	n := 0
	for _, l := range d.lines {
		n += len(l.Text) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for _, l := range d.lines {
		b.WriteString(l.Text)
		if l.EOL != "" {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// String is the file as it is on disk: BOM, then content.
func (d *Doc) String() string {
	if d.bom {
		return BOM + d.Content()
	}
	return d.Content()
}

// Bytes is the file as it is on disk.
func (d *Doc) Bytes() []byte { return []byte(d.String()) }

// Revision is the file's revision: see [Revision].
func (d *Doc) Revision() string { return Revision(d.Bytes()) }

// Equal reports whether two Docs are the same bytes on disk.
func (d *Doc) Equal(o *Doc) bool {
	if d == o {
		return true
	}
	if d.bom != o.bom || d.size != o.size || len(d.lines) != len(o.lines) {
		return false
	}
	for i := range d.lines {
		if d.lines[i] != o.lines[i] {
			return false
		}
	}
	return true
}

// Revision is "sha256:" and the first 12 hex digits of the SHA-256 of data,
// the bytes as they are (or would be) on disk. It is the one revision formula
// used everywhere.
func Revision(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:6])
}

// ReplaceLines returns a new Doc with lines [start, end) replaced by repl.
// Replacement lines without a terminator take the Doc's dominant one, and the
// result keeps the original's final-newline state.
func (d *Doc) ReplaceLines(start, end int, repl []Line) *Doc {
	return d.ReplaceMany([]LineReplacement{{Start: start, End: end, Lines: repl}})
}

// LineReplacement replaces lines [Start, End) with Lines.
type LineReplacement struct {
	Start, End int
	Lines      []Line
}

// ReplaceMany applies non-overlapping replacements given in ascending order
// of Start. Replacement lines without a terminator take the dominant one, and
// the result keeps the original's final-newline state. It panics on
// overlapping or out-of-range replacements: callers have matched them.
func (d *Doc) ReplaceMany(reps []LineReplacement) *Doc {
	eol := d.EOL()
	final := d.FinalNewline()
	n := len(d.lines)
	for _, r := range reps {
		n += len(r.Lines) - (r.End - r.Start)
	}
	out := make([]Line, 0, n)
	prev := 0
	for _, r := range reps {
		if r.Start < prev || r.End < r.Start || r.End > len(d.lines) {
			panic(fmt.Sprintf("text: bad line replacement [%d,%d) after %d of %d", r.Start, r.End, prev, len(d.lines)))
		}
		out = append(out, d.lines[prev:r.Start]...)
		for _, l := range r.Lines {
			if l.EOL == "" {
				l.EOL = eol
			}
			out = append(out, l)
		}
		prev = r.End
	}
	out = append(out, d.lines[prev:]...)
	for i := range out {
		if out[i].EOL == "" {
			out[i].EOL = eol
		}
	}
	if !final && len(out) > 0 {
		out[len(out)-1].EOL = ""
	}
	return newDoc(d.bom, out)
}
