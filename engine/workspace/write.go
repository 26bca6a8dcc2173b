package workspace

// This file defines [Workspace.Write]: it persists the workspace in the
// order of docs/semantics.md — renames (dependency order, lexical for ties, swaps
// through a temporary), then deletions, then creates and modifications —
// after checking that the disk still holds what the workspace read.

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
)

// writePlan is the set of disk operations one write performs.
type writePlan struct {
	renames []rename
	deletes []string
	writes  []string // creates and modifications, by current path
}

// Write persists the differences between the workspace and the persisted
// baseline, or, with selectors, those of the files they match (by current,
// old or deleted path; literal paths or globs). Operations that a selected
// one depends on (vacating its destination) are included. A selector that
// matches neither a workspace file nor a changed path is an error; one that
// matches only unchanged files selects nothing.
//
// It returns the paths written (created, modified, rename destinations;
// never removals or rename sources), each once, in the order written.
// Before the first disk operation every path it will touch must hold on
// disk what the persisted baseline says (or be absent for a create);
// otherwise nothing is written. Each operation checks its paths again
// immediately before it happens (for a file's write, between its
// temporary's sync and the rename over it), so that a change made on disk
// after the first check is refused as a conflict, not overwritten. The
// creates and modifications go together ([rootfs.FS.WriteFiles]): all
// their temporaries are written and synced before the first replaces its
// file, so a failure while writing them replaces none. A
// failure after the first operation is a *[WriteError] carrying what was
// written; the persisted baseline has advanced past every completed
// operation, so a later Write issues only the rest.
//
// Write does not serialize itself with other writers of the root: a
// caller that shares the root with others holds a lock over the call (the
// engine's write lock).
func (w *Workspace) Write(ctx context.Context, selectors []string) ([]string, error) {
	return w.WriteWith(ctx, selectors, WriteOptions{})
}

// WriteWith is [Workspace.Write] with options. Unless opt.Force, a file
// without write permission for its owner is not overwritten, deleted or
// moved: the write is refused before any disk operation.
func (w *Workspace) WriteWith(ctx context.Context, selectors []string, opt WriteOptions) ([]string, error) {
	written, _, err := w.WriteMerging(ctx, selectors, opt)
	return written, err
}

// WriteMerging is [Workspace.WriteWith] that also returns the files whose
// change on disk it merged (with opt.Merge): a file it modifies that
// changed on disk since the workspace read it is merged with that change
// when the two touch different lines of what the workspace read
// (engine/merge); the workspace then holds the merged content, which is
// what is written. Merges are found before anything changes: when any
// file the write touches is still stale (its changes meet, it was
// deleted, moved or created on disk), the write is refused whole, each
// such file named with why it was not merged, and nothing changes, not
// even the files that would have merged.
func (w *Workspace) WriteMerging(ctx context.Context, selectors []string, opt WriteOptions) ([]string, []Merged, error) {
	p, err := w.planWrite(selectors)
	if err != nil {
		return nil, nil, err
	}
	if !opt.Force {
		if err := w.checkWritable(p); err != nil {
			return nil, nil, err
		}
	}
	var (
		ms  []mergeable
		why map[string]string
	)
	if opt.Merge {
		if ms, why, err = w.merges(p); err != nil {
			return nil, nil, err
		}
	}
	if err := w.checkDisk(p, ms, why); err != nil {
		return nil, nil, err
	}
	merged := w.takeMerges(ms)
	written, err := w.execute(ctx, p)
	return written, merged, err
}

