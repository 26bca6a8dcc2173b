package lsp

// This file defines how a server learns about changes on disk: what the
// verification of its inputs found (verify.go), the changes devbroker
// makes itself ([Server.FilesChanged]) and the watcher's events, sent as
// one workspace/didChangeWatchedFiles before each request. A server whose
// [Inputs.ActsOn] is set (gopls) is sent every change it acts on, inside
// the root or out, whatever globs it registered, and is made to load its
// workspace again ([Inputs.Reload]) when another input changed; any other
// server gets the changes under the root its registered watchers ask for.

import (
	"bytes"
	"context"
	"errors"
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
// ignored. The server is told before its next request (with every path it
// knows the file by: the verification finds the symlinks to it); a hint,
// as the verification finds every change by itself. FilesChanged never
// waits for a request in flight.
func (s *Server) FilesChanged(paths []string) {
	in := make([]string, 0, len(paths))
	for _, p := range paths {
		p = filepath.Clean(p)
		if rel, err := filepath.Rel(s.cfg.Root, p); err == nil && filepath.IsLocal(rel) {
			in = append(in, p)
		}
	}
	s.watch.note(in)
}

// errRestart says the server's process must be replaced before the
// request: it would not read a changed file again ([Inputs.MtimeCache]).
var errRestart = errors.New("the server must read the disk again")

// flushDisk sends the changes collected since the last request (see
// [Server.collect]), or returns errRestart. Called with the semaphore
// held.
func (s *Server) flushDisk(ctx context.Context, in *instance) error {
	changes, err := s.collect(ctx)
	if err != nil {
		return err
	}
	if same := s.track.takeSameTime(); s.cfg.Inputs.MtimeCache {
		for p := range same {
			if matchesAny(s.cfg.Inputs.ActsOn, p) {
				// The new process reads the disk: changes need no
				// sending, but the request's documents may predate them.
				s.unsent = addPaths(s.unsent, changes)
				return errRestart
			}
		}
	}
	if len(changes) > 0 {
		s.atDisk = nil
	}
	found := addPaths(s.unsent, changes)
	s.unsent = nil
	s.dropChanged(found)
	s.flushed = make(map[string]bool, len(found))
	for p := range found {
		s.flushed[URI(p)] = true
	}
	events, reload := s.fileEvents(in, changes)
	if reload && s.cfg.Inputs.Reload != "" {
		events = append(events, fileEvent{URI: URI(s.cfg.Inputs.Reload), Type: fileChanged})
	}
	if len(events) == 0 {
		return nil
	}
	err = s.notify(ctx, in, "workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: events})
	if err != nil {
		// Not sent: keep the changes for the next request (a new
		// process reads the disk and drops them).
		s.watch.add(changes)
	}
	return err
}

// fileEvents turns collected changes into the events the server is sent:
// a path that is gone (or a symlink that no longer resolves) is deleted,
// one whose creation was seen is created, any other changed. A path under
// the root that resolves outside it is left out (the server is not shown
// what such a symlink reaches). With [Inputs.ActsOn], the changes the
// server acts on are sent and reload says another input changed (for Go,
// one the go command may read: see goInput); without,
// the changes under the root that its registered watchers cover.
func (s *Server) fileEvents(in *instance, changes map[string]bool) (out []fileEvent, reload bool) {
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	root := s.cfg.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	acts := s.cfg.Inputs.ActsOn
	embeds := map[string]bool{}
	for _, p := range paths {
		inRoot := under(s.cfg.Root, p)
		typ := fileChanged
		if _, err := os.Stat(p); err != nil {
			typ = fileDeleted
		} else if inRoot && !insideRoot(root, p) {
			continue
		} else if changes[p] {
			typ = fileCreated
		}
		switch {
		case acts == nil:
			if inRoot && in.watches(p, typ) {
				out = append(out, fileEvent{URI: URI(p), Type: typ})
			}
		case matchesAny(acts, p):
			out = append(out, fileEvent{URI: URI(p), Type: typ})
		case !reload && s.cfg.Inputs.Go:
			reload = goInput(s.cfg.Root, p, embeds)
		default:
			reload = true
		}
	}
	return out, reload
}

// goInput reports whether a changed file that is not Go source may be an
// input of the go command: a C, C++, assembly, SWIG or object file (cgo
// and the assembler read them), or a file under a package directory whose
// Go files embed files (//go:embed; a pattern may name a subdirectory),
// looking up to the module's directory (the one with go.mod) or the root.
// A log file or a README is none, and costs no reload. embeds caches, by
// directory, whether its Go files have an embed directive.
func goInput(root, p string, embeds map[string]bool) bool {
	ext := filepath.Ext(p)
	if ext == ".c" || ext == ".h" || slices.Contains(BlindSources, ext) {
		return true
	}
	for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
		has, ok := embeds[dir]
		if !ok {
			has = embedsIn(dir)
			embeds[dir] = has
		}
		if has {
			return true
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil || dir == root || filepath.Dir(dir) == dir {
			return false
		}
	}
}

// embedsIn reports whether a Go file in dir has a //go:embed directive.
func embedsIn(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.IsDir() || filepath.Ext(e.Name()) != ".go" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err == nil && bytes.Contains(data, []byte("//go:embed")) {
			return true
		}
	}
	return false
}

// matchesAny reports whether one of globs matches p's slash-separated
// absolute path (without its leading slash or volume).
func matchesAny(globs []string, p string) bool {
	slash := strings.TrimPrefix(filepath.ToSlash(strings.TrimPrefix(p, filepath.VolumeName(p))), "/")
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, slash); ok {
			return true
		}
	}
	return false
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

// addPaths adds the paths of b to a (nil: a new map) and returns it.
func addPaths(a, b map[string]bool) map[string]bool {
	if a == nil {
		a = make(map[string]bool, len(b))
	}
	for p, created := range b {
		a[p] = a[p] || created
	}
	return a
}
