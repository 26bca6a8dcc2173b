package search

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

// FuzzMatch: a pattern's matches are those of a plain line-by-line scan
// (the prefilter loses none), count counts them, and each match's
// location points back at its bytes.
func FuzzMatch(f *testing.F) {
	f.Add("needle", false, "a needle\r\nneedle\n")
	f.Add("needle$", true, "needle\r\nx needle")
	f.Add(`\Ax|y\z`, true, "x\ny\nx y")
	f.Add("(?s).", true, "a\nb")
	f.Add("x*", true, "héllo\n\nx")
	f.Add("é", false, "ééé\r\n😀é")
	f.Fuzz(func(t *testing.T, pattern string, regex bool, s string) {
		m, err := compile(pattern, regex)
		if err != nil {
			return
		}
		var got [][2]int
		mp := text.NewMapper(s)
		m.each(s, func() *text.Mapper { return mp }, func(a, b int) { got = append(got, [2]int{a, b}) })
		if want := reference(m, s); !slices.Equal(got, want) {
			t.Fatalf("matches %v, a line-by-line scan finds %v", got, want)
		}
		if n := m.count(s); n != len(got) {
			t.Fatalf("count %d, each found %d", n, len(got))
		}
		for _, g := range got {
			loc := locate("f", s, mp, g[0], g[1])
			if loc.Line != loc.EndLine || loc.Column > loc.EndColumn || loc.Column < 1 {
				t.Fatalf("match %v located at %+v", g, loc)
			}
			if off := mp.Offset(loc.Line-1, loc.Column-1, text.Chars); off > g[0] {
				t.Fatalf("match at byte %d located at %d:%d, byte %d", g[0], loc.Line, loc.Column, off)
			}
			if !regex && s[g[0]:g[1]] != pattern {
				t.Fatalf("literal match %q is not the pattern", s[g[0]:g[1]])
			}
		}
	})
}

// reference finds m's matches the plain way: a literal by strings.Index
// from the end of the last match, an expression on each line (without its
// terminator) with no prefilter.
func reference(m *matcher, s string) [][2]int {
	var out [][2]int
	if m.re == nil {
		for off := 0; ; {
			i := strings.Index(s[off:], m.lit)
			if i < 0 {
				return out
			}
			out = append(out, [2]int{off + i, off + i + len(m.lit)})
			off += i + len(m.lit)
		}
	}
	re := regexp.MustCompile(m.re.String())
	off := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		next := off + len(line)
		if line == "" {
			break // an empty file, or the end after a final newline: no line
		}
		body := strings.TrimSuffix(line, "\n")
		if len(body) < len(line) {
			body = strings.TrimSuffix(body, "\r")
		}
		for _, loc := range re.FindAllStringIndex(body, -1) {
			out = append(out, [2]int{off + loc[0], off + loc[1]})
		}
		off = next
	}
	return out
}
