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
// token, sends notifications/progress that carry gopls's workspace load,
// its begin and then its end, with growing progress values; a call
// without a token gets none.
func TestServeProgressGopls(t *testing.T) {
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain})
	if !probeAvailable(t, root)["driver:gopls"] {
		t.Skip("no gopls driver found by the probe")
	}
	var mu sync.Mutex
	var notes []*sdk.ProgressNotificationParams
	c := sdk.NewClient(&sdk.Implementation{Name: "progress_test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			notes = append(notes, r.Params)
			mu.Unlock()
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
	mu.Lock()
	var msgs []string
	for i, n := range notes {
		msgs = append(msgs, n.Message)
		if n.ProgressToken != "first-check" || i > 0 && n.Progress <= notes[i-1].Progress {
			t.Errorf("notification %d: token %v, progress %v after %v", i, n.ProgressToken, n.Progress, notes[max(i-1, 0)].Progress)
		}
	}
	seen := len(notes)
	mu.Unlock()
	begin := slices.IndexFunc(msgs, func(m string) bool { return strings.HasPrefix(m, "gopls: Setting up workspace: Loading packages") })
	end := slices.IndexFunc(msgs, func(m string) bool {
		return strings.HasPrefix(m, "gopls: Setting up workspace") && strings.HasSuffix(m, "(done)")
	})
	if begin < 0 || end < begin {
		t.Fatalf("no begin then end of gopls's load among the notifications:\n%s", strings.Join(msgs, "\n"))
	}
	if res := callTool(t, cs, "check", map[string]any{"paths": []string{"main.go"}}); res.IsError {
		t.Fatalf("second check: %s", resultText(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) != seen {
		t.Errorf("a call without a progress token got %d notifications", len(notes)-seen)
	}
}
