// Package lsptest holds fake language servers for fault-injection tests:
// a test binary re-executes itself with [EnvVar] set, and its TestMain
// calls [Main], which serves the named fault on stdin and stdout.
package lsptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// EnvVar names the fake a re-executed test binary plays.
const EnvVar = "DEVBROKER_FAKE_LSP"

// Fakes.
const (
	// Hang reads everything and never answers.
	Hang = "hang"
	// Crash exits with status 3 on initialize, after a line on stderr.
	Crash = "crash"
	// Garbage initializes, then answers every change with malformed and
	// out-of-range diagnostics, then a correct publish.
	Garbage = "garbage"
	// Babble initializes, then writes bytes that are not JSON-RPC.
	Babble = "babble"
	// Push initializes and publishes one warning per document version,
	// with work-done progress around it: a well-behaved push-only server.
	Push = "push"
	// RegisterPull initializes without pull diagnostics in its
	// capabilities, registers them (client/registerCapability) when the
	// first document opens, never pushes, and answers
	// textDocument/diagnostic with one warning quoting the document's
	// first line: pyright's way.
	RegisterPull = "register-pull"
	// PullAndPush is RegisterPull that also pushes, without a version,
	// one warning per document it opens or changes, and none when it
	// closes one: typescript-language-server's late pushes, which can
	// describe a document after devbroker has closed it.
	PullAndPush = "pull-and-push"
	// ExitMidRequest initializes offering pull diagnostics, and exits
	// (status 0, a line on stderr) when asked for them, without answering.
	ExitMidRequest = "exit-mid-request"
	// CloseMidRequest initializes offering pull diagnostics, and when
	// asked for them closes its stdout without answering and lives on.
	CloseMidRequest = "close-mid-request"
	// HugeMessage initializes offering pull diagnostics, and answers a
	// pull with a header announcing a 1 GiB message, then a few bytes of
	// it, and lives on.
	HugeMessage = "huge-message"
	// LoadForever initializes, opens a work-done progress "Loading
	// packages" (window/workDoneProgress/create, then begin) on
	// initialized and never ends it, and publishes one warning per
	// document version: a server that never finishes loading its
	// workspace, whose diagnostics so far are settled.
	LoadForever = "load-forever"
	// LoadLate is LoadForever whose load ends (the progress's end) when
	// the process gets SIGUSR1, on the platforms that have it.
	LoadLate = "load-late"
	// LoadMoving is LoadLate that also reports its load's progress, a new
	// message ("Loaded N packages") each time the process gets SIGUSR2.
	LoadMoving = "load-moving"
	// NoRename initializes offering definition, references, hover and
	// document symbols but not rename (nor code actions, workspace
	// symbols or formatting), and answers each with one thing at the
	// start of the document asked about: a server that lacks a
	// capability.
	NoRename = "no-rename"
	// HangInRoot is Push, but in a root that holds a file named
	// HangMarker it never answers initialize (nor anything after): a
	// server that passes its probe (on a root of its own) and hangs at
	// its start on the project.
	HangInRoot = "hang-in-root"
	// OldTSServer initializes offering typescript.tsserverRequest, as
	// typescript-language-server does, and answers as a tsserver older
	// than TypeScript 4.2: fileReferences is an unknown command (an error
	// answer), projectInfo names a tsconfig.json, diagnostics are empty.
	OldTSServer = "old-tsserver"
)

// HangMarker is the file whose presence in its root makes HangInRoot
// hang.
const HangMarker = "hang-here"

// PIDFileVar names a file a fake writes its process id to when it starts,
// when set.
const PIDFileVar = "DEVBROKER_FAKE_LSP_PIDFILE"

// midRequest reports whether mode fails on a pull diagnostics request.
func midRequest(mode string) bool {
	return mode == ExitMidRequest || mode == CloseMidRequest || mode == HugeMessage
}

// Main serves the fake named by $DEVBROKER_FAKE_LSP and exits; it
// returns at once when the variable is not set.
func Main() {
	mode := os.Getenv(EnvVar)
	if mode == "" {
		return
	}
	if f := os.Getenv(PIDFileVar); f != "" {
		_ = os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	if proxy(mode) {
		runProxy(mode, os.Stdin, os.Stdout)
	} else {
		serve(mode, os.Stdin, os.Stdout)
	}
	os.Exit(0)
}

type msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
}

