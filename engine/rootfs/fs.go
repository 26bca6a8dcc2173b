package rootfs

// This file defines [FS], its construction, and path resolution: [FS.Abs],
// [FS.Rel] and the component-by-component symlink walk behind them.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symlinks followed while resolving one path (Linux uses
// 40 as well).
const maxLinks = 40

// FS is a directory tree confined to Root. All its methods take workspace
// paths (see [Clean]) and refuse, with [ErrOutsideRoot], anything that would
// reach outside the root.
//
// An FS is immutable after [New] and safe for concurrent use; [FS.WithHooks]
// returns a modified copy.
type FS struct {
	root    string // absolute, symlink-resolved
	given   string // absolute but not symlink-resolved, for FS.Rel
	hooks   Hooks
	observe func(paths []string)
}

// Hooks is a seam for tests of code built on an [FS]. The zero value does
// nothing.
type Hooks struct {
	// BeforeOp, when set, is called before each [FS.Rename] (op "rename",
	// to = destination) and [FS.Remove] (op "remove") with the workspace
	// paths as given, before anything is checked or touched, and for each
	// file of [FS.WriteFile] and [FS.WriteFiles] (op "write") before its
	// last check and the rename that replaces it (its temporary is written
	// by then). A non-nil error aborts the operation and is returned
	// wrapped in a *[PathError]; the file is left unchanged.
	BeforeOp func(op, path, to string) error

	// Rand, when set, replaces crypto/rand as the source of the random part of
	// [FS.TempRenameName]'s names.
	Rand io.Reader
}

// Operation names passed to [Hooks.BeforeOp] and used as [PathError.Op].
const (
	OpWrite  = "write"
	OpRename = "rename"
	OpRemove = "remove"
)

// New returns the FS rooted at root, which must exist and be a directory.
// The root is stored absolute and symlink-resolved.
func New(root string) (*FS, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("root %q: %w", root, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("root %q: %w; give an existing directory", root, err)
	}
	fi, err := os.Stat(resolved)
	if err != nil {
		return nil, fmt.Errorf("root %q: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("root %q: not a directory; give the directory to serve", root)
	}
	return &FS{root: resolved, given: abs}, nil
}

// Root returns the absolute, symlink-resolved root directory.
func (f *FS) Root() string { return f.root }

// WithHooks returns a copy of f that uses h.
func (f *FS) WithHooks(h Hooks) *FS {
	c := *f
	c.hooks = h
	return &c
}

// WithObserver returns a copy of f that calls fn after each write, rename
// and removal that succeeded, with the absolute paths (under [FS.Root])
// whose content or existence it changed: a written file (and, written
// through a symlink, the link), a rename's source and destination, a
// removed file. fn must not block.
func (f *FS) WithObserver(fn func(paths []string)) *FS {
	c := *f
	c.observe = fn
	return &c
}

// changed tells the observer about the entries (relative to the root)
// an operation changed.
func (f *FS) changed(names ...string) {
	if f.observe == nil {
		return
	}
	paths := make([]string, 0, len(names))
	for _, n := range names {
		if n == "" {
			continue
		}
		p := filepath.Join(f.root, n)
		if len(paths) == 0 || paths[len(paths)-1] != p {
			paths = append(paths, p)
		}
	}
	f.observe(paths)
}

// Abs validates rel with [Clean] and returns the absolute host path it
// resolves to, following every symlink on the way (see the package
// documentation). A path that does not exist yet is resolved through its
// deepest existing ancestor. The result is always inside [FS.Root]; a symlink
// that leads outside is refused with [ErrOutsideRoot].
func (f *FS) Abs(rel string) (string, error) {
	if err := check(rel, false); err != nil {
		if filepath.IsAbs(rel) && strings.IndexByte(rel, 0) < 0 {
			if r, ok := f.under(rel); ok && check(r, false) == nil {
				err.Reason += fmt.Sprintf("; did you mean %q?", r)
			}
		}
		return "", err
	}
	return f.resolve(rel)
}

// resolve is [FS.Abs] without validation. It walks rel's components from the
// root, expanding symlinks in place. After the components of a symlink's
// target are consumed, the location reached must be inside the root: a link
// out of the root is refused even if a later link leads back in, as the
// kernel would have followed it.
func (f *FS) resolve(rel string) (string, error) {
	type step struct {
		name string // a path component, or "" for a checkpoint
		link string // checkpoint: the symlink whose target ends here
	}
	var pending []step
	for seg := range strings.SplitSeq(filepath.ToSlash(rel), "/") {
		pending = append(pending, step{name: seg})
	}
	cur := f.root
	links := 0
	missing := false // cur does not exist: take the rest literally
	notDir := ""     // cur exists and is not a directory (workspace path of it)
	for len(pending) > 0 {
		s := pending[0]
		pending = pending[1:]
		switch {
		case s.name == "" && s.link != "":
			if !within(f.root, cur) {
				return "", refuse(rel, fmt.Sprintf(
					"goes through the symlink %q, which leads to %q outside the root %q; symlinks that leave the root are never followed",
					f.display(s.link), cur, f.root))
			}
			continue
		case s.name == "" || s.name == ".":
			continue
		}
		if notDir != "" {
			return "", &PathError{Path: rel, Reason: fmt.Sprintf("%q is a file, not a directory", f.display(notDir)), Err: fs.ErrInvalid}
		}
		if s.name == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, s.name)
		if missing {
			cur = next
			continue
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = true
			cur = next
			continue
		case err != nil:
			return "", ioError("", rel, err)
		case fi.Mode()&fs.ModeSymlink == 0:
			if !fi.IsDir() {
				notDir = next
			}
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", &PathError{Path: rel, Reason: "too many levels of symbolic links; check for a symlink loop", Err: fs.ErrInvalid}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", ioError("", rel, err)
		}
		expanded := []step{}
		if filepath.IsAbs(target) {
			cur = filepath.VolumeName(target) + string(filepath.Separator)
		}
		for seg := range strings.SplitSeq(filepath.ToSlash(target), "/") {
			expanded = append(expanded, step{name: seg})
		}
		expanded = append(expanded, step{link: next})
		pending = append(expanded, pending...)
	}
	if !within(f.root, cur) {
		return "", refuse(rel, fmt.Sprintf("resolves to %q, outside the root %q", cur, f.root))
	}
	return cur, nil
}

