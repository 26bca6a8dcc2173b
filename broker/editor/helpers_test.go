package editor_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/editor"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// checker is a check driver that reports every "BAD" in the workspace,
// with 1-based character columns, as the engine's drivers do.
type checker struct{}

func (checker) Has(k engine.Kind) bool { return k == engine.Check }
func (checker) Run(_ context.Context, req engine.Request) (*engine.Response, error) {
	var ds []engine.Diagnostic
	for p, d := range req.Files {
		for i, l := range d.Texts() {
			if j := strings.Index(l, "BAD"); j >= 0 {
				col := utf8.RuneCountInString(l[:j]) + 1
				ds = append(ds, engine.Diagnostic{Path: p, Line: i + 1, Column: col, EndLine: i + 1, EndColumn: col + 3, Severity: engine.SeverityError, Source: "bad", Code: "B1", Message: "BAD found"})
			}
		}
	}
	return &engine.Response{Output: engine.Output{Diagnostics: ds}, Drivers: []engine.DriverStatus{{Driver: "bad", Status: engine.StatusOK}}}, nil
}
func (checker) Report() *capabilities.Report {
	return &capabilities.Report{
		Drivers:   []capabilities.DriverReport{{Name: "bad", Type: "external", Kinds: []engine.Kind{engine.Check}, Probe: capabilities.Probe{State: "found"}}},
		Available: map[engine.Kind][]string{engine.Check: {"text"}},
	}
}
func (checker) Close() error { return nil }

type note struct {
	Method string
	Params json.RawMessage
}

// client is a real jsonrpc2 client connected to editor.Options.Serve over an
// in-memory pipe.
type client struct {
	t    *testing.T
	root string
	conn jsonrpc2.Conn
	done chan error

	mu    sync.Mutex
	notes []note
	// more is closed, and replaced, when a notification comes.
	more chan struct{}
}

// start serves a new session on root; withChecker gives the root a check
// capability.
func start(t *testing.T, root string, withChecker bool) *client {
	t.Helper()
	opts := broker.Options{}
	if withChecker {
		opts.Load = func(context.Context, string, broker.Drivers) (broker.Drivers, error) { return checker{}, nil }
	}
	return startWith(t, root, opts)
}

// startWith serves a new session on root from a manager with opts.
func startWith(t *testing.T, root string, opts broker.Options) *client {
	t.Helper()
	mgr := broker.NewManager(opts)
	t.Cleanup(func() { mgr.Close() })
	srv, cli := net.Pipe()
	c := &client{t: t, root: root, done: make(chan error, 1), more: make(chan struct{})}
	go func() { c.done <- editor.Options{}.Serve(context.Background(), srv, mgr, root) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(cli))
	c.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		c.mu.Lock()
		c.notes = append(c.notes, note{req.Method(), req.Params()})
		close(c.more)
		c.more = make(chan struct{})
		c.mu.Unlock()
		return reply(ctx, nil, nil)
	})
	t.Cleanup(func() {
		c.conn.Close()
		if err := <-c.done; err != nil { // Serve returns once the client disconnects
			t.Errorf("Serve returned %v", err)
		}
	})
	return c
}

