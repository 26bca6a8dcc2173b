package workspace

import (
	"sort"

	"github.com/aymanbagabas/go-udiff/lcs"

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
func LineCounts(before, after *text.Doc) (added, removed int) {
	if a, r, ok := diffCounts(before.Content(), after.Content(), before.Len(), after.Len()); ok {
		return a, r
	}
	return lcsCounts(before, after)
}

// lcsCounts is LineCounts over the split lines, by go-udiff's line diff:
// for changes too many for diffCounts.
func lcsCounts(before, after *text.Doc) (added, removed int) {
	a, b := before.Lines(), after.Lines()
	// Strip the common prefix and suffix first: edits are usually small
	// and files can be large.
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(b) == 0 {
		return len(b), len(a)
	}
	// Compare whole lines, terminator included. When every remaining line
	// has the same terminator (the usual case) the content alone decides,
	// and no line needs to be copied.
	eol := a[0].EOL
	uniform := true
	for _, ls := range [][]text.Line{a, b} {
		for _, l := range ls {
			if l.EOL != eol {
				uniform = false
				break
			}
		}
	}
	key := func(l text.Line) string {
		if uniform {
			return l.Text
		}
		return l.Text + l.EOL
	}
	as, bs := make([]string, len(a)), make([]string, len(b))
	for i, l := range a {
		as[i] = key(l)
	}
	for i, l := range b {
		bs[i] = key(l)
	}
	for _, d := range lcs.DiffLines(as, bs) {
		removed += d.End - d.Start
		added += d.ReplEnd - d.ReplStart
	}
	return added, removed
}
