package workspace

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

// FuzzLineCounts checks the byte-level line diff against go-udiff's line
// diff over the split lines, wherever it answers.
func FuzzLineCounts(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\nd")
	f.Add("x\r\ny\r\n", "x\ny\r\n")
	f.Add("", "a")
	f.Add("a\na\na\n", "a\na\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		if text.CheckString(a) != nil || text.CheckString(b) != nil {
			return
		}
		da, db := text.FromString(a), text.FromString(b)
		added, removed, ok := diffCounts(da.Content(), db.Content(), da.Len(), db.Len())
		if !ok {
			return
		}
		wa, wr := lcsCounts(da, db)
		if added != wa || removed != wr {
			t.Fatalf("%q → %q: +%d -%d, the line diff says +%d -%d", a, b, added, removed, wa, wr)
		}
	})
}

func TestLineCountsLarge(t *testing.T) {
	var sb strings.Builder
	for i := range 20000 {
		sb.WriteString(strings.Repeat("x", i%7) + "\n")
	}
	a := sb.String()
	b := "new\n" + strings.Replace(a, "xxx\n", "yyy\n", 3) + "tail"
	da, db := text.FromString(a), text.FromString(b)
	added, removed, ok := diffCounts(da.Content(), db.Content(), da.Len(), db.Len())
	wa, wr := lcsCounts(da, db)
	if !ok || added != wa || removed != wr {
		t.Fatalf("+%d -%d (%v), the line diff says +%d -%d", added, removed, ok, wa, wr)
	}
}
