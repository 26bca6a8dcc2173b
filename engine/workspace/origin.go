package workspace

import "github.com/devbroker/devbroker/engine/text"

// Origin returns the path on disk that path's current content descends
// from: path itself, the old path of a file the workspace moved and has
// not written yet, or "" for a file the workspace created and has not
// written yet. ok is false when the workspace does not hold path.
func (w *Workspace) Origin(path string) (origin string, ok bool) {
	f, ok := w.files[path]
	if !ok {
		return "", false
	}
	return f.pers, true
}

// OnDisk returns what path holds on disk as far as the workspace knows
// (its persisted baseline: what it read, or wrote last); ok is false when
// it knows of no file there.
func (w *Workspace) OnDisk(path string) (*text.Doc, bool) {
	d, ok := w.pers[path]
	if !ok {
		return nil, false
	}
	return d.doc, true
}
