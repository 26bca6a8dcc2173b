package editor

// This file defines [Serve]: one connection, one broker session, and the
// dispatch of its messages.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/jsonarg"
	"github.com/devbroker/devbroker/engine/text"
)

// Options configure [Options.Serve].
type Options struct {
	// Logger receives the endpoint's log; nil discards it. Problems the
	// client should see also go to the client as window/logMessage.
	Logger *slog.Logger
	// ShutdownGrace is how long the request in flight gets to answer when
	// ctx ends, before it is cancelled (default
	// broker.DefaultShutdownGrace). Either way it answers before the
	// connection closes.
	ShutdownGrace time.Duration
}

// Serve serves one editor connection on rwc until the client exits or
// disconnects, or ctx ends: one broker session on root, opened now and
// closed (discarding its unwritten changes) when Serve returns. It returns
// nil when the client went away, and an error when the session could not
// be opened or the connection failed.
func (o Options) Serve(ctx context.Context, rwc io.ReadWriteCloser, mgr *broker.Manager, root string) error {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	given, err := filepath.Abs(root)
	if err != nil {
		rwc.Close()
		return err
	}
	sess, err := mgr.Open(ctx, root)
	if err != nil {
		rwc.Close()
		return err
	}
	defer sess.Close()
	c := &conn{sess: sess, log: log, root: given, exitc: make(chan struct{}), bufs: map[string]*buffer{}, published: map[string]bool{}, unit: text.UTF16, encoding: "utf-16"}
	// Requests run under hard, not ctx: when ctx ends, the request in
	// flight gets the grace period before hard is cancelled.
	hard, cancelHard := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelHard()
	st := newStream(rwc, func(reason string) { log.Warn("refused a malformed message", "reason", reason) })
	c.rpc = jsonrpc2.NewConn(st)
	handle, cancel := jsonrpc2.CancelHandler(jsonrpc2.AsyncHandler(c.handle))
	c.rpc.Go(hard, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		// Cancellation must not wait behind the request it cancels.
		if req.Method() == "$/cancelRequest" {
			var p struct {
				ID jsonrpc2.ID `json:"id"`
			}
			if json.Unmarshal(req.Params(), &p) == nil {
				cancel(p.ID)
			}
			return nil
		}
		c.queued.Add(1) // c.handle counts it down
		return handle(ctx, reply, req)
	})
	sess.OnClose(func() { c.rpc.Close() })
	log.Info("editor session opened", "session", sess.ID(), "root", sess.Root().Dir())
	select {
	case <-c.rpc.Done():
	case <-c.exitc:
		// Done only after the read loop returns, which a blocking read of
		// stdin may never do: exit ends the connection now, once the
		// answers to the requests before it are written (the handler of
		// one message starts as the previous one's answer is being
		// written, so exit must not close the stream itself).
		c.settle(o.grace(), cancelHard)
		c.rpc.Close()
		return nil
	case <-st.ended:
		// The client closed its input after sending what it had: every
		// message already sent is handled and answered, in order, within
		// the grace period (as over MCP), then the connection closes.
		c.settle(o.grace(), cancelHard)
		c.rpc.Close()
		return nil
	case <-ctx.Done():
		// Likewise: closing stdin's stream does not unblock its read, so
		// waiting for Done would hang a SIGTERM until the editor sends
		// something. The request in flight answers first.
		c.drain(o.grace(), cancelHard)
		c.rpc.Close()
		return nil
	}
	if err := c.rpc.Err(); err != nil && !c.exited() && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) && ctx.Err() == nil {
		return err
	}
	return nil
}

