package workspace

import (
	"io/fs"

	"github.com/devbroker/devbroker/engine/text"
)

// Pending reports whether path has changes in the workspace that are not
// on disk, and describes them ("modified", "deleted", "added", "renamed to
// x", "renamed from x"). A path the workspace does not know has none.
func (w *Workspace) Pending(path string) (string, bool) {
	if f, ok := w.files[path]; ok {
		switch {
		case f.pers == "":
			return "added", true
		case f.pers != path:
			return "renamed from " + f.pers, true
		case !w.pers[path].doc.Equal(f.doc):
			return "modified", true
		}
		return "", false
	}
	if _, ok := w.pers[path]; ok {
		for p, f := range w.files {
			if f.pers == path {
				return "renamed to " + p, true
			}
		}
		return "deleted", true
	}
	return "", false
}

// Refresh records that path now holds doc on disk, written by someone who
// knew the workspace had no pending change to it (edit_file). A workspace
// copy of path is updated, and so are both baselines, so that the change is
// neither reported as a workspace change nor seen as a conflict. A path the
// workspace does not hold, or holds with pending changes, is left alone.
func (w *Workspace) Refresh(path string, doc *text.Doc, mode fs.FileMode) {
	f, ok := w.files[path]
	if !ok {
		return
	}
	if _, pending := w.Pending(path); pending {
		return
	}
	nf := *f
	nf.doc = doc
	nf.mode = mode
	w.bytes += int64(doc.Size() - f.doc.Size())
	w.files[path] = &nf
	w.touched[path] = struct{}{}
	// The file on disk still descends from the same acquired file, which
	// Discard restores.
	d := w.pers[path]
	d.doc, d.mode = doc, mode
	w.pers[path] = d
	if f.acq == path {
		w.acq[path] = doc
	}
}