// display shows an absolute host path inside the root as a workspace path.
func (f *FS) display(abs string) string {
	if r, err := filepath.Rel(f.root, abs); err == nil && within(f.root, abs) {
		return filepath.ToSlash(r)
	}
	return abs
}

// rootRel returns the path of abs relative to the root in the form os.Root
// wants ("." for the root itself). abs must be inside the root.
func (f *FS) rootRel(abs string) string {
	r, err := filepath.Rel(f.root, abs)
	if err != nil {
		return abs // unreachable for a resolved path; os.Root refuses it
	}
	return r
}

// Rel converts an absolute host path, as tools such as edit_file take, into
// the workspace path it names, refusing what is outside the root (lexically,
// or through a symlink). The root may be spelled as given to [New] or
// symlink-resolved. A relative input is refused with a hint showing the
// absolute path it probably meant.
func (f *FS) Rel(abs string) (string, error) {
	if strings.IndexByte(abs, 0) >= 0 {
		return "", refuse(abs, "contains a NUL byte; remove it")
	}
	if !filepath.IsAbs(abs) {
		reason := "is relative; give an absolute path"
		if guess := filepath.Join(f.given, abs); within(f.given, guess) && guess != f.given {
			reason += fmt.Sprintf(", probably %q", guess)
		}
		return "", refuse(abs, reason)
	}
	rel, ok := f.under(abs)
	if !ok {
		return "", refuse(abs, fmt.Sprintf("is outside the root %q; give a path inside it", f.root))
	}
	if rel == "" {
		return "", refuse(abs, "names the root directory itself; give a file inside it")
	}
	if err := check(rel, false); err != nil {
		err.Path = abs
		return "", err
	}
	if _, err := f.resolve(rel); err != nil {
		var pe *PathError
		if errors.As(err, &pe) {
			pe.Path = abs
		}
		return "", err
	}
	return rel, nil
}

// under returns abs relative to the root (resolved or as given) as a
// slash-separated path, without cleaning it, and whether it is under the
// root at all. The root itself gives "".
func (f *FS) under(abs string) (string, bool) {
	for _, base := range []string{f.root, f.given} {
		if abs == base {
			return "", true
		}
		prefix := base
		if !strings.HasSuffix(prefix, string(filepath.Separator)) {
			prefix += string(filepath.Separator)
		}
		if rest, ok := strings.CutPrefix(abs, prefix); ok {
			return filepath.ToSlash(rest), true
		}
	}
	return "", false
}

// within reports whether the clean absolute path p is root or below it,
// comparing whole components ("/root-evil" is not within "/root").
func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}
