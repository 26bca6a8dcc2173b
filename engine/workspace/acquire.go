package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// Limits bound what a workspace may hold. Zero fields take the defaults.
// Each is a key of [limits] in .devbroker.toml (configs.Limits), which the
// errors name.
type Limits struct {
	// MaxFiles is the most files a workspace holds (default 500).
	MaxFiles int `json:"max_files,omitempty"`
	// MaxFileBytes is the largest file acquired, in bytes (default 2 MiB).
	MaxFileBytes int64 `json:"max_file_bytes,omitempty"`
	// MaxTotalBytes is the most bytes a workspace holds (default 32 MiB).
	MaxTotalBytes int64 `json:"max_total_bytes,omitempty"`
}

// DefaultLimits are the default workspace limits (docs/semantics.md, "Files
// are text"); a project's .devbroker.toml sets others in its limits table.
var DefaultLimits = Limits{MaxFiles: 500, MaxFileBytes: 2 << 20, MaxTotalBytes: 32 << 20}

// checkSize checks a file of size bytes at path against the per-file limit
// and, with the total of the files that must stay, against the workspace
// limit.
func (l Limits) checkSize(path string, size, others int64) error {
	if size > l.MaxFileBytes {
		return fault.New(fault.Bounds, "%s: the file is %d bytes, over the per-file limit of %d bytes (limits.max_file_bytes in .devbroker.toml); leave it out or raise that limit (a project's .devbroker.toml applies once you trust the root: devbroker trust DIR)", path, size, l.MaxFileBytes)
	}
	if others+size > l.MaxTotalBytes {
		return fault.New(fault.Bounds, "%s: the workspace would hold %d bytes, over its total limit of %d bytes (limits.max_total_bytes in .devbroker.toml), %s; %s, acquire fewer files, or raise that limit (a project's .devbroker.toml applies once you trust the root: devbroker trust DIR)", path, others+size, l.MaxTotalBytes, mustKeep, releaseAdvice)
	}
	return nil
}

