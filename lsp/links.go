package lsp

// This file defines [Server.Links]: the symlinks under the root as the
// disk watcher knows them, so that a caller that must not show the server
// what a symlink leaving the root reaches (see capabilities/lspdriver)
// need not walk the whole root before every request.

import (
	"context"
	"path/filepath"
	"slices"
)

// Links returns the workspace paths (slash-separated, relative to the
// root) of the symlinks under the root, outside the directories never
// watched (VCS metadata, node_modules), as the running disk watcher knows
// them once every change completed before the call has reached it (a
// barrier), and true. It may list paths that are no longer symlinks; it
// misses none. It returns false when the watcher cannot tell: none runs
// (not started yet, turned off, failed, another platform), events were
// lost, or some directories are not watched. The caller then walks the
// root itself.
func (s *Server) Links(ctx context.Context) ([]string, bool) {
	s.mu.Lock()
	w := s.watch
	s.mu.Unlock()
	if w == nil || w.barrier(ctx) != nil {
		return nil, false
	}
	return w.knownLinks()
}

// knownLinks returns the symlinks the watcher saw, relative to its root,
// sorted; false when it may have missed some.
func (w *watcher) knownLinks() ([]string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.lost || w.problem != "" || w.broken != nil || w.err != nil {
		return nil, false
	}
	out := make([]string, 0, len(w.links))
	for p := range w.links {
		if rel, err := filepath.Rel(w.root, p); err == nil && filepath.IsLocal(rel) {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	slices.Sort(out)
	return out, true
}
