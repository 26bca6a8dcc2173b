package text

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRoundTrip(t *testing.T) {
	for _, s := range []string{
		"", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\r\nb\nc", "\uFEFFx\r\n", "\uFEFF", "a\r", "a\rb\n", "\n\n\n",
	} {
		d, err := Parse([]byte(s))
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if got := d.String(); got != s {
			t.Errorf("round trip %q -> %q", s, got)
		}
		if d.Size() != len(s) {
			t.Errorf("%q: Size %d, want %d", s, d.Size(), len(s))
		}
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		in       string
		n        int
		final    bool
		eol      string
		mixed    bool
		allCRLF  bool
		lfString string
	}{
		{"", 0, true, LF, false, false, ""},
		{"a\nb\n", 2, true, LF, false, false, "a\nb\n"},
		{"a\nb", 2, false, LF, false, false, "a\nb"},
		{"a\r\nb\r\n", 2, true, CRLF, false, true, "a\nb\n"},
		{"a\r\nb\nc\r\n", 3, true, CRLF, true, false, "a\nb\nc\n"},
		{"a\r\nb\nc\n", 3, true, LF, true, false, "a\nb\nc\n"},
		{"\uFEFFa\r\n", 1, true, CRLF, false, true, "a\n"},
	} {
		d := FromString(tc.in)
		if d.Len() != tc.n || d.FinalNewline() != tc.final || d.EOL() != tc.eol || d.Mixed() != tc.mixed || d.AllCRLF() != tc.allCRLF || d.LFContent() != tc.lfString {
			t.Errorf("%q: len %d final %v eol %q mixed %v allCRLF %v lf %q", tc.in, d.Len(), d.FinalNewline(), d.EOL(), d.Mixed(), d.AllCRLF(), d.LFContent())
		}
	}
}

func TestParseRefusesNonText(t *testing.T) {
	if _, err := Parse([]byte("ab\x00c")); !errors.Is(err, ErrBinary) || !strings.Contains(err.Error(), "byte 2") {
		t.Errorf("NUL: %v", err)
	}
	if _, err := Parse([]byte("caf\xe9!")); !errors.Is(err, ErrNotUTF8) || !strings.Contains(err.Error(), "offset 3") {
		t.Errorf("latin-1: %v", err)
	}
}

func TestRevision(t *testing.T) {
	// sha256("hello\n") = 5891b5b522d5df08...
	if got := Revision([]byte("hello\n")); got != "sha256:5891b5b522d5" {
		t.Errorf("Revision = %s", got)
	}
	if FromString("\uFEFFx\r\n").Revision() != Revision([]byte("\uFEFFx\r\n")) {
		t.Error("Doc.Revision is not the revision of its bytes")
	}
}

