package merge

import (
	"slices"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

func TestLines(t *testing.T) {
	base := "a\nb\nc\nd\ne\nf\n"
	for _, c := range []struct {
		name                string
		ours, theirs        string
		want                string // "" with clashes set: a conflict
		clashes             []string
		oursParts, theirsAt []Part
	}{
		{name: "apart", ours: "A\nb\nc\nd\ne\nf\n", theirs: "a\nb\nc\nd\ne\nF\n", want: "A\nb\nc\nd\ne\nF\n",
			oursParts: []Part{{Range{1, 1}, Range{1, 1}}}, theirsAt: []Part{{Range{6, 6}, Range{6, 6}}}},
		{name: "one line between", ours: "a\nB\nc\nd\ne\nf\n", theirs: "a\nb\nc\nD\ne\nf\n", want: "a\nB\nc\nD\ne\nf\n"},
		{name: "adjacent lines clash", ours: "a\nB\nc\nd\ne\nf\n", theirs: "a\nb\nC\nd\ne\nf\n", clashes: []string{"lines 2-3 (your change: lines 2; the change on disk: lines 3)"}},
		{name: "same line", ours: "a\nB\nc\nd\ne\nf\n", theirs: "a\nb2\nc\nd\ne\nf\n", clashes: []string{"lines 2 (your change: lines 2; the change on disk: lines 2)"}},
		{name: "same change", ours: "a\nB\nc\nd\ne\nf\n", theirs: "a\nB\nc\nd\ne\nf\n", want: "a\nB\nc\nd\ne\nf\n"},
		{name: "inserts at one place", ours: "a\nb\nx\nc\nd\ne\nf\n", theirs: "a\nb\ny\nc\nd\ne\nf\n", clashes: []string{"before line 3 (your change: inserted before line 3; the change on disk: inserted before line 3)"}},
		{name: "insert beside a change", ours: "a\nb\nx\nc\nd\ne\nf\n", theirs: "a\nb\nC\nd\ne\nf\n", clashes: []string{"lines 3 (your change: inserted before line 3; the change on disk: lines 3)"}},
		{name: "grown and shrunk", ours: "a\nb1\nb2\nb3\nc\nd\ne\nf\n", theirs: "a\nb\nc\nd\nf\n", want: "a\nb1\nb2\nb3\nc\nd\nf\n",
			oursParts: []Part{{Range{2, 2}, Range{2, 4}}}, theirsAt: []Part{{Range{5, 5}, Range{7, 6}}}},
		{name: "theirs only", ours: base, theirs: "z\n" + base, want: "z\n" + base},
		{name: "ours only", ours: base + "g\n", theirs: base, want: base + "g\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, conf := Lines(base, c.ours, c.theirs)
			if c.clashes != nil {
				if conf == nil {
					t.Fatalf("merged to %q, want a conflict", res.Content)
				}
				var got []string
				for _, cl := range conf.Clashes {
					got = append(got, cl.String())
				}
				if !slices.Equal(got, c.clashes) {
					t.Fatalf("clashes = %q, want %q", got, c.clashes)
				}
				return
			}
			if conf != nil {
				t.Fatalf("conflict %v, want %q", conf, c.want)
			}
			if res.Content != c.want {
				t.Fatalf("merged %q, want %q", res.Content, c.want)
			}
			if c.oursParts != nil && !slices.Equal(res.Ours, c.oursParts) {
				t.Errorf("ours = %v, want %v", res.Ours, c.oursParts)
			}
			if c.theirsAt != nil && !slices.Equal(res.Theirs, c.theirsAt) {
				t.Errorf("theirs = %v, want %v", res.Theirs, c.theirsAt)
			}
		})
	}
}

// TestLinesKeepsBytes: CRLF lines, a last line without a newline, and a
// change of a line's ending alone are merged byte for byte.
func TestLinesKeepsBytes(t *testing.T) {
	base := "a\r\nb\r\nc\r\nd\r\ne"
	res, conf := Lines(base, "A\r\nb\r\nc\r\nd\r\ne", "a\r\nb\r\nc\r\nd\r\ne\r\nf")
	if conf != nil || res.Content != "A\r\nb\r\nc\r\nd\r\ne\r\nf" {
		t.Fatalf("merged %v %q", conf, res)
	}
	// A line whose ending alone changed is a changed line.
	if _, conf := Lines(base, "a\r\nB\r\nc\r\nd\r\ne", "a\r\nb\nc\r\nd\r\ne"); conf == nil {
		t.Fatal("an ending changed next to a changed line merged")
	}
	// A whole file converted to LF touches every line.
	if _, conf := Lines(base, "a\r\nb\r\nc\r\nd\r\nE", strings.ReplaceAll(base, "\r\n", "\n")); conf == nil {
		t.Fatal("a file converted to LF merged with a change")
	}
	// Adding a final newline changes the last line.
	if _, conf := Lines(base, base+"\r\n", "a\r\nb\r\nc\r\nd\r\nE"); conf == nil {
		t.Fatal("a final newline added merged with a change of the last line")
	}
}

