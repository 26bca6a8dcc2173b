package lsp

// This file defines instance: one running language-server process, its
// connection, and what it has told us (published diagnostics, progress).
// An instance never restarts; Server replaces a dead one.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/devbroker/devbroker/internal/procgroup"
)

// published is the last publishDiagnostics for one URI.
type published struct {
	version int // -1 when the server gave none (a file on disk)
	diags   []Diagnostic
}

// instance is one server process. Its handler runs on the connection's
// reading goroutine, one message at a time, and never blocks.
type instance struct {
	cfg  *Config
	log  *slog.Logger
	cmd  *exec.Cmd
	conn jsonrpc2.Conn
	tail *tailWriter

	caps serverCapabilities
	name string // serverInfo.name, or the command's base name

	exited  chan struct{} // closed when the process has exited
	waitErr error         // the process's exit, set before exited closes

	mu       sync.Mutex
	diags    map[string]published // by URI
	progress map[string]Progress  // open work-done progress, by token key
	publish  func(Progress)       // tells the Server's subscribers; never blocks
	pullRegs map[string]bool      // ids of textDocument/diagnostic registrations
	// watchRegs holds the workspace/didChangeWatchedFiles registrations'
	// watchers, by registration id.
	watchRegs map[string][]fileWatcher
	// idleSince is when the server's own work-done progress last ended
	// with none left open (see Server.LoadEnded).
	idleSince time.Time
	notify    chan struct{}       // closed (and replaced) on every change above
	sink      func(WorkspaceEdit) // receives workspace/applyEdit, or nil
}

// start starts the server process and initializes it. On any error the
// process is gone when start returns.
// Its work-done progress goes to publish.
func start(ctx context.Context, cfg *Config, log *slog.Logger, publish func(Progress)) (*instance, error) {
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir = cfg.Root
	cmd.Env = append(os.Environ(), cfg.Env...)
	procgroup.Set(cmd)
	in := &instance{
		cfg: cfg, log: log, cmd: cmd, tail: &tailWriter{max: 4096},
		exited: make(chan struct{}), diags: map[string]published{},
		progress: map[string]Progress{}, publish: publish, pullRegs: map[string]bool{}, watchRegs: map[string][]fileWatcher{}, notify: make(chan struct{}),
	}
	var stderr io.Writer = in.tail
	if cfg.Stderr != nil {
		stderr = io.MultiWriter(in.tail, cfg.Stderr)
	}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s: %w", ErrNotInstalled, cfg.Command[0], err)
		}
		return nil, fmt.Errorf("starting %s: %w", cfg.Command[0], err)
	}
	go func() {
		in.waitErr = cmd.Wait()
		close(in.exited)
		in.endProgress()
	}()
	in.conn = jsonrpc2.NewConn(newBoundedStream(&pipe{r: stdout, w: stdin}, MaxMessageBytes))
	in.conn.Go(context.Background(), in.handle)
	in.name = cfg.Name
	if err := in.initialize(ctx); err != nil {
		in.kill()
		<-in.exited
		return nil, err
	}
	log.Info("language server started", "server", in.name, "root", cfg.Root, "pid", cmd.Process.Pid)
	return in, nil
}

// pipe joins the server's stdout and stdin into one stream.
type pipe struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p *pipe) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipe) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p *pipe) Close() error {
	err := p.w.Close()
	if err2 := p.r.Close(); err == nil {
		err = err2
	}
	return err
}

