package workspace

// This file defines how a workspace follows the disk: a file it holds with
// no unwritten change is read again when its content on disk changed; a
// file with unwritten changes keeps them and is reported [Stale]; and
// [Workspace.Discard] drops changes and takes what the disk holds now.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
)

// Disk states of a [Stale] file.
const (
	DiskChanged = "changed" // the disk holds other content
	DiskDeleted = "deleted" // the file is gone from disk
	DiskCreated = "created" // a file appeared where the workspace adds one
)

// Stale is a path whose unwritten workspace change was based on disk
// content that is no longer there: someone else changed, deleted or created
// the file since the workspace read it. A write of it is refused until the
// change is discarded (and made again, if it is still wanted).
type Stale struct {
	// Path is the path on disk.
	Path string
	// Disk says what happened on disk: changed, deleted or created.
	Disk string
	// BaseRevision is the revision the workspace read, which its change is
	// based on; "" when the workspace created the file.
	BaseRevision string
	// DiskRevision is the revision on disk now; "" when the file is gone.
	DiskRevision string
	// NotMerged says why a write that merges did not merge the change on
	// disk with the workspace's (the lines both changes touch); "" when
	// it did not try.
	NotMerged string
}

func (s Stale) String() string {
	switch s.Disk {
	case DiskDeleted:
		return fmt.Sprintf("%s was deleted on disk since the workspace read it (the workspace read %s)", s.Path, s.BaseRevision)
	case DiskCreated:
		return fmt.Sprintf("%s was created on disk (%s) where the workspace adds it", s.Path, s.DiskRevision)
	}
	msg := fmt.Sprintf("%s changed on disk since the workspace read it (disk now %s, the workspace read %s)", s.Path, s.DiskRevision, s.BaseRevision)
	if s.NotMerged != "" {
		msg += ", " + s.NotMerged
	}
	return msg
}

// StaleError is a write refused because files it would touch are stale.
type StaleError struct {
	Stale []Stale
	err   error
}

func (e *StaleError) Error() string { return e.err.Error() }
func (e *StaleError) Unwrap() error { return e.err }

// staleError builds the conflict error for stale paths. Its advice is the
// one that works: discard those paths (the workspace takes the disk's
// content), then make the change again.
func staleError(stale []Stale) *StaleError {
	return staleErrorLead(stale, "write refused, nothing was written")
}

// staleErrorLead is staleError with its first words, lead, given.
func staleErrorLead(stale []Stale, lead string) *StaleError {
	what := make([]string, len(stale))
	paths := make([]string, len(stale))
	for i, s := range stale {
		what[i] = s.String()
		paths[i] = fmt.Sprintf("%q", s.Path)
	}
	list := "[" + strings.Join(paths, ", ") + "]"
	err := fault.New(fault.Conflict, "%s: %d file(s) changed on disk since the workspace read them: %s. To take what the disk holds now, discard with paths %s: that drops your unwritten changes to those files and reads them again. To keep your change, make it again on the new content after that discard, then write", lead, len(stale), strings.Join(what, "; "), list)
	return &StaleError{Stale: stale, err: err}
}

// staleAt compares the disk at path with what the workspace read there,
// want (nil: the workspace knows no file there).
func (w *Workspace) staleAt(path string, want *text.Doc) (*Stale, error) {
	data, _, err := w.fs.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return staleBytes(path, want, nil, false), nil
	case err != nil:
		return nil, ioError(path, err)
	}
	return staleBytes(path, want, data, true), nil
}

// staleOf checks path, which has unwritten changes (held or not), against
// the disk: the disk path its change is based on.
func (w *Workspace) staleOf(path string) (*Stale, error) {
	f, held := w.files[path]
	switch {
	case !held:
		d, known := w.pers[path]
		if !known {
			return nil, nil
		}
		return w.staleAt(path, d.doc)
	case f.pers == "":
		return w.staleAt(path, nil)
	default:
		return w.staleAt(f.pers, w.pers[f.pers].doc)
	}
}

// clean reports whether the file held at path has no unwritten change.
func (w *Workspace) clean(path string, f *file) bool {
	return f.pers == path && w.pers[path].doc.Equal(f.doc)
}