func TestReplaceMany(t *testing.T) {
	for _, tc := range []struct {
		in   string
		reps []LineReplacement
		want string
	}{
		// New lines take the dominant terminator.
		{"a\r\nb\r\nc\r\n", []LineReplacement{{Start: 1, End: 2, Lines: []Line{{Text: "B"}, {Text: "B2"}}}}, "a\r\nB\r\nB2\r\nc\r\n"},
		// A line carrying its own terminator keeps it.
		{"a\nb\n", []LineReplacement{{Start: 0, End: 1, Lines: []Line{{Text: "A", EOL: CRLF}}}}, "A\r\nb\n"},
		// No final newline is kept when the last line is replaced...
		{"a\nb", []LineReplacement{{Start: 1, End: 2, Lines: []Line{{Text: "B"}, {Text: "C"}}}}, "a\nB\nC"},
		// ...and when lines are appended after it.
		{"a\nb", []LineReplacement{{Start: 2, End: 2, Lines: []Line{{Text: "c"}}}}, "a\nb\nc"},
		// Deleting the last line of a file without final newline.
		{"a\nb", []LineReplacement{{Start: 1, End: 2}}, "a"},
		// BOM kept; two replacements.
		{"\uFEFFa\nb\nc\n", []LineReplacement{{Start: 0, End: 1, Lines: []Line{{Text: "A"}}}, {Start: 2, End: 3}}, "\uFEFFA\nb\n"},
	} {
		got := FromString(tc.in).ReplaceMany(tc.reps).String()
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestApply(t *testing.T) {
	got, err := Apply("hello world", []Edit{{6, 11, "there"}, {0, 5, "HELLO"}, {5, 5, ","}})
	if err != nil || got != "HELLO, there" {
		t.Errorf("Apply = %q, %v", got, err)
	}
	for _, edits := range [][]Edit{
		{{0, 6, "x"}, {5, 7, "y"}}, // overlap
		{{3, 2, ""}},               // inverted
		{{0, 20, ""}},              // out of range
		{{-1, 0, ""}},
	} {
		if out, err := Apply("hello world", edits); err == nil || out != "hello world" {
			t.Errorf("Apply(%v) = %q, %v; want an error and the input", edits, out, err)
		}
	}
}

func TestMapper(t *testing.T) {
	// "é" is 2 bytes, 1 UTF-16 unit; "𝄞" is 4 bytes, 2 UTF-16 units.
	s := "aé𝄞b\r\nx\n"
	m := NewMapper(s)
	off := strings.Index(s, "b")
	for _, tc := range []struct {
		unit Unit
		col  int
	}{{Bytes, 7}, {UTF16, 4}, {Chars, 3}} {
		if l, c := m.Position(off, tc.unit); l != 0 || c != tc.col {
			t.Errorf("Position(%d, %v) = %d:%d, want 0:%d", off, tc.unit, l, c, tc.col)
		}
		if got := m.Offset(0, tc.col, tc.unit); got != off {
			t.Errorf("Offset(0, %d, %v) = %d, want %d", tc.col, tc.unit, got, off)
		}
	}
	if got := m.Convert(0, 4, UTF16, Chars); got != 3 {
		t.Errorf("Convert UTF-16 4 -> chars = %d", got)
	}
	// Past the end of a line clamps to before "\r\n"; past the end of the text clamps.
	if got := m.Offset(0, 99, Chars); got != off+1 {
		t.Errorf("clamp to line end: %d", got)
	}
	if got := m.Offset(9, 0, Bytes); got != len(s) {
		t.Errorf("clamp past last line: %d", got)
	}
	if l, c := m.Position(len(s), Chars); l != 2 || c != 0 {
		t.Errorf("end of text = %d:%d", l, c)
	}
	// Inside a multi-byte character maps to its start.
	if _, c := m.Position(2, Chars); c != 1 {
		t.Errorf("mid-rune position column %d, want 1", c)
	}
}

// TestMapperLineStarts checks the line starts NewMapper finds against
// the byte-by-byte count: a line starts after every '\n' ("\r" alone
// ends no line), and text ending in '\n' has an empty last line.
func TestMapperLineStarts(t *testing.T) {
	for _, s := range []string{"", "\n", "\n\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb", "\n\nx\n\n", strings.Repeat("ab\n", 100) + "tail"} {
		want := []int{0}
		for i := 0; i < len(s); i++ {
			if s[i] == '\n' {
				want = append(want, i+1)
			}
		}
		m := NewMapper(s)
		if m.Lines() != len(want) {
			t.Errorf("%q: %d lines, want %d", s, m.Lines(), len(want))
			continue
		}
		for l, off := range want {
			if got := m.Offset(l, 0, Bytes); got != off {
				t.Errorf("%q: line %d starts at %d, want %d", s, l, got, off)
			}
		}
	}
}

func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "\uFEFFx\n", "a\rb\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse([]byte(s))
		if err != nil {
			if utf8.ValidString(s) && !strings.Contains(s, "\x00") {
				t.Fatalf("valid text refused: %v", err)
			}
			return
		}
		if d.String() != s || d.Size() != len(s) {
			t.Fatalf("round trip changed %q", s)
		}
	})
}

func FuzzMapper(f *testing.F) {
	f.Add("aé𝄞b\r\nx\n", 3)
	f.Add("abc", 3)
	f.Fuzz(func(t *testing.T, s string, off int) {
		if !utf8.ValidString(s) {
			return
		}
		m := NewMapper(s)
		for _, u := range []Unit{Bytes, UTF16, Chars} {
			l, c := m.Position(off, u)
			back := m.Offset(l, c, u)
			if back < 0 || back > len(s) {
				t.Fatalf("Offset out of range: %d", back)
			}
			if l2, c2 := m.Position(back, u); l2 != l || c2 != c {
				t.Fatalf("%q off %d unit %v: %d:%d -> %d -> %d:%d", s, off, u, l, c, back, l2, c2)
			}
		}
	})
}

func TestRestoreEOL(t *testing.T) {
	for _, tc := range []struct{ orig, lf, want string }{
		// Kept lines keep their own terminator; new lines take the dominant (CRLF here).
		{"a\r\nb\nc\r\nd\r\n", "a\nb\nX\nd\n", "a\r\nb\nX\r\nd\r\n"},
		// Inserted lines in the middle; the LF line survives.
		{"a\r\nb\nc\r\n", "a\nnew1\nnew2\nb\nc\n", "a\r\nnew1\r\nnew2\r\nb\nc\r\n"},
		// Deleting lines; no final newline is taken from lf.
		{"a\r\nb\nc\r\n", "a\nb", "a\r\nb"},
		// BOM kept.
		{"\uFEFFa\nb\r\nc\n", "a\nB\nc\n", "\uFEFFa\nB\nc\n"},
	} {
		got := RestoreEOL(FromString(tc.orig), tc.lf).String()
		if got != tc.want {
			t.Errorf("RestoreEOL(%q, %q) = %q, want %q", tc.orig, tc.lf, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error
		at   string
	}{
		{"plain\n", nil, ""},
		{"a\x00b", ErrBinary, "at byte 1"},
		{"ok\xffno", ErrNotUTF8, "offset 2"},
		{"é\xe2\x82", ErrNotUTF8, "offset 2"},
	} {
		for _, err := range []error{Check([]byte(tc.in)), CheckString(tc.in)} {
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.at)) {
				t.Errorf("Check(%q) = %v, want %v %s", tc.in, err, tc.want, tc.at)
			}
		}
	}
}