func (in *instance) initialize(ctx context.Context) error {
	root := string(uri.File(in.cfg.Root))
	params := map[string]any{
		"processId":             os.Getpid(),
		"clientInfo":            map[string]any{"name": "devbroker"},
		"rootUri":               root,
		"workspaceFolders":      []any{map[string]any{"uri": root, "name": baseName(in.cfg.Root)}},
		"initializationOptions": in.cfg.Settings,
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"applyEdit":              true,
				"workspaceEdit":          map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}, "failureHandling": "abort"},
				"symbol":                 map[string]any{"symbolKind": map[string]any{"valueSet": symbolKindSet()}},
				"configuration":          true,
				"workspaceFolders":       true,
				"didChangeConfiguration": map[string]any{"dynamicRegistration": true},
				"didChangeWatchedFiles":  map[string]any{"dynamicRegistration": true},
				"executeCommand":         map[string]any{"dynamicRegistration": true},
			},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"dynamicRegistration": true, "didSave": false},
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true, "tagSupport": map[string]any{"valueSet": []int{1, 2}}},
				"diagnostic":         map[string]any{"dynamicRegistration": true, "relatedDocumentSupport": false},
				"formatting":         map[string]any{"dynamicRegistration": true},
				// The requests that answer about code: offered in the
				// initialize answer (no dynamic registration), read by
				// navcaps.go.
				"definition":     map[string]any{"linkSupport": true},
				"references":     map[string]any{},
				"hover":          map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
				"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true, "symbolKind": map[string]any{"valueSet": symbolKindSet()}},
				"rename":         map[string]any{"prepareSupport": true},
				"codeAction": map[string]any{
					"dynamicRegistration": true,
					"isPreferredSupport":  true,
					"disabledSupport":     true,
					"dataSupport":         true,
					"resolveSupport":      map[string]any{"properties": []string{"edit"}},
					"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{
						"", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite", "source", "source.organizeImports", "source.fixAll",
					}}},
				},
			},
			"window":  map[string]any{"workDoneProgress": true},
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
		},
	}
	var res initializeResult
	if err := in.call(ctx, protocol.MethodInitialize, params, &res); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	in.caps = res.Capabilities
	if res.ServerInfo != nil && res.ServerInfo.Name != "" {
		in.name = res.ServerInfo.Name
	}
	if err := in.conn.Notify(ctx, protocol.MethodInitialized, map[string]any{}); err != nil {
		return fmt.Errorf("initialized: %w", in.failure(err))
	}
	if len(in.cfg.Settings) > 0 {
		_ = in.conn.Notify(ctx, protocol.MethodWorkspaceDidChangeConfiguration, map[string]any{"settings": in.cfg.Settings})
	}
	return nil
}

// symbolKindSet is every LSP SymbolKind (1 to 26), which the client
// accepts.
func symbolKindSet() []int {
	out := make([]int, len(symbolKinds)-1)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func baseName(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// errConnClosed cancels a call whose connection went away.
var errConnClosed = errors.New("connection closed")

// call sends a request and waits for its answer, for ctx, or for the
// connection to die, whichever comes first. A dead server gives an error
// wrapping ErrExited.
func (in *instance) call(ctx context.Context, method string, params, result any) error {
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case <-in.conn.Done():
			cancel(errConnClosed)
		case <-cctx.Done():
		}
	}()
	_, err := in.conn.Call(cctx, method, params, result)
	if err == nil {
		return nil
	}
	if errors.Is(context.Cause(cctx), errConnClosed) {
		return in.failure(err)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: no answer: %w", method, ctx.Err())
	}
	return in.failure(err)
}

// notifyServer sends a notification.
func (in *instance) notifyServer(ctx context.Context, method string, params any) error {
	if err := in.conn.Notify(ctx, method, params); err != nil {
		return in.failure(err)
	}
	return nil
}

// failure turns a connection error into an *ExitError when the process
// has exited (or exits very soon), else returns err.
func (in *instance) failure(err error) error {
	select {
	case <-in.conn.Done():
		// The connection's own failure says why it ended (a message over
		// the limit, say); a call's error only says it was cancelled.
		if cerr := in.conn.Err(); cerr != nil {
			err = cerr
		}
	default:
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) {
			return err // an error answer: the server is alive
		}
	}
	select {
	case <-in.exited:
	case <-time.After(time.Second):
		// The connection broke but the process lives (garbage on the
		// wire): it is no use any more.
		in.kill()
		<-in.exited
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			err = errConnClosed // a disconnection, never a timeout
		}
		return &ExitError{Server: in.name, Err: fmt.Errorf("the connection broke: %w", err), Stderr: in.tail.String()}
	}
	return &ExitError{Server: in.name, Err: in.waitErr, Stderr: in.tail.String()}
}

// alive reports whether the process is running and its connection open.
func (in *instance) alive() bool {
	select {
	case <-in.exited:
		return false
	case <-in.conn.Done():
		return false
	default:
		return true
	}
}