// call sends a request and decodes its result.
func (c *client) call(method string, params, result any) error {
	c.t.Helper()
	// A guard against a hang, not a measure: a first request on a real
	// gopls (probe, start, load) can take long on a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

// must sends a request that must succeed.
func (c *client) must(method string, params, result any) {
	c.t.Helper()
	if err := c.call(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// init sends initialize with options.
func (c *client) init(opts map[string]any) *editor.InitializeResult {
	c.t.Helper()
	var res editor.InitializeResult
	c.must("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}, "initializationOptions": opts}, &res)
	c.notify("initialized", map[string]any{})
	return &res
}

func (c *client) uri(p string) string {
	return "file://" + filepath.ToSlash(filepath.Join(c.root, p))
}

func (c *client) open(p, text string, version int) {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": c.uri(p), "languageId": "plaintext", "version": version, "text": text}})
}

// notesOf waits until pred holds for the notifications of method, and
// returns them. It waits for each notification, not for a time: a
// notification that never comes is the test's timeout.
func (c *client) notesOf(method string, pred func([]note) bool) []note {
	c.t.Helper()
	for {
		c.mu.Lock()
		var out []note
		for _, n := range c.notes {
			if n.Method == method {
				out = append(out, n)
			}
		}
		more := c.more
		c.mu.Unlock()
		if pred(out) {
			return out
		}
		<-more
	}
}

// rpcErr unpacks a JSON-RPC error and its data.
func rpcErr(t *testing.T, err error) (code jsonrpc2.Code, kind string, retryable bool, msg string) {
	t.Helper()
	var we *jsonrpc2.Error
	if !errors.As(err, &we) {
		t.Fatalf("error %v (%T) is not a JSON-RPC error", err, err)
	}
	var data struct {
		Kind      string `json:"kind"`
		Message   string `json:"message"`
		Retryable bool   `json:"retryable"`
	}
	if we.Data == nil {
		t.Fatalf("error %q carries no data", we.Message)
	}
	if err := json.Unmarshal(*we.Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.Message != we.Message {
		t.Errorf("error %q: data's message is %q, want the error's (the one failure shape, wire.Error)", we.Message, data.Message)
	}
	return we.Code, data.Kind, data.Retryable, we.Message
}

// The test's own reading of an LSP WorkspaceEdit, independent of the
// server's code: it applies the edit to files (path → text), as an editor
// applies it to its buffers, with UTF-16 columns.

type wsEdit struct {
	DocumentChanges []struct {
		Kind         string `json:"kind"`
		URI          string `json:"uri"`
		OldURI       string `json:"oldUri"`
		NewURI       string `json:"newUri"`
		TextDocument struct {
			URI     string `json:"uri"`
			Version *int32 `json:"version"`
		} `json:"textDocument"`
		Edits []struct {
			Range struct {
				Start struct{ Line, Character int } `json:"start"`
				End   struct{ Line, Character int } `json:"end"`
			} `json:"range"`
			NewText string `json:"newText"`
		} `json:"edits"`
	} `json:"documentChanges"`
}

func (c *client) pathOfURI(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		c.t.Fatal(err)
	}
	rel, err := filepath.Rel(c.root, pu.Path)
	if err != nil {
		c.t.Fatal(err)
	}
	return filepath.ToSlash(rel)
}

// changeKinds lists the kinds of an edit's documentChanges, in order
// ("" for a TextDocumentEdit).
func changeKinds(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var e wsEdit
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	kinds := []string{}
	for _, ch := range e.DocumentChanges {
		kinds = append(kinds, ch.Kind)
	}
	return kinds
}

// applyWorkspaceEdit applies edit to files and returns the result.
func (c *client) applyWorkspaceEdit(files map[string]string, raw json.RawMessage) map[string]string {
	c.t.Helper()
	var e wsEdit
	if err := json.Unmarshal(raw, &e); err != nil {
		c.t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range files {
		out[k] = v
	}
	for _, ch := range e.DocumentChanges {
		switch ch.Kind {
		case "create":
			if _, ok := out[c.pathOfURI(ch.URI)]; !ok {
				out[c.pathOfURI(ch.URI)] = ""
			}
		case "delete":
			delete(out, c.pathOfURI(ch.URI))
		case "rename":
			from, to := c.pathOfURI(ch.OldURI), c.pathOfURI(ch.NewURI)
			out[to] = out[from]
			delete(out, from)
		case "":
			p := c.pathOfURI(ch.TextDocument.URI)
			s, ok := out[p]
			if !ok {
				c.t.Fatalf("text edit for %s, which does not exist", p)
			}
			// Apply from the last edit to the first, so earlier offsets hold.
			edits := ch.Edits
			sort.SliceStable(edits, func(i, j int) bool {
				a, b := edits[i].Range.Start, edits[j].Range.Start
				return a.Line > b.Line || (a.Line == b.Line && a.Character > b.Character)
			})
			for _, ed := range edits {
				start := utf16Offset(s, ed.Range.Start.Line, ed.Range.Start.Character)
				end := utf16Offset(s, ed.Range.End.Line, ed.Range.End.Character)
				s = s[:start] + ed.NewText + s[end:]
			}
			out[p] = s
		default:
			c.t.Fatalf("unknown change kind %q", ch.Kind)
		}
	}
	return out
}

// utf16Offset is the byte offset of (line, UTF-16 column) in s.
func utf16Offset(s string, line, col int) int {
	off := 0
	for ; line > 0; line-- {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			return len(s)
		}
		off += i + 1
	}
	n := 0
	for i, r := range s[off:] {
		if n >= col || r == '\n' || r == '\r' {
			return off + i
		}
		n += len(utf16.Encode([]rune{r}))
	}
	return len(s)
}

func writeFile(p, s string) error { return os.WriteFile(p, []byte(s), 0o644) }
