package workspace

import (
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// Limits bound what a workspace may hold. Zero fields take the defaults.
type Limits struct {
	// MaxFiles is the most files a workspace holds (default 500).
	MaxFiles int `json:"max_files,omitempty"`
	// MaxFileBytes is the largest file acquired, in bytes (default 2 MiB).
	MaxFileBytes int64 `json:"max_file_bytes,omitempty"`
	// MaxTotalBytes is the most bytes a workspace holds (default 32 MiB).
	MaxTotalBytes int64 `json:"max_total_bytes,omitempty"`
}

// DefaultLimits are the limits of CONTRACT §2.
var DefaultLimits = Limits{MaxFiles: 500, MaxFileBytes: 2 << 20, MaxTotalBytes: 32 << 20}

// tooMany is the error for a workspace that would hold n files, over the
// limit, by taking path.
func (l Limits) tooMany(path string, n int) error {
	return fault.New(fault.Bounds, "%s: the workspace would hold %d files, over its limit of %d files (max_files); acquire fewer files (narrow the globs) or raise the limit", path, n, l.MaxFiles)
}

// checkSize checks a file of size bytes at path against the per-file limit
// and, with the other files' total, against the workspace limit.
func (l Limits) checkSize(path string, size, others int64) error {
	if size > l.MaxFileBytes {
		return fault.New(fault.Bounds, "%s: the file is %d bytes, over the per-file limit of %d bytes (max_file_bytes); leave it out or raise the limit", path, size, l.MaxFileBytes)
	}
	if others+size > l.MaxTotalBytes {
		return fault.New(fault.Bounds, "%s: the workspace would hold %d bytes, over its total limit of %d bytes (max_total_bytes); acquire fewer files or raise the limit", path, others+size, l.MaxTotalBytes)
	}
	return nil
}

func (l Limits) withDefaults() Limits {
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultLimits.MaxFiles
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultLimits.MaxFileBytes
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = DefaultLimits.MaxTotalBytes
	}
	return l
}

// Acquire adds the files named by patterns to the workspace: literal paths,
// which must exist and be files, and globs (`*` within one segment, `**` at
// any depth), which must match at least one file. A file the workspace
// already holds keeps its workspace content. Acquire is all or nothing: on
// error the workspace is unchanged.
func (w *Workspace) Acquire(patterns []string) error {
	var paths []string
	seen := map[string]bool{}
	for _, pat := range patterns {
		matches, err := w.expand(pat)
		if err != nil {
			return err
		}
		for _, p := range matches {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	type loaded struct {
		path string
		doc  *text.Doc
		mode fs.FileMode
		size int64
	}
	var add []loaded
	files := len(w.files)
	total := w.bytes
	for _, p := range paths {
		if _, ok := w.files[p]; ok {
			continue
		}
		if _, ok := w.pers[p]; ok {
			// Known to the workspace and deleted or moved away in it:
			// the workspace's view wins over the disk.
			continue
		}
		if files+1 > w.limits.MaxFiles {
			return w.limits.tooMany(p, files+1)
		}
		st, err := w.fs.Stat(p)
		if err != nil {
			return ioError(p, err)
		}
		if err := w.limits.checkSize(p, st.Size(), total); err != nil {
			return err
		}
		data, mode, err := w.fs.ReadFile(p)
		if err != nil {
			return ioError(p, err)
		}
		// The file may have grown since the stat.
		if err := w.limits.checkSize(p, int64(len(data)), total); err != nil {
			return err
		}
		doc, err := text.Parse(data)
		if err != nil {
			return fault.Wrap(fault.BadArgument, err, "%s cannot be acquired, it is not a text file", p)
		}
		files++
		total += int64(len(data))
		add = append(add, loaded{p, doc, mode, int64(len(data))})
	}
	for _, l := range add {
		w.files[l.path] = &file{doc: l.doc, mode: l.mode, acq: l.path, pers: l.path}
		w.acq[l.path] = l.doc
		w.pers[l.path] = disk{doc: l.doc, mode: l.mode, acq: l.path}
	}
	w.bytes = total
	return nil
}

// expand turns one acquisition pattern into workspace paths.
func (w *Workspace) expand(pat string) ([]string, error) {
	if rootfs.IsGlob(pat) {
		matches, err := w.fs.Glob(pat)
		if err != nil {
			return nil, fault.Wrap(fault.BadArgument, err, "bad glob %q", pat)
		}
		matches = skipVCS(pat, matches)
		if len(matches) == 0 {
			return nil, fault.New(fault.NotFound, "the glob %q matched no files under the root: check the pattern (`*` matches within one path segment, `**` at any depth)", pat)
		}
		return matches, nil
	}
	p, err := rootfs.Clean(pat)
	if err != nil {
		return nil, fault.Wrap(fault.BadArgument, err, "bad path")
	}
	if _, ok := w.files[p]; ok {
		return []string{p}, nil // held, perhaps created, by the workspace
	}
	st, err := w.fs.Stat(p)
	if err != nil {
		return nil, ioError(p, err)
	}
	if st.IsDir() {
		return nil, fault.New(fault.BadArgument, "%s is a directory: to acquire its files use a glob such as %q or %q", p, p+"/*", p+"/**")
	}
	if !st.Mode().IsRegular() {
		return nil, fault.New(fault.BadArgument, "%s is not a regular file", p)
	}
	return []string{p}, nil
}

// ioError classifies a filesystem error about path.
func ioError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fault.Wrap(fault.NotFound, err, "%s does not exist under the root", path)
	case errors.Is(err, rootfs.ErrOutsideRoot):
		return fault.Wrap(fault.BadArgument, err, "refused")
	default:
		var pe *rootfs.PathError
		if errors.As(err, &pe) {
			return fault.Wrap(fault.BadArgument, err, "refused")
		}
		return fault.Wrap(fault.IO, err, "%s", path)
	}
}

// vcsDirs are version-control directories that a glob never reaches into
// unless it names them: `**` means the project's files, not git's objects.
var vcsDirs = []string{".git", ".hg", ".svn", ".jj"}

// skipVCS drops matches inside a version-control directory that pat does
// not name.
func skipVCS(pat string, matches []string) []string {
	out := matches[:0:0]
	for _, m := range matches {
		if !inVCS(m) || inVCS(pat) {
			out = append(out, m)
		}
	}
	return out
}

// InVCS reports whether p lies inside a version-control directory.
func InVCS(p string) bool { return inVCS(p) }

func inVCS(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if slices.Contains(vcsDirs, seg) {
			return true
		}
	}
	return false
}
