package main

// End-to-end tests of `devbroker serve --mcp` through the real binary and
// the Go SDK's client: over stdio (CommandTransport) and streamable HTTP.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// noDrivers is a configuration with no format, lint or check driver.
const noDrivers = `inherit_defaults = false
[languages.go]
file_types = ["*.go"]
format = []
lint = []
check = []
`

// devbrokerBin is the real binary: the one testscript.Main put on PATH.
func devbrokerBin(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("devbroker")
	if err != nil {
		t.Fatalf("devbroker is not on PATH (testscript.Main installs it): %v", err)
	}
	return bin
}

func readFile(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// syncBuffer collects a child's stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// connectStdio starts `devbroker serve --mcp` and connects a client.
func connectStdio(t *testing.T, root string, extra ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(devbrokerBin(t), append([]string{"serve", "--mcp", "--root", root}, extra...)...)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	c := sdk.NewClient(&sdk.Implementation{Name: "serve_test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nlogs:\n%s", err, logs)
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("server logs:\n%s", logs)
		}
	})
	return cs
}

func callTool(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	return res
}

func resultText(r *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// devResult is the part of the structured DevResult the tests read.
type devResult struct {
	OK          bool              `json:"ok"`
	Reads       map[string]string `json:"reads"`
	Written     []string          `json:"written"`
	Unwritten   []string          `json:"unwritten"`
	Diagnostics []struct {
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Severity string `json:"severity"`
		Source   string `json:"source"`
		Message  string `json:"message"`
	} `json:"diagnostics"`
	Error *struct {
		Kind      string `json:"kind"`
		Retryable bool   `json:"retryable"`
	} `json:"error"`
}

func decodeStructured[T any](t *testing.T, r *sdk.CallToolResult) T {
	t.Helper()
	var v T
	b, _ := json.Marshal(r.StructuredContent)
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return v
}

func listTools(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	sort.Strings(names)
	return names
}

func TestServeStdioEndToEnd(t *testing.T) {
	root := testtree.New(t, map[string]string{
		".devbroker.toml": noDrivers,
		"src/config.ts":   "const config = {\n  port: 3000,\n  host: \"localhost\",\n};\n",
		"notes.txt":       "alpha\nbeta\ngamma\n",
	})
	cs := connectStdio(t, root, "--trust", "--tools", "full") // the project file applies only trusted; one tool per step

	// With no driver configured, format, lint and check are not advertised;
	// search, which needs none, is.
	want := []string{"apply_patch", "dev_plan", "discard", "edit", "edit_file", "probe", "read_file", "read_lines", "search", "write", "write_file"}
	if got := listTools(t, cs); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	res := callTool(t, cs, "lint", map[string]any{})
	if dr := decodeStructured[devResult](t, res); !res.IsError || dr.Error == nil || dr.Error.Kind != "unavailable" || dr.Error.Retryable {
		t.Fatalf("lint without a driver: %s", resultText(res))
	}

	// A plan: read, edit, write.
	res = callTool(t, cs, "dev_plan", map[string]any{
		"paths": []string{"src/*.ts"},
		"ops": []any{
			map[string]any{"step": "read_lines", "args": map[string]any{"path": "src/config.ts", "start": 2, "end": 3}, "label": "before"},
			map[string]any{"step": "edit", "args": map[string]any{"path": "src/config.ts", "edits": []any{
				map[string]any{"find": "  port: 3000,\n  host: \"localhost\",", "replace": "  port: 8080,\n  host: \"0.0.0.0\","},
			}}},
			map[string]any{"step": "write", "args": map[string]any{}},
		},
	})
	dr := decodeStructured[devResult](t, res)
	if res.IsError || !dr.OK || dr.Reads["before"] != "  port: 3000,\n  host: \"localhost\"," || !slices.Equal(dr.Written, []string{"src/config.ts"}) {
		t.Fatalf("plan: %s", resultText(res))
	}
	if got := readFile(t, root, "src/config.ts"); got != "const config = {\n  port: 8080,\n  host: \"0.0.0.0\",\n};\n" {
		t.Fatalf("disk after the plan: %q", got)
	}

	// edit_file: view, str_replace, undo, str_replace again.
	abs := filepath.Join(root, "notes.txt")
	res = callTool(t, cs, "edit_file", map[string]any{"command": "view", "file_path": abs})
	if res.IsError || !strings.Contains(resultText(res), "2\tbeta") {
		t.Fatalf("view: %s", resultText(res))
	}
	res = callTool(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": abs, "old_str": "beta", "new_str": "BETA"})
	if res.IsError || readFile(t, root, "notes.txt") != "alpha\nBETA\ngamma\n" {
		t.Fatalf("str_replace: %s", resultText(res))
	}
	rev := decodeStructured[struct{ Revision string }](t, res).Revision
	if !strings.HasPrefix(rev, "sha256:") {
		t.Fatalf("revision %q", rev)
	}
	res = callTool(t, cs, "edit_file", map[string]any{"command": "undo_edit", "file_path": abs})
	if res.IsError || readFile(t, root, "notes.txt") != "alpha\nbeta\ngamma\n" {
		t.Fatalf("undo: %s", resultText(res))
	}
	// Byte-exactness: a near miss is an error and writes nothing.
	res = callTool(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": abs, "old_str": "Beta", "new_str": "x"})
	if !res.IsError || readFile(t, root, "notes.txt") != "alpha\nbeta\ngamma\n" {
		t.Fatalf("near miss: %s", resultText(res))
	}

	// A plan edit left unwritten blocks edit_file until written; then write.
	callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"notes.txt"}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": "notes.txt", "edits": []any{map[string]any{"find": "gamma", "replace": "GAMMA"}}}},
	}})
	callTool(t, cs, "edit_file", map[string]any{"command": "view", "file_path": abs})
	res = callTool(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": abs, "old_str": "alpha", "new_str": "ALPHA"})
	if !res.IsError || !strings.Contains(resultText(res), "unwritten") {
		t.Fatalf("edit_file over an unwritten plan edit: %s", resultText(res))
	}
	res = callTool(t, cs, "write", map[string]any{})
	if dr := decodeStructured[devResult](t, res); res.IsError || !slices.Equal(dr.Written, []string{"notes.txt"}) {
		t.Fatalf("write: %s", resultText(res))
	}
	if got := readFile(t, root, "notes.txt"); got != "alpha\nbeta\nGAMMA\n" {
		t.Fatalf("disk after write: %q", got)
	}
	// write_file and read_file.
	res = callTool(t, cs, "write_file", map[string]any{"file_path": filepath.Join(root, "new/created.txt"), "content": "hello\n"})
	if res.IsError || readFile(t, root, "new/created.txt") != "hello\n" {
		t.Fatalf("write_file: %s", resultText(res))
	}
	res = callTool(t, cs, "read_file", map[string]any{"file_path": filepath.Join(root, "new/created.txt")})
	if res.IsError || !strings.Contains(resultText(res), "1\thello") {
		t.Fatalf("read_file: %s", resultText(res))
	}
}