func serve(mode string, r io.Reader, w io.Writer) {
	br := bufio.NewReader(r)
	var wmu sync.Mutex
	send := func(v any) {
		b, _ := json.Marshal(v)
		wmu.Lock()
		defer wmu.Unlock()
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	texts := map[string]string{} // by URI
	registered := false
	for {
		m, err := read(br)
		if err != nil {
			return
		}
		if mode == Hang {
			continue
		}
		switch m.Method {
		case "": // the answer to a request of ours
			continue
		case "initialize":
			if mode == HangInRoot && markedRoot(m.Params) {
				mode = Hang
				continue
			}
			if mode == Crash {
				fmt.Fprintln(os.Stderr, "fake: crashing on initialize")
				os.Exit(3)
			}
			caps := map[string]any{"textDocumentSync": 1}
			if midRequest(mode) {
				caps["diagnosticProvider"] = map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}
			}
			if mode == OldTSServer {
				caps["executeCommandProvider"] = map[string]any{"commands": []string{"typescript.tsserverRequest"}}
			}
			if mode == NoRename {
				for _, c := range []string{"definitionProvider", "referencesProvider", "hoverProvider", "documentSymbolProvider"} {
					caps[c] = true
				}
			}
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{
				"capabilities": caps,
				"serverInfo":   map[string]any{"name": "fake-" + mode},
			}})
		case "initialized":
			if mode == LoadForever || mode == LoadLate || mode == LoadMoving {
				load(mode, send)
			}
		case "shutdown":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		case "exit":
			return
		case "textDocument/didOpen", "textDocument/didChange":
			var p struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version int    `json:"version"`
					Text    string `json:"text"`
				} `json:"textDocument"`
				ContentChanges []struct {
					Text string `json:"text"`
				} `json:"contentChanges"`
			}
			_ = json.Unmarshal(m.Params, &p)
			u, v := p.TextDocument.URI, p.TextDocument.Version
			texts[u] = p.TextDocument.Text
			if n := len(p.ContentChanges); n > 0 {
				texts[u] = p.ContentChanges[n-1].Text
			}
			pub := func(params any) {
				send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params})
			}
			switch mode {
			case Babble:
				fmt.Fprintf(w, "Content-Length: 9\r\n\r\nnot json!")
				fmt.Fprintf(w, "garbage without a header\r\n\r\n")
			case Garbage:
				pub("not an object")
				pub(map[string]any{"uri": 42, "diagnostics": "none"})
				pub(map[string]any{"uri": u, "version": "seven", "diagnostics": []any{1, 2}})
				send(map[string]any{"jsonrpc": "2.0", "method": "$/progress", "params": map[string]any{"token": []int{1}, "value": 5}})
				send(map[string]any{"jsonrpc": "2.0", "id": "x1", "method": "no/such/method", "params": nil})
				pub(map[string]any{"uri": u, "version": v, "diagnostics": []any{
					map[string]any{"range": map[string]any{"start": map[string]any{"line": 99999, "character": -4}, "end": map[string]any{"line": -1, "character": 1 << 30}}, "severity": 99, "message": "out of range", "code": []int{1}},
					map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 3}}, "severity": 1, "message": "fake error v" + strconv.Itoa(v), "code": 7},
				}})
			case RegisterPull, PullAndPush:
				if mode == PullAndPush {
					pub(map[string]any{"uri": u, "diagnostics": []any{
						map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 1}}, "severity": 2, "message": "push: " + u},
					}})
				}
				if !registered {
					registered = true
					send(map[string]any{"jsonrpc": "2.0", "id": "reg1", "method": "client/registerCapability", "params": map[string]any{"registrations": []any{
						map[string]any{"id": "pull-1", "method": "textDocument/diagnostic", "registerOptions": map[string]any{"interFileDependencies": true}},
					}}})
				}
			case LoadForever, LoadLate, LoadMoving:
				pub(map[string]any{"uri": u, "version": v, "diagnostics": []any{
					map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 1}}, "severity": 2, "message": "settled v" + strconv.Itoa(v)},
				}})
			case Push, HangInRoot:
				tok := "t" + strconv.Itoa(v)
				send(map[string]any{"jsonrpc": "2.0", "method": "$/progress", "params": map[string]any{"token": tok, "value": map[string]any{"kind": "begin", "title": "checking"}}})
				pub(map[string]any{"uri": u, "version": v, "diagnostics": []any{
					map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 1}}, "severity": 2, "message": "push v" + strconv.Itoa(v)},
				}})
				send(map[string]any{"jsonrpc": "2.0", "method": "$/progress", "params": map[string]any{"token": tok, "value": map[string]any{"kind": "end"}}})
			}
		case "textDocument/diagnostic":
			switch mode {
			case ExitMidRequest:
				fmt.Fprintln(os.Stderr, "fake: exiting mid-request")
				os.Exit(0)
			case CloseMidRequest:
				os.Stdout.Close()
				time.Sleep(time.Hour) // until killed
			case HugeMessage:
				fmt.Fprintf(w, "Content-Length: %d\r\n\r\n{\"jsonrpc\":", 1<<30)
				time.Sleep(time.Hour) // until killed
			}
			var p struct {
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
			}
			_ = json.Unmarshal(m.Params, &p)
			first, _, _ := strings.Cut(texts[p.TextDocument.URI], "\n")
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"kind": "full", "items": []any{
				map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 1}}, "severity": 2, "message": "pull: " + first},
			}}})
		case "workspace/executeCommand":
			if mode == OldTSServer {
				send(oldTSServer(m))
				continue
			}
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "not found"}})
		case "textDocument/definition", "textDocument/references", "textDocument/hover", "textDocument/documentSymbol":
			if mode != NoRename {
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "not found"}})
				continue
			}
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": navAnswer(m)})
		default:
			if len(m.ID) > 0 {
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "not found"}})
			}
		}
	}
}

