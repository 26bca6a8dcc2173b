package workspace

import "github.com/devbroker/devbroker/engine/text"

// Base is the content a held file's unwritten change was made from: what
// the disk held when the workspace read it (for a moved file, at its old
// path). base is nil for a file the workspace added; ok is false for a
// file that has no unwritten change, or that the workspace does not hold.
func (w *Workspace) Base(path string) (base *text.Doc, ok bool) {
	f, held := w.files[path]
	switch {
	case !held:
		return nil, false
	case f.pers == "":
		return nil, true
	case w.clean(path, f):
		return nil, false
	}
	return w.pers[f.pers].doc, true
}
