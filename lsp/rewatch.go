package lsp

// This file defines the disk watcher's life (it starts with the server's
// process, is given up when it fails, and is started again by a later
// request) and what is collected for the server before each request: the
// verification's changes (verify.go), devbroker's own, and the watcher's
// events as hints.

import (
	"context"
	"errors"
	"syscall"
	"time"
)

// The watcher's events are hints (verify.go finds every change without
// them). A watcher that failed while running is started again by the next
// request; one that could not start (or failed again right after a
// restart) is tried again watchRetryFirst later, the wait doubling with
// every failure in a row up to watchRetryMax.
const (
	watchRetryFirst = 5 * time.Second
	watchRetryMax   = time.Minute
)

// WatchStatus says why the disk watcher, whose events are hints, does not
// run, and when a failed one is started again, or "" when it covers the
// root (or the server has not started yet). Changes are found without it
// (see [Server.Unverified]).
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
	return "no disk watcher for " + s.cfg.Name + " (" + problem + "); changes on disk are still found before every request by the metadata of every input"
}

// startWatch starts a watcher if there is none and one may run: not
// turned off, on Linux, and not while waiting after a failure. Called
// with the semaphore held.
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
}

// systemLimit reports whether err is the system's inotify limits: watches
// (ENOSPC) or instances (EMFILE).
func systemLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}

// watchFailed records that the watcher failed (while running, or at its
// start) and when to try again.
func (s *Server) watchFailed(problem string, running bool) {
	s.log.Warn("no disk watcher for now; changes are found by the metadata check alone", "root", s.cfg.Root, "problem", problem)
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

// freshWatch prepares for a process about to start, which reads the
// disk: nothing collected so far needs sending, and the inputs are
// scanned now, so that the next request's scan reports what changes from
// here on. Called with the semaphore held.
func (s *Server) freshWatch() {
	s.startWatch()
	s.track.scan()
	s.track.takeSameTime()
	s.mu.Lock()
	w := s.watch
	s.disk = map[string]bool{}
	s.mu.Unlock()
	if w != nil {
		w.take()
	}
}

// stopWatch stops the watcher (the server stopped); the next process
// starts with a new one.
func (s *Server) stopWatch() {
	s.mu.Lock()
	w := s.watch
	s.watch, s.watchProblem, s.watchFails = nil, "", 0
	s.watchLimit = false
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
}

// collect returns the changes to send before a request: the
// verification's (see verify.go), devbroker's own (FilesChanged) and the
// watcher's events, which are hints. A watcher that failed is given up
// and started again later. Called with the semaphore held.
func (s *Server) collect(ctx context.Context) (map[string]bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // the request ended: everything stays for the next one
	}
	s.startWatch()
	s.verify(ctx)
	s.mu.Lock()
	w, changes := s.watch, s.disk
	s.disk = map[string]bool{}
	s.mu.Unlock()
	if w == nil {
		return changes, nil
	}
	if err := w.failure(); err != nil {
		s.watchFailed("the disk watcher failed: "+err.Error(), true)
		w.close()
	}
	hints, _ := w.take()
	for p, created := range hints {
		changes[p] = changes[p] || created
	}
	return changes, nil
}

// verify scans the inputs (verify.go) and adds what changed to the
// changes for the next request, unless a scan began after ctx's request
// began (see [Began]): that one has seen every change made before.
func (s *Server) verify(ctx context.Context) {
	if began, ok := ctx.Value(beganKey{}).(time.Time); ok && s.track.since(began) {
		return
	}
	changes, _ := s.track.scan()
	s.mu.Lock()
	for p, created := range changes {
		s.disk[p] = s.disk[p] || created
	}
	s.mu.Unlock()
}

// Blind returns the package directories (inside the root or among the
// Go inputs outside it) holding sources gopls never compiles
// ([BlindSources]), as the latest check of the inputs found them, and a
// generation that changes whenever they or a file in them changes. Only
// for a server whose [Inputs.Go] is set.
func (s *Server) Blind() ([]string, uint64) {
	return s.track.blindDirs()
}

// Unverified says why the server's next answer cannot be verified to
// reflect every input as the disk holds it (a directory that cannot be
// read, more inputs than [MaxInputs], an outside directory the build
// reads that is gone, a go.work that does not build the root), or ""
// when the latest check of the inputs verified them all.
func (s *Server) Unverified() string {
	return s.track.status()
}
