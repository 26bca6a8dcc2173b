package broker

// This file defines what an editor endpoint needs from a [Session]: editor
// buffers that stand in for the disk ([Session.SetBuffer],
// [Session.CloseBuffer], [Session.SavedBuffer],
// [Session.DiscardKeepingBuffers]), plans whose effect is reported file by
// file ([Session.RunChanges]), and reads of the workspace and the disk.
//
// A buffer is the text an editor shows for a file. Unsaved buffer text is
// the session's view of that file: it goes into the workspace as an
// unwritten change, so plans read it and edit it, and format, lint and
// check see it, exactly as if a plan had changed the file.

import (
	"context"
	"errors"
	"io/fs"
	"slices"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/engine/workspace"
)

// Rel maps an absolute host path to the workspace path it names, refusing
// a path outside the root.
func (s *Session) Rel(abs string) (string, error) { return s.eng.FS().Rel(abs) }

// SetBuffer makes content, an editor buffer's text, the session's view of
// path. The file's byte-order mark follows the file (editors hide it): a
// BOM the buffer text lacks is kept when the file has one. A file the
// workspace does not hold is acquired first, unless the buffer equals the
// disk (then nothing needs to be held); a file that exists nowhere is added.
// A path the workspace has deleted or moved away is refused with a conflict:
// the buffer is the file's old self, which the editor has not dropped yet.
// While the buffer is open the workspace copy is pinned: acquisition does
// not read it again from disk, and it never leaves to make room.
func (s *Session) SetBuffer(path, content string) error {
	return s.call(func() error { return s.setBuffer(path, content) })
}

func (s *Session) setBuffer(path, content string) error {
	ws := s.eng.Workspace()
	// The buffer, not the disk, is the truth for path while it is open.
	ws.Pin(path)
	doc := text.FromString(content)
	if cur, ok := ws.Doc(path); ok {
		doc = bomLike(doc, cur)
		if cur.Equal(doc) {
			return nil
		}
		return ws.Set(path, doc)
	}
	if desc, pending := ws.Pending(path); pending {
		return fault.New(fault.Conflict, "%s is %s in this session's workspace, so its editor buffer is not taken as the file: apply the edit that removed it, or discard the session's changes", path, desc)
	}
	data, _, err := s.eng.FS().ReadFile(path)
	switch {
	case err == nil:
		if disk, perr := text.Parse(data); perr == nil {
			doc = bomLike(doc, disk)
			if disk.Equal(doc) {
				return nil
			}
		}
		if _, err := ws.Acquire([]string{path}); err != nil {
			return err
		}
		return ws.Set(path, doc)
	case errors.Is(err, fs.ErrNotExist):
		t := ws.Begin()
		if err := t.Add(path, doc); err != nil {
			return err
		}
		return t.Commit()
	default:
		return fault.Wrap(fault.IO, err, "reading %s", path)
	}
}

// bomLike gives doc the byte-order mark of like when doc has none.
func bomLike(doc, like *text.Doc) *text.Doc {
	if like.BOM() && !doc.BOM() {
		return text.FromString(text.BOM + doc.Content())
	}
	return doc
}

// CloseBuffer tells the session that the editor closed path's buffer, whose
// last text was content: saved or abandoned, the buffer no longer stands in
// for the file. When the workspace still holds exactly that text, the file
// goes back to what the disk holds (or leaves the workspace, when it exists
// only there). A change a plan made since the last sync is kept.
func (s *Session) CloseBuffer(path, content string) error {
	return s.call(func() error {
		ws := s.eng.Workspace()
		ws.Unpin(path)
		cur, ok := ws.Doc(path)
		if !ok || !cur.Equal(bomLike(text.FromString(content), cur)) {
			return nil
		}
		if desc, _ := ws.Pending(path); desc == "" || desc == "modified" || desc == "added" {
			// Back to the disk as it is now, as a discard of the
			// path does; a file only in the workspace leaves.
			_, _, err := ws.Discard([]string{path})
			return err
		}
		data, _, err := s.eng.FS().ReadFile(path)
		switch {
		case err == nil:
			disk, perr := text.Parse(data)
			if perr != nil {
				return fault.Wrap(fault.BadArgument, perr, "%s on disk cannot be read back, it is not a text file", path)
			}
			if cur.Equal(disk) {
				return nil
			}
			return ws.Set(path, disk)
		case errors.Is(err, fs.ErrNotExist):
			if desc, _ := ws.Pending(path); desc != "added" {
				return nil
			}
			t := ws.Begin()
			if err := t.Delete(path); err != nil {
				return err
			}
			return t.Commit()
		default:
			return fault.Wrap(fault.IO, err, "reading %s", path)
		}
	})
}

// SavedBuffer tells the session that the editor saved path. When the disk
// now holds the workspace's content of path, the workspace records it as
// persisted, so the file has no unwritten change left and a later write
// does not mistake the save for an outside change. It reports whether it
// did.
func (s *Session) SavedBuffer(path string) (bool, error) {
	var saved bool
	err := s.call(func() error {
		ws := s.eng.Workspace()
		cur, ok := ws.Doc(path)
		if !ok {
			return nil
		}
		data, mode, err := s.eng.FS().ReadFile(path)
		if err != nil {
			return fault.Wrap(fault.IO, err, "reading %s after the editor saved it", path)
		}
		if disk, perr := text.Parse(data); perr == nil && disk.Equal(cur) {
			saved = ws.Saved(path, mode)
		}
		return nil
	})
	return saved, err
}

