package workspace

import "github.com/devbroker/devbroker/engine/text"

// Revision returns the revision of path's current content.
func (w *Workspace) Revision(path string) (string, bool) {
	d, ok := w.Doc(path)
	if !ok {
		return "", false
	}
	return d.Revision(), true
}

func revisionOf(data []byte) string { return text.Revision(data) }
