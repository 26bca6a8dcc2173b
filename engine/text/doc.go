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
	"hash"
	"strings"
	"sync/atomic"
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
//
// A Doc holds its content as one string: the questions about terminators
// are answered from counts taken once, and the lines are split only when
// asked for ([Doc.Lines], [Doc.Line]), so a large file costs what its
// bytes cost.
type Doc struct {
	bom  bool
	s    string // the content, without the BOM
	nl   int    // '\n' bytes in s
	crlf int    // of which end a "\r\n"

	idx   atomic.Pointer[[]int]  // each line's start offset, on first use
	lines atomic.Pointer[[]Line] // the split lines, on first use
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
	if bytes.IndexByte(data, 0) < 0 && utf8.Valid(data) {
		return nil
	}
	return CheckString(string(data))
}

// CheckString is [Check] for a string.
func CheckString(s string) error {
	if strings.HasPrefix(s, "\xff\xfe") || strings.HasPrefix(s, "\xfe\xff") {
		return fmt.Errorf("%w: it is UTF-16 text (it starts with a UTF-16 byte-order mark), and devbroker reads and writes UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)", ErrNotUTF8)
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		return fmt.Errorf("%w at byte %d", ErrBinary, i)
	}
	if utf8.ValidString(s) {
		return nil
	}
	off := invalidAt(s)
	line := strings.Count(s[:off], "\n") + 1
	col := utf8.RuneCountInString(s[strings.LastIndexByte(s[:off], '\n')+1:off]) + 1
	return fmt.Errorf("%w: byte 0x%02x at line %d, column %d (byte offset %d) is not UTF-8: the file is in another encoding (Latin-1 or Windows-1252, for one), and devbroker reads and writes UTF-8: convert it first (iconv -f LATIN1 -t UTF-8)", ErrNotUTF8, s[off], line, col, off)
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
	if t, ok := strings.CutPrefix(s, BOM); ok {
		return fromContent(true, t)
	}
	return fromContent(false, s)
}

// fromContent is the Doc of content s (without the BOM): it counts the
// terminators once, so that the questions about them cost nothing later.
func fromContent(bom bool, s string) *Doc {
	d := &Doc{bom: bom, s: s, nl: strings.Count(s, LF)}
	if strings.IndexByte(s, '\r') >= 0 {
		d.crlf = strings.Count(s, CRLF)
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

// newDoc joins lines, each with its terminator, into a Doc.
func newDoc(bom bool, lines []Line) *Doc {
	n := 0
	for _, l := range lines {
		n += len(l.Text) + len(l.EOL)
	}
	var b strings.Builder
	b.Grow(n)
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteString(l.EOL)
	}
	return fromContent(bom, b.String())
}

// Size is the file's size on disk in bytes.
func (d *Doc) Size() int {
	if d.bom {
		return len(BOM) + len(d.s)
	}
	return len(d.s)
}

// BOM reports whether the file starts with a byte-order mark.
func (d *Doc) BOM() bool { return d.bom }

// Len is the number of lines. The empty file has 0 lines.
func (d *Doc) Len() int {
	if d.FinalNewline() {
		return d.nl
	}
	return d.nl + 1
}

// Line returns line i (0-based).
func (d *Doc) Line(i int) Line {
	idx := d.index()
	end := len(d.s)
	if i+1 < len(idx) {
		end = idx[i+1]
	}
	return lineAt(d.s[idx[i]:end])
}

// lineAt splits one line, terminator included, into a Line.
func lineAt(l string) Line {
	switch {
	case strings.HasSuffix(l, CRLF):
		return Line{Text: l[:len(l)-2], EOL: CRLF}
	case strings.HasSuffix(l, LF):
		return Line{Text: l[:len(l)-1], EOL: LF}
	}
	return Line{Text: l}
}

// Lines returns the lines. The caller must not modify the slice. The
// first call splits the text; use [Doc.Content] where a string serves.
func (d *Doc) Lines() []Line {
	if p := d.lines.Load(); p != nil {
		return *p
	}
	lines := SplitLines(d.s)
	d.lines.Store(&lines)
	return lines
}

// Texts returns each line's content without its terminator.
func (d *Doc) Texts() []string {
	lines := d.Lines()
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// FinalNewline reports whether the last line ends with a terminator. The
// empty file reports true: appending to it needs no newline first.
func (d *Doc) FinalNewline() bool {
	return d.s == "" || d.s[len(d.s)-1] == '\n'
}

// EOL returns the file's dominant line terminator: CRLF when more lines end
// in CRLF than in LF, LF otherwise.
func (d *Doc) EOL() string {
	if d.crlf > d.nl-d.crlf {
		return CRLF
	}
	return LF
}

// Mixed reports whether the file has both LF and CRLF terminators.
func (d *Doc) Mixed() bool { return d.crlf > 0 && d.nl > d.crlf }

// AllCRLF reports whether the file has at least one terminator and every
// terminator is CRLF.
func (d *Doc) AllCRLF() bool { return d.crlf > 0 && d.nl == d.crlf }

// Content is the text without the BOM, with every line's own terminator.
func (d *Doc) Content() string { return d.s }

// LFContent is the text without the BOM and with every terminator written as
// "\n": what read_lines and view show.
func (d *Doc) LFContent() string {
	if d.crlf == 0 {
		return d.s
	}
	return strings.ReplaceAll(d.s, CRLF, LF)
}

// String is the file as it is on disk: BOM, then content.
func (d *Doc) String() string {
	if d.bom {
		return BOM + d.s
	}
	return d.s
}

// Bytes is the file as it is on disk.
func (d *Doc) Bytes() []byte { return []byte(d.String()) }

// Revision is the file's revision: see [Revision].
func (d *Doc) Revision() string { return Revision(d.Bytes()) }

// Equal reports whether two Docs are the same bytes on disk.
func (d *Doc) Equal(o *Doc) bool {
	return d == o || (d.bom == o.bom && d.s == o.s)
}

// Revision is "sha256:" and the first 12 hex digits of the SHA-256 of data,
// the bytes as they are (or would be) on disk. It is the one revision formula
// used everywhere.
func Revision(data []byte) string {
	sum := sha256.Sum256(data)
	return revisionOf(sum[:])
}

// RevisionOfHash is [Revision] of the bytes written to h, a SHA-256 hash
// (crypto/sha256), for a caller that hashes in steps: edit_file resumes
// from the hash's state saved after a prefix the content shares.
func RevisionOfHash(h hash.Hash) string { return revisionOf(h.Sum(nil)) }

func revisionOf(sum []byte) string { return "sha256:" + hex.EncodeToString(sum[:6]) }
