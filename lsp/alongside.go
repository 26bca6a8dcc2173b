package lsp

// This file defines [Server.Alongside]: the check of the inputs
// (verify.go) run alongside a request that answers about code rather than
// before it, the answer standing only when that check proves the server
// knew the disk as it was.
//
// Why it is as fresh as checking first. Checking first proves, for every
// input, that its state at some moment after the request began is the
// one the server was told of before the request was sent. The check
// alongside begins after the request began too, and compares every input
// with the latest complete check's state; the answer stands only when it
// found nothing changed and every change the checks before it found had
// been sent to the server before the request was (their generation, see
// tracker.gen, at most the one read when the request's changes were
// taken). Then the server answered with what the disk held at the moment
// each input was checked, which is what checking first proves. When the
// check found a change, or an earlier one's changes were not yet sent,
// the answer does not stand: its changes wait for the next request, and
// the caller asks again the ordinary way, where the check that ran
// alongside serves as the request's check (it began after the request
// did: see [Began]). When changes are known before the request is sent
// (devbroker's own writes, the watcher's hints) the request waits for the
// check and sends what it found too, as checking first does.
//
// The symlinks the request hides ([Server.Links]) are the latest complete
// check's: the check alongside finds any link added, removed or changed
// since as a change.

import (
	"context"
	"sync"
	"sync/atomic"
)

// alongside is one request's check of the inputs, run alongside it.
type alongside struct {
	s     *Server
	links []string // the symlinks under the root of the latest complete check before this one
	done  chan struct{}

	// Set once done is closed.
	found bool   // the check found changes, or could not see every input
	prev  uint64 // the generation the check began at

	mu   sync.Mutex
	sent bool // a request's changes were taken (collect ran)
	// free counts the requests sent without waiting for the check; every
	// change of the generations up to upTo was taken before each.
	free int
	upTo uint64
}

type alongsideKey struct{}

// testHookAlongsideScan, when set (by tests), runs before each check
// alongside a request begins: a test holds the check back until the
// request has been sent, the order a real check of a large root takes.
var testHookAlongsideScan atomic.Pointer[func()]

// Alongside starts the check of the server's inputs that a request of
// ctx makes, to run while the request is asked rather than before it,
// and returns ctx marked for it and settled, which waits for the check
// and reports whether the answers of the server's requests under that
// ctx stand: false means the disk changed, and the request must be asked
// again under the ctx Alongside was given (the check that ran serves it,
// see [Began]). Only for requests that change nothing: definition,
// references, hover, symbols. settled must be called, once.
//
// Without a complete check to compare with (the first request, a check
// that could not see every input) nothing runs alongside: the ctx is
// returned as it is and settled reports true.
func (s *Server) Alongside(ctx context.Context) (context.Context, func() bool) {
	links, ok := s.track.completeLinks()
	if !ok {
		return ctx, func() bool { return true }
	}
	a := &alongside{s: s, links: links, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		if hook := testHookAlongsideScan.Load(); hook != nil {
			(*hook)()
		}
		changes, problem, prev := s.track.scanInto(s.watch.add)
		a.found, a.prev = len(changes) > 0 || problem != "", prev
	}()
	return context.WithValue(ctx, alongsideKey{}, a), a.settled
}

// alongsideOf is the check running alongside ctx's request to s, or nil.
func alongsideOf(ctx context.Context, s *Server) *alongside {
	a, _ := ctx.Value(alongsideKey{}).(*alongside)
	if a == nil || a.s != s {
		return nil
	}
	return a
}

// collect returns the changes to send before the request (see
// [Server.collect]): those known now, without waiting for the check,
// unless there are some; then the check is waited for and its changes
// are sent too. Called with the semaphore held.
func (a *alongside) collect() map[string]bool {
	gen := a.s.track.gen.Load()
	changes := a.s.watch.take()
	waited := false
	if len(changes) > 0 {
		<-a.done
		waited = true
		gen = a.s.track.gen.Load()
		for p, created := range a.s.watch.take() {
			changes[p] = changes[p] || created
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sent = true
	if !waited {
		if a.free == 0 || gen < a.upTo {
			a.upTo = gen
		}
		a.free++
	}
	return changes
}

// settled waits for the check and reports whether the answers stand.
func (a *alongside) settled() bool {
	<-a.done
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case !a.sent:
		// Nothing was asked: nothing to stand or fall, but what the check
		// found waits for the next request.
		return !a.found
	case a.free == 0:
		// Every request went after the check, with what it found.
		return true
	}
	return !a.found && a.prev <= a.upTo
}
