package rootfs

// This file defines the matching side of [FS.Glob]: the pattern's literal
// base, its brace-free alternatives, and the test that decides whether the
// walk enters a directory.

import (
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// maxAlternatives bounds the brace-free alternatives a pattern is expanded
// into for pruning; a pattern with more ("{a,b}{c,d}..." multiplies) is
// matched whole and prunes nothing but version control.
const maxAlternatives = 64

// globber matches paths against one validated pattern.
type globber struct {
	pattern string
	base    string     // the literal directory the pattern starts in ("" for the root)
	alts    [][]string // the brace-free alternatives' segments; nil prunes nothing
	all     bool       // the pattern is its base followed by "/**" (or "**"): every file matches
	vcs     bool       // the pattern names a version-control directory
}

func newGlobber(pattern string) *globber {
	g := &globber{pattern: pattern}
	if base, _ := doublestar.SplitPattern(pattern); base != "." && !strings.ContainsRune(base, '\\') {
		g.base = base
	}
	g.all = pattern == "**" || g.base != "" && pattern == g.base+"/**"
	// Braces expand as text, so "/" inside them separates segments and
	// "{*}*" is "**": pruning looks at each alternative's segments.
	if alts := expandBraces(pattern, maxAlternatives); alts != nil {
		for _, a := range alts {
			segs := strings.Split(slashes(a), "/")
			for i, s := range segs {
				segs[i] = oneStar(s)
			}
			g.alts = append(g.alts, segs)
		}
	}
	for seg := range strings.SplitSeq(pattern, "/") {
		if slices.Contains(VCSDirs, seg) {
			g.vcs = true
		}
	}
	return g
}

// match reports whether the workspace path rel matches the pattern.
func (g *globber) match(rel string) bool {
	if g.all {
		return true
	}
	ok, _ := doublestar.Match(g.pattern, rel)
	return ok
}

// enter reports whether the walk should descend into the directory rel:
// some path under it could match, and it is not a version-control
// directory the pattern does not name.
func (g *globber) enter(rel, name string) bool {
	if !g.vcs && slices.Contains(VCSDirs, name) {
		return false
	}
	if g.alts == nil || g.all {
		return true
	}
	dirs := strings.Split(rel, "/")
	return slices.ContainsFunc(g.alts, func(segs []string) bool { return below(segs, dirs) })
}

// below reports whether a path under the directory dirs could match the
// brace-free pattern segs.
func below(segs, dirs []string) bool {
	for i, d := range dirs {
		if i >= len(segs) {
			return false // the pattern ends above this directory
		}
		if segs[i] == "**" {
			return true
		}
		if ok, _ := doublestar.Match(segs[i], d); !ok {
			return false
		}
	}
	return len(segs) > len(dirs)
}

// expandBraces returns the brace-free alternatives of a valid pattern
// ("{a,b/c}.go" is "a.go" and "b/c.go"; groups nest and multiply), or nil
// when there would be more than limit.
func expandBraces(p string, limit int) []string {
	open, depth, commas := -1, 0, []int(nil)
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case c == '[':
			i = classEnd(p, i)
		case c == '{':
			if depth++; depth == 1 {
				open = i
			}
		case c == ',' && depth == 1:
			commas = append(commas, i)
		case c == '}' && depth > 0:
			if depth--; depth > 0 {
				continue
			}
			var out []string
			cuts := append(append([]int{open}, commas...), i)
			for k := 1; k < len(cuts); k++ {
				more := expandBraces(p[:open]+p[cuts[k-1]+1:cuts[k]]+p[i+1:], limit-len(out))
				if more == nil {
					return nil
				}
				out = append(out, more...)
			}
			return out
		}
	}
	if limit < 1 {
		return nil
	}
	return []string{p}
}

// classEnd returns the index of the "]" closing the class opened at p[i]
// (escapes skipped), or the last index when there is none.
func classEnd(p string, i int) int {
	for i++; i < len(p) && p[i] != ']'; i++ {
		if p[i] == '\\' {
			i++
		}
	}
	return min(i, len(p)-1)
}

// oneStar returns the segment s with each run of unescaped "*" made one
// (they mean the same within a segment), unless s is "**". doublestar
// matches "**c*****" against "src" as false though it matches "**c*****/*"
// against "src/a.go": pruning must not be stricter than the match.
func oneStar(s string) string {
	if s == "**" || !strings.Contains(s, "**") {
		return s
	}
	b := make([]byte, 0, len(s))
	star := false // the last byte kept is an unescaped "*"
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			b, star = append(b, s[i], s[i+1]), false
			i++
		case s[i] == '*' && star:
		default:
			b, star = append(b, s[i]), s[i] == '*'
		}
	}
	return string(b)
}

// slashes returns the pattern p with each escaped "/" unescaped: doublestar
// takes `\/` as a separator too.
func slashes(p string) string {
	if !strings.Contains(p, `\/`) {
		return p
	}
	b := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			if i++; p[i] != '/' {
				b = append(b, '\\')
			}
		}
		b = append(b, p[i])
	}
	return string(b)
}
