package lsp

// This file defines the disk watcher's life: it starts with the server's
// process, is given up when it fails, and is started again by a later
// request; the rescan then tells the server what changed while it was
// down.

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// A watcher that failed while running is started again by the next
// request; one that could not start (or failed again right after a
// restart) is tried again watchRetryFirst later, the wait doubling with
// every failure in a row up to watchRetryMax.
const (
	watchRetryFirst = 5 * time.Second
	watchRetryMax   = time.Minute
)

// maxRescan bounds the files a rescan lists.
const maxRescan = 100000

// WatchStatus says why changes made by other programs under the root may
// not reach the server, and when a failed watcher is started again, or ""
// when the watcher covers the root (or the server has not started yet).
func (s *Server) WatchStatus() string {
	s.mu.Lock()
	w, problem := s.watch, s.watchProblem
	if w == nil && s.watchLimit {
		problem += "; it is tried again when " + s.cfg.Name + " starts again"
	} else if w == nil && s.watchFails > 0 {
		problem += "; it is started again at the next request"
		if next := s.watchNext; time.Now().Before(next) {
			problem += " from " + next.Format("15:04:05") + " on"
		}
	}
	s.mu.Unlock()
	if problem == "" && w != nil {
		problem = w.status()
	}
	if problem == "" {
		return ""
	}
	return "changes made outside devbroker under the root may not be seen by " + s.cfg.Name + " (" + problem + "); devbroker's own writes are always sent"
}

// startWatch starts a watcher if there is none and one may run: not
// turned off, on Linux, and not while waiting after a failure. A watcher
// started after a failure owes the server a rescan. Called with the
// semaphore held.
func (s *Server) startWatch() {
	s.mu.Lock()
	try := false
	switch {
	case s.watch != nil, s.closed, s.watchLimit:
	case s.cfg.NoWatch:
		s.watchProblem = "the disk watcher is off"
	case !watchable:
		s.watchProblem = "the disk watcher works on Linux only"
	default:
		try = s.watchFails == 0 || !time.Now().Before(s.watchNext)
	}
	s.mu.Unlock()
	if !try {
		return
	}
	w, err := s.watchStart(s.cfg.Root, s.log)
	if err != nil {
		s.watchFailed("the disk watcher could not start: "+err.Error(), false)
		if systemLimit(err) {
			// Every try walks the whole root on a request's time, and
			// the limit stays until someone raises it: try again only
			// with the next process.
			s.mu.Lock()
			s.watchLimit = true
			s.watchProblem += " (the system's inotify limits: raise fs.inotify.max_user_watches or max_user_instances)"
			s.mu.Unlock()
		}
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed { // closed meanwhile: Close stopped the watchers already
		w.close()
		return
	}
	s.watch, s.watchProblem = w, ""
	s.rescanDue = s.rescanDue || s.watchFails > 0
}

// systemLimit reports whether err is the system's inotify limits: watches
// (ENOSPC) or instances (EMFILE).
func systemLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}

// watchFailed records that the watcher failed (while running, or at its
// start) and when to try again.
func (s *Server) watchFailed(problem string, running bool) {
	s.log.Warn("no disk watcher for now; only devbroker's own writes reach the server", "root", s.cfg.Root, "problem", problem)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watch, s.watchProblem = nil, problem
	s.watchFails++
	s.watchNext = time.Now().Add(retryWait(s.watchFails, running))
}

// retryWait is the wait before the next try after fails failures in a
// row, the last one while running or at the start.
func retryWait(fails int, running bool) time.Duration {
	if running {
		fails--
	}
	if fails <= 0 {
		return 0
	}
	return min(watchRetryFirst<<min(fails-1, 8), watchRetryMax)
}

// freshWatch prepares the watcher for a process about to start, which
// reads the disk: nothing collected so far needs sending, and while the
// watcher is down the files on disk now are the ones to compare with
// when it is back. Called with the semaphore held.
func (s *Server) freshWatch() {
	s.startWatch()
	s.mu.Lock()
	w, down := s.watch, s.watch == nil && s.watchFails > 0
	s.disk, s.rescanDue, s.seen = map[string]bool{}, false, nil
	s.mu.Unlock()
	if w != nil {
		w.take()
	}
	if down {
		seen := s.listFiles()
		s.mu.Lock()
		s.seen = seen
		s.mu.Unlock()
	}
}

// stopWatch stops the watcher (the server stopped); the next process
// starts with a new one.
func (s *Server) stopWatch() {
	s.mu.Lock()
	w := s.watch
	s.watch, s.watchProblem, s.watchFails, s.rescanDue, s.seen = nil, "", 0, false, nil
	s.watchLimit = false
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
}

// collect returns the changes to send before a request: the watcher's,
// after a barrier, and devbroker's own. A watcher that fails is given up
// and every file under the root is reported; a watcher started again
// reports every file too, and the files gone since it went down as
// deleted. A request cancelled meanwhile leaves everything for the next
// one. Called with the semaphore held.
func (s *Server) collect(ctx context.Context) (map[string]bool, error) {
	s.startWatch()
	s.mu.Lock()
	w, all := s.watch, s.rescanDue
	s.mu.Unlock()
	changes, dropped := map[string]bool{}, false
	if w != nil {
		err := w.barrier(ctx)
		if err != nil && ctx.Err() != nil {
			return nil, err // the request ended, not the watcher
		}
		var lost bool
		changes, lost = w.take()
		all = all || lost
		if err != nil {
			s.watchFailed("the disk watcher failed: "+err.Error(), true)
			w.close()
			all, dropped = true, true
		}
	}
	s.mu.Lock()
	for p, created := range s.disk {
		changes[p] = changes[p] || created
	}
	s.disk = map[string]bool{}
	base := s.seen
	s.mu.Unlock()
	var present map[string]bool
	if all {
		present = s.listFiles()
		for p := range present {
			changes[p] = changes[p] || (base != nil && !base[p])
		}
		for p := range base {
			if _, ok := changes[p]; !ok && !present[p] {
				changes[p] = false
			}
		}
	} else if w == nil && base != nil {
		present = s.track(base, changes)
	}
	s.mu.Lock()
	switch {
	case dropped:
		s.seen, s.rescanDue = present, false
	case w == nil:
		s.seen = present
	default:
		s.rescanDue, s.seen, s.watchFails = false, nil, 0
	}
	s.mu.Unlock()
	return changes, nil
}

// track returns base (the files on disk) updated with changes.
func (s *Server) track(base, changes map[string]bool) map[string]bool {
	out := make(map[string]bool, len(base))
	for p := range base {
		out[p] = true
	}
	for p := range changes {
		if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
			out[p] = true
		} else {
			delete(out, p)
		}
	}
	return out
}

// listFiles returns the files under the root (bounded by maxRescan),
// outside the directories never watched.
func (s *Server) listFiles() map[string]bool {
	files := map[string]bool{}
	_ = filepath.WalkDir(s.cfg.Root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case len(files) >= maxRescan:
			return filepath.SkipAll
		case err != nil:
			return nil
		case d.IsDir():
			if p != s.cfg.Root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
		default:
			files[p] = true
		}
		return nil
	})
	return files
}
