package main

// HTTP hardening through the real binary: Origin, bearer token (from a
// file, the scheme in any case), nothing opened before authentication,
// the session cap, and a graceful SIGTERM.

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawPost posts body with headers and returns the status, the session id
// and the body.
func rawPost(t *testing.T, url, body string, headers map[string]string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b)
}

func TestServeHTTPHardening(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "a.txt": "one\n"})
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	url, _, logs := startHTTP(t, root, "--token-file", tokenFile, "--allow-origin", "https://app.example", "--max-sessions", "2")
	if strings.Contains(logs.String(), "warning") {
		t.Errorf("a token from a private file gave a warning:\n%s", logs)
	}

	// Not authenticated: 401, and nothing is opened for it.
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"probe","arguments":{}}}`
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret"}, {"Authorization": "Basic s3cret"}} {
		for _, body := range []string{initBody, call} {
			if code, _, b := rawPost(t, url, body, h); code != http.StatusUnauthorized {
				t.Errorf("%v: status %d %s, want 401", h, code, b)
			}
		}
	}
	if l := logs.String(); strings.Contains(l, "session opened") || strings.Contains(l, "mcp session bound") {
		t.Fatalf("an unauthenticated request opened a session:\n%s", l)
	}

	// A foreign origin: 403, even with the token.
	auth := "bearer s3cret" // the scheme in any case
	for _, o := range []string{"http://evil.example", "http://localhost.evil.example", "null", "https://app.example.evil"} {
		if code, _, b := rawPost(t, url, initBody, map[string]string{"Authorization": auth, "Origin": o}); code != http.StatusForbidden || !strings.Contains(b, "--allow-origin") {
			t.Errorf("origin %s: status %d %s, want 403 naming --allow-origin", o, code, b)
		}
	}
	// Loopback and allowed origins pass; so does no origin.
	code, first, b := rawPost(t, url, initBody, map[string]string{"Authorization": auth, "Origin": "http://localhost:5173"})
	if code != http.StatusOK || first == "" {
		t.Fatalf("loopback origin: status %d %s", code, b)
	}
	if code, _, b := rawPost(t, url, initBody, map[string]string{"Authorization": "BEARER s3cret", "Origin": "https://app.example"}); code != http.StatusOK {
		t.Fatalf("allowed origin: status %d %s", code, b)
	}
	// Closing one makes room.
	req, _ := http.NewRequest("DELETE", url, nil)
	req.Header.Set("Authorization", auth)
	req.Header.Set("Mcp-Session-Id", first)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode >= 300 {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	cs := connectHTTP(t, url, &http.Client{Transport: bearer{"s3cret"}})
	if tools := listTools(t, cs); len(tools) == 0 {
		t.Fatal("no tools")
	}
}

// TestServeHTTPStalledBodyBlocksNoOne: a new-session request that declares
// a body and sends one byte of it does not hold up other clients' new
// sessions (it held the session-count lock while its body was read, with
// no deadline: every initialize hung until the stalled client closed).
func TestServeHTTPStalledBodyBlocksNoOne(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "a.txt": "one\n"})
	url, _, _ := startHTTP(t, root)
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		conn, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{", u.Path, u.Host)
	}
	// The stalled requests are in; a real client is served at once (the
	// bound is a hang guard far beyond any load, far below the stall).
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		c := sdk.NewClient(&sdk.Implementation{Name: "serve_test", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
		if err == nil {
			_, err = cs.ListTools(ctx, nil)
			cs.Close()
		}
		done <- err
	}()
	if err := <-done; err != nil {
		t.Fatalf("a new client behind stalled ones: %v", err)
	}
}

// TestServeHTTPSessionCapEvictsTheIdlest: at the cap, a new client is
// served by ending the least recently used session that has nothing in
// flight (clients that close without ending their session filled the cap
// for the whole idle timeout: every new client got 503); only when every
// session is busy is a new one refused.
func TestServeHTTPSessionCapEvictsTheIdlest(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "a.txt": "one\n"})
	url, _, logs := startHTTP(t, root, "--max-sessions", "2")
	initialized := func(id string) {
		t.Helper()
		code, _, b := rawPost(t, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": id})
		if code >= 300 {
			t.Fatalf("initialized: %d %s", code, b)
		}
	}
	_, oldest, _ := rawPost(t, url, initBody, nil)
	_, older, _ := rawPost(t, url, initBody, nil)
	if oldest == "" || older == "" {
		t.Fatal("no session ids")
	}
	initialized(oldest)
	initialized(older)
	// oldest is used again after older: older is now the least recent.
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`
	if code, _, b := rawPost(t, url, call, map[string]string{"Mcp-Session-Id": oldest}); code != http.StatusOK {
		t.Fatalf("tools/list: %d %s", code, b)
	}
	code, third, b := rawPost(t, url, initBody, nil)
	if code != http.StatusOK || third == "" {
		t.Fatalf("a third client at the cap: status %d %s, want it served", code, b)
	}
	if code, _, _ := rawPost(t, url, call, map[string]string{"Mcp-Session-Id": older}); code != http.StatusNotFound {
		t.Errorf("the evicted session answered %d, want 404", code)
	}
	if code, _, b := rawPost(t, url, call, map[string]string{"Mcp-Session-Id": oldest}); code != http.StatusOK {
		t.Errorf("the recently used session: %d %s", code, b)
	}
	if l := logs.String(); !strings.Contains(l, "ended the least recently used session") || !strings.Contains(l, older) {
		t.Errorf("no log of the eviction of %s:\n%s", older, l)
	}

	// Both sessions hold an open event stream: busy, so a new client is
	// refused, naming the limit.
	initialized(third)
	for _, id := range []string{oldest, third} {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET stream of %s: %v %v", id, resp, err)
		}
		t.Cleanup(func() { resp.Body.Close() })
	}
	code, _, b = rawPost(t, url, initBody, nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(b, "--max-sessions 2") {
		t.Fatalf("a new client while every session is busy: status %d %s, want 503 naming --max-sessions", code, b)
	}
}

