package workspace

// This file defines how files leave a workspace to make room: when an
// acquisition or a change needs room over the limits, files with no
// unwritten change leave, least recently used first. A file with unwritten
// changes never leaves this way, nor does a pinned one.

import (
	"slices"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
)

// use records that path was used now (acquired, read, changed or selected).
// It is O(1).
func (w *Workspace) use(path string) {
	w.clock++
	w.used[path] = w.clock
}

// Use records that paths were used now, so that they are the last to leave
// when the workspace needs room. Paths the workspace does not hold are
// ignored.
func (w *Workspace) Use(paths ...string) {
	for _, p := range paths {
		if _, ok := w.files[p]; ok {
			w.use(p)
		}
	}
}

// forget drops path's use record.
func (w *Workspace) forget(path string) { delete(w.used, path) }

// Pin keeps path's workspace copy as it is: acquisition does not read it
// again when the disk changes, and it never leaves to make room. The
// editor endpoint pins the files whose buffers are open, because the
// editor's buffer, not the disk, is the truth for them.
func (w *Workspace) Pin(path string) { w.pinned[path] = struct{}{} }

// Unpin undoes [Workspace.Pin].
func (w *Workspace) Unpin(path string) { delete(w.pinned, path) }

func (w *Workspace) isPinned(path string) bool {
	_, ok := w.pinned[path]
	return ok
}

// evictable lists the files that may leave to make room: held, with no
// unwritten change, not pinned and not in keep; least recently used first.
// It is O(n log n), and only runs when room is needed.
func (w *Workspace) evictable(keep func(string) bool) []string {
	var out []string
	for p, f := range w.files {
		if w.clean(p, f) && !w.isPinned(p) && (keep == nil || !keep(p)) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		ua, ub := w.used[a], w.used[b]
		switch {
		case ua < ub:
			return -1
		case ua > ub:
			return 1
		}
		return strings.Compare(a, b)
	})
	return out
}

// room reports how many files and bytes could leave to make room, not
// counting the files in keep.
func (w *Workspace) room(keep func(string) bool) (files int, bytes int64) {
	for _, p := range w.evictable(keep) {
		files++
		bytes += int64(w.files[p].doc.Size())
	}
	return files, bytes
}

// evictFor makes the workspace fit its limits with files more files and
// bytes more bytes still to come, by dropping evictable files (least
// recently used first; never those in keep). It returns the paths that
// left. It stops when there is nothing left to drop; callers check first
// that there is room enough.
func (w *Workspace) evictFor(files int, bytes int64, keep func(string) bool) []string {
	over := func() bool {
		return len(w.files)+files > w.limits.MaxFiles || w.bytes+bytes > w.limits.MaxTotalBytes
	}
	if !over() {
		return nil
	}
	var left []string
	for _, p := range w.evictable(keep) {
		if !over() {
			break
		}
		w.drop(p)
		left = append(left, p)
	}
	return left
}

// mustKeep says which files a limit error counts: the files that cannot
// leave to make room.
const mustKeep = "counting only the files that cannot leave to make room (those with unwritten changes and those this call needs)"

// releaseAdvice says how to make room.
const releaseAdvice = "files without unwritten changes leave by themselves when room is needed; to release the others write their changes (write) or drop them (discard)"

// tooMany is the error for a workspace that would hold n files, over the
// limit, by taking path.
func (l Limits) tooMany(path string, n int) error {
	return fault.New(fault.Bounds, "%s: the workspace would hold %d files, over its limit of %d files (limits.max_files in .devbroker.toml), %s; %s, acquire fewer files (narrow the globs), or raise that limit (a project's .devbroker.toml applies once you trust the root: devbroker trust DIR)", path, n, l.MaxFiles, mustKeep, releaseAdvice)
}