// probeAvailable runs `devbroker probe --json` and returns the kinds with a
// working driver.
func probeAvailable(t *testing.T, root string) map[string]bool {
	t.Helper()
	out, err := exec.Command(devbrokerBin(t), "probe", "--json", "--root", root).Output()
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	var rep struct {
		Available map[string][]string `json:"available"`
		Drivers   []struct {
			Name  string `json:"name"`
			State string `json:"state"`
		} `json:"drivers"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for k, langs := range rep.Available {
		got[k] = len(langs) > 0
	}
	for _, d := range rep.Drivers {
		if d.State == "found" {
			got["driver:"+d.Name] = true
		}
	}
	return got
}

const goModule = "module example.com/m\n\ngo 1.22\n"
const goMain = "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"

// TestServeAdvertisesWhatTheProbeFinds compares the tool list with the
// probe's report under the default configuration, and runs a real check
// (go build over the workspace as an overlay) when one is available.
func TestServeAdvertisesWhatTheProbeFinds(t *testing.T) {
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain})
	avail := probeAvailable(t, root)
	cs := connectSettled(t, root, "--tools", "full") // format and lint are tools of their own
	tools := listTools(t, cs)
	for _, k := range []string{"format", "lint", "check"} {
		if slices.Contains(tools, k) != avail[k] {
			t.Errorf("%s: advertised %v, probe says available %v (tools %v)", k, slices.Contains(tools, k), avail[k], tools)
		}
	}
	if !avail["check"] {
		t.Skip("no check driver on this machine")
	}
	// An unwritten compile error is reported against the workspace; the disk is untouched.
	res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"**/*.go", "go.mod"}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": "main.go", "edits": []any{map[string]any{"find": "\tprintln(\"hi\")", "replace": "\tundefinedThing()"}}}},
		map[string]any{"step": "check"},
	}})
	dr := decodeStructured[devResult](t, res)
	t.Logf("check:\n%s", resultText(res))
	if res.IsError || dr.OK {
		t.Fatalf("check of a compile error: isError=%v ok=%v\n%s", res.IsError, dr.OK, resultText(res))
	}
	found := false
	for _, d := range dr.Diagnostics {
		if d.Path == "main.go" && d.Line == 4 && d.Severity == "error" && strings.Contains(d.Message, "undefinedThing") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no error for main.go:4 in\n%s", resultText(res))
	}
	if readFile(t, root, "main.go") != goMain {
		t.Fatal("check changed the disk")
	}
}

// TestServeCheckGopls is the gopls end-to-end check; it runs once the
// gopls driver is configured and found.
func TestServeCheckGopls(t *testing.T) {
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain})
	if !probeAvailable(t, root)["driver:gopls"] {
		t.Skip("no gopls driver found by the probe (capabilities/lspdriver not wired in yet)")
	}
	cs := connectStdio(t, root)
	res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"main.go", "go.mod"}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": "main.go", "edits": []any{map[string]any{"find": "\tprintln(\"hi\")", "replace": "\tvar unused int"}}}},
		map[string]any{"step": "check"},
	}})
	dr := decodeStructured[devResult](t, res)
	for _, d := range dr.Diagnostics {
		if d.Source == "gopls" && d.Path == "main.go" && d.Line == 4 && strings.Contains(d.Message, "unused") {
			return
		}
	}
	t.Fatalf("no gopls diagnostic for main.go:4:\n%s", resultText(res))
}

// startHTTP starts `devbroker serve --mcp --http 127.0.0.1:0` and returns
// its URL.
func startHTTP(t *testing.T, root string, extra ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	args := append([]string{"serve", "--mcp", "--root", root, "--http", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(devbrokerBin(t), args...)
	logs := &syncBuffer{}
	pr, pw := io.Pipe()
	cmd.Stderr = io.MultiWriter(logs, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		pw.Close()
		if t.Failed() {
			t.Logf("server logs:\n%s", logs)
		}
	})
	urlc := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`url=(http://\S+)`)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				urlc <- m[1]
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case u := <-urlc:
		return u, cmd, logs
	case <-time.After(time.Minute):
		t.Fatalf("the server did not start listening; logs:\n%s", logs)
		return "", nil, nil
	}
}

func connectHTTP(t *testing.T, url string, client *http.Client) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "serve_test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: client, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestServeHTTPTwoSessionsShareTheDrivers(t *testing.T) {
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain, "a.txt": "one\ntwo\n"})
	url, cmd, logs := startHTTP(t, root, "--tools", "full") // read_lines and write as tools of their own
	a := connectHTTP(t, url, nil)
	b := connectHTTP(t, url, nil)

	// A edits without writing; B's workspace does not see it.
	res := callTool(t, a, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "two", "replace": "TWO"}}}},
	}})
	if dr := decodeStructured[devResult](t, res); res.IsError || !slices.Equal(dr.Unwritten, []string{"a.txt"}) {
		t.Fatalf("a's edit: %s", resultText(res))
	}
	res = callTool(t, b, "read_lines", map[string]any{"path": "a.txt", "start": 1})
	if dr := decodeStructured[devResult](t, res); dr.Reads["a.txt"] != "one\ntwo" || len(dr.Unwritten) != 0 {
		t.Fatalf("b sees: %s", resultText(res))
	}
	res = callTool(t, a, "read_lines", map[string]any{"path": "a.txt", "start": 1})
	if dr := decodeStructured[devResult](t, res); dr.Reads["a.txt"] != "one\nTWO" {
		t.Fatalf("a sees: %s", resultText(res))
	}
	if readFile(t, root, "a.txt") != "one\ntwo\n" {
		t.Fatal("disk changed before write")
	}
	// Both sessions used tools that touch the drivers; the root was loaded once.
	callTool(t, a, "probe", map[string]any{})
	if tools := listTools(t, b); !slices.Contains(tools, "dev_plan") {
		t.Fatalf("b's tools %v", tools)
	}
	// A writes; the disk changes.
	res = callTool(t, a, "write", map[string]any{})
	if res.IsError || readFile(t, root, "a.txt") != "one\nTWO\n" {
		t.Fatalf("a's write: %s", resultText(res))
	}
	l := logs.String()
	if n := strings.Count(l, "msg=\"root loaded\""); n != 1 {
		t.Fatalf("root loaded %d times, want once (one shared set of drivers)\n%s", n, l)
	}
	if n := strings.Count(l, "msg=\"session opened\""); n != 2 {
		t.Fatalf("%d sessions opened, want 2\n%s", n, l)
	}
	// Graceful shutdown on SIGTERM: exit 0 after closing the drivers.
	a.Close()
	b.Close()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
	if !strings.Contains(logs.String(), "shutting down") {
		t.Fatalf("no shutdown log:\n%s", logs)
	}
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestServeHTTPToken(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "a.txt": "one\n"})
	url, _, _ := startHTTP(t, root, "--token", "s3cret")
	// Without the token: 401, whatever the request.
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: status %d", resp.StatusCode)
	}
	// With it, a real client works.
	cs := connectHTTP(t, url, &http.Client{Transport: bearer{"s3cret"}})
	if tools := listTools(t, cs); !slices.Contains(tools, "edit_file") {
		t.Fatalf("tools %v", tools)
	}
	// A wrong token is refused too.
	c := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil)
	if _, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"wrong"}}, MaxRetries: -1}, nil); err == nil {
		t.Fatal("connected with a wrong token")
	}

	// A non-loopback address without a token is refused at start.
	var stderr bytes.Buffer
	cmd := exec.Command(devbrokerBin(t), "serve", "--mcp", "--root", root, "--http", "0.0.0.0:0")
	cmd.Env = append(os.Environ(), "DEVBROKER_TOKEN=")
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "needs a bearer token") {
		t.Fatalf("non-loopback without a token: %v %s", err, stderr.String())
	}
}

