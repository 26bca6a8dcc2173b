package workspace

import (
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff/lcs"
	"github.com/devbroker/devbroker/engine/text"
)

// udiffCounts is LineCounts by go-udiff's line diff over the split lines,
// as the workspace counted before linediff.go: the counts lineCounts must
// equal wherever it says they are exact, and its benchmark's baseline.
func udiffCounts(before, after *text.Doc) (added, removed int) {
	a, b := before.Lines(), after.Lines()
	// Strip the common prefix and suffix first: edits are usually small
	// and files can be large.
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(b) == 0 {
		return len(b), len(a)
	}
	// Compare whole lines, terminator included. When every remaining line
	// has the same terminator the content alone decides.
	eol := a[0].EOL
	uniform := true
	for _, ls := range [][]text.Line{a, b} {
		for _, l := range ls {
			if l.EOL != eol {
				uniform = false
				break
			}
		}
	}
	key := func(l text.Line) string {
		if uniform {
			return l.Text
		}
		return l.Text + l.EOL
	}
	as, bs := make([]string, len(a)), make([]string, len(b))
	for i, l := range a {
		as[i] = key(l)
	}
	for i, l := range b {
		bs[i] = key(l)
	}
	for _, d := range lcs.DiffLines(as, bs) {
		removed += d.End - d.Start
		added += d.ReplEnd - d.ReplStart
	}
	return added, removed
}

// FuzzLineCounts checks the line counts against go-udiff's line diff
// over the split lines wherever they are exact, and that they always
// account for the change in length.
func FuzzLineCounts(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\nd")
	f.Add("x\r\ny\r\n", "x\ny\r\n")
	f.Add("", "a")
	f.Add("a\na\na\n", "a\na\n")
	f.Add("a\nz", "b\nz")
	f.Add("a\nb", "a\nb\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		if text.CheckString(a) != nil || text.CheckString(b) != nil {
			return
		}
		da, db := text.FromString(a), text.FromString(b)
		added, removed, exact := lineCounts(da.Content(), db.Content())
		if added-removed != db.Len()-da.Len() {
			t.Fatalf("%q → %q: +%d -%d, but %d lines became %d", a, b, added, removed, da.Len(), db.Len())
		}
		if !exact {
			return
		}
		wa, wr := udiffCounts(da, db)
		if added != wa || removed != wr {
			t.Fatalf("%q → %q: +%d -%d, the line diff says +%d -%d", a, b, added, removed, wa, wr)
		}
	})
}

// bigEdit is a 10 MB file, and it edited at both ends (scattered) or by
// one line inserted in the middle.
func bigEdit(scattered bool) (*text.Doc, *text.Doc) {
	var sb strings.Builder
	for i := 0; sb.Len() < 10<<20; i++ {
		sb.WriteString("\tx := compute(" + strings.Repeat("a", i%40) + ")\n")
	}
	a := sb.String()
	b := "// head\n" + a[:len(a)-1] + " // tail\n"
	if !scattered {
		m := len(a) / 2
		m += strings.IndexByte(a[m:], '\n') + 1
		b = a[:m] + "new line\n" + a[m:]
	}
	return text.FromString(a), text.FromString(b)
}

func TestLineCountsLarge(t *testing.T) {
	for _, scattered := range []bool{false, true} {
		da, db := bigEdit(scattered)
		added, removed := LineCounts(da, db)
		wa, wr := udiffCounts(da, db)
		if added != wa || removed != wr {
			t.Fatalf("scattered %v: +%d -%d, the line diff says +%d -%d", scattered, added, removed, wa, wr)
		}
	}
	// Past maxFastD changed lines, the middle counts whole.
	var a, b strings.Builder
	for i := range 1000 {
		a.WriteString("line\n")
		if i%10 == 0 {
			b.WriteString("changed\n")
		} else {
			b.WriteString("line\n")
		}
	}
	added, removed, exact := lineCounts(a.String(), b.String())
	if exact || added != 991 || removed != 991 {
		t.Fatalf("100 lines changed between the first and the 991st: +%d -%d (exact %v), want +991 -991, not exact", added, removed, exact)
	}
}

// BenchmarkLineCounts times the counts of a 10 MB file edited at both ends
// or in the middle, against go-udiff's line diff of the same ("lcs", the
// workspace's counts before linediff.go). Each case gets new Docs, whose
// split lines are not cached yet.
func BenchmarkLineCounts(b *testing.B) {
	for _, c := range []struct {
		name      string
		scattered bool
	}{{"scattered", true}, {"middle", false}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				da, db := bigEdit(c.scattered)
				b.StartTimer()
				LineCounts(da, db)
			}
		})
		b.Run(c.name+"/lcs", func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				da, db := bigEdit(c.scattered)
				b.StartTimer()
				udiffCounts(da, db)
			}
		})
	}
}
