package search

// This file finds the files a search looks at: one walk of the root
// (rootfs's, which reads each directory once, follows no symlink and
// yields sorted paths) that does not enter version control, directories
// that .gitignore files ignore or directories no selector can reach, and
// the workspace's files, which stand in for the disk's at their paths.

import (
	"io/fs"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/gitignore"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// selector is one of a search's paths: a glob, or a path that names a
// file or a directory.
type selector struct {
	raw  string
	glob bool
	// base is the directory the selector lies under ("" for the root):
	// a glob's segments before its first wildcard; a path itself.
	base string
	hit  bool // a file to search matched it
}

// everything is the selector of a search with no paths.
var everything = []*selector{{raw: "**", glob: true}}

// parseSelectors checks a search's paths; none selects every file.
func parseSelectors(paths []string) ([]*selector, error) {
	if len(paths) == 0 {
		return everything, nil
	}
	out := make([]*selector, 0, len(paths))
	for _, p := range paths {
		if _, err := rootfs.Clean(p); err != nil {
			return nil, fault.Wrap(fault.BadArgument, err, "paths")
		}
		s := &selector{raw: p, base: p}
		if rootfs.IsGlob(p) {
			if !doublestar.ValidatePattern(p) {
				return nil, fault.New(fault.BadArgument, "paths: %q is not a valid glob (unbalanced \"[\" or \"{\"); use \"*\" for one segment and \"**\" for any depth", p)
			}
			s.glob = true
			if s.base, _ = doublestar.SplitPattern(p); s.base == "." {
				s.base = ""
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// match reports whether the file p is selected.
func (s *selector) match(p string) bool {
	if s.glob {
		ok, _ := doublestar.Match(s.raw, p)
		return ok
	}
	return p == s.raw || strings.HasPrefix(p, s.raw+"/")
}

// reaches reports whether the directory dir may hold a selected file.
func (s *selector) reaches(dir string) bool {
	return s.base == "" || under(dir, s.base) || strings.HasPrefix(s.base, dir+"/")
}

// names reports whether p is the selector's base or on the way to it:
// a path the caller named, which is searched even where .gitignore
// ignores it (what lies below it is not).
func (s *selector) names(p string) bool {
	return p == s.base || strings.HasPrefix(s.base, p+"/")
}

// under reports whether p is dir or lies below it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// collect lists the files to search, sorted by path: the workspace's that
// a selector matches and the disk's that the walk finds, less the paths
// the workspace holds or deleted or moved away. A selector that matches
// no file is a not_found fault.
func collect(fsys *rootfs.FS, ws Workspace, sels []*selector) ([]file, error) {
	shadow := map[string]bool{}
	var held []file
	for _, p := range ws.Paths() {
		shadow[p] = true
		if selected(sels, p) {
			d, _ := ws.Doc(p)
			held = append(held, file{path: p, doc: d})
		}
	}
	for _, p := range ws.Unwritten() {
		shadow[p] = true
	}
	w := walker{fsys: fsys, ws: ws, sels: sels, shadow: shadow}
	w.tree = gitignore.NewTree(w.ignoreFile)
	_ = fsys.Walk(w.visit)
	for _, s := range sels {
		if !s.hit {
			return nil, fault.New(fault.NotFound, "paths: %q matches no file to search, on disk or in the workspace (version control, symlinks and what .gitignore ignores are not searched); check the path, or use a glob such as \"**/*.go\"", s.raw)
		}
	}
	return merge(held, w.files), nil
}

// selected reports whether some selector matches p, marking each that
// does.
func selected(sels []*selector, p string) bool {
	hit := false
	for _, s := range sels {
		if s.match(p) {
			s.hit, hit = true, true
		}
	}
	return hit
}

// walker is the state of collect's walk.
type walker struct {
	fsys   *rootfs.FS
	ws     Workspace
	sels   []*selector
	shadow map[string]bool // paths the workspace speaks for
	tree   *gitignore.Tree // the ignore rules the walk meets
	files  []file
}

// visit is the walk's function for one entry.
func (w *walker) visit(rel string, d fs.DirEntry) error {
	if d.IsDir() {
		if !w.enter(rel, d.Name()) {
			return fs.SkipDir
		}
		return nil
	}
	if !d.Type().IsRegular() || w.shadow[rel] || w.ignored(rel, false) {
		return nil
	}
	if selected(w.sels, rel) {
		named := slices.ContainsFunc(w.sels, func(s *selector) bool { return !s.glob && s.raw == rel })
		w.files = append(w.files, file{path: rel, named: named})
	}
	return nil
}

// enter reports whether the walk reads the directory rel, named name: a
// selector reaches it, and neither is it version control's nor does
// .gitignore ignore it (unless a selector names it).
func (w *walker) enter(rel, name string) bool {
	if !slices.ContainsFunc(w.sels, func(s *selector) bool { return s.reaches(rel) }) {
		return false
	}
	if slices.Contains(rootfs.VCSDirs, name) || name == ".bzr" {
		return slices.ContainsFunc(w.sels, func(s *selector) bool { return s.names(rel) })
	}
	return !w.ignored(rel, true)
}

// ignored reports whether .gitignore ignores rel, which no selector
// names.
func (w *walker) ignored(rel string, dir bool) bool {
	if slices.ContainsFunc(w.sels, func(s *selector) bool { return s.names(rel) }) {
		return false
	}
	return w.tree.Ignored(rel, dir)
}

// ignoreFile reads the ignore file p: the workspace's copy when it holds
// one, else the disk's.
func (w *walker) ignoreFile(p string) ([]byte, bool) {
	if d, ok := w.ws.Doc(p); ok {
		return []byte(d.Content()), true
	}
	if w.shadow[p] {
		return nil, false // deleted or moved away in the workspace
	}
	data, _, err := w.fsys.ReadFileMax(p, gitignore.MaxFileBytes)
	return data, err == nil
}

// merge merges two lists of files sorted by path.
func merge(a, b []file) []file {
	out := make([]file, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].path < b[0].path {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}