// TestServeMalformedStdio writes malformed input at the wire: every bad
// message gets a clear error, the server keeps serving, the disk is
// untouched.
func TestServeMalformedStdio(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "a.txt": "one\ntwo\n"})
	cmd := exec.Command(devbrokerBin(t), "serve", "--mcp", "--root", root, "--tools", "full") // edit and write_file as tools
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("server logs:\n%s", logs)
		}
	})
	type message struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	msgs := make(chan message, 100)
	go func() {
		dec := json.NewDecoder(stdout)
		for {
			var m message
			if err := dec.Decode(&m); err != nil {
				close(msgs)
				return
			}
			msgs <- m
		}
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	next := func() message {
		t.Helper()
		for {
			select {
			case m, ok := <-msgs:
				if !ok {
					t.Fatal("the server closed its output")
				}
				if m.ID == nil && m.Error == nil {
					continue // a notification
				}
				return m
			case <-time.After(30 * time.Second):
				t.Fatal("no answer")
			}
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := next(); m.Error != nil || m.ID != float64(1) {
		t.Fatalf("initialize: %+v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	steps := []struct {
		line     string
		id       any
		code     int    // protocol error code, or 0
		toolErr  string // tool error text, or ""
		describe string
	}{
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"`, nil, -32700, "", "truncated JSON"},
		{`not json at all`, nil, -32700, "", "not JSON"},
		{`[1,2,3]`, nil, -32600, "", "a batch / not a message"},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"frobnicate","arguments":{}}}`, float64(3), -32602, "", "unknown tool"},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"oops"}`, float64(4), -32602, "", "params of the wrong type"},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"edit","arguments":{"path":5,"edits":"x"}}}`, float64(5), 0, "path must be a string", "arguments of the wrong type"},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"write_file","arguments":{"file_path":"` + filepath.Join(root, "a.txt") + `","content":"clobbered\n"}}}`, float64(6), 0, "read", "write_file without a read"},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"edit","arguments":{"path":"a.txt","edits":[{"find":"` + strings.Repeat("x", 17<<20) + `","replace":""}]}}}`, nil, -32600, "", "a huge message"},
		{`{"jsonrpc":"2.0","id":8,"method":"no/such/method"}`, float64(8), -32601, "", "unknown method"},
	}
	for _, s := range steps {
		send(s.line)
		m := next()
		switch {
		case s.code != 0:
			if m.Error == nil || m.Error.Code != s.code || fmt.Sprint(m.ID) != fmt.Sprint(s.id) {
				t.Errorf("%s: got %+v (error %+v), want code %d", s.describe, m, m.Error, s.code)
			} else {
				t.Logf("%s: %d %s", s.describe, m.Error.Code, m.Error.Message)
			}
		default:
			var r struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			}
			json.Unmarshal(m.Result, &r)
			if m.Error != nil || !r.IsError || len(r.Content) == 0 || !strings.Contains(r.Content[0].Text, s.toolErr) {
				t.Errorf("%s: got %s (error %+v), want a tool error mentioning %q", s.describe, m.Result, m.Error, s.toolErr)
			} else {
				t.Logf("%s: tool error %s", s.describe, r.Content[0].Text)
			}
		}
	}
	if m := next; true {
		send(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
		if got := m(); got.Error != nil || got.ID != float64(9) || !strings.Contains(string(got.Result), "edit_file") {
			t.Fatalf("the server stopped serving: %+v", got)
		}
	}
	if readFile(t, root, "a.txt") != "one\ntwo\n" {
		t.Fatal("malformed input changed the disk")
	}
}

func TestServeMalformedHTTP(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "a.txt": "one\n"})
	url, _, _ := startHTTP(t, root, "--tools", "full") // read_lines as a tool
	post := func(body io.Reader) int {
		req, _ := http.NewRequest("POST", url, body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(strings.NewReader(`{"jsonrpc":"2.0",`)); code != http.StatusBadRequest {
		t.Errorf("bad JSON: status %d", code)
	}
	huge := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"`), strings.NewReader(strings.Repeat("x", 17<<20)), strings.NewReader(`"}}`))
	if code := post(huge); code != http.StatusRequestEntityTooLarge {
		t.Errorf("huge body: status %d", code)
	}
	// Still serving.
	cs := connectHTTP(t, url, nil)
	res := callTool(t, cs, "read_lines", map[string]any{"path": "a.txt", "start": 1})
	if dr := decodeStructured[devResult](t, res); dr.Reads["a.txt"] != "one" {
		t.Fatalf("after malformed requests: %s", resultText(res))
	}
	if readFile(t, root, "a.txt") != "one\n" {
		t.Fatal("disk changed")
	}
}
