package merge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// benchFile is a 10,000-line file, and the two sides: one changes a line
// near the top, the other one near the bottom.
func benchFile() (base, ours, theirs string) {
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, "\tline %d of the file, with some text on it\n", i)
	}
	base = b.String()
	ours = strings.Replace(base, "line 10 of", "LINE 10 of", 1)
	theirs = strings.Replace(base, "line 9990 of", "LINE 9990 of", 1)
	return
}

// BenchmarkLines is the merge of a 10,000-line file changed at both ends.
func BenchmarkLines(b *testing.B) {
	base, ours, theirs := benchFile()
	b.SetBytes(int64(len(base)))
	for b.Loop() {
		if _, c := Lines(base, ours, theirs); c != nil {
			b.Fatal(c)
		}
	}
}

// BenchmarkTwoDiffs is the floor: the two line diffs the merge computes.
func BenchmarkTwoDiffs(b *testing.B) {
	base, ours, theirs := benchFile()
	b.SetBytes(int64(len(base)))
	bl, ol, tl := Split(base), Split(ours), Split(theirs)
	for b.Loop() {
		lcs.DiffLines(bl, ol)
		lcs.DiffLines(bl, tl)
	}
}
