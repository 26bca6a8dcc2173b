package workspace

import (
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// This file counts a line diff without splitting the texts into lines: the
// forward algorithm of Myers' "An O(ND) Difference Algorithm", whose
// diagonal runs (equal lines) compare bytes a block at a time and count
// their newlines, so a small edit of a large file costs about one pass
// over its bytes.

// maxFastD bounds the edit distance (lines added plus removed) that
// diffCounts searches: below it the result is exact, as is the line
// matcher's (go-udiff's lcs searches 50 steps from each end).
const maxFastD = 50

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