// DiscardKeepingBuffers drops the workspace's unwritten changes, then puts
// the editor's buffers (path → text) back, since they still are what the
// editor shows. It returns the paths whose content the discard changed,
// sorted; a buffer that failed to go back is reported in the error.
func (s *Session) DiscardKeepingBuffers(buffers map[string]string) ([]string, error) {
	var out []string
	err := s.call(func() error {
		before := snapshot(s)
		if _, _, err := s.eng.Discard(nil); err != nil {
			return err
		}
		var errs []error
		for p, content := range buffers {
			if err := s.setBuffer(p, content); err != nil {
				errs = append(errs, err)
			}
		}
		out = changedSince(before, s)
		return errors.Join(errs...)
	})
	return out, err
}

// FileChange is one file a plan changed: its content after the plan and
// how it then differs from the disk.
type FileChange struct {
	// Path is the workspace path.
	Path string
	// After is the content after the plan; nil when the plan removed the
	// path (deleted it, or moved the file away).
	After *text.Doc
	// Pending describes how the path differs from the disk after the
	// plan: "modified", "added", "deleted", "renamed from x" or "renamed
	// to x"; "" when it does not differ.
	Pending string
}

// RunChanges runs a plan like [Session.Run] and also reports every file
// whose workspace content the plan changed, added or removed, sorted by
// path.
//
// keep (nil: always) then decides, before the session takes another call,
// whether the plan's effect stays. When it returns false and the plan ran
// no write step, the workspace goes back to what it was before the plan
// (files read again from disk keep what the disk holds), and RunChanges
// reports reverted, with out listing the changes it took back: a failed
// plan leaves nothing behind for a later plan to check or write. keep runs inside the session's call, so
// it may read the disk but must not call the session.
func (s *Session) RunChanges(ctx context.Context, p *engine.Plan, keep func(*engine.Result, []FileChange) bool) (res *engine.Result, out []FileChange, reverted bool) {
	err := s.call(func() error {
		ws := s.eng.Workspace()
		saved := ws.Save()
		before := snapshot(s)
		pendingBefore := map[string]bool{}
		for _, p := range ws.Unwritten() {
			pendingBefore[p] = true
		}
		res = s.eng.Run(ctx, p)
		out = fileChanges(s, before, pendingBefore)
		if keep != nil && !keep(res, out) && !ranWrite(p, res) {
			ws.Restore(saved)
			reverted = true
			out = stillDiffer(ws, out)
		}
		return nil
	})
	if err != nil {
		return failed(err), nil, false
	}
	return res, out, reverted
}

// fileChanges lists the files whose workspace content changed since
// before (the workspace's documents then; pendingBefore, its unwritten
// paths then), sorted by path.
func fileChanges(s *Session, before map[string]*text.Doc, pendingBefore map[string]bool) []FileChange {
	ws := s.eng.Workspace()
	paths := changedSince(before, s)
	// A file acquired and removed by this plan is in neither snapshot.
	for _, p := range ws.Unwritten() {
		_, was := before[p]
		_, is := ws.Doc(p)
		if !was && !is && !pendingBefore[p] {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var out []FileChange
	for _, path := range paths {
		fc := FileChange{Path: path}
		fc.Pending, _ = ws.Pending(path)
		d, ok := ws.Doc(path)
		if _, was := before[path]; !was && ok && fc.Pending == "" {
			continue // acquired by this plan and left as it is on disk
		}
		if ok {
			fc.After = d
		}
		out = append(out, fc)
	}
	return out
}

// stillDiffer keeps the changes a restore took back: those whose content
// now differs from what the plan left. A file read again from disk
// (someone else changed it) is not the plan's change and stays as read.
func stillDiffer(ws *workspace.Workspace, changes []FileChange) []FileChange {
	var out []FileChange
	for _, fc := range changes {
		d, ok := ws.Doc(fc.Path)
		if ok != (fc.After != nil) || (ok && !d.Equal(fc.After)) {
			out = append(out, fc)
		}
	}
	return out
}

// ranWrite reports whether res, a run of p, got to one of p's write steps.
func ranWrite(p *engine.Plan, res *engine.Result) bool {
	last := len(p.Ops) // the step that ended the plan (1-based)
	if res.Error != nil {
		last = res.Error.Step
	}
	for i := range min(last, len(p.Ops)) {
		if p.Ops[i].Step == engine.StepWrite {
			return true
		}
	}
	return false
}

// Doc returns the workspace's content of path.
func (s *Session) Doc(path string) (*text.Doc, bool) {
	var d *text.Doc
	var ok bool
	_ = s.call(func() error { d, ok = s.eng.Workspace().Doc(path); return nil })
	return d, ok
}

// DiskDoc reads path from the disk. It reports false, without an error,
// when the file does not exist.
func (s *Session) DiskDoc(path string) (*text.Doc, bool, error) {
	data, _, err := s.eng.FS().ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fault.Wrap(fault.IO, err, "reading %s", path)
	}
	d, err := text.Parse(data)
	if err != nil {
		return nil, false, fault.Wrap(fault.BadArgument, err, "%s is not a text file", path)
	}
	return d, true, nil
}