// reread is the disk's current content of a held file with no unwritten
// change: doc nil when the disk holds what the workspace read; gone when
// the file is no longer on disk (or no longer a text file within the
// per-file limit: err says why).
type reread struct {
	path string
	doc  *text.Doc
	mode fs.FileMode
	gone bool
	err  error
}

// readBack reads path from disk and compares it with old, the content the
// workspace read there.
func (w *Workspace) readBack(path string, old *text.Doc) reread {
	r := reread{path: path}
	data, mode, err := w.fs.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.gone = true
		r.err = fault.Wrap(fault.NotFound, err, "%s does not exist under the root: it was deleted on disk since the workspace read it, and has left the workspace", path)
		return r
	case err != nil:
		r.gone, r.err = true, ioError(path, err)
		return r
	case old != nil && bytes.Equal(data, old.Bytes()):
		return r
	}
	if int64(len(data)) > w.limits.MaxFileBytes {
		r.gone = true
		r.err = fault.New(fault.Bounds, "%s: the file is now %d bytes on disk, over the per-file limit of %d bytes (limits.max_file_bytes in .devbroker.toml), and has left the workspace", path, len(data), w.limits.MaxFileBytes)
		return r
	}
	doc, err := text.Parse(data)
	if err != nil {
		r.gone = true
		r.err = fault.Wrap(fault.BadArgument, err, "%s is no longer a text file on disk and has left the workspace", path)
		return r
	}
	r.doc, r.mode = doc, mode
	return r
}

// drop takes path out of the workspace entirely: its content and both
// baselines. Only for a file with no unwritten change.
func (w *Workspace) drop(path string) {
	f, ok := w.files[path]
	if !ok {
		return
	}
	w.bytes -= int64(f.doc.Size())
	delete(w.files, path)
	delete(w.pers, path)
	if f.acq != "" {
		delete(w.acq, f.acq)
	}
	delete(w.touched, path)
	w.forget(path)
}

// Discard drops the unwritten changes of the paths that selectors match
// (paths or globs, against the workspace's files and the paths its
// unwritten changes touch; none: every path) and refreshes those files from
// disk: each is read again, so it holds what the disk holds now, and a file
// no longer on disk (or no longer a text file) leaves the workspace. A
// selected path with no unwritten change is refreshed too, so Discard is
// also how a session takes up an outside change to a file it holds. A
// rename is dropped as a whole: selecting either of its paths selects both.
//
// It reports the paths whose unwritten changes it dropped and those that
// left the workspace. A selector that matches nothing is an error, and then
// nothing is discarded.
func (w *Workspace) Discard(selectors []string) (dropped, left []string, err error) {
	sel, err := w.discardSet(selectors)
	if err != nil {
		return nil, nil, err
	}
	unwritten := w.Unwritten()
	for _, p := range unwritten {
		if sel[p] {
			dropped = append(dropped, p)
		}
	}
	paths := make([]string, 0, len(sel))
	for p := range sel {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if f, ok := w.files[p]; ok {
			w.bytes -= int64(f.doc.Size())
			delete(w.files, p)
			w.forget(p)
		}
		w.touched[p] = struct{}{}
	}
	for _, p := range paths {
		d, known := w.pers[p]
		if !known {
			continue
		}
		r := w.readBack(p, d.doc)
		if r.gone {
			delete(w.pers, p)
			if d.acq == p {
				delete(w.acq, p)
			}
			left = append(left, p)
			continue
		}
		if r.doc != nil {
			d.doc, d.mode = r.doc, r.mode
			w.pers[p] = d
			if d.acq == p {
				w.acq[p] = r.doc
			}
		}
		w.files[p] = &file{doc: d.doc, mode: d.mode, acq: d.acq, pers: p}
		w.bytes += int64(d.doc.Size())
		w.use(p)
	}
	// Content read back may be larger than what was dropped.
	w.evictFor(0, 0, nil)
	return dropped, left, nil
}

