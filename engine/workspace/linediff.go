package workspace

import (
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// This file counts a line diff without splitting the texts into lines:
// the equal lines at both ends are cut off a block of bytes at a time,
// and what remains goes to the forward algorithm of Myers' "An O(ND)
// Difference Algorithm", whose diagonal runs (equal lines) compare bytes
// a block at a time and count their newlines, so a small edit of a large
// file costs about one pass over its bytes. It is the module's one line
// counter: go-udiff's line diff, which the edit scripts use, costs about
// ten times as much on a 10 MB file edited at both ends, mostly in
// splitting it into lines (BenchmarkLineCounts, against its "lcs"
// cases); FuzzLineCounts holds the counts equal to its, wherever they
// are exact.

// maxFastD bounds the edit distance (lines added plus removed) that
// diffCounts searches: below it the result is exact, as is go-udiff's
// (its lcs searches 50 steps from each end, and beyond counts the middle
// it did not match as changed, much as lineCounts does).
const maxFastD = 50

// lineCounts returns how many lines were added and removed from a to b
// (contents without BOM; lines compared with their terminators), and
// whether the counts are exact: they are up to maxFastD changed lines;
// beyond, every line between the equal lines at both ends counts.
func lineCounts(a, b string) (added, removed int, exact bool) {
	p := text.CommonPrefix(a, b)
	p = strings.LastIndexByte(a[:p], '\n') + 1
	a, b = a[p:], b[p:]
	q := text.CommonSuffix(a, b)
	sa, sb := len(a)-q, len(b)-q
	if (sa > 0 && a[sa-1] != '\n') || (sb > 0 && b[sb-1] != '\n') {
		// The common suffix starts inside a line: it counts from the
		// line after.
		if i := strings.IndexByte(a[sa:], '\n'); i >= 0 {
			q -= i + 1
		} else {
			q = 0
		}
	}
	a, b = a[:len(a)-q], b[:len(b)-q]
	n, m := lines(a), lines(b)
	if added, removed, ok := diffCounts(a, b, n, m); ok {
		return added, removed, true
	}
	return m, n, false
}

// lines is how many lines s holds, the last one with or without its
// terminator.
func lines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// diffCounts returns how many lines were added and removed from a to b
// (contents without BOM; lines compared with their terminators), n and m
// being their line counts. ok is false when more than maxFastD lines
// differ.
func diffCounts(a, b string, n, m int) (added, removed int, ok bool) {
	// v[k+maxFastD+1] is the furthest point reached on diagonal k = x-y.
	type point struct{ x, oa, ob int }
	v := make([]point, 2*maxFastD+3)
	for i := range v {
		v[i].x = -1
	}
	at := func(k int) *point { return &v[k+maxFastD+1] }
	for d := 0; d <= maxFastD; d++ {
		for k := -d; k <= d; k += 2 {
			var p point
			switch down, right := at(k+1), at(k-1); {
			case d == 0:
			case k > -d && right.x >= 0 && right.x < n && (k == d || down.x < 0 || right.x+1 > down.x || down.x-k > m):
				p = point{right.x + 1, nextLine(a, right.oa), right.ob}
			case k < d && down.x >= 0 && down.x-(k+1) < m:
				p = point{down.x, down.oa, nextLine(b, down.ob)}
			default:
				at(k).x = -1
				continue
			}
			same, oa, ob := equalLines(a, b, p.oa, p.ob)
			p.x, p.oa, p.ob = p.x+same, oa, ob
			*at(k) = p
			if p.x == n && p.x-k == m {
				lcs := (n + m - d) / 2
				return m - lcs, n - lcs, true
			}
		}
	}
	return 0, 0, false
}

// nextLine is the offset of the line after the one at off in s.
func nextLine(s string, off int) int {
	if j := strings.IndexByte(s[off:], '\n'); j >= 0 {
		return off + j + 1
	}
	return len(s)
}

// equalLines counts the equal lines of a from oa and of b from ob, and
// returns the offsets after them.
func equalLines(a, b string, oa, ob int) (int, int, int) {
	ra, rb := a[oa:], b[ob:]
	c := text.CommonPrefix(ra, rb)
	common := ra[:c]
	adv := strings.LastIndexByte(common, '\n') + 1
	n := strings.Count(common[:adv], "\n")
	if c == len(ra) && c == len(rb) && adv < c {
		// The last lines, without terminators, are equal too.
		n, adv = n+1, c
	}
	return n, oa + adv, ob + adv
}
