package confine

// This file defines which files a confined tool may read: those under the
// root and under the system's own public directories, judged by where
// they really are (symlinks resolved).

import (
	"os"
	"path/filepath"
	"strings"
)

// allowed is a set of directories a confined tool may read under, by
// their real paths, and of single files.
type allowed struct {
	dirs  []string
	files map[string]bool
}

// addDir allows what is under dir (ignored when it does not exist).
func (a *allowed) addDir(dir string) {
	if dir == "" {
		return
	}
	if r, err := realPath(dir); err == nil {
		a.dirs = append(a.dirs, r)
	}
}

// addFile allows one file.
func (a *allowed) addFile(file string) {
	if r, err := realPath(file); err == nil {
		if a.files == nil {
			a.files = map[string]bool{}
		}
		a.files[r] = true
	}
}

// has reports whether the file at real path p (absolute, resolved) may be
// read.
func (a *allowed) has(p string) bool {
	if a.files[p] {
		return true
	}
	for _, d := range a.dirs {
		if under(p, d) {
			return true
		}
	}
	return false
}

// under reports whether p is d or below it; both clean and absolute.
func under(p, d string) bool {
	if p == d {
		return true
	}
	if !strings.HasSuffix(d, string(filepath.Separator)) {
		d += string(filepath.Separator)
	}
	return strings.HasPrefix(p, d)
}

// realPath is p absolute, cleaned, with every symlink resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// resolveRead is where a file a tool read (p, relative to the tool's
// directory cwd) really is, and whether it still exists; a file gone
// since is judged by its path as written, its directory resolved.
func resolveRead(cwd, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r, true
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p)), false
	}
	return p, false
}

// exists reports whether p names an existing entry (following symlinks).
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
