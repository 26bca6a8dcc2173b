package main

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine/testtree"
)

// TestServeProgressGopls: a first check over MCP, called with a progress
// token, sends notifications/progress for that token that carry gopls's
// workspace load, its begin and then its end, with growing progress
// values.
func TestServeProgressGopls(t *testing.T) {
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain})
	if !probeAvailable(t, root)["driver:gopls"] {
		t.Skip("no gopls driver found by the probe")
	}
	var mu sync.Mutex
	var notes []*sdk.ProgressNotificationParams
	loaded, ended := make(chan struct{}), false // closed when the load's end arrives
	c := sdk.NewClient(&sdk.Implementation{Name: "progress_test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			notes = append(notes, r.Params)
			if loadEnd(r.Params.Message) && !ended {
				ended = true
				close(loaded)
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(devbrokerBin(t), "serve", "--mcp", "--root", root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"paths": []string{"main.go"}}}
	params.SetProgressToken("first-check")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("check: %v %s", err, resultText(res))
	}
	// The client may handle notifications after the answer: wait for the
	// load's end, which the server sent before it.
	select {
	case <-loaded:
	case <-ctx.Done():
		t.Fatal("the end of gopls's load never arrived")
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
	begin := slices.IndexFunc(msgs, func(m string) bool { return strings.HasPrefix(m, "gopls: Setting up workspace: Loading packages") })
	if end := slices.IndexFunc(msgs, loadEnd); begin < 0 || end < begin {
		t.Fatalf("no begin then end of gopls's load among the notifications:\n%s", strings.Join(msgs, "\n"))
	}
}

// loadEnd reports whether a notification is the end of gopls's load.
func loadEnd(msg string) bool {
	return strings.HasPrefix(msg, "gopls: Setting up workspace") && strings.HasSuffix(msg, "(done)")
}