// Overlay returns l with each nonzero field of o in its place.
func (l Limits) Overlay(o Limits) Limits {
	if o.MaxFiles != 0 {
		l.MaxFiles = o.MaxFiles
	}
	if o.MaxFileBytes != 0 {
		l.MaxFileBytes = o.MaxFileBytes
	}
	if o.MaxTotalBytes != 0 {
		l.MaxTotalBytes = o.MaxTotalBytes
	}
	return l
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
// any depth), which must match at least one file.
//
// A file the workspace already holds follows the disk: with no unwritten
// change it is read again when its content on disk changed (both baselines
// move, so this is neither a change nor a conflict), and it leaves the
// workspace, failing the acquisition as a missing file would, when it is
// gone from disk. A file with unwritten changes keeps them; when the disk
// no longer holds what those changes were based on it is returned as
// [Stale]. A pinned file is kept as it is.
//
// When the files need room over the limits, files with no unwritten change
// that this acquisition does not name leave, least recently used first.
// Otherwise Acquire is all or nothing: on error the workspace is unchanged,
// except that held files found gone from disk have left it.
func (w *Workspace) Acquire(patterns []string) ([]Stale, error) {
	stale, _, err := w.acquire(patterns, nil)
	return stale, err
}

// Passed is a file a walk found that [Workspace.AcquireWalked] passed
// over, and why.
type Passed struct {
	Path string
	// Why is the reason, naming the limit and its key where one refused
	// it ("16640000 bytes, over the per-file limit of 8388608 bytes
	// (limits.max_file_bytes)").
	Why string
}

// AcquireWalked is [Workspace.Acquire] for files some of which a walk
// found rather than anyone named: a file new to the workspace for which
// walked reports true, and that cannot be held by itself (over the
// per-file limit, not a text file, unreadable), is passed over and
// listed with why, instead of failing the acquisition. A walk meets what
// it meets; an answer about the rest is still worth giving, and it says
// what it passed over. The limits on the whole workspace (files, total
// bytes) still fail it, as do the files walked reports false for.
func (w *Workspace) AcquireWalked(patterns []string, walked func(string) bool) ([]Stale, []Passed, error) {
	return w.acquire(patterns, walked)
}

// acquire is [Workspace.Acquire], passing over the files walked (nil:
// none) reports that cannot be held by themselves.
func (w *Workspace) acquire(patterns []string, walked func(string) bool) ([]Stale, []Passed, error) {
	paths, err := w.expandAll(patterns)
	if err != nil {
		return nil, nil, err
	}
	named := make(map[string]bool, len(paths))
	for _, p := range paths {
		named[p] = true
	}
	keep := func(p string) bool { return named[p] }
	stale, rereads, fresh, err := w.classify(paths)
	if err != nil {
		return nil, nil, err
	}
	// Files gone from disk leave, whatever else fails.
	var goneErr error
	for _, r := range rereads {
		if r.gone {
			w.drop(r.path)
			if goneErr == nil {
				goneErr = r.err
			}
		}
	}
	if goneErr != nil {
		return stale, nil, goneErr
	}
	add, passed, err := w.load(fresh, rereads, keep, walked)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range passed {
		delete(named, p.Path)
	}
	w.evictFor(len(add), w.grow(add, rereads), keep)
	for _, r := range rereads {
		w.Refresh(r.path, r.doc, r.mode)
	}
	for _, l := range add {
		w.files[l.path] = &file{doc: l.doc, mode: l.mode, acq: l.path, pers: l.path}
		w.acq[l.path] = l.doc
		w.pers[l.path] = disk{doc: l.doc, mode: l.mode, acq: l.path}
		w.bytes += int64(l.doc.Size())
	}
	for _, p := range paths {
		w.Use(p)
	}
	w.fresh = named
	return stale, passed, nil
}

// classify sorts the paths of an acquisition: held files with no unwritten
// change whose disk content changed or is gone (rereads), files with
// unwritten changes whose disk changed (stale), and files new to the
// workspace (fresh).
func (w *Workspace) classify(paths []string) (stale []Stale, rereads []reread, fresh []string, err error) {
	for _, p := range paths {
		f, held := w.files[p]
		_, known := w.pers[p]
		switch {
		case held && w.isPinned(p):
		case held && w.clean(p, f):
			if r := w.readBack(p, f.doc); r.gone || r.doc != nil {
				rereads = append(rereads, r)
			}
		case held || known:
			// Unwritten changes (or deleted or moved away in the
			// workspace): the workspace's view wins, the disk is
			// reported.
			s, err := w.staleOf(p)
			if err != nil {
				return nil, nil, nil, err
			}
			if s != nil {
				stale = append(stale, *s)
			}
		default:
			fresh = append(fresh, p)
		}
	}
	return stale, rereads, fresh, nil
}

// loaded is a file read for acquisition.
type loaded struct {
	path string
	doc  *text.Doc
	mode fs.FileMode
}

// grow is how many bytes the workspace grows by taking add and rereads.
func (w *Workspace) grow(add []loaded, rereads []reread) int64 {
	var n int64
	for _, l := range add {
		n += int64(l.doc.Size())
	}
	for _, r := range rereads {
		n += int64(r.doc.Size() - w.files[r.path].doc.Size())
	}
	return n
}

// load reads the files of paths, new to the workspace, checking the limits
// against what must stay: the workspace minus the files that can leave to
// make room (never those keep names). A file walked (nil: none) reports
// that cannot be held by itself is passed over, with why.
func (w *Workspace) load(paths []string, rereads []reread, keep func(string) bool, walked func(string) bool) ([]loaded, []Passed, error) {
	mustFiles, mustBytes := len(w.files), w.bytes
	for _, r := range rereads {
		mustBytes += int64(r.doc.Size() - w.files[r.path].doc.Size())
	}
	roomKnown := false
	makeRoom := func() {
		if !roomKnown {
			roomKnown = true
			n, b := w.room(keep)
			mustFiles -= n
			mustBytes -= b
		}
	}
	if len(w.files)+len(paths) > w.limits.MaxFiles {
		makeRoom()
		if n := mustFiles + len(paths); n > w.limits.MaxFiles {
			return nil, nil, w.limits.tooMany(paths[w.limits.MaxFiles-mustFiles], n)
		}
	}
	var add []loaded
	var passed []Passed
	var addBytes int64
	fits := func(p string, size int64) error {
		if size <= w.limits.MaxFileBytes && mustBytes+addBytes+size > w.limits.MaxTotalBytes {
			makeRoom()
		}
		return w.limits.checkSize(p, size, mustBytes+addBytes)
	}
	lenient := func(p string) bool { return walked != nil && walked(p) }
	for _, p := range paths {
		// A file over the per-file limit is refused from its size,
		// before it is read.
		data, mode, err := w.fs.ReadFileMax(p, w.limits.MaxFileBytes)
		var tl *rootfs.TooLargeError
		switch {
		case errors.As(err, &tl) && tl.Size > w.limits.MaxFileBytes && lenient(p):
			passed = append(passed, Passed{p, fmt.Sprintf("%d bytes, over the per-file limit of %d bytes (limits.max_file_bytes)", tl.Size, w.limits.MaxFileBytes)})
			continue
		case errors.As(err, &tl):
			return nil, nil, fits(p, tl.Size)
		case err != nil:
			if err := w.checkFile(p); err != nil {
				return nil, nil, err // as a path that is not a file is refused
			}
			if lenient(p) {
				passed = append(passed, Passed{p, "unreadable: " + err.Error()})
				continue
			}
			return nil, nil, ioError(p, err)
		}
		if err := fits(p, int64(len(data))); err != nil {
			return nil, nil, err
		}
		doc, err := text.Parse(data)
		if err != nil {
			if lenient(p) {
				passed = append(passed, Passed{p, "not a text file: " + err.Error()})
				continue
			}
			return nil, nil, fault.Wrap(fault.BadArgument, err, "%s cannot be acquired, it is not a text file", p)
		}
		addBytes += int64(len(data))
		add = append(add, loaded{p, doc, mode})
	}
	return add, passed, nil
}

// expandAll expands every pattern, without duplicates, in order.
func (w *Workspace) expandAll(patterns []string) ([]string, error) {
	var paths []string
	seen := map[string]bool{}
	for _, pat := range patterns {
		matches, err := w.expand(pat)
		if err != nil {
			return nil, err
		}
		for _, p := range matches {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	return paths, nil
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
	if _, known := w.pers[p]; !known {
		// New to the workspace: its read checks it (see load).
		return []string{p}, nil
	}
	if err := w.checkFile(p); err != nil {
		return nil, err
	}
	return []string{p}, nil
}

// checkFile refuses a path that is not a regular file on disk.
func (w *Workspace) checkFile(p string) error {
	st, err := w.fs.Stat(p)
	if err != nil {
		return ioError(p, err)
	}
	if st.IsDir() {
		return fault.New(fault.BadArgument, "%s is a directory: to acquire its files use a glob such as %q or %q", p, p+"/*", p+"/**")
	}
	if !st.Mode().IsRegular() {
		return fault.New(fault.BadArgument, "%s is not a regular file", p)
	}
	return nil
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
// (rootfs's walk does not enter them; this filter keeps the rule for any
// match that reaches here another way.)
var vcsDirs = rootfs.VCSDirs

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
