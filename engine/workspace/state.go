package workspace

// This file defines saving and restoring a workspace's state, so that a
// caller can take back everything a run of steps did to the workspace
// (the editor endpoint does, for a plan that failed).

import (
	"maps"

	"github.com/devbroker/devbroker/engine/text"
)

// State is a workspace's files, baselines and unwritten changes as they
// were when [Workspace.Save] took it. Documents are immutable values, so a
// State costs a copy of the maps, not of the text.
type State struct {
	files   map[string]*file
	acq     map[string]*text.Doc
	pers    map[string]disk
	bytes   int64
	touched map[string]struct{}
	used    map[string]uint64
}

// Save returns the workspace's current state, for [Workspace.Restore].
func (w *Workspace) Save() *State {
	return &State{
		files: maps.Clone(w.files), acq: maps.Clone(w.acq), pers: maps.Clone(w.pers),
		bytes: w.bytes, touched: maps.Clone(w.touched), used: maps.Clone(w.used),
	}
}

// Restore puts the workspace back to s: the files it held, their content,
// both baselines and so its unwritten changes are as they were when s was
// saved. Files acquired since leave, and files that left to make room come
// back. Pinned files stay pinned as they are now.
//
// Restore takes back the steps' changes, not the disk: a file with no
// unwritten change, then and now, that was read again since s because the
// disk changed ([Workspace.FollowDisk], an acquisition) keeps what the disk
// holds, so the workspace does not go back to an old copy.
//
// Restore is for taking back changes that were never written: a write
// since s moved the persisted baseline forward, and restoring an older one
// would make the workspace mistake its own write for an outside change.
func (w *Workspace) Restore(s *State) {
	touched := maps.Clone(s.touched)
	maps.Copy(touched, w.touched) // Changes must look at the paths of both
	files, acq, pers := w.files, w.acq, w.pers
	w.files, w.acq, w.pers = maps.Clone(s.files), maps.Clone(s.acq), maps.Clone(s.pers)
	w.bytes, w.touched, w.used = s.bytes, touched, maps.Clone(s.used)
	for p, f := range w.files {
		nf, held := files[p]
		if !held || !w.clean(p, f) || nf.pers != p || !pers[p].doc.Equal(nf.doc) || nf.doc.Equal(f.doc) {
			continue // not clean now, or not read again
		}
		w.bytes += int64(nf.doc.Size() - f.doc.Size())
		w.files[p], w.pers[p] = nf, pers[p]
		if d, ok := acq[p]; ok && f.acq == p {
			w.acq[p] = d
		}
	}
}
