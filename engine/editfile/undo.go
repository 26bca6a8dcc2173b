package editfile

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
)

// undoEdit reverts this session's last mutation of a file, unless the file
// changed since.
func (s *Session) undoEdit(p *Params) (*Result, error) {
	rel, abs, err := s.resolve(p.FilePath)
	if err != nil {
		return nil, err
	}
	if err := s.checkWorkspace(&file{rel: rel, abs: abs}); err != nil {
		return nil, err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	stack, dropped := s.undo[rel], s.dropped[rel]
	s.mu.Unlock()
	if len(stack) == 0 && dropped > 0 {
		return nil, fault.New(fault.NotFound, "nothing more to undo for %s: a session keeps the last %d edits of a file, and the %d before them were not kept, so they cannot be undone; to go back further, view the file and edit it (or restore it with git)", abs, UndoDepth, dropped)
	}
	if len(stack) == 0 {
		return nil, fault.New(fault.NotFound, "nothing to undo for %s: this session has not edited it (or has undone every edit)", abs)
	}
	top := stack[len(stack)-1]
	cur, err := s.readFile(rel, abs)
	curRev := ""
	switch {
	case err == nil:
		curRev = s.revision(rel, cur)
	case errors.Is(err, fs.ErrNotExist):
		curRev = "(deleted)"
	case fault.KindOf(err) == fault.Bounds:
		return nil, err
	default:
		return nil, fault.Wrap(fault.IO, err, "%s", abs)
	}
	changed := func(curRev string) error {
		return fault.New(fault.Conflict, "cannot undo: %s changed since your last edit of it (the edit left %s, it is now %s); undoing would lose that change. View the file and edit it instead", abs, top.after, curRev)
	}
	if curRev != top.after {
		return nil, changed(curRev)
	}
	if err := s.checkWritable(rel, p.Force); err != nil {
		return nil, err
	}
	// The disk must still hold what the edit left: checked again right
	// before the rename that replaces the file, as for an edit.
	unchanged := func(cur []byte, exists bool) error {
		if !exists {
			return changed("(deleted)")
		}
		if r := text.Revision(cur); r != top.after {
			return changed(r)
		}
		return nil
	}
	if top.before == nil {
		err := s.fs.RemoveIf(rel, func() error {
			cur, err := s.readFile(rel, abs)
			if fault.KindOf(err) == fault.Bounds {
				return err
			}
			return unchanged(cur, err == nil)
		})
		if k := fault.KindOf(err); k == fault.Conflict || k == fault.Bounds {
			return nil, err
		}
		if err != nil {
			return nil, fault.Wrap(fault.IO, err, "undo %s", abs)
		}
	} else if err := s.fs.WriteFileIf(rel, top.before, unchanged); err != nil {
		if fault.KindOf(err) == fault.Conflict {
			return nil, err
		}
		return nil, fault.Wrap(fault.IO, err, "undo %s", abs)
	}
	var doc *text.Doc
	rev := ""
	if top.before != nil {
		// top.before was loaded, so it parses.
		doc, rev, _ = s.parse(rel, top.before)
	}
	s.mu.Lock()
	s.undo[rel] = stack[:len(stack)-1]
	if top.before != nil {
		s.seen[rel] = rev
	} else {
		delete(s.seen, rel)
	}
	s.mu.Unlock()
	s.refresh(rel, top.before, doc)
	if top.before == nil {
		return &Result{Path: abs, Text: fmt.Sprintf("Undid the creation of %s: the file was removed.\n", abs), Changed: true}, nil
	}
	b := bodyOf(doc)
	n := lineCount(b.s)
	after := s.changedSince(rel, top.before)
	msg := fmt.Sprintf("Undid the last edit of %s (%d lines now).\nrevision: %s\n", abs, n, rev) + changedAfterNote(abs, after)
	return &Result{Path: abs, Text: msg, Revision: rev, Changed: true, ChangedAfterWrite: after}, nil
}
