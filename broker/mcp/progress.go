package mcp

// This file defines the progress notifications of a tool call. When the
// client sent a progress token in the call's _meta, the call sends
// notifications/progress: what its drivers report (a driver starting its
// phase, a language server loading the workspace: "gopls: Setting up
// workspace: Loading packages..."), and for the long tools a heartbeat
// every ProgressInterval. The notifications go out on a goroutine of the
// call's own, in order, with a progress value that grows by one each
// time, and stop before the call answers.

import (
	"context"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine"
)

// maxPendingNotes bounds the notifications waiting to go out; beyond it,
// later ones are dropped (progress is advice, never the answer).
const maxPendingNotes = 64

// notifier sends one call's progress notifications.
type notifier struct {
	ctx   context.Context
	ss    *sdk.ServerSession
	token any
	notes chan string
	done  chan struct{}

	mu     sync.Mutex
	closed bool
}

type notifierKey struct{}

// relay returns ctx with the call's progress sent as notifications when
// the client asked for them (and end, which stops them; it returns when
// every queued notification is out). Without a token, ctx is returned as
// is.
func (s *Server) relay(ctx context.Context, req *sdk.CallToolRequest) (context.Context, func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return ctx, func() {}
	}
	n := &notifier{ctx: ctx, ss: req.Session, token: token, notes: make(chan string, maxPendingNotes), done: make(chan struct{})}
	go n.run()
	ctx = context.WithValue(ctx, notifierKey{}, n)
	ctx = engine.WithProgress(ctx, func(p engine.Progress) { n.send(p.String()) })
	return ctx, n.end
}

// run sends the queued notifications, numbering them.
func (n *notifier) run() {
	defer close(n.done)
	count := 0
	for msg := range n.notes {
		count++
		_ = n.ss.NotifyProgress(n.ctx, &sdk.ProgressNotificationParams{ProgressToken: n.token, Progress: float64(count), Message: msg})
	}
}

// send queues one notification; a full queue, or the call's end, drops
// it.
func (n *notifier) send(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	select {
	case n.notes <- msg:
	default:
	}
}

func (n *notifier) end() {
	n.mu.Lock()
	if !n.closed {
		n.closed = true
		close(n.notes)
	}
	n.mu.Unlock()
	<-n.done
}

// progress sends a heartbeat for a long call, "<what>: started" and then
// every ProgressInterval how long it has run, if the client gave a
// progress token; stop ends it.
func (s *Server) progress(ctx context.Context, _ *sdk.CallToolRequest, what string) (stop func()) {
	n, ok := ctx.Value(notifierKey{}).(*notifier)
	if !ok {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		tick := time.NewTicker(s.opts.ProgressInterval)
		defer tick.Stop()
		n.send(what + ": started")
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				n.send(fmt.Sprintf("%s: running for %s", what, time.Since(start).Round(time.Second)))
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