// planWrite computes the operations of a write.
func (w *Workspace) planWrite(selectors []string) (*writePlan, error) {
	var all writePlan
	owned := make(map[string]bool, len(w.files))
	for p, f := range w.files {
		if f.pers != "" {
			owned[f.pers] = true
		}
		switch {
		case f.pers == "":
			all.writes = append(all.writes, p)
		case f.pers != p:
			all.renames = append(all.renames, rename{f.pers, p})
			if !w.pers[f.pers].doc.Equal(f.doc) {
				all.writes = append(all.writes, p)
			}
		case !w.pers[p].doc.Equal(f.doc):
			all.writes = append(all.writes, p)
		}
	}
	for p := range w.pers {
		if !owned[p] {
			all.deletes = append(all.deletes, p)
		}
	}
	if len(selectors) > 0 {
		sel, err := w.selectOps(&all, selectors)
		if err != nil {
			return nil, err
		}
		all = *sel
	}
	// A deletion of a path that a rename or a create will overwrite is
	// done by that operation.
	target := map[string]bool{}
	for _, r := range all.renames {
		target[r.to] = true
	}
	for _, p := range all.writes {
		target[p] = true
	}
	deletes := all.deletes[:0]
	for _, p := range all.deletes {
		if !target[p] {
			deletes = append(deletes, p)
		}
	}
	all.deletes = deletes
	sort.Strings(all.deletes)
	sort.Strings(all.writes)
	return &all, nil
}

// selectOps keeps the operations that selectors match, plus those they
// depend on.
func (w *Workspace) selectOps(all *writePlan, selectors []string) (*writePlan, error) {
	match := func(p string) bool {
		for _, s := range selectors {
			if s == p {
				return true
			}
			if ok, _ := doublestar.Match(s, p); ok {
				return true
			}
		}
		return false
	}
	for _, s := range selectors {
		if !doublestar.ValidatePattern(s) {
			return nil, fault.New(fault.BadArgument, "write: bad path pattern %q", s)
		}
	}
	renameTo := map[string]rename{}   // by destination
	renameFrom := map[string]rename{} // by source
	for _, r := range all.renames {
		renameTo[r.to] = r
		renameFrom[r.from] = r
	}
	isWrite := map[string]bool{}
	for _, p := range all.writes {
		isWrite[p] = true
	}
	isDelete := map[string]bool{}
	for _, p := range all.deletes {
		isDelete[p] = true
	}
	selR, selW, selD := map[rename]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range all.renames {
		if match(r.from) || match(r.to) {
			selR[r] = true
		}
	}
	for _, p := range all.writes {
		if match(p) {
			selW[p] = true
		}
	}
	for _, p := range all.deletes {
		if match(p) {
			selD[p] = true
		}
	}
	// Every selector must match something: a file of the workspace or a
	// path an unwritten change touches. One that matches only unchanged
	// files selects nothing, and that is fine.
	var unmatched []string
	for _, s := range selectors {
		if !w.selects(s, all) {
			unmatched = append(unmatched, s)
		}
	}
	if len(unmatched) > 0 {
		unwritten := "none"
		if u := w.Unwritten(); len(u) > 0 {
			unwritten = strings.Join(u, ", ")
		}
		return nil, fault.New(fault.BadArgument, "write: paths %q match no unwritten change and no file of the workspace; the unwritten paths are: %s", unmatched, unwritten)
	}
	// Close over dependencies until nothing changes: a renamed file's
	// content change goes with it, and a destination must be vacated.
	for changed := true; changed; {
		changed = false
		need := func(dst string) {
			if r, ok := renameFrom[dst]; ok && !selR[r] {
				selR[r], changed = true, true
			}
			if isDelete[dst] && !selD[dst] {
				selD[dst], changed = true, true
			}
		}
		for r := range selR {
			if isWrite[r.to] && !selW[r.to] {
				selW[r.to], changed = true, true
			}
			need(r.to)
		}
		for p := range selW {
			if r, ok := renameTo[p]; ok && !selR[r] {
				selR[r], changed = true, true
			}
			need(p)
		}
	}
	out := &writePlan{}
	for _, r := range all.renames {
		if selR[r] {
			out.renames = append(out.renames, r)
		}
	}
	for p := range selW {
		out.writes = append(out.writes, p)
	}
	for p := range selD {
		out.deletes = append(out.deletes, p)
	}
	return out, nil
}

