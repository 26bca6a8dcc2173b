package mcp

// This file defines graceful shutdown: [Server.Drain] stops new tool
// calls, gives the calls in flight a grace period to answer, then cancels
// them (a cancelled call still answers, with its timeout status) and waits
// a bounded time for those answers to be sent. Answers are counted where
// they leave: on the stdio connection's writer, or when an HTTP request
// that carried a call ends.

import (
	"context"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/engine/fault"
)

// DefaultShutdownGrace is how long in-flight calls get to answer after a
// shutdown starts, before they are cancelled.
const DefaultShutdownGrace = broker.DefaultShutdownGrace

// drainState is the server's view of calls in flight.
type drainState struct {
	mu       sync.Mutex
	draining bool
	cancels  map[*int]context.CancelFunc
	// answers counts requests whose answer has not been sent yet.
	answers broker.InFlight
}

func (d *drainState) init() {
	d.cancels = map[*int]context.CancelFunc{}
}

// track is the receiving middleware of tool calls: refused while
// draining, otherwise run under a context Drain can cancel.
func (s *Server) track(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		d := &s.drain
		d.mu.Lock()
		if d.draining {
			d.mu.Unlock()
			name := ""
			if cr, ok := req.(*sdk.CallToolRequest); ok && cr.Params != nil {
				name = cr.Params.Name
			}
			err := fault.New(fault.Unavailable, "devbroker is shutting down: %s was not run; reconnect to a running server and call it again", name)
			return failure(name, err), nil
		}
		ctx, cancel := context.WithCancel(ctx)
		key := new(int)
		d.cancels[key] = cancel
		d.mu.Unlock()
		defer func() {
			d.mu.Lock()
			delete(d.cancels, key)
			d.mu.Unlock()
			cancel()
		}()
		return next(ctx, method, req)
	}
}

// Drain stops new tool calls (they are answered with an error saying the
// server is shutting down), waits up to grace for the answers in flight,
// then cancels the calls still running and waits a bounded time for their
// answers. It reports whether every answer was sent.
func (s *Server) Drain(grace time.Duration) bool {
	d := &s.drain
	d.mu.Lock()
	d.draining = true
	d.mu.Unlock()
	if d.answers.Wait(grace) {
		return true
	}
	d.mu.Lock()
	n := len(d.cancels)
	for _, cancel := range d.cancels {
		cancel()
	}
	d.mu.Unlock()
	s.log.Warn("shutting down: cancelled the calls still running after the grace period", "calls", n, "grace", grace)
	return d.answers.Wait(broker.CancelWait)
}

// drainHTTP counts the HTTP requests in flight (each carries at most one
// call's answer) and refuses new ones while draining.
func (s *Server) drainHTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		d := &s.drain
		d.mu.Lock()
		draining := d.draining
		d.mu.Unlock()
		if draining {
			w.Header().Set("Connection", "close")
			http.Error(w, "devbroker: the server is shutting down; reconnect to a running server", http.StatusServiceUnavailable)
			return
		}
		d.answers.Add(1)
		defer d.answers.Add(-1)
		next.ServeHTTP(w, r)
	})
}