// markedRoot reports whether initialize's params name a root that holds
// HangMarker.
func markedRoot(params json.RawMessage) bool {
	var p struct {
		RootURI string `json:"rootUri"`
	}
	_ = json.Unmarshal(params, &p)
	dir, ok := strings.CutPrefix(p.RootURI, "file://")
	if !ok {
		return false
	}
	if u, err := url.PathUnescape(dir); err == nil {
		dir = u
	}
	_, err := os.Stat(filepath.Join(filepath.FromSlash(dir), HangMarker))
	return err == nil
}

// oldTSServer is OldTSServer's answer to workspace/executeCommand.
func oldTSServer(m *msg) any {
	var p struct {
		Arguments []json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(m.Params, &p)
	var command string
	if len(p.Arguments) > 0 {
		_ = json.Unmarshal(p.Arguments[0], &command)
	}
	switch command {
	case "projectInfo":
		return map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"success": true, "body": map[string]any{"configFileName": "/project/tsconfig.json"}}}
	case "syntacticDiagnosticsSync", "semanticDiagnosticsSync":
		return map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"success": true, "body": []any{}}}
	}
	return map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32603, "message": "<semantic> TypeScript Server Error (4.1.6)\nUnrecognized JSON command: " + command + "\n    at stack"}}
}

// navAnswer is NoRename's answer to a request about code: one thing at
// the start of the document asked about.
func navAnswer(m *msg) any {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	_ = json.Unmarshal(m.Params, &p)
	start := map[string]any{"line": 0, "character": 0}
	rng := map[string]any{"start": start, "end": map[string]any{"line": 0, "character": 1}}
	switch m.Method {
	case "textDocument/hover":
		return map[string]any{"contents": map[string]any{"kind": "markdown", "value": "fake hover"}}
	case "textDocument/documentSymbol":
		return []any{map[string]any{"name": "x", "kind": 13, "range": rng, "selectionRange": rng}}
	}
	return []any{map[string]any{"uri": p.TextDocument.URI, "range": rng}}
}

// load opens the fake's workspace load; LoadLate's and LoadMoving's end
// on loadEnd, and LoadMoving reports on each loadReport.
func load(mode string, send func(any)) {
	var end, report <-chan struct{}
	if mode == LoadLate || mode == LoadMoving {
		end = loadEnd() // listening before the load begins
	}
	if mode == LoadMoving {
		report = loadReport()
	}
	send(map[string]any{"jsonrpc": "2.0", "id": "create-1", "method": "window/workDoneProgress/create", "params": map[string]any{"token": "load"}})
	send(map[string]any{"jsonrpc": "2.0", "method": "$/progress", "params": map[string]any{"token": "load", "value": map[string]any{"kind": "begin", "title": "Setting up workspace", "message": "Loading packages..."}}})
	if end == nil {
		return
	}
	go func() {
		for n := 1; ; n++ {
			select {
			case <-report:
				send(map[string]any{"jsonrpc": "2.0", "method": "$/progress", "params": map[string]any{"token": "load", "value": map[string]any{"kind": "report", "message": "Loaded " + strconv.Itoa(n) + " packages"}}})
				continue
			case <-end:
			}
			break
		}
		send(map[string]any{"jsonrpc": "2.0", "method": "$/progress", "params": map[string]any{"token": "load", "value": map[string]any{"kind": "end", "message": "Finished loading packages."}}})
	}()
}

func read(br *bufio.Reader) (*msg, error) {
	n := -1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("no Content-Length")
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(br, b); err != nil {
		return nil, err
	}
	var m msg
	_ = json.Unmarshal(b, &m)
	return &m, nil
}
