package text

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// refReplaceMany is ReplaceMany as it was over a slice of lines: the
// reference the string-backed Doc must agree with.
func refReplaceMany(bom bool, lines []Line, reps []LineReplacement) string {
	crlf, lf := 0, 0
	for _, l := range lines {
		switch l.EOL {
		case CRLF:
			crlf++
		case LF:
			lf++
		}
	}
	eol := LF
	if crlf > lf {
		eol = CRLF
	}
	final := len(lines) == 0 || lines[len(lines)-1].EOL != ""
	mixed := crlf > 0 && lf > 0
	// around is the terminator a new line of r takes in a mixed file: the
	// neighbours', when they agree, else the replaced lines', else eol.
	around := func(r LineReplacement) string {
		if !mixed {
			return eol
		}
		one := func(ls []Line) string {
			got := ""
			for _, l := range ls {
				if l.EOL == "" {
					continue
				}
				if got != "" && got != l.EOL {
					return ""
				}
				got = l.EOL
			}
			return got
		}
		var nb []Line
		if r.Start > 0 {
			nb = append(nb, lines[r.Start-1])
		}
		if r.End < len(lines) {
			nb = append(nb, lines[r.End])
		}
		if e := one(nb); e != "" {
			return e
		}
		if e := one(lines[r.Start:r.End]); e != "" {
			return e
		}
		return eol
	}
	var out []Line
	prev, wantFinal := 0, false
	for _, r := range reps {
		out = append(out, lines[prev:r.Start]...)
		for _, l := range r.Lines {
			if l.EOL == "" {
				l.EOL = around(r)
			}
			out = append(out, l)
		}
		prev = r.End
		wantFinal = wantFinal || (r.FinalNewline && r.End == len(lines))
	}
	out = append(out, lines[prev:]...)
	for i := range out {
		if out[i].EOL == "" {
			out[i].EOL = eol
		}
	}
	if !final && !wantFinal && len(out) > 0 {
		out[len(out)-1].EOL = ""
	}
	var b strings.Builder
	if bom {
		b.WriteString(BOM)
	}
	for _, l := range out {
		b.WriteString(l.Text + l.EOL)
	}
	return b.String()
}

// checkDoc compares every accessor of FromString(s) with what the split
// lines say.
func checkDoc(t *testing.T, s string) {
	t.Helper()
	d := FromString(s)
	lines := SplitLines(strings.TrimPrefix(s, BOM))
	if d.Len() != len(lines) || !slices.Equal(d.Lines(), lines) {
		t.Fatalf("%q: %d lines %q, want %d %q", s, d.Len(), d.Lines(), len(lines), lines)
	}
	crlf, lf, off := 0, 0, 0
	var lfText strings.Builder
	for i, l := range lines {
		if got := d.Line(i); got != l {
			t.Fatalf("%q: Line(%d) = %q, want %q", s, i, got, l)
		}
		// Sampled: each LineOffset walks from the start.
		if i%97 == 0 {
			if got := LineOffset(d.Content(), i); got != off {
				t.Fatalf("%q: LineOffset(%d) = %d, want %d", s, i, got, off)
			}
		}
		off += len(l.Text) + len(l.EOL)
		switch l.EOL {
		case CRLF:
			crlf++
		case LF:
			lf++
		}
		lfText.WriteString(l.Text)
		if l.EOL != "" {
			lfText.WriteByte('\n')
		}
	}
	final := len(lines) == 0 || lines[len(lines)-1].EOL != ""
	eol := LF
	if crlf > lf {
		eol = CRLF
	}
	if d.FinalNewline() != final || d.EOL() != eol || d.Mixed() != (crlf > 0 && lf > 0) || d.AllCRLF() != (crlf > 0 && lf == 0) || d.LFContent() != lfText.String() {
		t.Fatalf("%q: final %v eol %q mixed %v allCRLF %v lf %q", s, d.FinalNewline(), d.EOL(), d.Mixed(), d.AllCRLF(), d.LFContent())
	}
}

// reps derives ascending replacements for a Doc of n lines from seed.
func reps(n int, seed uint64) []LineReplacement {
	var out []LineReplacement
	at := 0
	for k := 0; k < 3 && at <= n; k++ {
		start := at + int(seed%3)
		seed /= 3
		end := start + int(seed%3)
		seed /= 3
		if end > n {
			break
		}
		var ls []Line
		for j := 0; j < int(seed%3); j++ {
			ls = append(ls, Line{Text: fmt.Sprint("new", k, j), EOL: []string{"", LF, CRLF}[(seed/3+uint64(j))%3]})
		}
		seed /= 9
		out = append(out, LineReplacement{Start: start, End: end, Lines: ls, FinalNewline: seed%2 == 1})
		seed /= 2
		at = end
	}
	return out
}

func TestDocMatchesLines(t *testing.T) {
	long := strings.Repeat("x\n", 3000) + strings.Repeat("yy\r\n", 2000) + "z"
	for _, s := range []string{"", "\n", "a", "a\r", "a\r\n", "\r\n\n", "a\rb\n", "\uFEFFa\r\nb", long} {
		checkDoc(t, s)
		for seed := uint64(0); seed < 100; seed++ {
			compareReplace(t, s, reps(FromString(s).Len(), seed*7919))
		}
	}
	d := FromString(long)
	for _, n := range []int{0, 1, 2999, 3000, 4999, 5000, 5001, 9999} {
		if got, want := LineOffset(d.Content(), n), d.LineOffset(n); got != want {
			t.Errorf("LineOffset(%d) = %d, Doc.LineOffset = %d", n, got, want)
		}
	}
}

func compareReplace(t *testing.T, s string, rs []LineReplacement) {
	t.Helper()
	d := FromString(s)
	got := d.ReplaceMany(rs)
	want := refReplaceMany(d.BOM(), SplitLines(d.Content()), rs)
	if got.String() != want {
		t.Fatalf("ReplaceMany(%q, %v) = %q, want %q", s, rs, got.String(), want)
	}
	checkDoc(t, got.String())
}

// FuzzReplaceMany checks the string-backed Doc against the line model.
func FuzzReplaceMany(f *testing.F) {
	f.Add("a\nb\r\nc", uint64(12345))
	f.Add("\uFEFFx\r\ny\r\n", uint64(99))
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		if CheckString(s) != nil {
			return
		}
		checkDoc(t, s)
		compareReplace(t, s, reps(FromString(s).Len(), seed))
	})
}

func FuzzCommonAffixes(f *testing.F) {
	f.Add(strings.Repeat("ab", 1500)+"x", strings.Repeat("ab", 1500)+"y")
	f.Add("", "a")
	f.Fuzz(func(t *testing.T, a, b string) {
		p, q := 0, 0
		for p < len(a) && p < len(b) && a[p] == b[p] {
			p++
		}
		for q < len(a) && q < len(b) && a[len(a)-1-q] == b[len(b)-1-q] {
			q++
		}
		if CommonPrefix(a, b) != p || CommonSuffix(a, b) != q {
			t.Fatalf("%q %q: prefix %d suffix %d, want %d %d", a, b, CommonPrefix(a, b), CommonSuffix(a, b), p, q)
		}
	})
}
