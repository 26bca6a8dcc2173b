package rootfs

// This file defines [FS.Glob]: one walk of the tree under the pattern's
// literal base, matching each file with doublestar and pruning directories
// under which nothing can match.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// VCSDirs are version-control directories that a glob never descends into
// unless the pattern names them: `**` means the project's files, not git's
// objects.
var VCSDirs = []string{".git", ".hg", ".svn", ".jj"}

// Glob returns the regular files matching pattern as workspace paths, sorted.
// The syntax is doublestar's: `*` and `?` match within one segment, `**`
// matches any number of segments, plus `[...]` classes, `{a,b}` alternatives
// and `\` escapes. Wildcards match dot-files too.
//
// It is one walk of the directory named by the pattern's literal base (the
// segments before the first wildcard), in time linear in the tree it walks;
// directories under which nothing can match are not entered, nor are
// version-control directories ([VCSDirs]) that the pattern does not name.
//
// A symlink to a file inside the root matches under its own (link) path; a
// symlink that leads out of the root never matches, and the walk does not
// descend into symlinked directories (so link loops cannot hang it); a
// literal base may go through a symlink that stays inside the root. No match
// is an empty slice and no error: the caller decides whether that is a
// failure. An invalid pattern is an error naming it.
func (f *FS) Glob(pattern string) ([]string, error) {
	if err := check(pattern, true); err != nil {
		return nil, withOp(err, "glob")
	}
	if !doublestar.ValidatePattern(pattern) {
		return nil, &PathError{Op: "glob", Path: pattern, Err: doublestar.ErrBadPattern,
			Reason: `invalid glob pattern (unbalanced "[" or "{", or a trailing "\"); use "*" for one segment and "**" for any depth`}
	}
	g := newGlobber(pattern)
	start := f.root
	if g.base != "" {
		abs, err := f.Abs(g.base)
		if err != nil {
			if errors.Is(err, ErrOutsideRoot) {
				return []string{}, nil // a base that leaves the root holds nothing
			}
			return nil, withOp(err, "glob")
		}
		start = abs
	}
	files := []string{}
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			if d != nil && d.IsDir() && p != start {
				return fs.SkipDir // an unreadable directory holds no match
			}
			return nil
		}
		if p == start {
			// A pattern such as "a/**" also matches its base "a" itself
			// when that is a file.
			if g.base != "" && d.Type().IsRegular() && g.match(g.base) {
				files = append(files, g.base)
			}
			return nil
		}
		rel, _ := filepath.Rel(start, p)
		rel = filepath.ToSlash(rel)
		if g.base != "" {
			rel = g.base + "/" + rel
		}
		switch {
		case d.IsDir():
			if !g.enter(rel, d.Name()) {
				return fs.SkipDir
			}
		case d.Type().IsRegular():
			if g.match(rel) {
				files = append(files, rel)
			}
		case d.Type()&fs.ModeSymlink != 0:
			if g.match(rel) && f.regularInside(rel) {
				files = append(files, rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, &PathError{Op: "glob", Path: pattern, Err: err}
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

// regularInside reports whether the symlink rel leads, inside the root, to
// a regular file.
func (f *FS) regularInside(rel string) bool {
	abs, err := f.Abs(rel)
	if err != nil {
		return false
	}
	fi, err := os.Stat(abs)
	return err == nil && fi.Mode().IsRegular()
}

// globber matches paths against one validated pattern.
type globber struct {
	pattern string
	base    string   // the literal directory the pattern starts in ("" for the root)
	segs    []string // the pattern's segments, nil when they cannot be told apart
	vcs     bool     // the pattern names a version-control directory
}

func newGlobber(pattern string) *globber {
	g := &globber{pattern: pattern}
	if base, _ := doublestar.SplitPattern(pattern); base != "." && !strings.ContainsRune(base, '\\') {
		g.base = base
	}
	// A "/" inside "{...}" splits an alternative, not a segment: such a
	// pattern is matched whole and never prunes.
	if !slashInBraces(pattern) {
		g.segs = strings.Split(pattern, "/")
	}
	for seg := range strings.SplitSeq(pattern, "/") {
		if slices.Contains(VCSDirs, seg) {
			g.vcs = true
		}
	}
	return g
}

func (g *globber) match(rel string) bool {
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
	if g.segs == nil {
		return true
	}
	dirs := strings.Split(rel, "/")
	for i, d := range dirs {
		if i >= len(g.segs) {
			return false // the pattern ends above this directory
		}
		if g.segs[i] == "**" {
			return true
		}
		if ok, _ := doublestar.Match(g.segs[i], d); !ok {
			return false
		}
	}
	return len(g.segs) > len(dirs)
}

// slashInBraces reports whether a "/" occurs inside a "{...}" group of a
// valid pattern (escapes skipped).
func slashInBraces(p string) bool {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case '/':
			if depth > 0 {
				return true
			}
		}
	}
	return false
}
