package lsp

import (
	"maps"
	"slices"
	"sync"
	"time"
)

// BreakWatcher closes the running server's fsnotify watcher, as a failure
// of the watcher would end its event loop, and returns once the loop has
// ended and recorded the failure (so that the next request finds it); it
// reports whether there was one.
func BreakWatcher(s *Server) bool {
	w := s.watch.running()
	if w == nil {
		return false
	}
	_ = w.fsw.Close()
	<-w.done
	return true
}

// StallWatcher makes the running server's watcher lose every event from
// now on (its watches are removed). It reports whether there was a
// watcher.
func StallWatcher(s *Server) bool {
	w := s.watch.running()
	if w == nil {
		return false
	}
	w.mu.Lock()
	dirs := slices.Collect(maps.Keys(w.dirs))
	w.mu.Unlock()
	for _, d := range append(dirs, w.private) {
		_ = w.fsw.Remove(d)
	}
	return true
}

// TraceNotifications has fn told the method and parameters of every
// notification s sends from now on.
func TraceNotifications(s *Server, fn func(method string, params any)) {
	s.mu.Lock()
	s.trace = fn
	s.mu.Unlock()
}

// Launches counts the starts s began (those that failed too).
func Launches(s *Server) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.launches
}

// ExpireIdle makes s's last use ago in the past and runs what its idle
// timer runs when it fires: the server stops if ago reaches its idle
// timeout.
func ExpireIdle(s *Server, ago time.Duration) {
	s.mu.Lock()
	s.lastUsed = time.Now().Add(-ago)
	s.mu.Unlock()
	s.idleStop()
}

// Exited is closed when the process s runs now has exited, and noticed:
// from then on PID is 0. It is closed already when none runs.
func Exited(s *Server) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inst == nil {
		done := make(chan struct{})
		close(done)
		return done
	}
	return s.inst.exited
}

// running is the running watcher, or nil.
func (d *diskWatch) running() *watcher {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.w
}

// ExpireLanes makes every lane of p unused for its idle time and runs
// what their idle timers run.
func ExpireLanes(p *Pool) {
	p.mu.Lock()
	lanes := slices.Clone(p.lanes)
	for _, l := range lanes {
		l.used = time.Now().Add(-p.idle)
	}
	p.mu.Unlock()
	for _, l := range lanes {
		p.retire(l)
	}
}

// HoldAlongsideChecks holds every check run alongside a request back
// until release is called, so that the request is sent before its check
// ends (the order on a root of any size; on a test's few files the check
// may end first, and the request then waits for it and sends what it
// found).
func HoldAlongsideChecks() (release func()) {
	gate := make(chan struct{})
	hold := func() { <-gate }
	testHookAlongsideScan.Store(&hold)
	var once sync.Once
	return func() {
		once.Do(func() {
			testHookAlongsideScan.Store(nil)
			close(gate)
		})
	}
}

// HoldTurn takes the server's turn until release: the calls of Diagnose
// made meanwhile wait for it.
func HoldTurn(s *Server) (release func()) {
	s.sem <- struct{}{}
	return func() { <-s.sem }
}

// OnWaiting tells fn how many calls of Diagnose wait for the server's
// turn whenever one starts to.
func OnWaiting(s *Server, fn func(n int)) {
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	s.hooks.waiting = fn
}

// OnShared tells fn the documents of the callers of each shared turn,
// the leader's first.
func OnShared(s *Server, fn func(docs [][]Document)) {
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	s.hooks.shared = fn
}

// OnPoolWaiting tells fn how many callers of Take wait for a lane
// whenever one starts to (fn must not block).
func OnPoolWaiting(p *Pool, fn func(n int)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.waited = fn
}

// WakePool wakes the callers of p's Take waiting for a lane, as any
// change of a lane (one freed, added or dropped, callers taken along)
// does, whether or not one is free for them.
func WakePool(p *Pool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.broadcast()
}
