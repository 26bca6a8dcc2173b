package main

// HTTP hardening through the real binary: Origin, bearer token (from a
// file, the scheme in any case), nothing opened before authentication,
// the session cap, and a graceful SIGTERM.

import (
	"context"
	"io"
	"net/http"
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
	// Loopback and allowed origins pass; so does no origin. Two
	// sessions are the limit: the third is refused with 503.
	code, first, b := rawPost(t, url, initBody, map[string]string{"Authorization": auth, "Origin": "http://localhost:5173"})
	if code != http.StatusOK || first == "" {
		t.Fatalf("loopback origin: status %d %s", code, b)
	}
	if code, _, b := rawPost(t, url, initBody, map[string]string{"Authorization": "BEARER s3cret", "Origin": "https://app.example"}); code != http.StatusOK {
		t.Fatalf("allowed origin: status %d %s", code, b)
	}
	code, _, b = rawPost(t, url, initBody, map[string]string{"Authorization": auth})
	if code != http.StatusServiceUnavailable || !strings.Contains(b, "--max-sessions 2") {
		t.Fatalf("a third session: status %d %s, want 503 naming --max-sessions", code, b)
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
	cmd, _, _, lines, _ := startHang(t, "serve", "--mcp", "--root", root, "--http", "127.0.0.1:0", "--grace", "1s")
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