// TestServeHTTPHostCase: host names compare without case, so a loopback
// Host header in capitals is served (it got 403).
func TestServeHTTPHostCase(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers})
	url, _, _ := startHTTP(t, root)
	u, _ := neturl.Parse(url)
	_, port, _ := net.SplitHostPort(u.Host)
	req, _ := http.NewRequest("POST", url, strings.NewReader(initBody))
	req.Host = "LOCALHOST:" + port
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
		t.Fatalf("Host %s: status %d %s", req.Host, resp.StatusCode, b)
	}
}

func TestServeTokenSources(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers})
	// --token works, with a warning that argv is public.
	_, _, logs := startHTTP(t, root, "--token", "argv-token")
	if !strings.Contains(logs.String(), "other users of this machine can read it") {
		t.Errorf("no warning for --token:\n%s", logs)
	}
	// A token file readable by others gets a warning; an empty one is refused.
	f := filepath.Join(t.TempDir(), "token")
	os.WriteFile(f, []byte("tok\n"), 0o644)
	_, _, logs = startHTTP(t, root, "--token-file", f)
	if !strings.Contains(logs.String(), "readable by other users") {
		t.Errorf("no warning for a public token file:\n%s", logs)
	}
	os.WriteFile(f, []byte("\n"), 0o600)
	out, err := runBin(t, "serve", "--mcp", "--root", root, "--http", "127.0.0.1:0", "--token-file", f)
	if err == nil || !strings.Contains(out, "is empty") {
		t.Errorf("empty token file: %v %s", err, out)
	}
}

// runBin runs the real binary and returns its stderr.
func runBin(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var stderr strings.Builder
	cmd := exec.Command(devbrokerBin(t), args...)
	cmd.Stderr = &stderr
	err := cmd.Run()
	return stderr.String(), err
}

func TestServeHTTPSIGTERMAnswersInFlight(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	cmd, _, _, lines, _ := startHang(t, "serve", "--mcp", "--root", root, "--tools", "full", "--http", "127.0.0.1:0", "--grace", "1s")
	re := regexp.MustCompile(`url=(http://\S+)`)
	var url string
	for url == "" {
		select {
		case l := <-lines:
			if m := re.FindStringSubmatch(l); m != nil {
				url = m[1]
			}
		case <-time.After(time.Minute):
			t.Fatal("the server did not start listening")
		}
	}
	// A client with its default retries: the server ends the session's
	// event stream as it exits, and a client that gives up on the first
	// failure of that stream may drop an answer it has already received.
	c := sdk.NewClient(&sdk.Implementation{Name: "serve_test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	type answer struct {
		res *sdk.CallToolResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "lint", Arguments: map[string]any{"paths": []string{"a.txt"}}})
		done <- answer{res, err}
	}()
	waitLine(t, lines, hangRunning)
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case a := <-done:
		if a.err != nil || !strings.Contains(resultText(a.res), "timeout") {
			t.Fatalf("answer to the call in flight: %v %v", a.err, a.res)
		}
	case <-time.After(time.Minute):
		t.Fatal("no answer to the call in flight within a minute of SIGTERM")
	}
	waitExit(t, cmd)
}
