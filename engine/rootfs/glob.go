package rootfs

// This file defines [FS.Glob] and [FS.Walk]: one walk of the tree (under
// the pattern's literal base, for a glob) that reads each directory once,
// follows no symlink and yields paths already in sorted order, matching
// each file with doublestar and pruning directories under which nothing
// can match.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

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
// directories under which nothing can match are not read, nor are
// version-control directories ([VCSDirs]) that the pattern does not name.
//
// A symlink to a file inside the root matches under its own (link) path; a
// symlink that leads out of the root never matches, and the walk does not
// descend into symlinked directories (so link loops cannot hang it); a
// literal base may go through a symlink that stays inside the root. No match
// is an empty slice and no error: the caller decides whether that is a
// failure. An invalid pattern is an error naming it.
func (f *FS) Glob(pattern string) ([]string, error) {
	return f.glob(pattern, readDir, nil)
}

// GlobSkip is [FS.Glob] that also passes over what skip reports: a
// directory it skips is not read, a file it skips does not match. skip
// is asked, in the walk's order (sorted paths), about each directory the
// glob would enter and each file that matches the pattern; never about
// the pattern's literal base, which the caller named. The walk that
// honours .gitignore asks it (engine.Select).
func (f *FS) GlobSkip(pattern string, skip func(rel string, dir bool) bool) ([]string, error) {
	return f.glob(pattern, readDir, skip)
}

// glob is [FS.Glob] reading directories with read, passing over what
// skip (nil: nothing) reports.
func (f *FS) glob(pattern string, read readDirFunc, skip func(rel string, dir bool) bool) ([]string, error) {
	if skip == nil {
		skip = func(string, bool) bool { return false }
	}
	if err := check(pattern, true); err != nil {
		return nil, withOp(err, "glob")
	}
	if !doublestar.ValidatePattern(pattern) {
		return nil, &PathError{Op: "glob", Path: pattern, Err: doublestar.ErrBadPattern,
			Reason: `invalid glob pattern (unbalanced "[" or "{", or a trailing "\"); use "*" for one segment and "**" for any depth`}
	}
	g := newGlobber(pattern)
	files := []string{}
	start := f.root
	if g.base != "" {
		abs, err := f.Abs(g.base)
		if errors.Is(err, ErrOutsideRoot) {
			return files, nil // a base that leaves the root holds nothing
		} else if err != nil {
			return nil, withOp(err, "glob")
		}
		fi, err := os.Lstat(abs)
		if err != nil {
			return files, nil // a missing base holds nothing
		}
		if !fi.IsDir() {
			// A pattern such as "a/**" also matches its base "a" itself
			// when that is a file.
			if fi.Mode().IsRegular() && g.match(g.base) {
				files = append(files, g.base)
			}
			return files, nil
		}
		start = abs
	}
	_ = walk(start, g.base, read, func(rel string, d fs.DirEntry) error {
		switch t := d.Type(); {
		case d.IsDir():
			if !g.enter(rel, d.Name()) || skip(rel, true) {
				return fs.SkipDir
			}
		case t.IsRegular():
			if g.match(rel) && !skip(rel, false) {
				files = append(files, rel)
			}
		case t&fs.ModeSymlink != 0:
			if g.match(rel) && !skip(rel, false) && f.regularInside(rel) {
				files = append(files, rel)
			}
		}
		return nil
	})
	return files, nil
}

// Walk calls fn for every entry under the root with its workspace path,
// depth first, reading each directory once, in the order of the sorted
// paths (a directory comes where its files' paths sort: "a-b", "a.go", "a",
// "a/x", "a0"). It follows no symlink: a symlink is an entry of its own, never
// entered ([FS.Abs] resolves it). fn's [fs.SkipDir] for a directory leaves
// it unread (for another entry, the rest of its directory); [fs.SkipAll]
// ends the walk; any other error ends it and is returned. Directories that
// cannot be read are passed over.
func (f *FS) Walk(fn func(rel string, d fs.DirEntry) error) error {
	if err := walk(f.root, "", readDir, fn); err != fs.SkipAll {
		return err
	}
	return nil
}

// readDirFunc lists a directory's entries in any order; tests count calls.
type readDirFunc func(abs string) ([]fs.DirEntry, error)

// readDir lists the directory abs without sorting it (walk sorts).
func readDir(abs string) ([]fs.DirEntry, error) {
	d, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// walk visits the entries of the directory abs, whose workspace path is
// rel ("" for the root), and of its subdirectories, as [FS.Walk] describes;
// it returns fs.SkipAll when fn did.
func walk(abs, rel string, read readDirFunc, fn func(rel string, d fs.DirEntry) error) error {
	ents, _ := read(abs) // what could be read: an unreadable directory holds nothing
	slices.SortFunc(ents, pathOrder)
	for _, d := range ents {
		name := d.Name()
		r := name
		if rel != "" {
			r = rel + "/" + name
		}
		err := fn(r, d)
		if err == nil && d.IsDir() {
			err = walk(abs+string(filepath.Separator)+name, r, read, fn)
		}
		switch {
		case err == fs.SkipDir && d.IsDir():
		case err == fs.SkipDir:
			return nil
		case err != nil:
			return err
		}
	}
	return nil
}

// pathOrder orders a directory's entries as their paths sort: a directory
// as its name followed by "/", since its files' paths carry it ("a-b" <
// "a.go" < "a/x" < "a0"), so that the walk yields sorted paths.
func pathOrder(a, b fs.DirEntry) int {
	an, bn := a.Name(), b.Name()
	n := min(len(an), len(bn))
	for i := range n {
		if an[i] != bn[i] {
			return int(an[i]) - int(bn[i])
		}
	}
	return nextByte(an, n, a.IsDir()) - nextByte(bn, n, b.IsDir())
}

// nextByte is the byte of name at i, "/" just past a directory's name, or
// -1 past a file's.
func nextByte(name string, i int, dir bool) int {
	switch {
	case i < len(name):
		return int(name[i])
	case dir:
		return '/'
	}
	return -1
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
