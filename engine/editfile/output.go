package editfile

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// snippetContext is how many lines around an edit its snippet shows.
const snippetContext = 4

// numbered renders lines first..last (1-based, inclusive, clamped) of s as
// "N<TAB>text" lines.
func numbered(s string, first, last int) string {
	ls := lines(s)
	if first < 1 {
		first = 1
	}
	if last > len(ls) {
		last = len(ls)
	}
	var b strings.Builder
	for i := first; i <= last; i++ {
		fmt.Fprintf(&b, "%d\t%s\n", i, strings.TrimSuffix(ls[i-1], "\r"))
	}
	return b.String()
}

// snippet renders the edited region of s (lines first..last) with context.
func snippet(s string, first, last int) string {
	if last < first {
		last = first
	}
	return numbered(s, first-snippetContext, last+snippetContext)
}

// unifiedDiff is the unified diff between two bodies.
func unifiedDiff(path, before, after string) string {
	return udiff.Unified(path, path, before, after)
}

// quoteLine renders a line for an error message so that tabs, trailing
// spaces and "\r" are visible.
func quoteLine(s string) string { return fmt.Sprintf("%q", s) }
