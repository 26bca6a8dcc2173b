package main

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine/testtree"
)

// TestServeProgressGopls: a first check over MCP, called with a progress
// token, sends notifications/progress for that token that carry gopls's
// own progress (its workspace load, begun and ended, or its diagnosis),
// with growing progress values. gopls starts with the first check (the load runs inside it),
// and the drivers' timeouts are raised (freshConfig) so that the check
// waits for the load's end on a loaded machine too.
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
	// gopls reports its own work: the workspace load when it runs inside
	// the call (a fast machine may end it before the call subscribes),
	// its diagnosis. A load that began ends.
	begin := slices.IndexFunc(msgs, func(m string) bool { return strings.HasPrefix(m, "gopls: Setting up workspace: Loading packages") })
	end := slices.IndexFunc(msgs, loadEnd)
	diagnosed := slices.IndexFunc(msgs, func(m string) bool { return strings.HasPrefix(m, "gopls: Diagnos") })
	if begin >= 0 && end < begin || begin < 0 && diagnosed < 0 {
		t.Fatalf("no progress of gopls's own (a load that begins and ends, or its diagnosis) among the first check's notifications (answer: %s):\n%s", resultText(first), strings.Join(msgs, "\n"))
	}
}

// loadEnd reports whether a notification is the end of gopls's load.
func loadEnd(msg string) bool {
	return strings.HasPrefix(msg, "gopls: Setting up workspace") && strings.HasSuffix(msg, "(done)")
}
