package projscope

// This file defines TypeScript's matching of include and exclude specs
// (typescript's getSubPatternFromSpec and matchFiles), by path segments:
// its regular expressions use lookaheads, which Go's do not have.

import (
	"slices"
	"strings"
)

// commonPackageFolders are the directories an include's wildcards never
// enter, and a project without exclude excludes.
var commonPackageFolders = []string{"node_modules", "bower_components", "jspm_packages"}

// tsSpec is one include or exclude spec, as components relative to the
// root.
type tsSpec struct {
	raw   string
	comps []string
}

// newTSSpec makes the spec raw, written in a configuration file in the
// directory dir, a matcher; ok is false for a spec that cannot be placed
// (absolute, out of the root) or that an include cannot use (ending in
// `**`, which TypeScript refuses).
func newTSSpec(dir, raw string, exclude bool) (tsSpec, bool) {
	rel, ok := relSpec(dir, raw)
	if !ok {
		return tsSpec{}, false
	}
	var comps []string
	if rel != "" {
		comps = strings.Split(rel, "/")
	}
	last := ""
	if len(comps) > 0 {
		last = comps[len(comps)-1]
	}
	if !exclude && last == "**" {
		return tsSpec{}, false
	}
	if !strings.ContainsAny(last, ".*?") {
		// A last segment with no extension nor wildcard is a directory:
		// the files below it.
		comps = append(comps, "**", "*")
	}
	return tsSpec{raw: raw, comps: comps}, true
}

// includes reports whether the include spec takes in the file rel.
func (s tsSpec) includes(rel string) bool {
	segs := strings.Split(rel, "/")
	return matchInclude(s.comps, segs, 0, 0, map[[2]int]bool{})
}

// excludes reports whether the exclude spec leaves out rel: it matches
// rel or a directory above it.
func (s tsSpec) excludes(rel string) bool {
	return matchExclude(s.comps, strings.Split(rel, "/"), 0, 0, map[[2]int]bool{})
}

// matchInclude matches segs[j:] against comps[i:] as an include does:
// `**` is any number of directories, none starting with "." nor a
// common package folder; a component with a wildcard never matches a
// common package folder. failed holds the states (i, j) found not to
// match.
func matchInclude(comps, segs []string, i, j int, failed map[[2]int]bool) bool {
	if i == len(comps) {
		return j == len(segs)
	}
	if failed[[2]int{i, j}] {
		return false
	}
	if matchIncludeAt(comps, segs, i, j, failed) {
		return true
	}
	failed[[2]int{i, j}] = true
	return false
}

func matchIncludeAt(comps, segs []string, i, j int, failed map[[2]int]bool) bool {
	c := comps[i]
	if c == "**" {
		if matchInclude(comps, segs, i+1, j, failed) {
			return true
		}
		for k := j; k < len(segs)-1; k++ {
			if strings.HasPrefix(segs[k], ".") || slices.Contains(commonPackageFolders, segs[k]) {
				return false
			}
			if matchInclude(comps, segs, i+1, k+1, failed) {
				return true
			}
		}
		return false
	}
	if j >= len(segs) {
		return false
	}
	if c != segs[j] && slices.Contains(commonPackageFolders, segs[j]) {
		return false
	}
	return matchFileComponent(c, segs[j], j == len(segs)-1) && matchInclude(comps, segs, i+1, j+1, failed)
}

// matchFileComponent matches one segment as an include's component: `*`
// is any characters, except that a `*` or `?` that starts the component
// does not match a leading "." and, in the file's own name, a `*` does
// not take the "." of a final ".min.js"; `?` is one character.
func matchFileComponent(comp, seg string, last bool) bool {
	c, s := []rune(comp), []rune(seg)
	// Each state (ci, si) is decided once: a component of many stars
	// stays quadratic.
	seen := make(map[[2]int]bool)
	var match func(ci, si int) bool
	match = func(ci, si int) bool {
		if ci == len(c) {
			return si == len(s)
		}
		key := [2]int{ci, si}
		if seen[key] {
			return false // decided, and false: a true ends the search
		}
		seen[key] = true
		switch c[ci] {
		case '*':
			for k := si; ; k++ {
				if match(ci+1, k) {
					return true
				}
				if k == len(s) {
					return false
				}
				if s[k] == '.' && ((ci == 0 && k == si) || (last && string(s[k:]) == ".min.js")) {
					return false
				}
			}
		case '?':
			if si == len(s) || (ci == 0 && s[si] == '.') {
				return false
			}
			return match(ci+1, si+1)
		default:
			if si == len(s) || s[si] != c[ci] {
				return false
			}
			return match(ci+1, si+1)
		}
	}
	return match(0, 0)
}

// matchExclude matches a prefix of segs[j:], whole segments, against
// comps[i:], as an exclude does (it leaves out what it matches and what
// lies below): `**` is any number of segments, `*` any characters within
// one, `?` one. failed holds the states (i, j) found not to match.
func matchExclude(comps, segs []string, i, j int, failed map[[2]int]bool) bool {
	if i == len(comps) {
		return j > 0
	}
	if failed[[2]int{i, j}] {
		return false
	}
	ok := false
	if comps[i] == "**" {
		for k := j; k <= len(segs) && !ok; k++ {
			ok = matchExclude(comps, segs, i+1, k, failed)
		}
	} else {
		ok = j < len(segs) && matchSegment(comps[i], segs[j]) && matchExclude(comps, segs, i+1, j+1, failed)
	}
	if !ok {
		failed[[2]int{i, j}] = true
	}
	return ok
}

// matchSegment matches s against c: `*` any characters, `?` one. It
// backtracks to the last star only, so it takes at most len(c)*len(s)
// steps.
func matchSegment(comp, seg string) bool {
	c, s := []rune(comp), []rune(seg)
	ci, si := 0, 0
	star, from := -1, 0
	for si < len(s) {
		switch {
		case ci < len(c) && c[ci] == '*':
			star, from = ci, si
			ci++
		case ci < len(c) && (c[ci] == '?' || c[ci] == s[si]):
			ci++
			si++
		case star >= 0:
			from++
			ci, si = star+1, from
		default:
			return false
		}
	}
	for ci < len(c) && c[ci] == '*' {
		ci++
	}
	return ci == len(c)
}
