// Package workspace holds devbroker's in-memory workspace: the files
// acquired from one root directory, changed by the workspace steps and
// written back in a safe order.
//
// The principal type is [Workspace]. It keeps three views of the files: the
// current content, the acquisition baseline (what [Workspace.Changes]
// reports against) and the persisted baseline (what is on disk as far as
// the workspace knows; [Workspace.Write] compares against it and moves it
// forward operation by operation). Changes are copy-on-write: a [Txn]
// records only the files it touches over the current state and commits them
// in one step, so a failed patch leaves the workspace as it was, at a cost
// proportional to what it touched.
package workspace

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// file is one file of the workspace. Values are immutable; a change makes a
// new one.
type file struct {
	doc  *text.Doc
	mode fs.FileMode // 0 for a file not yet on disk (written as 0644)
	// acq is the acquisition-baseline path this file descends from, "" if
	// the workspace created it.
	acq string
	// pers is the persisted-baseline path this file descends from, "" if it
	// is not on disk yet.
	pers string
}

// disk is the persisted state of one path as the workspace knows it.
type disk struct {
	doc  *text.Doc
	mode fs.FileMode
	// acq is the acquisition-baseline path the file on disk descends
	// from, "" if the workspace created it; [Workspace.Discard] restores
	// it so that changes written earlier are still reported.
	acq string
}

// Workspace is an in-memory set of files over one root. It is not safe for
// concurrent use.
type Workspace struct {
	fs     *rootfs.FS
	limits Limits
	files  map[string]*file     // current content
	acq    map[string]*text.Doc // acquisition baseline
	pers   map[string]disk      // persisted baseline
	bytes  int64                // total size of current content
	// touched holds every path whose current entry may differ from the
	// acquisition baseline (written by a commit, a discard or a refresh),
	// so that Changes costs what was changed, not what was acquired.
	touched map[string]struct{}
	// used holds when each file was last used (a tick of clock), so
	// that the least recently used files leave first when room is
	// needed; pinned holds the files kept as they are (see Pin).
	used   map[string]uint64
	clock  uint64
	pinned map[string]struct{}
	// fresh holds the paths the last acquisition named, each read or
	// checked against the disk by it, until the next FollowDisk, which
	// need not read them again.
	fresh map[string]bool
}

// New returns an empty workspace over fsys.
func New(fsys *rootfs.FS, limits Limits) *Workspace {
	return &Workspace{
		fs:     fsys,
		limits: limits.withDefaults(),
		files:  make(map[string]*file),
		acq:    make(map[string]*text.Doc),
		pers:   make(map[string]disk),

		touched: make(map[string]struct{}),
		used:    make(map[string]uint64),
		pinned:  make(map[string]struct{}),
	}
}

// Reset empties the workspace, dropping its unwritten changes, without
// reading the disk.
func (w *Workspace) Reset() { *w = *New(w.fs, w.limits) }

// Limits returns the workspace's limits, defaults filled in.
func (w *Workspace) Limits() Limits { return w.limits }

// FS returns the workspace's root-confined filesystem.
func (w *Workspace) FS() *rootfs.FS { return w.fs }

// Len is the number of files in the workspace.
func (w *Workspace) Len() int { return len(w.files) }

// Paths returns the paths of the workspace's files, sorted.
func (w *Workspace) Paths() []string {
	out := make([]string, 0, len(w.files))
	for p := range w.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Doc returns the current content of path.
func (w *Workspace) Doc(path string) (*text.Doc, bool) {
	f, ok := w.files[path]
	if !ok {
		return nil, false
	}
	return f.doc, true
}

// notInWorkspace is the error for a path that the workspace does not hold.
func (w *Workspace) notInWorkspace(path string) error {
	return fault.New(fault.NotFound, "%s is not in the workspace: add it (or a glob that matches it) to the plan's paths so it is acquired first", path)
}

// MaxRead is the most text one [Workspace.ReadLines] returns, 256 KiB: a
// larger range is refused with the range that fits.
const MaxRead = 256 << 10

// ReadLines returns lines start..end (1-based, inclusive; end 0 = to the end
// of the file) of path, joined with "\n" and without a trailing newline.
// More than [MaxRead] bytes is a bounds error naming the range that fits.
func (w *Workspace) ReadLines(path string, start, end int) (string, error) {
	d, ok := w.Doc(path)
	if !ok {
		return "", w.notInWorkspace(path)
	}
	if start < 1 {
		return "", fault.New(fault.BadArgument, "read_lines: start must be a positive integer (lines are 1-based), got %d", start)
	}
	n := d.Len()
	if n == 0 {
		return "", fault.New(fault.Bounds, "read_lines: %s: the file has 0 lines, so there is no line %d to start at", path, start)
	}
	if start > n {
		return "", fault.New(fault.Bounds, "read_lines: %s: start %d is past the end of the file: the file has %d lines", path, start, n)
	}
	if end == 0 || end > n {
		end = n
	}
	if end < start {
		return "", fault.New(fault.Bounds, "read_lines: %s: invalid range: end %d is before start %d; give end >= start, or omit end to read to the end of the file", path, end, start)
	}
	// Walk the lines asked for from the first one's offset: a read of a
	// few lines of a large file costs a count of its newlines, no split.
	content, off := d.Content(), d.LineOffset(start-1)
	lines := make([]string, 0, min(end-start+1, 1024))
	size := 0
	for i := start - 1; i < end; i++ {
		// A line's text, as Doc.Line gives it: without "\n" or "\r\n".
		l, next := content[off:], len(content)
		if j := strings.IndexByte(l, '\n'); j >= 0 {
			l, next = strings.TrimSuffix(l[:j], "\r"), off+j+1
		}
		if size += len(l) + 1; size > MaxRead {
			if i == start-1 {
				return "", fault.New(fault.Bounds, "read_lines: %s: line %d alone is longer than the %d KiB a read may return; it cannot be read as a line", path, start, MaxRead>>10)
			}
			return "", fault.New(fault.Bounds, "read_lines: %s: lines %d-%d are more than the %d KiB a read may return; read fewer lines at once: start %d, end %d (then continue from line %d)", path, start, end, MaxRead>>10, start, i, i+1)
		}
		lines = append(lines, l)
		off = next
	}
	w.use(path)
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return b.String(), nil
}

// Set replaces the content of path, which must be in the workspace. It is
// how drivers' formatting and fixes land.
func (w *Workspace) Set(path string, doc *text.Doc) error {
	t := w.Begin()
	if err := t.Set(path, doc); err != nil {
		return err
	}
	return t.Commit()
}

// Dirty reports whether the workspace differs from the persisted baseline.
func (w *Workspace) Dirty() bool {
	if len(w.files) != len(w.pers) {
		return true
	}
	for p, f := range w.files {
		d, ok := w.pers[p]
		if f.pers != p || !ok || !d.doc.Equal(f.doc) {
			return true
		}
	}
	return false
}

// Unwritten returns the paths whose content or location differs from the
// persisted baseline, including deleted ones, sorted.
func (w *Workspace) Unwritten() []string {
	set := map[string]bool{}
	owned := map[string]bool{}
	for p, f := range w.files {
		if f.pers != "" {
			owned[f.pers] = true
		}
		if f.pers != p {
			set[p] = true
			if f.pers != "" {
				set[f.pers] = true
			}
			continue
		}
		if !w.pers[p].doc.Equal(f.doc) {
			set[p] = true
		}
	}
	for p := range w.pers {
		if !owned[p] {
			set[p] = true
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (w *Workspace) String() string {
	return fmt.Sprintf("workspace(%s, %d files)", w.fs.Root(), len(w.files))
}
