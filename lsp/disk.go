package lsp

// This file defines how a server learns about changes on disk: changes
// devbroker makes itself ([Server.FilesChanged]) and changes the watcher
// saw, sent as one workspace/didChangeWatchedFiles before each request,
// filtered by the watchers the server registered.

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// LSP's FileChangeType and WatchKind values.
const (
	fileCreated = 1
	fileChanged = 2
	fileDeleted = 3

	watchCreate = 1
	watchChange = 2
	watchDelete = 4
)

// FilesChanged tells the server that the files at paths (absolute) were
// written, created, removed or renamed on disk. Paths outside the root are
// ignored. The server is told before its next request; FilesChanged never
// waits for a request in flight.
func (s *Server) FilesChanged(paths []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range paths {
		p = filepath.Clean(p)
		if rel, err := filepath.Rel(s.cfg.Root, p); err != nil || !filepath.IsLocal(rel) {
			continue
		}
		if _, seen := s.disk[p]; !seen {
			s.disk[p] = false
		}
	}
}

// flushDisk sends the changes collected since the last request (see
// [Server.collect]). Called with the semaphore held.
func (s *Server) flushDisk(ctx context.Context, in *instance) error {
	changes, err := s.collect(ctx)
	if err != nil {
		return err
	}
	s.dropChanged(changes)
	if len(changes) > 0 {
		s.atDisk = nil
	}
	events := s.fileEvents(in, changes)
	if len(events) == 0 {
		return nil
	}
	err = s.notify(ctx, in, "workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: events})
	if err != nil {
		// Not sent: keep the changes for the next request (a new
		// process reads the disk and drops them).
		s.mu.Lock()
		for p, created := range changes {
			s.disk[p] = s.disk[p] || created
		}
		s.mu.Unlock()
	}
	return err
}

// fileEvents turns collected changes into the events the server watches:
// a path that is gone is deleted, one whose creation was seen is created,
// any other changed. A path that resolves outside the root is left out.
func (s *Server) fileEvents(in *instance, changes map[string]bool) []fileEvent {
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	root := s.cfg.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	var out []fileEvent
	for _, p := range paths {
		typ := fileChanged
		if _, err := os.Lstat(p); err != nil {
			typ = fileDeleted
		} else if !insideRoot(root, p) {
			continue
		} else if changes[p] {
			typ = fileCreated
		}
		if in.watches(p, typ) {
			out = append(out, fileEvent{URI: URI(p), Type: typ})
		}
	}
	return out
}

// insideRoot reports whether p, with every symlink resolved, is under
// root (symlink-resolved).
func insideRoot(root, p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && filepath.IsLocal(rel)
}

// fileWatcher is one glob the server registered for
// workspace/didChangeWatchedFiles.
type fileWatcher struct {
	base    string // the pattern's base directory, or "" for a plain glob
	pattern string
	kind    int
}

// matches reports whether the watcher covers an event of type typ on p.
func (fw fileWatcher) matches(root, p string, typ int) bool {
	bit := map[int]int{fileCreated: watchCreate, fileChanged: watchChange, fileDeleted: watchDelete}[typ]
	if fw.kind&bit == 0 {
		return false
	}
	slash := filepath.ToSlash(p)
	if fw.base != "" {
		rel, err := filepath.Rel(fw.base, p)
		if err != nil || !filepath.IsLocal(rel) {
			return false
		}
		ok, _ := doublestar.Match(fw.pattern, filepath.ToSlash(rel))
		return ok
	}
	if strings.HasPrefix(fw.pattern, "/") {
		if !strings.ContainsAny(fw.pattern, "*?[{\\") {
			return fw.pattern == slash
		}
		ok, _ := doublestar.Match(fw.pattern, slash)
		return ok
	}
	if ok, _ := doublestar.Match(fw.pattern, strings.TrimPrefix(slash, "/")); ok {
		return true
	}
	if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) {
		ok, _ := doublestar.Match(fw.pattern, filepath.ToSlash(rel))
		return ok
	}
	return false
}

// watches reports whether the server registered a watcher for an event
// of type typ on p; a server that registered none gets every event.
func (in *instance) watches(p string, typ int) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.watchRegs) == 0 {
		return true
	}
	for _, fws := range in.watchRegs {
		for _, fw := range fws {
			if fw.matches(in.cfg.Root, p, typ) {
				return true
			}
		}
	}
	return false
}