// selects reports whether selector s matches a workspace path or a path
// that an operation of all touches.
func (w *Workspace) selects(s string, all *writePlan) bool {
	match := func(p string) bool {
		ok, _ := doublestar.Match(s, p)
		return ok || s == p
	}
	for p := range w.files {
		if match(p) {
			return true
		}
	}
	for _, r := range all.renames {
		if match(r.from) {
			return true
		}
	}
	for _, p := range all.deletes {
		if match(p) {
			return true
		}
	}
	return false
}

// checkDisk refuses the write when any path it touches changed on disk
// since the workspace read or wrote it, but those of ms, which merge; why
// says why a stale path did not merge.
func (w *Workspace) checkDisk(p *writePlan, ms []mergeable, why map[string]string) error {
	paths := p.touched()
	var stale []Stale
	for _, x := range paths {
		if slices.ContainsFunc(ms, func(m mergeable) bool { return m.path == x }) {
			continue
		}
		var want *text.Doc
		if d, known := w.pers[x]; known {
			want = d.doc
		}
		st, err := w.staleAt(x, want)
		if err != nil {
			return fault.Wrap(fault.KindOf(err), err, "write: cannot check %s on disk before writing; nothing was written", x)
		}
		if st != nil {
			st.NotMerged = why[x]
			stale = append(stale, *st)
		}
	}
	if len(stale) > 0 {
		return staleError(stale)
	}
	return nil
}

// execute performs the operations in order, advancing the persisted
// baseline after each one. written lists the destinations in the order
// they were written, each once.
func (w *Workspace) execute(ctx context.Context, p *writePlan) ([]string, error) {
	var written []string
	seen := map[string]bool{}
	note := func(x string) {
		if !seen[x] {
			seen[x] = true
			written = append(written, x)
		}
	}
	temp, tempFor := "", "" // a swap's parked file, while it is on disk
	fail := func(err error) error {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			err = fault.Wrap(fault.Timeout, err, "write interrupted")
		case fault.KindOf(err) == fault.Internal:
			err = fault.Wrap(fault.IO, err, "write failed")
		}
		return &WriteError{Written: written, Temp: temp, Err: err, tempFor: tempFor}
	}
	for _, s := range orderRenames(p.renames) {
		if err := ctx.Err(); err != nil {
			return written, fail(err)
		}
		from, to := s.from, s.to
		switch {
		case s.park:
			tmp, err := w.fs.TempRenameName(dirOf(s.from))
			if err != nil {
				return written, fail(fmt.Errorf("rename swap %s -> %s: no free temporary name: %w", s.from, s.to, err))
			}
			to = tmp
		case s.unpark:
			from = temp
		}
		if err := w.fs.RenameIf(from, to, w.recheck(from, to)); err != nil {
			if fault.KindOf(err) == fault.Conflict {
				return written, fail(err)
			}
			return written, fail(fmt.Errorf("rename %s -> %s: %w", from, to, err))
		}
		w.moved(from, to, s.to)
		switch {
		case s.park:
			temp, tempFor = to, s.to
		case s.unpark:
			temp = ""
			note(to)
		default:
			note(to)
		}
	}
	for _, x := range p.deletes {
		if err := ctx.Err(); err != nil {
			return written, fail(err)
		}
		if err := w.fs.RemoveIf(x, w.recheck(x)); err != nil {
			if fault.KindOf(err) == fault.Conflict {
				return written, fail(err)
			}
			return written, fail(fmt.Errorf("delete %s: %w", x, err))
		}
		delete(w.pers, x)
	}
	done, err := w.writeFiles(ctx, p.writes)
	for _, x := range p.writes[:done] {
		note(x)
	}
	if err != nil {
		return written, fail(err)
	}
	return written, nil
}

// moved records a completed rename from -> to of the file at workspace
// path cur in the persisted baseline.
func (w *Workspace) moved(from, to, cur string) {
	d := w.pers[from]
	delete(w.pers, from)
	w.pers[to] = d
	if f, ok := w.files[cur]; ok && f.pers == from {
		nf := *f
		nf.pers = to
		w.files[cur] = &nf
	}
}

// dirOf is the workspace directory of p, "" for the root.
func dirOf(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}
