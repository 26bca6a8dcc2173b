package lsp

// This file defines [Server.Links]: the symlinks under the root as the
// disk watcher knows them, so that a caller that must not show the server
// what a symlink leaving the root reaches (see capabilities/lspdriver)
// need not walk the whole root before every request; and [Began], which
// lets the barrier of that call serve the rest of the request.

import (
	"context"
	"path/filepath"
	"slices"
	"time"
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

// Began returns ctx marked with the time a request began. A barrier
// (see [watcher.barrier]) that started after that, for this request or
// another, has seen every change completed before the request began: the
// request's later barriers are spared ([Server.Links] and the changes
// collected before each call then share one). A caller marks a request
// once, before it asks the server anything.
func Began(ctx context.Context) context.Context {
	return context.WithValue(ctx, beganKey{}, time.Now())
}

// beganKey is the context key of Began.
type beganKey struct{}

// spared reports whether a barrier for ctx can be spared: a barrier that
// started after ctx's request began has completed. Called with w.mu held.
func (w *watcher) spared(ctx context.Context) bool {
	began, ok := ctx.Value(beganKey{}).(time.Time)
	return ok && !w.passed.IsZero() && !w.passed.Before(began)
}

// pass notes that a barrier that started at started has completed.
func (w *watcher) pass(started time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if started.After(w.passed) {
		w.passed = started
	}
}
