package lspdriver

// This file defines how long one request waits for a language server.
//
// The driver's timeout runs from the request's start (capabilities.Began:
// for a session's call, from when the call began to wait for the driver's
// probe and its server's start, which it waits for outside the session,
// see capabilities.Set.Ready), so that a server that never answers
// initialize holds a request for the timeout, not for the probe's bound.
// A server that is busy before it can answer is not stuck: the driver's
// timeout does not run out while the server is loading its workspace
// (gopls on a large module: its "Setting up workspace" progress is open,
// or its "Analyzing Dependencies" with a cold cache) or has not yet begun
// the request it was sent (lsp.Progress.Queued: gopls takes in the
// documents opened for a check, one at a time, before it begins the
// check). The timeout runs from the request's start or from when the
// server was last busy, whichever is later. The load bound, LoadCeiling
// times the timeout, bounds a wait in which the server reports no
// progress: it runs from the request's start and from the server's last
// progress that said something new (a piece of work begun or ended, a new
// message or percentage), so a load that moves is waited for and one
// that says nothing is not, forever. A request that ends while the server
// is still busy answers indexing, with the diagnostics settled so far.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/lsp"
)

// LoadCeiling bounds a request that waits for a server's load: at most
// this many times the driver's timeout in all. Tests lower it.
var LoadCeiling = 10

// waitingForLoad is called when the timeout ran out while the server was
// loading, so the request waits on; tests set it.
var waitingForLoad = func() {}

// timedOut is the cause of a request that ran out of time.
type timedOut struct {
	after time.Duration
	limit string // which limit
	quiet bool   // the load bound: the server reported no progress
}

func (e *timedOut) Error() string {
	if e.quiet {
		return fmt.Sprintf("no answer and no progress reported for %s (%s)", capabilities.ShortDuration(e.after), e.limit)
	}
	return fmt.Sprintf("no answer within %s (%s)", capabilities.ShortDuration(e.after), e.limit)
}

// Is makes errors.Is(err, context.DeadlineExceeded) true.
func (e *timedOut) Is(target error) bool { return target == context.DeadlineExceeded }

// deadline returns ctx bounded for one request on srv (see the file's
// comment). Its cause, once it ends on time, is a *timedOut.
func (d *Driver) deadline(ctx context.Context, srv *lsp.Server) (context.Context, context.CancelFunc) {
	began := capabilities.Began(ctx)
	from := began
	if end := srv.LoadEnded(); end.After(from) {
		from = end // the server was busy since the request began
	}
	ctx, cancel := context.WithCancelCause(ctx)
	timeout := &timedOut{after: d.timeout, limit: "the driver's timeout"}
	left := time.Until(from.Add(d.timeout))
	if busy, _ := srv.Busy(); left <= 0 && !busy {
		// The wait for the probe and the start took the whole timeout:
		// the request asks the server nothing.
		cancel(timeout)
		return ctx, func() {}
	}
	bound := time.Duration(LoadCeiling) * d.timeout
	quiet := &timedOut{after: bound, quiet: true, limit: fmt.Sprintf("the load bound, %d times the driver's timeout", LoadCeiling)}
	// changed tells of every event; moved of those that say something
	// new: a piece of work begun or ended, a new message or percentage.
	changed, moved := make(chan struct{}, 1), make(chan struct{}, 1)
	signal := func(ch chan struct{}) {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	last := map[string]lsp.Progress{} // by token; the callback's own
	unsubscribe := srv.Subscribe(func(p lsp.Progress) {
		prev, seen := last[p.Token]
		if p.Done {
			delete(last, p.Token)
		} else {
			last[p.Token] = p
		}
		if !seen || p.Done || prev.Message != p.Message || prev.Percentage != p.Percentage || prev.Queued != p.Queued {
			signal(moved)
		}
		signal(changed)
	})
	go func() {
		timer := time.NewTimer(max(left, 0))
		defer timer.Stop()
		silence := time.NewTimer(max(time.Until(began.Add(bound)), 0))
		defer silence.Stop()
		wasBusy, _ := srv.Busy()
		for {
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
				if busy, _ := srv.Busy(); !busy {
					cancel(timeout)
					return
				}
				wasBusy = true
				waitingForLoad()
			case <-silence.C:
				cancel(quiet)
				return
			case <-moved:
				silence.Reset(bound) // the load bound runs from the last progress
			case <-changed:
				busy, _ := srv.Busy()
				if wasBusy && !busy {
					timer.Reset(d.timeout) // the timeout runs from the load's end
				}
				wasBusy = busy
			}
		}
	}()
	return ctx, func() {
		cancel(nil)
		unsubscribe()
	}
}

// cutShort explains an answer that ran out of time: indexing, with the
// diagnostics settled so far, when the server is still busy (loading,
// or not yet at the request); else a timeout that says which limit ended
// it and how to give the driver longer.
func (d *Driver) cutShort(ctx context.Context, srv *lsp.Server, res *capabilities.Result) {
	cause := context.Cause(ctx)
	if cause == nil {
		return
	}
	if errors.Is(cause, context.DeadlineExceeded) {
		res.Message = strings.Replace(res.Message, context.Canceled.Error(), cause.Error(), 1)
	}
	var t *timedOut
	timed := errors.As(cause, &t)
	if busy, what := srv.Busy(); busy {
		res.Status = engine.StatusIndexing
		if !timed {
			res.Message = fmt.Sprintf("%s is still loading the workspace (%s) and the request was cancelled: the diagnostics are those settled so far; ask again when the load has ended", d.name, what)
			return
		}
		how := "after"
		if t.quiet {
			how = "and has reported no progress for"
		}
		res.Message = fmt.Sprintf("%s is still loading the workspace (%s) %s %s (%s): the diagnostics are those settled so far; ask again when the load has ended (a server started again loads faster: its caches are warm); %s",
			d.name, what, how, capabilities.ShortDuration(t.after), t.limit, capabilities.RaiseTimeout(d.name, d.timeout))
		return
	}
	if timed && res.Status == engine.StatusTimeout {
		res.Message += "; the timeout does not count the server's load; " + capabilities.RaiseTimeout(d.name, d.timeout)
	}
}
