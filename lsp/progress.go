package lsp

// This file defines the servers' work-done progress as a stream: the
// $/progress a server sends (gopls's "Setting up workspace: Loading
// packages...") is recorded by its instance, which tells the Server's
// hub, and the hub hands each event to every subscriber on the
// subscriber's own goroutine, so a slow listener never stalls the
// connection's reader.

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Progress is one event of a server's work-done progress.
type Progress struct {
	// Server is the server's name.
	Server string
	// Token identifies the piece of work: its begin, reports and end
	// share it.
	Token string
	// Title is the begin's title, repeated in every event of the piece.
	Title string
	// Message is the latest message the server gave for the piece.
	Message string
	// Percentage is 0 to 100, or -1 when the server gave none.
	Percentage int
	// Done marks the end of the piece (the server ended it, or exited).
	Done bool
	// Queued marks devbroker's own request that the server has not begun:
	// it was sent under a work-done token the server reports its work
	// under (gopls.diagnose_files), and the server is still busy with
	// what came before it (its load, the documents opened for the
	// request). The server's begin of the token ends the queueing.
	Queued bool
}

// Describe is the piece as words: its title and message ("Setting up
// workspace: Loading packages..."), or, for a queued request, that the
// server has not begun it.
func (p Progress) Describe() string {
	if p.Queued {
		return "it has not begun " + p.Title + " yet: it is busy with what was sent before it"
	}
	if p.Message == "" {
		return p.Title
	}
	return p.Title + ": " + p.Message
}

// maxBacklog bounds a subscriber's backlog: beyond it, events other than
// ends are dropped, so a subscriber that falls behind still learns that
// the work ended.
const maxBacklog = 256

// hub fans progress out to subscribers.
type hub struct {
	mu   sync.Mutex
	subs map[*subscriber]bool
}

type subscriber struct {
	f     func(Progress)
	mu    sync.Mutex
	queue []Progress
	wake  chan struct{} // one pending wake-up
	stop  chan struct{} // closed by the subscription's stop
	done  chan struct{} // closed when the goroutine has delivered all and exited
}

// publish queues p for every subscriber. It never blocks.
func (h *hub) publish(p Progress) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		s.push(p)
	}
}

func (s *subscriber) push(p Progress) {
	s.mu.Lock()
	if len(s.queue) < maxBacklog || p.Done {
		s.queue = append(s.queue, p)
	}
	s.mu.Unlock()
	s.signal()
}

// signal wakes the subscriber's goroutine; a wake-up already pending
// will do.
func (s *subscriber) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// run delivers the queue until stop, then what is left.
func (s *subscriber) run() {
	defer close(s.done)
	for {
		select {
		case <-s.wake:
			s.deliver()
		case <-s.stop:
			s.deliver()
			return
		}
	}
}

func (s *subscriber) deliver() {
	for {
		s.mu.Lock()
		q := s.queue
		s.queue = nil
		s.mu.Unlock()
		if len(q) == 0 {
			return
		}
		for _, p := range q {
			s.f(p)
		}
	}
}

// subscribe adds f, first handing it the pieces of work open lists (as
// begun, with their latest message), and returns the function that
// removes it: that function returns after f has received every event
// published before it was called.
func (h *hub) subscribe(f func(Progress), open func() []Progress) (stop func()) {
	s := &subscriber{f: f, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	h.mu.Lock()
	if h.subs == nil {
		h.subs = map[*subscriber]bool{}
	}
	s.queue = append(s.queue, open()...)
	h.subs[s] = true
	h.mu.Unlock()
	go s.run()
	s.signal() // deliver what is open
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.subs, s)
			h.mu.Unlock()
			close(s.stop)
			<-s.done
		})
	}
}

// Subscribe calls f with every progress event of the server, on a
// goroutine of its own, in order, starting with the pieces of work open
// now; a restarted server's events come too. The returned stop removes
// f; it returns once f has had every event published before it.
func (s *Server) Subscribe(f func(Progress)) (stop func()) {
	return s.hub.subscribe(f, func() []Progress {
		if in := s.live(); in != nil {
			return in.openProgress()
		}
		return nil
	})
}

// Busy reports whether the running server has work-done progress open
// (a workspace load, say) or has not begun a request devbroker queued
// (see [Progress.Queued]), and what it is.
func (s *Server) Busy() (bool, string) {
	if in := s.live(); in != nil {
		return in.indexing()
	}
	return false, ""
}

