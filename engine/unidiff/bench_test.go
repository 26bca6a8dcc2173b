package unidiff

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkApply10MB applies four hunks spread over a 10 MB file.
func BenchmarkApply10MB(b *testing.B) {
	var w strings.Builder
	for i := 0; w.Len() < 10<<20; i++ {
		fmt.Fprintf(&w, "\tline %d: the quick brown fox jumps over the lazy dog\n", i)
	}
	content := w.String()
	n := strings.Count(content, "\n")
	var d strings.Builder
	for _, at := range []int{10, n / 3, 2 * n / 3, n - 5} {
		fmt.Fprintf(&d, "@@ -%d,3 +%d,3 @@\n \tline %d: the quick brown fox jumps over the lazy dog\n-\tline %d: the quick brown fox jumps over the lazy dog\n+changed %d\n \tline %d: the quick brown fox jumps over the lazy dog\n",
			at, at, at, at+1, at+1, at+2)
	}
	hunks, err := Parse(d.String())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Apply(content, hunks); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyOneHunk10MB applies one hunk near the end of a 10 MB file
// (the common case, found by searching the content).
func BenchmarkApplyOneHunk10MB(b *testing.B) {
	var w strings.Builder
	for i := 0; w.Len() < 10<<20; i++ {
		fmt.Fprintf(&w, "\tline %d: the quick brown fox jumps over the lazy dog\n", i)
	}
	content := w.String()
	at := strings.Count(content, "\n") - 5
	hunks, err := Parse(fmt.Sprintf("@@ -%d,2 +%d,2 @@\n \tline %d: the quick brown fox jumps over the lazy dog\n-\tline %d: the quick brown fox jumps over the lazy dog\n+changed\n", at, at, at-1, at))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		if _, _, err := Apply(content, hunks); err != nil {
			b.Fatal(err)
		}
	}
}
