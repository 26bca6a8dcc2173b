package engine

// This file defines which files of the root a format, lint or check works
// on when it is not told which: [SelectFiles], the walk the command line
// and a step without paths share (docs/verdicts.md, "No paths: the whole
// root").

import (
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/workspace"
)

// Coverage is what a [Capabilities] may also tell: whether a configured
// language covers a file. A step without paths works on the files of the
// root it covers; without it, on every file.
type Coverage interface {
	Covers(path string) bool
}

// WalkSkips are the directories a walk of the root passes over unless a
// selector names them: test fixtures and vendored code, which are not the
// project's sources (gofumpt -w . and the go command's ./... pass over
// them too).
var WalkSkips = []string{"testdata", "vendor"}

// walkSkipped reports whether the walk of pattern passes over p: p is in a
// directory of WalkSkips that pattern does not name.
func walkSkipped(p, pattern string) bool {
	named := strings.Split(pattern, "/")
	for _, seg := range strings.Split(path.Dir(p), "/") {
		if slices.Contains(WalkSkips, seg) && !slices.Contains(named, seg) {
			return true
		}
	}
	return false
}

// SelectFiles expands selectors (files, directories or globs, relative to
// the root or absolute under it; none: the whole root) to the files they
// name, sorted. A file named literally is kept whatever it is; a
// directory or a glob is walked once (rootfs.FS.Glob), passing over
// version control and the WalkSkips directories it does not name, and
// keeps the files covers accepts (nil: every file). The command line's
// format, lint and check and a step without paths use it.
func SelectFiles(fsys *rootfs.FS, covers func(string) bool, selectors []string) ([]string, error) {
	paths, _, err := Select(fsys, covers, selectors)
	return paths, err
}

// Select is [SelectFiles] that also says which of the files were swept
// in by a walk (a directory or a glob) rather than named literally,
// sorted: the command line's [Plan.Swept].
func Select(fsys *rootfs.FS, covers func(string) bool, selectors []string) (paths, swept []string, err error) {
	if len(selectors) == 0 {
		selectors = []string{"."}
	}
	seen := map[string]bool{}
	named := map[string]bool{}
	var out []string
	add := func(p string, explicit bool) {
		if explicit {
			named[p] = true
		}
		if seen[p] || (!explicit && (workspace.InVCS(p) || (covers != nil && !covers(p)))) {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	walk := func(pattern string) error {
		m, err := fsys.Glob(pattern)
		for _, p := range m {
			if !walkSkipped(p, pattern) {
				add(p, false)
			}
		}
		return err
	}
	for _, a := range selectors {
		if filepath.IsAbs(a) {
			rel, err := fsys.Rel(a)
			if err != nil {
				return nil, nil, err
			}
			a = rel
		}
		a = strings.TrimSuffix(path.Clean(strings.TrimPrefix(a, "./")), "/")
		if a == "." {
			a = ""
		}
		if rootfs.IsGlob(a) {
			if err := walk(a); err != nil {
				return nil, nil, err
			}
			continue
		}
		pattern := "**"
		if a != "" {
			st, err := fsys.Stat(a)
			if err != nil {
				return nil, nil, err
			}
			if !st.IsDir() {
				add(a, true)
				continue
			}
			pattern = a + "/**"
		}
		if err := walk(pattern); err != nil {
			return nil, nil, err
		}
	}
	sort.Strings(out)
	for _, p := range out {
		if !named[p] {
			swept = append(swept, p)
		}
	}
	return out, swept, nil
}
