package workspace

import (
	"sort"

	"github.com/devbroker/devbroker/engine/text"
)

// ChangeKind says how a file differs from the acquisition baseline.
type ChangeKind string

// Change kinds.
const (
	Modified ChangeKind = "modified"
	Added    ChangeKind = "added"
	Deleted  ChangeKind = "deleted"
	Renamed  ChangeKind = "renamed"
)

// Change is one file's difference from the acquisition baseline.
type Change struct {
	Path    string
	Kind    ChangeKind
	From    string // the old path of a renamed file
	Added   int    // lines added
	Removed int    // lines removed
}

// Changes lists every difference between the workspace and its acquisition
// baseline, sorted by path. A renamed file whose content also changed is one
// "renamed" change with its line counts. A file deleted and created again at
// the same path is "modified".
func (w *Workspace) Changes() []Change {
	// Only touched paths can differ: an untouched file is as acquired.
	// Every entry that moved was written by a commit, so the owners of
	// touched baseline paths are themselves at touched paths.
	var out []Change
	owned := make(map[string]bool, len(w.touched))
	for p := range w.touched {
		if f, ok := w.files[p]; ok && f.acq != "" {
			owned[f.acq] = true
		}
	}
	for p := range w.touched {
		f, ok := w.files[p]
		if !ok {
			if d, was := w.acq[p]; was && !owned[p] {
				out = append(out, Change{Path: p, Kind: Deleted, Removed: d.Len()})
			}
			continue
		}
		switch {
		case f.acq == "" && (owned[p] || w.acq[p] == nil):
			out = append(out, Change{Path: p, Kind: Added, Added: f.doc.Len()})
		case f.acq == "" || f.acq == p:
			// Modified in place, or deleted and created again.
			base := w.acq[p]
			if base.Equal(f.doc) {
				continue
			}
			a, r := LineCounts(base, f.doc)
			out = append(out, Change{Path: p, Kind: Modified, Added: a, Removed: r})
		default:
			a, r := LineCounts(w.acq[f.acq], f.doc)
			out = append(out, Change{Path: p, Kind: Renamed, From: f.acq, Added: a, Removed: r})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// LineCounts returns how many lines were added and removed between two
// versions of a file. A line whose terminator changed counts as both.
// The counts are exact up to maxFastD changed lines (linediff.go); beyond,
// every line between the equal lines at the start and at the end counts
// as removed and added.
func LineCounts(before, after *text.Doc) (added, removed int) {
	added, removed, _ = lineCounts(before.Content(), after.Content())
	return added, removed
}