// FuzzLines: a merge never panics; it is symmetric; when it succeeds it
// holds both sides' changes (what applying both sides' diffs to the base
// gives, when their hunks meet nowhere), its parts account for every
// line, and a side equal to the base merges to the other.
func FuzzLines(f *testing.F) {
	f.Add("a\nb\nc\nd\n", []byte{0, 1, 0}, []byte{2, 3, 1})
	f.Add("a\r\nb\r\nc", []byte{3, 2, 0}, []byte{1, 0, 4})
	f.Add("", []byte{1, 0, 0}, []byte{1, 0, 1})
	f.Add("x\ny\nz", []byte{2, 0, 5, 1, 3, 2}, []byte{0, 1, 0})
	f.Fuzz(func(t *testing.T, base string, ea, eb []byte) {
		ours, theirs := edit(base, ea), edit(base, eb)
		check(t, base, ours, theirs)
		check(t, base, base, theirs)
		check(t, base, ours, ours)
	})
}

// FuzzLinesRaw is FuzzLines on any three texts.
func FuzzLinesRaw(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", "a\nb\nc\nd\n")
	f.Add("a\r\nb", "a\r\nb\r\n", "A\r\nb")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		check(t, base, ours, theirs)
	})
}

func check(t *testing.T, base, ours, theirs string) {
	t.Helper()
	res, conf := Lines(base, ours, theirs)
	res2, conf2 := Lines(base, theirs, ours)
	if (conf == nil) != (conf2 == nil) {
		t.Fatalf("not symmetric: %v / %v", conf, conf2)
	}
	if conf != nil {
		if ours == base || theirs == base || ours == theirs {
			t.Fatalf("conflict %v with a side equal to the base or to the other", conf)
		}
		return
	}
	if res.Content != res2.Content || !slices.Equal(res.Ours, res2.Theirs) || !slices.Equal(res.Theirs, res2.Ours) {
		t.Fatalf("not symmetric: %q %v %v / %q %v %v", res.Content, res.Ours, res.Theirs, res2.Content, res2.Ours, res2.Theirs)
	}
	switch {
	case ours == base && res.Content != theirs, theirs == base && res.Content != ours, ours == theirs && res.Content != ours:
		t.Fatalf("merge of %q, %q, %q = %q", base, ours, theirs, res.Content)
	}
	// Both sides' diffs applied to the base (go-udiff's merge of edits,
	// which coalesces only identical edits) give the same text, unless
	// the sides made a change alike whose diffs differ (each deleting
	// one of two blank lines): applying both would make it twice.
	x, y := udiff.Lines(base, ours), udiff.Lines(base, theirs)
	if m, ok := udiff.Merge(x, y); ok && !shared(res) {
		want, err := udiff.Apply(base, m)
		if err != nil {
			t.Fatal(err)
		}
		if want != res.Content {
			t.Fatalf("merged %q; both diffs applied give %q", res.Content, want)
		}
	} else if !ok && !shared(res) {
		t.Fatalf("merged %q where the diffs meet", res.Content)
	}
	// The lines outside every part are the base's outside every part.
	in := func(parts []Part, line int, base bool) bool {
		for _, p := range parts {
			r := p.Lines
			if base {
				r = p.Base
			}
			if line >= r.Start && line <= r.End {
				return true
			}
		}
		return false
	}
	keep := func(lines []string, base bool) []string {
		var out []string
		for i, l := range lines {
			if !in(res.Ours, i+1, base) && !in(res.Theirs, i+1, base) {
				out = append(out, l)
			}
		}
		return out
	}
	if a, b := keep(Split(base), true), keep(Split(res.Content), false); !slices.Equal(a, b) {
		t.Fatalf("unchanged lines differ: base %q, merged %q", a, b)
	}
}

// shared reports whether a part is both sides' (a change made alike).
func shared(r *Result) bool {
	for _, p := range r.Ours {
		if slices.Contains(r.Theirs, p) {
			return true
		}
	}
	return false
}

// edit changes base's lines as ops say, three bytes an operation: what
// (delete, insert, replace, change the ending), where, and which line.
func edit(base string, ops []byte) string {
	pool := []string{"a\n", "b\n", "c\r\n", "d", "\n", "a", "z\r\n"}
	lines := Split(base)
	for i := 0; i+2 < len(ops); i += 3 {
		at := int(ops[i+1])
		nl := pool[int(ops[i+2])%len(pool)]
		switch ops[i] % 4 {
		case 0:
			if len(lines) > 0 {
				at %= len(lines)
				lines = slices.Delete(lines, at, at+1)
			}
		case 1:
			at %= len(lines) + 1
			lines = slices.Insert(lines, at, nl)
		case 2:
			if len(lines) > 0 {
				lines[at%len(lines)] = nl
			}
		case 3:
			if len(lines) > 0 {
				at %= len(lines)
				l := strings.TrimSuffix(strings.TrimSuffix(lines[at], "\n"), "\r")
				lines[at] = l + []string{"\n", "\r\n", ""}[int(ops[i+2])%3]
			}
		}
	}
	return strings.Join(lines, "")
}