// LoadEnded is when the running server last stopped being busy (see
// [Server.Busy]): its work-done progress ended with none left open (its
// workspace load, say), or it began the request it had queued; the zero
// time when it has not, or no server runs.
func (s *Server) LoadEnded() time.Time {
	if in := s.live(); in != nil {
		in.mu.Lock()
		defer in.mu.Unlock()
		return in.idleSince
	}
	return time.Time{}
}

// busyLocked reports whether work-done progress other than devbroker's
// own is open, or a request of devbroker's is queued. Called with in.mu
// held.
func (in *instance) busyLocked() bool {
	for key, p := range in.progress {
		if !own(key) || p.Queued {
			return true
		}
	}
	return false
}

// live is the running instance, or nil.
func (s *Server) live() *instance {
	s.mu.Lock()
	in := s.inst
	s.mu.Unlock()
	if in == nil || !in.alive() {
		return nil
	}
	return in
}

// progressEvent records a $/progress from the server and returns the
// event to publish; ok is false for one that says nothing (a report or
// end of a piece never begun). Called with in.mu held.
func (in *instance) progressEvent(p *progressParams) (ev Progress, ok bool) {
	key := tokenKey(p.Token)
	cur, open := in.progress[key]
	switch p.Value.Kind {
	case "begin":
		cur = Progress{Server: in.cfg.Name, Token: key, Title: p.Value.Title, Percentage: -1}
	case "report", "end":
		if !open {
			return Progress{}, false
		}
	default:
		return Progress{}, false
	}
	busy := in.busyLocked()
	cur.Queued = false // the server works on it
	if p.Value.Message != "" {
		cur.Message = p.Value.Message
	}
	if p.Value.Percentage != nil {
		cur.Percentage = min(max(int(*p.Value.Percentage), 0), 100)
	}
	if p.Value.Kind == "end" {
		delete(in.progress, key)
		cur.Done = true
	} else {
		in.progress[key] = cur
	}
	if busy && !in.busyLocked() {
		in.idleSince = time.Now()
	}
	return cur, true
}

// queue records that devbroker asks the server for work under its own
// token tok (see [Progress.Queued]), and tells the subscribers; the
// function it returns ends the queueing if the server has not begun the
// work by then (it answered without reporting it, or the request ended).
func (in *instance) queue(tok, title string) (end func()) {
	key := "s:" + tok // tokenKey of the string
	p := Progress{Server: in.cfg.Name, Token: key, Title: title, Percentage: -1, Queued: true}
	in.update(func() { in.progress[key] = p })
	in.publish(p)
	return func() {
		var ended bool
		in.update(func() {
			cur, open := in.progress[key]
			if !open || !cur.Queued {
				return
			}
			delete(in.progress, key)
			if !in.busyLocked() {
				in.idleSince = time.Now()
			}
			ended = true
		})
		if ended {
			p.Done = true
			in.publish(p)
		}
	}
}

// openProgress lists the open pieces of work, by token.
func (in *instance) openProgress() []Progress {
	in.mu.Lock()
	defer in.mu.Unlock()
	keys := slices.Sorted(maps.Keys(in.progress))
	out := make([]Progress, len(keys))
	for i, k := range keys {
		out[i] = in.progress[k]
	}
	return out
}

// endProgress ends every open piece of work of a server that exited.
func (in *instance) endProgress() {
	var ended []Progress
	in.update(func() {
		for _, p := range in.progress {
			p.Done = true
			ended = append(ended, p)
		}
		clear(in.progress)
	})
	for _, p := range ended {
		in.publish(p)
	}
}

// ownPrefix starts the tokens devbroker gives the work it asks for
// itself (gopls.diagnose_files reports its run under the request's
// token): that work is the request, not the server being busy.
const ownPrefix = "devbroker-"

var ownTokens atomic.Int64

// ownToken is a new token for work devbroker asks for.
func (in *instance) ownToken() string {
	return ownPrefix + strconv.FormatInt(ownTokens.Add(1), 10)
}

// Own reports whether the piece is the work of a request of devbroker's
// (gopls.diagnose_files reports its run under the request's token), not
// the server's own.
func (p Progress) Own() bool { return own(p.Token) }

// own reports whether a token key is one of devbroker's own.
func own(key string) bool { return strings.HasPrefix(key, "s:"+ownPrefix) }