// discardSet is the set of paths a discard of selectors covers, closed
// over renames.
func (w *Workspace) discardSet(selectors []string) (map[string]bool, error) {
	for _, s := range selectors {
		if !doublestar.ValidatePattern(s) {
			return nil, fault.New(fault.BadArgument, "discard: bad path pattern %q", s)
		}
	}
	all := make([]string, 0, len(w.files)+len(w.pers))
	for p := range w.files {
		all = append(all, p)
	}
	for p := range w.pers {
		if _, held := w.files[p]; !held {
			all = append(all, p)
		}
	}
	sel := map[string]bool{}
	var unmatched []string
	for _, s := range selectors {
		n := 0
		for _, p := range all {
			if ok, _ := doublestar.Match(s, p); ok || s == p {
				sel[p] = true
				n++
			}
		}
		if n == 0 {
			unmatched = append(unmatched, s)
		}
	}
	if len(unmatched) > 0 {
		return nil, fault.New(fault.BadArgument, "discard: paths %q match no file of the workspace and no unwritten change; nothing was discarded", unmatched)
	}
	if len(selectors) == 0 {
		for _, p := range all {
			sel[p] = true
		}
	}
	w.withRenames(sel)
	return sel, nil
}

// withRenames adds to sel the other path of every rename one of its paths
// belongs to, until nothing changes: a rename's source and destination go
// together.
func (w *Workspace) withRenames(sel map[string]bool) {
	owner := make(map[string]string, len(w.files)) // persisted path → current path
	for p, f := range w.files {
		if f.pers != "" && f.pers != p {
			owner[f.pers] = p
		}
	}
	queue := make([]string, 0, len(sel))
	for p := range sel {
		queue = append(queue, p)
	}
	for len(queue) > 0 {
		p := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		var next []string
		if f, ok := w.files[p]; ok && f.pers != "" && f.pers != p {
			next = append(next, f.pers)
		}
		if q, ok := owner[p]; ok {
			next = append(next, q)
		}
		for _, q := range next {
			if !sel[q] {
				sel[q] = true
				queue = append(queue, q)
			}
		}
	}
}

// Left is a file that left the workspace because of what the disk holds
// now.
type Left struct {
	Path string
	// Why says what happened on disk, naming the path.
	Why string
}

// FollowDisk reads again every held file with no unwritten change (and not
// pinned) whose content on disk changed, as acquiring it would; a file gone
// from disk, or no longer a text file within the limits, leaves the
// workspace. It returns the files that left, sorted by path. The steps that
// hand the workspace to drivers call it, so that an answer never describes
// an old copy of a file the session did not change.
//
// It makes no room by dropping other files: the files the current plan
// acquired must all reach the drivers, so a workspace that grew over its
// byte limit through this is brought back under it by the next acquisition.
func (w *Workspace) FollowDisk() (left []Left) {
	w.fresh = nil
	return w.follow(nil)
}

// FollowDiskAfterAcquire is [Workspace.FollowDisk] for the first step of a
// plan that hands files to drivers: the files the plan's acquisition named
// were read from disk (or checked against it) by that acquisition, moments
// before, and are not read again. Any later call reads them like the
// others: after a FollowDisk, or when no acquisition ran since the last
// call, it is FollowDisk.
func (w *Workspace) FollowDiskAfterAcquire() (left []Left) {
	fresh := w.fresh
	w.fresh = nil
	return w.follow(fresh)
}

// follow is FollowDisk passing over the files in skip.
func (w *Workspace) follow(skip map[string]bool) (left []Left) {
	var rereads []reread
	for p, f := range w.files {
		if skip[p] || w.isPinned(p) || !w.clean(p, f) {
			continue
		}
		if r := w.readBack(p, f.doc); r.gone || r.doc != nil {
			rereads = append(rereads, r)
		}
	}
	sort.Slice(rereads, func(i, j int) bool { return rereads[i].path < rereads[j].path })
	for _, r := range rereads {
		if r.gone {
			w.drop(r.path)
			left = append(left, Left{Path: r.path, Why: r.err.Error()})
			continue
		}
		w.Refresh(r.path, r.doc, r.mode)
	}
	return left
}
