package main

// This file defines peer: a tiny raw LSP client over gopls that waits for
// diagnostics the way peer bridges document it, not the way devbroker
// does. It sends didOpen/didChange and then either sleeps a fixed time or
// waits for a quiet window (no publishDiagnostics for a while), and takes
// whatever gopls last published for the file, whatever its version: that
// is what those bridges hand to the agent.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/devbroker/devbroker/lsp"
)

// peer is one gopls process and what it has published.
type peer struct {
	cmd      *exec.Cmd
	conn     jsonrpc2.Conn
	settings map[string]any

	mu      sync.Mutex
	diags   map[string][]lsp.Diagnostic // by URI, the last publish
	last    time.Time                   // of the last publish, any URI
	notify  chan struct{}               // closed and replaced on each publish
	version int
}

// startPeer starts gopls on root and initializes it with settings (the
// same as devbroker's, so that only the wait differs).
func startPeer(ctx context.Context, gopls, root string, settings map[string]any) (*peer, error) {
	cmd := exec.Command(gopls)
	cmd.Dir = root
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &peer{cmd: cmd, settings: settings, diags: map[string][]lsp.Diagnostic{}, notify: make(chan struct{})}
	p.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(struct {
		io.Reader
		io.WriteCloser
	}{stdout, stdin}))
	p.conn.Go(context.Background(), p.handle)
	rootURI := lsp.URI(root)
	init := map[string]any{
		"processId":             os.Getpid(),
		"rootUri":               rootURI,
		"workspaceFolders":      []any{map[string]any{"uri": rootURI, "name": "bench"}},
		"initializationOptions": settings,
		"capabilities": map[string]any{
			"workspace":    map[string]any{"configuration": true},
			"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}},
		},
	}
	if _, err := p.conn.Call(ctx, "initialize", init, nil); err != nil {
		p.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if err := p.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// handle records publishes and answers the requests gopls makes.
func (p *peer) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		var pp struct {
			URI         string           `json:"uri"`
			Diagnostics []lsp.Diagnostic `json:"diagnostics"`
		}
		if json.Unmarshal(req.Params(), &pp) == nil {
			p.mu.Lock()
			p.diags[pp.URI] = pp.Diagnostics
			p.last = time.Now()
			close(p.notify)
			p.notify = make(chan struct{})
			p.mu.Unlock()
		}
		return nil
	case "workspace/configuration":
		var cp struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(req.Params(), &cp)
		out := make([]any, len(cp.Items))
		for i := range out {
			out[i] = p.settings
		}
		return reply(ctx, out, nil)
	}
	if _, isCall := req.(*jsonrpc2.Call); isCall {
		return reply(ctx, nil, nil)
	}
	return nil
}

// open opens path at text.
func (p *peer) open(ctx context.Context, path, text string) error {
	p.version++
	return p.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": lsp.URI(path), "languageId": "go", "version": p.version, "text": text,
	}})
}

// change sends path's whole new text.
func (p *peer) change(ctx context.Context, path, text string) error {
	p.version++
	return p.conn.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": lsp.URI(path), "version": p.version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

// published returns the last diagnostics published for path.
func (p *peer) published(path string) []lsp.Diagnostic {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.diags[lsp.URI(path)]
}

// waitQuiet returns once no publishDiagnostics has arrived for quiet,
// counting from since (the change).
func (p *peer) waitQuiet(ctx context.Context, since time.Time, quiet time.Duration) error {
	for {
		p.mu.Lock()
		last, ch := p.last, p.notify
		p.mu.Unlock()
		if last.Before(since) {
			last = since
		}
		left := quiet - time.Since(last)
		if left <= 0 {
			return nil
		}
		t := time.NewTimer(left)
		select {
		case <-ch:
			t.Stop()
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// waitPublish waits until gopls has published for path at least once.
func (p *peer) waitPublish(ctx context.Context, path string) error {
	for {
		p.mu.Lock()
		_, ok := p.diags[lsp.URI(path)]
		ch := p.notify
		p.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// close asks gopls to stop, then kills it.
func (p *peer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := p.conn.Call(ctx, "shutdown", nil, nil); err == nil {
		_ = p.conn.Notify(ctx, "exit", nil)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
	_ = p.conn.Close()
}
