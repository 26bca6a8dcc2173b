package main

// This file is the baseline: a minimal raw LSP client of gopls (not
// devbroker's lsp package) that initializes, opens the asked files and
// sends textDocument/definition and textDocument/references, timing only
// the request. It answers gopls's own requests the way a bare editor
// does: an empty configuration, nothing else.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf16"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"
)

// goplsClient is one gopls process over stdio.
type goplsClient struct {
	cmd  *exec.Cmd
	conn jsonrpc2.Conn
	root string
	open map[string]bool
}

// startGopls starts gopls on root and initializes it.
func startGopls(ctx context.Context, t *tools, root string) (*goplsClient, error) {
	cmd := exec.Command(t.gopls)
	cmd.Dir, cmd.Env, cmd.Stderr = root, t.env(), io.Discard
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
	g := &goplsClient{cmd: cmd, root: root, open: map[string]bool{}}
	g.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(struct {
		io.Reader
		io.WriteCloser
	}{stdout, stdin}))
	g.conn.Go(context.Background(), g.handle)
	rootURI := uri.File(root)
	init := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          rootURI,
		"workspaceFolders": []any{map[string]any{"uri": rootURI, "name": "bench"}},
		"capabilities":     map[string]any{"workspace": map[string]any{"configuration": true}},
	}
	if _, err := g.conn.Call(ctx, "initialize", init, nil); err != nil {
		g.close()
		return nil, fmt.Errorf("gopls initialize: %w", err)
	}
	if err := g.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		g.close()
		return nil, err
	}
	return g, nil
}

// handle answers gopls's requests: an empty configuration per item, null
// to anything else.
func (g *goplsClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if _, isCall := req.(*jsonrpc2.Call); !isCall {
		return nil
	}
	if req.Method() == "workspace/configuration" {
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(req.Params(), &p)
		out := make([]any, len(p.Items))
		for i := range out {
			out[i] = map[string]any{}
		}
		return reply(ctx, out, nil)
	}
	return reply(ctx, nil, nil)
}

// didOpen opens the file (a slash path relative to the root) once.
func (g *goplsClient) didOpen(ctx context.Context, file string) error {
	if g.open[file] {
		return nil
	}
	abs := filepath.Join(g.root, filepath.FromSlash(file))
	text, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	g.open[file] = true
	return g.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri.File(abs), "languageId": "go", "version": 1, "text": string(text),
	}})
}

// lspLocation is an LSP Location: 0-based lines, UTF-16 characters.
type lspLocation struct {
	URI   string `json:"uri"`
	Range struct {
		Start struct {
			Line      int `json:"line"`
			Character int `json:"character"`
		} `json:"start"`
	} `json:"range"`
}

// ask sends method ("textDocument/definition" or
// "textDocument/references") at file's line (1-based) and char (UTF-16,
// 0-based), and returns the locations and how long the request took.
func (g *goplsClient) ask(ctx context.Context, method, file string, line, char int) ([]lspLocation, time.Duration, error) {
	if err := g.didOpen(ctx, file); err != nil {
		return nil, 0, err
	}
	params := map[string]any{
		"textDocument": map[string]any{"uri": uri.File(filepath.Join(g.root, filepath.FromSlash(file)))},
		"position":     map[string]any{"line": line - 1, "character": char},
	}
	if method == "textDocument/references" {
		params["context"] = map[string]any{"includeDeclaration": false}
	}
	var locs []lspLocation
	t0 := time.Now()
	_, err := g.conn.Call(ctx, method, params, &locs)
	d := time.Since(t0)
	if err != nil {
		return nil, d, fmt.Errorf("gopls %s: %w", method, err)
	}
	return locs, d, nil
}

// places turns LSP locations into places under root (1-based, columns in
// characters), reading each file once.
func places(root string, locs []lspLocation) ([]place, error) {
	lines := map[string][]string{}
	out := make([]place, 0, len(locs))
	for _, l := range locs {
		abs := uri.URI(l.URI).Filename()
		rel, err := filepath.Rel(root, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("gopls answered a location outside the root: %s", l.URI)
		}
		ls, ok := lines[abs]
		if !ok {
			data, err := os.ReadFile(abs)
			if err != nil {
				return nil, err
			}
			ls = strings.Split(string(data), "\n")
			lines[abs] = ls
		}
		line, char := l.Range.Start.Line, l.Range.Start.Character
		if line >= len(ls) {
			return nil, fmt.Errorf("gopls answered line %d of %s, which has %d", line+1, rel, len(ls))
		}
		out = append(out, place{path: filepath.ToSlash(rel), line: line + 1, column: charColumn(ls[line], char)})
	}
	return out, nil
}

// charColumn is the 1-based character column of UTF-16 offset char in
// line.
func charColumn(line string, char int) int {
	units, col := 0, 1
	for _, r := range line {
		if units >= char {
			break
		}
		units += len(utf16.Encode([]rune{r}))
		col++
	}
	return col
}

// close asks gopls to stop, then kills it.
func (g *goplsClient) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := g.conn.Call(ctx, "shutdown", nil, nil); err == nil {
		_ = g.conn.Notify(ctx, "exit", nil)
	}
	done := make(chan error, 1)
	go func() { done <- g.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = g.cmd.Process.Kill()
		<-done
	}
	_ = g.conn.Close()
}