// conn is one connection's state. Messages are handled one at a time, in
// the order they arrived (jsonrpc2.AsyncHandler), so a buffer sync always
// lands before the plan sent after it.
type conn struct {
	rpc  jsonrpc2.Conn
	sess *broker.Session
	log  *slog.Logger
	root string // the root as given, absolute: URIs sent to the editor use it

	exitc chan struct{} // closed by the exit notification

	// busy counts requests being handled; draining refuses new ones.
	busy broker.InFlight
	// queued counts the messages received and not yet handled.
	queued   broker.InFlight
	draining bool

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	exit        bool
	diagnostics bool      // publish diagnostics after lint and check
	unit        text.Unit // the negotiated position encoding
	encoding    string
	bufs        map[string]*buffer // open buffers by workspace path
	published   map[string]bool    // URIs with diagnostics published last
}

func (c *conn) exited() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.exit
}

// requests are the methods answered with a result; notifications are
// handled without one. They are set in init, since initialize lists them.
var (
	requests      map[string]func(*conn, context.Context, json.RawMessage) (any, error)
	notifications map[string]func(*conn, context.Context, json.RawMessage) error
)

func init() {
	requests = map[string]func(*conn, context.Context, json.RawMessage) (any, error){
		"initialize":          (*conn).initialize,
		"shutdown":            (*conn).shutdownReq,
		"devbroker/plan":      (*conn).plan,
		"devbroker/editFile":  (*conn).editFile,
		"devbroker/readFile":  (*conn).readFile,
		"devbroker/writeFile": (*conn).writeFile,
		"devbroker/probe":     (*conn).probe,
		"devbroker/discard":   (*conn).discard,
		"devbroker/pending":   (*conn).pending,
	}
	notifications = map[string]func(*conn, context.Context, json.RawMessage) error{
		"initialized":            func(*conn, context.Context, json.RawMessage) error { return nil },
		"exit":                   (*conn).exitNote,
		"textDocument/didOpen":   (*conn).didOpen,
		"textDocument/didChange": (*conn).didChange,
		"textDocument/didClose":  (*conn).didClose,
		"textDocument/didSave":   (*conn).didSave,
	}
}

// methodNames lists the served methods, for initialize.
func methodNames() []string {
	var out []string
	for m := range requests {
		out = append(out, m)
	}
	for m := range notifications {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// handle handles one message. A panic in a handler is answered as an
// internal error; the connection stays up.
func (c *conn) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
	defer c.queued.Add(-1)
	_, isCall := req.(*jsonrpc2.Call)
	replied := false
	answer := func(result any, err error) error {
		replied = true
		// The answer goes out even when the request was cancelled (on
		// shutdown): the stream does not write under a cancelled context.
		wctx := context.WithoutCancel(ctx)
		if err != nil {
			return reply(wctx, nil, wireError(err))
		}
		return reply(wctx, result, nil)
	}
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("panic in a handler", "method", req.Method(), "panic", p, "stack", string(debug.Stack()))
			msg := fmt.Sprintf("devbroker failed handling %s (a bug): %v", req.Method(), p)
			if !replied {
				err = answer(nil, fault.New(fault.Internal, "%s", msg))
			}
			if !isCall {
				c.logMessage(protocol.MessageTypeError, msg)
			}
		}
	}()
	method := req.Method()
	if !isCall {
		defer func() {
			if !replied {
				_ = reply(ctx, nil, nil) // unblocks the next message
			}
		}()
		return c.notify(ctx, method, req.Params())
	}
	fn, ok := requests[method]
	if !ok {
		if _, note := notifications[method]; note {
			// Sent as a request by mistake: handle it and answer null.
			err := c.notify(ctx, method, req.Params())
			return answer(nil, err)
		}
		return answer(nil, newError(jsonrpc2.MethodNotFound, fault.BadArgument, fmt.Sprintf("method %q not found; the endpoint serves %s", method, strings.Join(methodNames(), ", "))))
	}
	c.mu.Lock()
	initialized, shutdown, draining := c.initialized, c.shutdown, c.draining
	if !draining {
		c.busy.Add(1)
		defer c.busy.Add(-1)
	}
	c.mu.Unlock()
	switch {
	case draining:
		return answer(nil, newError(jsonrpc2.InternalError, fault.Unavailable, method+" was not run: devbroker is shutting down; restart it and send the request again"))
	case shutdown && method != "shutdown":
		return answer(nil, newError(jsonrpc2.InvalidRequest, fault.BadArgument, "the server is shutting down (shutdown was requested); send exit"))
	case !initialized && method != "initialize" && method != "shutdown":
		return answer(nil, newError(CodeNotInitialized, fault.BadArgument, method+": the connection is not initialized; send initialize first"))
	}
	result, err := fn(c, ctx, req.Params())
	return answer(result, err)
}

