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
// directory cwd) really is, and whether it still exists. The path is
// resolved as the system resolves it, never cleaned first: "link/../x"
// is x beside the link's target. A file gone since is judged by its
// directory, resolved, and its name.
func resolveRead(cwd, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = cwd + string(filepath.Separator) + p
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r, true
	}
	if i := strings.LastIndexByte(p, filepath.Separator); i > 0 {
		if base := p[i+1:]; base != "" && base != "." && base != ".." {
			if d, err := filepath.EvalSymlinks(p[:i]); err == nil {
				return filepath.Join(d, base), false
			}
		}
	}
	return filepath.Clean(p), false
}

// exists reports whether p names an existing entry (following symlinks).
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
