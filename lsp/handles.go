package lsp

// This file defines the handles a scan keeps on the inputs it found, so
// that the next scan takes each input's stamp through its handle (fstat)
// rather than by its path (lstat): a lookup by path costs several times
// a stat of what is already open (2-3x a whole scan of
// honnef.co/go/tools's 2,226 files and directories), and a scan stats
// every input before each request.
//
// Why a stamp through a handle is the stamp by path. A tree's top is
// opened by path at every scan; every other handle is opened in its
// directory's handle (openat, a file's without following a final
// symlink, as lstat), so it reaches what its name in that directory's
// inode reached when it was opened. Binding an entry (create, remove,
// rename, link) changes its directory's modification and change times,
// so a directory whose stamp (inode and device included) is the one the
// last scan found settled (not racy) has the same entries as when that
// scan took the stamp: the handles opened in its inode since reach what
// its names reach now. A directory whose stamp changed or was racy, or
// whose handle is on another inode than the one its files' were opened
// in, is listed again or has its entries' handles dropped and opened
// again; a subdirectory's handle is then not trusted either. This rests
// on the directory stamps alone, as the listings kept do: not on a
// renamed file's change time or link count. Mounts change no
// directory's stamp: the mount table (/proc/self/mountinfo) is read at
// the start of every scan and compared with the last scan's (about 35 us
// for 2 KB), and a change drops every handle. A handle is used only to
// find an input unchanged: when it shows another stamp than the last
// scan's, or a file with no name left (a link count of 0), the stamp is
// taken by path and the handle opened again.
//
// Handles are kept only under the root, not on a mount point below it
// or under one (so that none keeps a file system busy: a handle pins its
// mount), not on another device than their directory's nor below a
// directory that keeps none, and only up to
// a share of the process's limit of open files (maxHandles); elsewhere,
// past it, or where handles cannot be kept (another OS, no /proc),
// inputs are stat'ed by path. A handle keeps its file's inode: a file
// removed keeps its space until the next scan, or the server's idle
// stop, closes it.

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// handles are a tracker's handles, by directory. The map is guarded by
// mu; a directory's handles are used by the one walk goroutine that
// scans it, and dropped by the scan after the walk.
type handles struct {
	mu     sync.Mutex
	dirs   map[string]*dirHandles
	mounts mountWatch
	// points are the mount points below the root: no handle is kept on
	// one or under it, so that none keeps it busy.
	points map[string]bool
	scan   uint64 // counts the scans, so that those a scan did not reach are dropped
	off    bool   // closed for good: none is kept again
}

// dirHandles are one directory's handle and its files'.
type dirHandles struct {
	seen  uint64 // the latest scan that reached the directory
	self  handle
	dev   uint64 // the device and inode self is on
	ino   uint64
	files map[string]handle
}

// openHandles counts the handles of every tracker of the process, up to
// maxHandles.
var openHandles atomic.Int64

// take counts one more handle, false when none is left.
func takeHandle() bool {
	if openHandles.Add(1) > maxHandles {
		openHandles.Add(-1)
		return false
	}
	return true
}

// begin starts a scan: it reports whether the handles kept may be used
// (false: none is kept, or the mount table changed, and every handle is
// dropped). nil handles never are.
func (h *handles) begin(root string) bool {
	if h == nil {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.scan++
	if h.off {
		return false
	}
	if h.mounts.changed() {
		h.dropAll()
		points, err := h.mounts.under(root)
		if err != nil {
			points = nil
			h.off = true // the mount points cannot be known: no handle
		}
		h.points = points
		return false
	}
	return true
}

// dir returns the handles of dir, noting that this scan reached it; nil
// when it keeps none: for nil handles, closed for good, not keep (see
// reach), or at a mount point below the root.
func (h *handles) dir(dir string, keep bool) *dirHandles {
	if h == nil || !keep {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.off || h.points[dir] {
		return nil
	}
	d := h.dirs[dir]
	if d == nil {
		d = &dirHandles{self: noHandle}
		if h.dirs == nil {
			h.dirs = map[string]*dirHandles{}
		}
		h.dirs[dir] = d
	}
	d.seen = h.scan
	return d
}

// sweep drops the handles of the directories this scan did not reach.
func (h *handles) sweep() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for dir, d := range h.dirs {
		if d.seen != h.scan {
			d.dropSelf()
			d.dropFiles()
			delete(h.dirs, dir)
		}
	}
}

// close drops every handle; when final, none is kept again.
func (h *handles) close(final bool) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dropAll()
	if final && !h.off {
		h.off = true
		h.mounts.close()
	}
}

