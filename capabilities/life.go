package capabilities

// This file defines [Calls], the lifecycle's bookkeeping shared by the set
// and every driver: the calls running now, and the one blocking Close.

import (
	"fmt"
	"sync"

	"github.com/devbroker/devbroker/engine"
)

// Calls counts the running calls of a driver or a set and closes it once.
// Its zero value is ready: open, with no call running. It is safe for
// concurrent use.
type Calls struct {
	mu     sync.Mutex
	wg     sync.WaitGroup
	closed bool
	done   chan struct{} // closed when the first Close finished
	err    error
}

// Begin records a call that starts now; it reports false, recording
// nothing, once Close has begun. Each true Begin needs one End.
func (c *Calls) Begin() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.wg.Add(1)
	return true
}

// End records the end of a call that Begin let start.
func (c *Calls) End() { c.wg.Done() }

// Closed reports whether Close has begun.
func (c *Calls) Closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Close refuses new calls, waits for the running ones to end, then runs
// release (which may be nil) and returns its error. Later calls wait for
// the first to finish and return the same error: Close is idempotent and
// blocking.
func (c *Calls) Close(release func() error) error {
	c.mu.Lock()
	if c.closed {
		done := c.done
		c.mu.Unlock()
		<-done
		return c.err
	}
	c.closed = true
	c.done = make(chan struct{})
	c.mu.Unlock()
	c.wg.Wait()
	if release != nil {
		c.err = release()
	}
	close(c.done)
	return c.err
}

// ClosedResult is the answer of a driver's Run after its Close: crashed,
// saying so, so that it is never taken for a clean answer.
func ClosedResult(name string) *Result {
	return &Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("%s was closed (the drivers were replaced by a re-probe or are shutting down); run the request again", name)}
}
