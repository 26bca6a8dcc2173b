package broker

// This file defines [InFlight]: the count of requests a surface (MCP,
// the editor endpoint) has taken but not answered, which a graceful
// shutdown waits on.

import (
	"sync"
	"time"
)

// DefaultShutdownGrace is how long the requests in flight get to answer
// after a shutdown starts, before they are cancelled.
const DefaultShutdownGrace = 5 * time.Second

// CancelWait bounds the wait for the answers of cancelled requests.
const CancelWait = 5 * time.Second

// InFlight counts requests not yet answered. The zero value is ready to
// use; it is safe for concurrent use.
type InFlight struct {
	mu      sync.Mutex
	n       int
	changed chan struct{} // closed (and replaced) when n changes
}

// Add adds delta (+1 for a request taken, -1 for an answer sent).
func (f *InFlight) Add(delta int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += delta
	if f.changed != nil {
		close(f.changed)
	}
	f.changed = make(chan struct{})
}

// Wait waits until every request taken is answered or timeout passes, and
// reports whether they all were.
func (f *InFlight) Wait(timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		f.mu.Lock()
		if f.changed == nil {
			f.changed = make(chan struct{})
		}
		n, ch := f.n, f.changed
		f.mu.Unlock()
		if n <= 0 {
			return true
		}
		select {
		case <-ch:
		case <-t.C:
			return false
		}
	}
}
