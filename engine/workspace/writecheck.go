package workspace

// This file defines a write's errors and its last checks: each disk operation
// rechecks its paths immediately before it happens (the conflict check of
// [Workspace.Write] runs before the first one, and an outside process may
// act in between), and [Workspace.ChangedOnDisk] verifies, after a write,
// that the disk still holds what was written.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// WriteError is a failed write. Written lists the paths already written
// when it failed (destinations only, never removals); Temp names a swap's
// temporary file left on disk, if any.
type WriteError struct {
	Written []string
	Temp    string
	Err     error

	tempFor string // where Temp's content belongs
}

func (e *WriteError) Error() string {
	msg := e.Err.Error()
	if e.Temp != "" {
		msg += fmt.Sprintf("; a rename swap left the temporary file %s on disk, holding the content that belongs at %s: writing again finishes the swap, or move it there by hand", e.Temp, e.tempFor)
	}
	if len(e.Written) > 0 {
		msg += fmt.Sprintf(" (already written before the failure: %s)", strings.Join(e.Written, ", "))
	}
	return msg
}

func (e *WriteError) Unwrap() error { return e.Err }

// writeFiles writes the creates and modifications of a write (rootfs
// stages them all, then renames each after its last check) and records
// each one written in the baselines. It returns how many, from the first,
// were written.
func (w *Workspace) writeFiles(ctx context.Context, paths []string) (int, error) {
	batch := make([]rootfs.FileWrite, len(paths))
	for i, x := range paths {
		batch[i] = rootfs.FileWrite{Path: x, Content: w.files[x].doc.String(), Check: w.recheckWrite(x)}
	}
	done, failed, err := w.fs.WriteFiles(ctx, batch)
	for _, x := range paths[:done] {
		w.wrote(x)
	}
	switch {
	case err == nil, ctx.Err() != nil && errors.Is(err, ctx.Err()), fault.KindOf(err) == fault.Conflict:
		return done, err
	}
	return done, fmt.Errorf("write %s: %w", paths[failed], err)
}

// wrote records that the file at x was written to x: both baselines are
// its content. An existing file keeps its mode (rootfs does so on disk);
// a new one gets rootfs.NewFileMode.
func (w *Workspace) wrote(x string) {
	f := w.files[x]
	mode := rootfs.NewFileMode
	if old, ok := w.pers[x]; ok {
		mode = old.mode
	}
	nf := *f
	nf.pers, nf.mode = x, mode
	w.files[x] = &nf
	w.pers[x] = disk{doc: f.doc, mode: mode, acq: f.acq}
}

// baseline is the persisted content of path: what the disk must hold
// there before an operation touches it (nil: no file).
func (w *Workspace) baseline(path string) *text.Doc {
	if d, known := w.pers[path]; known {
		return d.doc
	}
	return nil
}

// staleBytes compares cur, the disk's content at path (exists false when
// there is none), with want, the content the workspace read there (nil:
// none).
func staleBytes(path string, want *text.Doc, cur []byte, exists bool) *Stale {
	switch {
	case !exists && want == nil:
		return nil
	case !exists:
		return &Stale{Path: path, Disk: DiskDeleted, BaseRevision: want.Revision()}
	case want == nil:
		return &Stale{Path: path, Disk: DiskCreated, DiskRevision: revisionOf(cur)}
	case string(cur) != want.String():
		return &Stale{Path: path, Disk: DiskChanged, BaseRevision: want.Revision(), DiskRevision: revisionOf(cur)}
	}
	return nil
}

// recheck returns a check for rootfs's RenameIf and RemoveIf: the paths
// must hold their persisted baseline, immediately before the operation.
func (w *Workspace) recheck(paths ...string) func() error {
	return func() error {
		for _, p := range paths {
			st, err := w.staleAt(p, w.baseline(p))
			if err != nil {
				return err
			}
			if st != nil {
				return stoppedError(*st)
			}
		}
		return nil
	}
}

// recheckWrite returns the check of rootfs's WriteFiles for path.
func (w *Workspace) recheckWrite(path string) func(cur []byte, exists bool) error {
	return func(cur []byte, exists bool) error {
		if st := staleBytes(path, w.baseline(path), cur, exists); st != nil {
			return stoppedError(*st)
		}
		return nil
	}
}

// stoppedError is the conflict of a file that changed on disk during a
// write, after its conflict check: the write stops before that file.
func stoppedError(st Stale) *StaleError {
	return staleErrorLead([]Stale{st}, "write stopped before "+st.Path+", which was not written")
}

// ChangedOnDisk lists, sorted, those of paths (written by the workspace)
// whose content on disk is no longer what the workspace wrote there:
// something outside changed or removed them since.
func (w *Workspace) ChangedOnDisk(paths []string) []string {
	var out []string
	for _, p := range paths {
		want := w.baseline(p)
		data, _, err := w.fs.ReadFile(p)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			out = append(out, p)
			continue
		}
		if staleBytes(p, want, data, exists) != nil {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
