package main

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// TestServeProgressGopls: a first check over MCP, called with a progress
// token, sends notifications/progress for that token that carry the
// check's phases as the command line's status line draws them: gopls's
// workspace load in its own words and its end (when the load runs inside
// the call: a fast machine may end it before the call subscribes), then
// checking, with growing progress values. The drivers' timeouts are
// raised (freshConfig) so that the check waits for the load's end on a
// loaded machine too.
func TestServeProgressGopls(t *testing.T) {
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain})
	if !probeAvailable(t, root)["driver:gopls"] {
		t.Skip("no gopls driver found by the probe")
	}
	cfg := t.TempDir()
	testtree.Write(t, cfg, map[string]string{"devbroker/config.toml": freshConfig})
	goenv, _ := goCommand(t, root, "env", "GOENV")
	var mu sync.Mutex
	var notes []*sdk.ProgressNotificationParams
	barrier, passed := make(chan struct{}), false // closed when the second call's first note arrives
	c := sdk.NewClient(&sdk.Implementation{Name: "progress_test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			if r.Params.ProgressToken == "barrier" {
				if !passed {
					passed = true
					close(barrier)
				}
				return
			}
			notes = append(notes, r.Params)
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), freshTimeout)
	defer cancel()
	cmd := exec.Command(devbrokerBin(t), "serve", "--mcp", "--root", root)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+cfg, "GOENV="+goenv)
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(token string) *sdk.CallToolResult {
		params := &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"paths": []string{"main.go"}}}
		params.SetProgressToken(token)
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			t.Fatalf("check: %v %s", err, resultText(res))
		}
		return res
	}
	first := call("first-check")
	// The client handles notifications in the order they came, but may
	// handle them after the answer: a second call's first notification
	// (its heartbeat's start) comes after every one of the first call's.
	call("barrier")
	select {
	case <-barrier:
	case <-ctx.Done():
		t.Fatal("the second check's progress never arrived")
	}
	mu.Lock()
	defer mu.Unlock()
	var msgs []string
	for i, n := range notes {
		msgs = append(msgs, n.Message)
		if n.ProgressToken != "first-check" || i > 0 && n.Progress <= notes[i-1].Progress {
			t.Errorf("notification %d: token %v, progress %v after %v", i, n.ProgressToken, n.Progress, notes[max(i-1, 0)].Progress)
		}
	}
	// The load, when it shows, begins and ends before checking.
	begin := slices.IndexFunc(msgs, func(m string) bool {
		return strings.HasPrefix(m, "gopls: loading the workspace: Setting up workspace: Loading packages")
	})
	end := slices.IndexFunc(msgs, loadEnd)
	checking := slices.IndexFunc(msgs, func(m string) bool { return strings.HasPrefix(m, "gopls: checking") })
	if checking < 0 || begin >= 0 && (end < begin || checking < end) {
		t.Fatalf("no checking phase, or a load in gopls's words that does not end before it, among the first check's notifications (answer: %s):\n%s", resultText(first), strings.Join(msgs, "\n"))
	}
}

// loadEnd reports whether a notification is the end of the loading phase.
func loadEnd(msg string) bool {
	return msg == "gopls: loading the workspace (done)"
}

// TestStatusLineKeepsWhereItStands: a status line too long for a terminal
// line is shortened in its middle; where the work stands (its percentage
// and the time it has taken) stays at its end. A short line is whole.
func TestStatusLineKeepsWhereItStands(t *testing.T) {
	p := engine.Progress{
		Driver: "gopls", Title: "loading the workspace",
		Message:    "taking in 595 files; the check has not begun, and a message a server makes much longer than a line",
		Percentage: 9, Elapsed: 95 * time.Second,
	}
	line := status("check", p)
	if n := len([]rune(line)); n != maxStatus || !strings.HasSuffix(line, "... (9%, 1m35s)") || !strings.HasPrefix(line, "devbroker check: gopls: loading the workspace: taking in 595 files") {
		t.Errorf("long line %q (%d runes): want %d runes, its start, then ... (9%%, 1m35s)", line, n, maxStatus)
	}
	p.Message = "taking in 595 files; the check has not begun"
	if line, want := status("check", p), "devbroker check: gopls: loading the workspace: taking in 595 files; the check has not begun (9%, 1m35s)"; line != want {
		t.Errorf("short line %q, want %q", line, want)
	}
}
