package rootfs

// This file defines what tools that read the disk themselves (language
// servers, linters, commands) must not be shown: the entries under the
// root reached through a symlink that leaves it.

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
)

// Leaves reports whether the workspace path rel (not validated) is reached
// through a symlink that leaves the root, or resolves outside it: a
// symlink to a file or directory outside, existing or not, or any path
// below such a directory symlink. Other failures (a component that is not
// a directory, a symlink loop) do not count.
func (f *FS) Leaves(rel string) bool {
	_, err := f.resolve(rel)
	return errors.Is(err, ErrOutsideRoot)
}

// Inside converts an absolute host path a tool reported into its
// workspace path, and reports whether the file is the root's to show: it
// is under the root (resolved or as given to [New]), not the root itself,
// and resolves inside the root without passing through a symlink that
// leaves it. A tool's answer about any other path must be dropped.
func (f *FS) Inside(abs string) (string, bool) {
	rel, err := f.Rel(filepath.Clean(abs))
	return rel, err == nil
}

// OutsideLinks lists, sorted, the workspace paths of the symlinks under
// the root that lead outside it (to a file or a directory, existing or
// not). The walk follows no symlink and does not enter the directories
// skip names (by base name; nil skips none). Unreadable directories are
// passed over: a tool cannot read them either.
func (f *FS) OutsideLinks(skip func(name string) bool) []string {
	var out []string
	_ = filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == f.root {
			return nil
		}
		if d.IsDir() {
			if skip != nil && skip(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		rel, err := filepath.Rel(f.root, p)
		if err != nil {
			return nil
		}
		if rel = filepath.ToSlash(rel); f.Leaves(rel) {
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// SkipDir reports whether a directory name is version-control metadata or
// installed JavaScript packages, which [FS.OutsideLinks] callers usually
// leave out.
func SkipDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", ".jj", ".bzr", "node_modules":
		return true
	}
	return false
}
