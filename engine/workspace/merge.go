package workspace

// This file defines the merge of a write: a file the write modifies whose
// content on disk changed since the workspace read it is merged with that
// change when the two changes touch different lines of what the workspace
// read (engine/merge), instead of being refused as a conflict.

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/devbroker/devbroker/engine/merge"
	"github.com/devbroker/devbroker/engine/text"
)

// Merged is a file whose write took in a change made on disk since the
// workspace read it: what was written holds both changes.
type Merged struct {
	Path string
	// BaseRevision is the revision the workspace read (both changes
	// start from it), DiskRevision the one the write found on disk, and
	// Revision the one it wrote.
	BaseRevision, DiskRevision, Revision string
	// Ours and Theirs are the session's change and the change on disk:
	// where each lies in the base and in the written file.
	Ours, Theirs []merge.Part
}

// mergeable is a merge found for a write, before anything changes.
type mergeable struct {
	path   string
	theirs *text.Doc
	mode   fs.FileMode
	out    *text.Doc
	res    *merge.Result
}

// merges finds, for each file p modifies in place whose disk content
// changed since the workspace read it, the merge of the two changes. A
// file whose changes meet is left out with its clashes in clashes (its
// write is then refused as stale, naming them); so is one that left the
// disk, that is no longer text on disk, or whose merge is over the
// per-file limit (why says which). Nothing changes.
func (w *Workspace) merges(p *writePlan) (found []mergeable, why map[string]string, err error) {
	why = map[string]string{}
	for _, x := range p.writes {
		f := w.files[x]
		if f.pers != x {
			continue // new or moved: nothing on disk to merge with
		}
		base := w.pers[x].doc
		data, mode, rerr := w.fs.ReadFile(x)
		switch {
		case errors.Is(rerr, fs.ErrNotExist):
			continue // deleted on disk: the conflict check says so
		case rerr != nil:
			return nil, nil, ioError(x, rerr)
		case string(data) == base.String():
			continue
		}
		theirs, perr := text.Parse(data)
		if perr != nil {
			why[x] = fmt.Sprintf("not merged: the file on disk is no longer text (%v)", perr)
			continue
		}
		res, conf := merge.Lines(base.String(), f.doc.String(), theirs.String())
		if conf != nil {
			why[x] = "not merged: your change and the change on disk touch the same or adjacent lines of the content the workspace read: " + conf.Error()
			continue
		}
		if n := int64(len(res.Content)); n > w.limits.MaxFileBytes {
			why[x] = fmt.Sprintf("not merged: the merged file would be %d bytes, over the per-file limit of %d bytes (limits.max_file_bytes in .devbroker.toml)", n, w.limits.MaxFileBytes)
			continue
		}
		found = append(found, mergeable{path: x, theirs: theirs, mode: mode, out: text.FromString(res.Content), res: res})
	}
	return found, why, nil
}

// takeMerges puts each merge in the workspace: the file holds the merged
// content, and both baselines follow the disk to the content the merge
// took in (so the write's last check before each rename verifies that the
// disk still holds it, and changes report the session's part only).
func (w *Workspace) takeMerges(ms []mergeable) []Merged {
	out := make([]Merged, 0, len(ms))
	for _, m := range ms {
		f := w.files[m.path]
		nf := *f
		nf.doc = m.out
		w.bytes += int64(m.out.Size() - f.doc.Size())
		w.files[m.path] = &nf
		w.touched[m.path] = struct{}{}
		d := w.pers[m.path]
		base := d.doc
		out = append(out, Merged{
			Path: m.path, BaseRevision: d.doc.Revision(), DiskRevision: m.theirs.Revision(), Revision: m.out.Revision(),
			Ours: m.res.Ours, Theirs: m.res.Theirs,
		})
		d.doc, d.mode = m.theirs, m.mode
		w.pers[m.path] = d
		if a, ok := w.acq[m.path]; ok && f.acq == m.path && a.Equal(base) {
			w.acq[m.path] = m.theirs
		}
	}
	return out
}
