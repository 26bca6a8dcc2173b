package unidiff

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var seedDiffs = []string{
	"diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n",
	"@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n",
	"@@ -0,0 +1,2 @@\n+x\n+y\n",
	"@@ -1,3 +1,3 @@\n\n-a\n+b\n\n\n@@ -9 +9 @@\n--- x\n+++ y\n",
	"```diff\n@@\n-a\r\n+b\r\n```\n",
	"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n--- a/g\n+++ b/g\n",
}

func FuzzParse(f *testing.F) {
	for _, d := range seedDiffs {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, diff string) {
		hunks, err := Parse(diff)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			if hunks != nil {
				t.Fatalf("Parse failed but returned hunks")
			}
			if n := strings.Count(diff, "\n") + 1; pe.Line < 0 || pe.Line > n {
				t.Fatalf("error line %d out of range 0..%d", pe.Line, n)
			}
			return
		}
		if len(hunks) == 0 {
			t.Fatal("Parse returned no hunks and no error")
		}
		for i, h := range hunks {
			if h.Index != i+1 || !strings.HasPrefix(h.Header, "@@") || len(h.Old)+len(h.New) == 0 {
				t.Fatalf("bad hunk %d: %+v", i+1, h)
			}
		}
	})
}

func FuzzApply(f *testing.F) {
	for _, d := range seedDiffs {
		f.Add("a\nb\nc\nd\n", d, "a\nc\nd")
	}
	f.Add("", "", "x")
	f.Add("x\n\ny", "@@ -1,2 +1 @@\n-x\n\n", "\n\r\n--- z\n")
	f.Fuzz(func(t *testing.T, content, diff, b string) {
		// Any diff: no panic, and failure leaves everything as it was.
		if hunks, err := Parse(diff); err == nil {
			before := cloneHunks(hunks)
			got, ranges, err := Apply(content, hunks)
			if !reflect.DeepEqual(hunks, before) {
				t.Fatal("Apply mutated its hunks")
			}
			// The search fast path decides as the line matcher does.
			lgot, lranges, lerr := applyLines(content, hunks)
			if got != lgot || !reflect.DeepEqual(ranges, lranges) || (err == nil) != (lerr == nil) {
				t.Fatalf("Apply = %q, %v, %v; by lines %q, %v, %v", got, ranges, err, lgot, lranges, lerr)
			}
			if err != nil {
				var he *HunkError
				if !errors.As(err, &he) || got != "" || ranges != nil {
					t.Fatalf("Apply = %q, %v, %v", got, ranges, err)
				}
			} else if len(ranges) != len(hunks) {
				t.Fatalf("%d ranges for %d hunks", len(ranges), len(hunks))
			}
		}
		// A diff generated from (content, b) turns content into b.
		d := genDiff(content, b)
		if d == "" {
			return
		}
		hunks, err := Parse(d)
		if err != nil {
			t.Fatalf("Parse(genDiff) failed: %v\n%s", err, d)
		}
		got, _, err := Apply(content, hunks)
		if err != nil || got != b {
			t.Fatalf("Apply(genDiff) = %q, %v; want %q\ndiff:\n%s", got, err, b, d)
		}
	})
}

func cloneHunks(hs []Hunk) []Hunk {
	c := slices.Clone(hs)
	for i := range c {
		c[i].Old = slices.Clone(c[i].Old)
		c[i].New = slices.Clone(c[i].New)
	}
	return c
}

// genDiff writes a one-hunk unified diff from a to b: the common first and
// last lines as context, the rest removed and added. Empty context lines are
// written without their space, as tools that strip trailing spaces do. It
// returns "" when there is nothing to write (both empty).
func genDiff(a, b string) string {
	al, aEOL := lines(a)
	bl, bEOL := lines(b)
	if len(al) == 0 && len(bl) == 0 {
		return ""
	}
	// The last lines are context only when their final-newline states agree.
	p := 0
	for p < len(al)-1 && p < len(bl)-1 && al[p] == bl[p] {
		p++
	}
	s := 0
	for s < len(al)-p && s < len(bl)-p && al[len(al)-1-s] == bl[len(bl)-1-s] && (s > 0 || aEOL == bEOL) {
		s++
	}
	var w strings.Builder
	fmt.Fprintf(&w, "--- a/f\n+++ b/f\n@@ -1,%d +1,%d @@\n", len(al), len(bl))
	ctx := func(l string) {
		if l != "" {
			w.WriteString(" ")
		}
		w.WriteString(l + "\n")
	}
	const marker = "\\ No newline at end of file\n"
	for _, l := range al[:p] {
		ctx(l)
	}
	for _, l := range al[p : len(al)-s] {
		w.WriteString("-" + l + "\n")
	}
	if s == 0 && len(al) > 0 && !aEOL {
		w.WriteString(marker)
	}
	for _, l := range bl[p : len(bl)-s] {
		w.WriteString("+" + l + "\n")
	}
	if s == 0 && len(bl) > 0 && !bEOL {
		w.WriteString(marker)
	}
	for _, l := range al[len(al)-s:] {
		ctx(l)
	}
	if s > 0 && !aEOL {
		w.WriteString(marker)
	}
	return w.String()
}

// lines splits s into lines and reports whether it ends with a newline (true
// for "").
func lines(s string) ([]string, bool) {
	if s == "" {
		return nil, true
	}
	l := strings.Split(s, "\n")
	if l[len(l)-1] == "" {
		return l[:len(l)-1], true
	}
	return l, false
}