// notify handles one notification. Failures go to the client as
// window/logMessage, since a notification has no answer.
func (c *conn) notify(ctx context.Context, method string, params json.RawMessage) error {
	fn, ok := notifications[method]
	if !ok {
		if !strings.HasPrefix(method, "$/") {
			c.logMessage(protocol.MessageTypeWarning, fmt.Sprintf("devbroker: unknown notification %q ignored", method))
		}
		return nil
	}
	c.mu.Lock()
	initialized := c.initialized
	c.mu.Unlock()
	if !initialized && method != "exit" {
		c.logMessage(protocol.MessageTypeWarning, fmt.Sprintf("devbroker: %s before initialize ignored; send initialize first", method))
		return nil
	}
	if err := fn(c, ctx, params); err != nil {
		c.log.Warn("notification failed", "method", method, "err", err)
		c.logMessage(protocol.MessageTypeError, fmt.Sprintf("devbroker: %s: %v", method, err))
	}
	return nil
}

// logMessage sends window/logMessage.
func (c *conn) logMessage(typ protocol.MessageType, msg string) {
	_ = c.rpc.Notify(context.Background(), "window/logMessage", protocol.LogMessageParams{Type: typ, Message: msg})
}

func (c *conn) shutdownReq(context.Context, json.RawMessage) (any, error) {
	c.mu.Lock()
	c.shutdown = true
	c.mu.Unlock()
	return nil, nil
}

func (c *conn) exitNote(context.Context, json.RawMessage) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.exit {
		c.exit = true
		close(c.exitc) // Serve closes the connection
	}
	return nil
}

// decodeStrict decodes params into v, a pointer to a struct, through the
// front end of its jsonarg.Spec, the one every surface's arguments go
// through: the devbroker/ methods name their parameters exactly, and a
// refusal names the parameter at fault and lists the valid ones.
func decodeStrict(method string, params json.RawMessage, v any) error {
	if err := jsonarg.SpecOf(v).Decode(params, v); err != nil {
		return badParams(method, err)
	}
	return nil
}

// decodeLoose decodes LSP params, ignoring fields the endpoint does not
// use.
func decodeLoose(method string, params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return badParams(method, err)
	}
	return nil
}

func (o Options) grace() time.Duration {
	if o.ShutdownGrace > 0 {
		return o.ShutdownGrace
	}
	return broker.DefaultShutdownGrace
}

// drain refuses new requests, gives the one in flight grace to answer,
// then cancels it (cancel) and waits a bounded time for its answer.
func (c *conn) drain(grace time.Duration, cancel context.CancelFunc) {
	c.mu.Lock()
	c.draining = true
	c.mu.Unlock()
	c.await(&c.busy, grace, cancel, "shutting down")
}

// settle waits, once the input has ended, for the messages already
// received to be handled, as drain does for the requests in flight.
func (c *conn) settle(grace time.Duration, cancel context.CancelFunc) {
	c.await(&c.queued, grace, cancel, "input ended")
}

// await gives what f counts grace to finish, then cancels it (cancel) and
// waits a bounded time for it; why prefixes the log lines.
func (c *conn) await(f *broker.InFlight, grace time.Duration, cancel context.CancelFunc, why string) {
	if f.Wait(grace) {
		return
	}
	c.log.Warn(why+": cancelled the requests still running after the grace period", "grace", grace)
	cancel()
	if !f.Wait(broker.CancelWait) {
		c.log.Warn(why + ": the cancelled requests did not answer")
	}
}
