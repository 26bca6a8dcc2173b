package lspdriver

// This file defines how long one request waits for a language server, and
// how the server's own progress reaches the request's listener.
//
// The driver's timeout runs from the request's start (capabilities.Began:
// for a session's call, from when the call began to wait for the driver's
// probe and its server's start, which it waits for outside the session,
// see capabilities.Set.Ready), so that a server that never answers
// initialize holds a request for the timeout, not for the probe's bound.
// A server that is loading its workspace (gopls on a large module: its
// "Setting up workspace" progress is open) is not stuck: the driver's
// timeout does not run out while a load is in flight; it runs from the
// request's start or from when the last load ended, whichever is later.
// LoadCeiling bounds the whole wait. A request that ends while a load is
// still in flight answers indexing, with the diagnostics settled so far.

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
// this many times the driver's timeout in all.
const LoadCeiling = 10

// waitingForLoad is called when the timeout ran out while the server was
// loading, so the request waits on; tests set it.
var waitingForLoad = func() {}

// timedOut is the cause of a request the driver's timeout ended.
type timedOut struct {
	after time.Duration
	limit string // which limit
}

func (e *timedOut) Error() string {
	return fmt.Sprintf("no answer within %s (%s)", e.after, e.limit)
}

// Is makes errors.Is(err, context.DeadlineExceeded) true.
func (e *timedOut) Is(target error) bool { return target == context.DeadlineExceeded }

// deadline returns ctx bounded for one request on srv (see the file's
// comment). Its cause, once it ends on time, is a *timedOut.
func (d *Driver) deadline(ctx context.Context, srv *lsp.Server) (context.Context, context.CancelFunc) {
	began := capabilities.Began(ctx)
	from := began
	if end := srv.LoadEnded(); end.After(from) {
		from = end // a load ended since the request began
	}
	ceiling := time.Duration(LoadCeiling) * d.timeout
	ctx, cancelCeiling := context.WithDeadlineCause(ctx, began.Add(ceiling), &timedOut{ceiling, fmt.Sprintf("%d times the driver's timeout, the most a request waits for a workspace load", LoadCeiling)})
	ctx, cancel := context.WithCancelCause(ctx)
	left := time.Until(from.Add(d.timeout))
	if busy, _ := srv.Busy(); left <= 0 && !busy {
		// The wait for the probe and the start took the whole timeout:
		// the request asks the server nothing.
		cancel(&timedOut{d.timeout, "the driver's timeout"})
		cancelCeiling()
		return ctx, func() {}
	}
	changed := make(chan struct{}, 1)
	unsubscribe := srv.Subscribe(func(lsp.Progress) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	go func() {
		timer := time.NewTimer(max(left, 0))
		defer timer.Stop()
		wasBusy, _ := srv.Busy()
		for {
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
				if busy, _ := srv.Busy(); !busy {
					cancel(&timedOut{d.timeout, "the driver's timeout"})
					return
				}
				wasBusy = true
				waitingForLoad()
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
		cancelCeiling()
		unsubscribe()
	}
}

// relay passes srv's progress to the request's listener, as the driver's.
func (d *Driver) relay(ctx context.Context, srv *lsp.Server) (stop func()) {
	if !engine.WantsProgress(ctx) {
		return func() {}
	}
	return srv.Subscribe(func(p lsp.Progress) {
		engine.ReportProgress(ctx, engine.Progress{
			Driver: d.name, ID: d.name + "/" + p.Token, Title: p.Title,
			Message: p.Message, Percentage: p.Percentage, Done: p.Done,
		})
	})
}

// cutShort explains an answer that ran out of time: indexing, with the
// diagnostics settled so far, when the server is still loading; else a
// timeout that says which limit ended it.
func (d *Driver) cutShort(ctx context.Context, srv *lsp.Server, res *capabilities.Result) {
	cause := context.Cause(ctx)
	if cause == nil {
		return
	}
	if errors.Is(cause, context.DeadlineExceeded) {
		res.Message = strings.Replace(res.Message, context.Canceled.Error(), cause.Error(), 1)
	}
	if busy, what := srv.Busy(); busy {
		res.Status = engine.StatusIndexing
		res.Message = fmt.Sprintf("%s is still loading the workspace (%s) %s: the diagnostics are those settled so far; retry when the load has ended", d.name, what, waited(cause))
	}
}

// waited says how a request that ended with cause ended.
func waited(cause error) string {
	var t *timedOut
	if errors.As(cause, &t) {
		return "after " + t.after.String()
	}
	return "and the request was cancelled"
}
