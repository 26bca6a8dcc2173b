package workspace

// This file defines the read-only check of a write: a file without write
// permission for its owner is not overwritten, deleted or moved unless the
// write is forced.

import (
	"sort"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
)

// WriteOptions adjust a [Workspace.WriteWith].
type WriteOptions struct {
	// Force writes, deletes and moves files that have no write permission
	// for their owner (a written file keeps its mode).
	Force bool
	// Merge merges a change made on disk since the workspace read a file
	// with the workspace's change, when the two touch different lines
	// ([Workspace.WriteMerging]); without it such a file is a conflict.
	Merge bool
}

// touched returns the paths p touches, each once and sorted: every
// rename's source and destination, every delete and every write.
func (p *writePlan) touched() []string {
	set := map[string]bool{}
	for _, r := range p.renames {
		set[r.from], set[r.to] = true, true
	}
	for _, d := range p.deletes {
		set[d] = true
	}
	for _, x := range p.writes {
		set[x] = true
	}
	paths := make([]string, 0, len(set))
	for x := range set {
		paths = append(paths, x)
	}
	sort.Strings(paths)
	return paths
}

// checkWritable refuses the write, before any disk operation, when a file
// it would overwrite, delete or move is read-only. Every such file is named.
func (w *Workspace) checkWritable(p *writePlan) error {
	paths := p.touched()
	var refused readOnlyErrors
	for _, x := range paths {
		if err := w.fs.CheckWritable(x); err != nil {
			refused = append(refused, err)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	return &fault.Error{Kind: fault.BadArgument, Msg: "write: nothing was written", Err: refused}
}

// readOnlyErrors are the refusals of one write, each with its advice once.
type readOnlyErrors []error

func (r readOnlyErrors) Error() string {
	parts := make([]string, len(r))
	for i, e := range r {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ") + `; in a plan, force goes in the write step's args: {"force": true}`
}

func (r readOnlyErrors) Unwrap() []error { return r }