// handle answers the server's requests and records its notifications. It
// runs on the connection's goroutine and must not block; it always
// returns nil, because an error would close the connection.
func (in *instance) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	params := req.Params()
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p publishDiagnosticsParams
		if err := json.Unmarshal(params, &p); err != nil {
			in.log.Warn("language server sent malformed diagnostics", "server", in.name, "err", err)
			return nil
		}
		v := -1
		if p.Version != nil {
			v = *p.Version
		}
		in.update(func() { in.diags[p.URI] = published{version: v, diags: p.Diagnostics} })
		return nil
	case protocol.MethodProgress:
		var p progressParams
		if err := json.Unmarshal(params, &p); err != nil || len(p.Token) == 0 {
			return nil
		}
		var ev Progress
		ok := false
		in.update(func() { ev, ok = in.progressEvent(&p) })
		if ok {
			in.publish(ev)
		}
		return nil
	case protocol.MethodClientRegisterCapability:
		// Pull diagnostics matter (a server that registers them rather
		// than offering them in initialize may stop pushing), and the
		// files a server watches (changes on disk are sent for those).
		var p registrationParams
		_ = json.Unmarshal(params, &p)
		in.update(func() {
			for _, r := range p.Registrations {
				switch r.Method {
				case methodDiagnostic:
					in.pullRegs[r.ID] = true
				case methodDidChangeWatchedFiles:
					in.watchRegs[r.ID] = fileWatchers(r.RegisterOptions)
				}
			}
		})
		return reply(ctx, nil, nil)
	case protocol.MethodClientUnregisterCapability:
		var p unregistrationParams
		_ = json.Unmarshal(params, &p)
		in.update(func() {
			for _, r := range p.Unregistrations {
				delete(in.pullRegs, r.ID)
				delete(in.watchRegs, r.ID)
			}
		})
		return reply(ctx, nil, nil)
	case protocol.MethodWorkDoneProgressCreate:
		return reply(ctx, nil, nil)
	case protocol.MethodWorkspaceConfiguration:
		var p configurationParams
		_ = json.Unmarshal(params, &p)
		out := make([]any, len(p.Items))
		for i, item := range p.Items {
			out[i] = in.cfg.section(item.Section)
		}
		return reply(ctx, out, nil)
	case protocol.MethodWorkspaceApplyEdit:
		var p applyEditParams
		if err := json.Unmarshal(params, &p); err != nil {
			return reply(ctx, map[string]any{"applied": false, "failureReason": "malformed edit"}, nil)
		}
		in.mu.Lock()
		sink := in.sink
		in.mu.Unlock()
		if sink == nil {
			return reply(ctx, map[string]any{"applied": false, "failureReason": "devbroker applies edits only while it runs a command"}, nil)
		}
		sink(p.Edit)
		return reply(ctx, applyEditResult{Applied: true}, nil)
	case "workspace/workspaceFolders":
		root := string(uri.File(in.cfg.Root))
		return reply(ctx, []any{map[string]any{"uri": root, "name": baseName(in.cfg.Root)}}, nil)
	case "window/showMessageRequest", "workspace/diagnostic/refresh", "workspace/codeLens/refresh", "workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/inlineValue/refresh":
		return reply(ctx, nil, nil)
	case "window/logMessage", "window/showMessage", "telemetry/event":
		in.log.Debug("language server message", "server", in.name, "method", req.Method(), "params", string(params))
		return nil
	}
	if _, isCall := req.(*jsonrpc2.Call); isCall {
		return reply(ctx, nil, fmt.Errorf("%q: %w", req.Method(), jsonrpc2.ErrMethodNotFound))
	}
	return nil
}

// update changes the recorded state under the lock and wakes waiters.
func (in *instance) update(f func()) {
	in.mu.Lock()
	f()
	close(in.notify)
	in.notify = make(chan struct{})
	in.mu.Unlock()
}

// waitUntil waits until cond (called with in.mu held) holds, ctx ends, or
// the server dies.
func (in *instance) waitUntil(ctx context.Context, cond func() bool) error {
	for {
		in.mu.Lock()
		ok, ch := cond(), in.notify
		in.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-in.conn.Done():
			return in.failure(errConnClosed)
		}
	}
}

// indexing reports whether work-done progress has begun and not ended
// (but for devbroker's own requests), or a request of devbroker's is
// queued, and the titles and messages.
func (in *instance) indexing() (bool, string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	var titles []string
	for key, p := range in.progress {
		if own(key) && !p.Queued {
			continue
		}
		titles = append(titles, p.Describe())
	}
	slices.Sort(titles)
	return len(titles) > 0, strings.Join(titles, "; ")
}

// shutdown asks the server to stop (shutdown, exit), waits up to grace,
// then kills it. It returns when the process is gone.
func (in *instance) shutdown(grace time.Duration) {
	if in.alive() {
		ctx, cancel := context.WithTimeout(context.Background(), grace)
		if in.call(ctx, protocol.MethodShutdown, nil, nil) == nil {
			_ = in.conn.Notify(ctx, protocol.MethodExit, nil)
		}
		cancel()
		select {
		case <-in.exited:
		case <-time.After(grace):
		}
	}
	in.kill()
	<-in.exited
	in.log.Info("language server stopped", "server", in.name, "root", in.cfg.Root)
}

// kill kills the process group and closes the connection.
func (in *instance) kill() {
	select {
	case <-in.exited:
	default:
		_ = procgroup.Kill(in.cmd.Process)
	}
	_ = in.conn.Close()
}

// pid is the process id.
func (in *instance) pid() int { return in.cmd.Process.Pid }

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	t.mu.Unlock()
	return len(b), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
