package patch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

// goLike generates a Go-like file of about size bytes: n small functions.
func goLike(size int) (string, int) {
	var b strings.Builder
	n := 0
	for ; b.Len() < size; n++ {
		fmt.Fprintf(&b, "// f%d adds %d to x when x is small.\nfunc f%d(x int) int {\n\tif x < %d {\n\t\treturn x + %d\n\t}\n\treturn x\n}\n\n", n, n, n, n, n)
	}
	return b.String(), n
}

// benchHunks changes functions near the middle and the end of the file.
func benchHunks(n int) []Hunk {
	var hunks []Hunk
	for _, k := range []int{n / 2, n/2 + 1, 3 * n / 4, n - 2} {
		hunks = append(hunks, Hunk{
			Old: []string{fmt.Sprintf("func f%d(x int) int {", k), fmt.Sprintf("\tif x < %d {", k), fmt.Sprintf("\t\treturn x + %d", k)},
			New: ls(fmt.Sprintf("func f%d(x int) int {", k), fmt.Sprintf("\tif x <= %d {", k), fmt.Sprintf("\t\treturn x + %d // changed", k), "\t\t// added"),
		})
	}
	return hunks
}

func benchApply(b *testing.B, size int) {
	src, n := goLike(size)
	doc := text.FromString(src)
	hunks := benchHunks(n)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Apply(doc, hunks); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(doc.Len()), "lines")
}

func BenchmarkApply1MB(b *testing.B)  { benchApply(b, 1<<20) }
func BenchmarkApply10MB(b *testing.B) { benchApply(b, 10<<20) }

// BenchmarkMatch10MB is Match alone, without building the new Doc.
func BenchmarkMatch10MB(b *testing.B) {
	src, n := goLike(10 << 20)
	lines := text.FromString(src).Texts()
	hunks := benchHunks(n)
	for b.Loop() {
		if _, err := Match(lines, hunks); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchHunksApply(t *testing.T) {
	src, n := goLike(64 << 10)
	got, err := Apply(text.FromString(src), benchHunks(n))
	if err != nil {
		t.Fatal(err)
	}
	if c := strings.Count(got.String(), "// changed"); c != 4 {
		t.Fatalf("%d changes, want 4", c)
	}
}