func (h *handles) dropAll() {
	for dir, d := range h.dirs {
		d.dropSelf()
		d.dropFiles()
		delete(h.dirs, dir)
	}
}

func (d *dirHandles) dropSelf() {
	if d.self != noHandle {
		d.self.close()
		openHandles.Add(-1)
		d.self = noHandle
	}
}

// dropFiles drops the handles of the directory's files: its entries may
// have been bound to other files.
func (d *dirHandles) dropFiles() {
	for name, f := range d.files {
		if f != noHandle {
			f.close()
			openHandles.Add(-1)
		}
		delete(d.files, name)
	}
}

// stampOf returns the directory's stamp: through its handle when
// up.fresh (the handle reaches what the path does) and the handle shows
// prior, the stamp the last scan found, else by its path, opening a
// handle for the next scans when it can (in the parent's handle, up.at,
// when it has one). same says the directory's handle is on the inode its
// files' handles were opened in: they reach what their paths do while
// the directory's stamp stays the settled one the last scan found.
func (d *dirHandles) stampOf(dir string, up reach, prior *stamp) (st stamp, same bool, err error) {
	if d == nil {
		st, err = statStamp(dir, true)
		return st, false, err
	}
	if up.fresh && d.self != noHandle && prior != nil {
		if st, linked, err := d.self.stat(); err == nil && linked && st == *prior {
			return st, true, nil
		}
	}
	had, dev, ino := d.self != noHandle, d.dev, d.ino
	d.dropSelf()
	st, hd, err := openStamp(up.at, filepath.Base(dir), dir, true, up.dev)
	if hd != noHandle {
		d.self, d.dev, d.ino = hd, st.dev, st.ino
	}
	if same = had && hd != noHandle && st.dev == dev && st.ino == ino; !same {
		d.dropFiles() // opened in another inode, or with none to open them in
	}
	return st, same, err
}

// fileStamp returns the stamp of the directory's file name (at p), not
// following a symlink: through its handle when fresh and the handle shows
// prior, the stamp the last scan found, else by its path, opening a
// handle in the directory's for the next scans when it can. The caller
// drops the files' handles first when they are not fresh.
func (d *dirHandles) fileStamp(name, p string, fresh bool, prior *stamp) (stamp, error) {
	if d == nil || d.self == noHandle {
		return statStamp(p, false)
	}
	if f, ok := d.files[name]; ok && fresh && f != noHandle && prior != nil {
		if st, linked, err := f.stat(); err == nil && linked && st == *prior {
			return st, nil
		}
	}
	if f, ok := d.files[name]; ok && f != noHandle {
		f.close()
		openHandles.Add(-1)
	}
	st, hd, err := openStamp(d.self, name, p, false, d.dev)
	if d.files == nil {
		d.files = map[string]handle{}
	}
	d.files[name] = hd
	return st, err
}

// mountPointsUnder returns the mount points strictly below root that a
// mount table in the form of /proc/self/mountinfo names (its fifth field,
// with spaces, tabs, newlines and backslashes escaped in octal).
func mountPointsUnder(table, root string) map[string]bool {
	out := map[string]bool{}
	prefix := strings.TrimSuffix(root, "/") + "/"
	for line := range strings.SplitSeq(table, "\n") {
		fields := strings.Fields(line)
		if len(fields) < 5 {
			continue
		}
		if p := unescapeMount(fields[4]); strings.HasPrefix(p, prefix) {
			out[filepath.Clean(p)] = true
		}
	}
	return out
}

// unescapeMount undoes the kernel's octal escapes (\040) of a mount point.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
