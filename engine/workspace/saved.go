package workspace

// This file defines [Workspace.Saved]: the disk caught up with the
// workspace because someone else (an editor saving the buffer the workspace
// mirrors) wrote the workspace's content there.

import "io/fs"

// Saved records that the disk now holds path's current workspace content,
// written there by someone else: an editor that saved the buffer whose
// text the workspace holds. The persisted baseline of path moves to that
// content, so path has no unwritten change left and a later write does not
// mistake the save for an outside change. The acquisition baseline stays,
// so the change is still reported by [Workspace.Changes].
//
// The caller must have checked that the disk holds exactly the current
// content. Saved changes nothing and reports false when path is not held,
// or is held as a rename whose source is still the persisted path, or when
// another file was renamed away from path (the disk path still belongs to
// that rename until it is written).
func (w *Workspace) Saved(path string, mode fs.FileMode) bool {
	f, ok := w.files[path]
	if !ok || (f.pers != "" && f.pers != path) {
		return false
	}
	for p, o := range w.files {
		if p != path && o.pers == path {
			return false
		}
	}
	acq := f.acq
	if old, had := w.pers[path]; had {
		acq = old.acq
	}
	nf := *f
	nf.pers = path
	nf.mode = mode
	w.files[path] = &nf
	w.pers[path] = disk{doc: f.doc, mode: mode, acq: acq}
	return true
}
