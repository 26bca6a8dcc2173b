package main

// End-to-end tests of a language server that never answers initialize
// (issue 22, item 3), through the real binary and the Go SDK's client:
// a check whose driver's timeout is 5s answers timeout, naming that
// timeout, without waiting for the probe's own bound; and while it waits,
// the session's other calls and other sessions' calls answer. The server
// is the fake lsptest.Hang (fault injection), run as fake-lsp.

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// hungConfig is the user configuration of these tests: one language whose
// only checker is a fake language server (its mode is %s), with a
// timeout of 5s.
const hungConfig = `inherit_defaults = false

[languages.fake]
file_types = ["*.fk"]
check = ["hanger"]

[drivers.hanger]
type = "lsp"
command = ["fake-lsp"]
env = ["DEVBROKER_FAKE_LSP=%s"]
timeout = "5s"
`

// The two ways a server hangs: it never answers at all, so its probe
// never ends (lsptest.Hang), or it passes its probe and never answers
// initialize on the project (lsptest.HangInRoot). The first check of
// each answers timeout saying so.
var hungModes = []struct {
	mode string
	says string
}{
	{lsptest.Hang, "hanger's probe has not ended"},
	{lsptest.HangInRoot, "has not answered initialize"},
}

// hungWait bounds every wait of these tests; the answers they expect come
// within the driver's timeout of 5s, or at once.
const hungWait = 3 * time.Minute

// hungRoot makes the root (a file of the fake language and a text file)
// and makes hungConfig the user configuration of the servers the test
// starts.
func hungRoot(t *testing.T, mode string) string {
	t.Helper()
	cfg := t.TempDir()
	testtree.Write(t, cfg, map[string]string{"devbroker/config.toml": fmt.Sprintf(hungConfig, mode)})
	t.Setenv("XDG_CONFIG_HOME", cfg)
	return testtree.New(t, map[string]string{"a.fk": "one\n", "notes.txt": "two\n", lsptest.HangMarker: ""})
}

// hungClient is a client whose calls' "started" notifications arrive on a
// channel, by progress token.
type hungClient struct {
	c       *sdk.Client
	mu      sync.Mutex
	started map[any]chan struct{}
}

func newHungClient() *hungClient {
	h := &hungClient{started: map[any]chan struct{}{}}
	h.c = sdk.NewClient(&sdk.Implementation{Name: "hung_test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			if !strings.HasSuffix(r.Params.Message, ": started") {
				return
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			if ch, ok := h.started[r.Params.ProgressToken]; ok {
				close(ch)
				delete(h.started, r.Params.ProgressToken)
			}
		},
	})
	return h
}

// order records which calls answered, in the order they did.
type order struct {
	mu    sync.Mutex
	names []string
}

func (o *order) add(name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.names = append(o.names, name)
}

func (o *order) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.names, ", ")
}

func (o *order) first() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.names) == 0 {
		return ""
	}
	return o.names[0]
}

// startCheck calls check on a.fk and returns once the call runs on the
// server (its "check: started" notification arrived); its answer comes on
// the channel, and its name (label) is added to o when it comes.
func (h *hungClient) startCheck(t *testing.T, cs *sdk.ClientSession, label string, o *order) <-chan *sdk.CallToolResult {
	t.Helper()
	started := make(chan struct{})
	h.mu.Lock()
	h.started[label] = started
	h.mu.Unlock()
	params := &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"paths": []string{"a.fk"}}}
	params.SetProgressToken(label)
	done := make(chan *sdk.CallToolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), hungWait)
		defer cancel()
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			res = &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "protocol error: " + err.Error()}}}
		}
		o.add(label)
		done <- res
	}()
	select {
	case <-started:
	case res := <-done:
		t.Fatalf("%s answered before its start was announced: %s", label, resultText(res))
	case <-time.After(hungWait):
		t.Fatalf("%s: no \"check: started\" notification", label)
	}
	return done
}

// readNotes calls read_file on notes.txt and adds label to o when it
// answers.
func readNotes(t *testing.T, cs *sdk.ClientSession, root, label string, o *order) {
	t.Helper()
	res := callTool(t, cs, "read_file", map[string]any{"file_path": filepath.Join(root, "notes.txt")})
	o.add(label)
	if res.IsError || !strings.Contains(resultText(res), "two") {
		t.Fatalf("%s: %s", label, resultText(res))
	}
}

// wantHungTimeout fails unless res is a check whose hanger driver timed
// out, saying it waited the driver's 5s timeout and says.
func wantHungTimeout(t *testing.T, label, says string, res *sdk.CallToolResult) {
	t.Helper()
	var r struct {
		OK      bool           `json:"ok"`
		Drivers []driverStatus `json:"drivers"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &r); err != nil || r.OK || len(r.Drivers) != 1 {
		t.Fatalf("%s: want one driver's incomplete answer, got %s", label, resultText(res))
	}
	d := r.Drivers[0]
	if d.Driver != "hanger" || d.Status != "timeout" || !strings.Contains(d.Message, "no answer within 5s (the driver's timeout)") {
		t.Fatalf("%s: want hanger's timeout after 5s, got %s %s: %s", label, d.Driver, d.Status, d.Message)
	}
	// It says why: the server has not started (its probe, or its
	// initialize, has not ended), not that a request went unanswered.
	if !strings.Contains(d.Message, says) {
		t.Fatalf("%s: the timeout does not say %q: %s", label, says, d.Message)
	}
}

// TestHungServerHoldsNoCall: over stdio, a check on a server that never
// answers (its probe or its initialize) answers timeout within its
// driver's timeout, and a read_file of the same session, sent while the
// check waits, answers first; so again for the next check.
func TestHungServerHoldsNoCall(t *testing.T) {
	for _, m := range hungModes {
		t.Run(m.mode, func(t *testing.T) {
			root := hungRoot(t, m.mode)
			h := newHungClient()
			ctx, cancel := context.WithTimeout(context.Background(), hungWait)
			defer cancel()
			logs := &syncBuffer{}
			// read_file is in the full tool set.
			cmd := exec.Command(devbrokerBin(t), "serve", "--mcp", "--root", root, "--tools", "full")
			cmd.Stderr = logs
			cs, err := h.c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("connect: %v\n%s", err, logs)
			}
			t.Cleanup(func() {
				cs.Close()
				if t.Failed() {
					t.Logf("server logs:\n%s", logs)
				}
			})
			for _, again := range []string{"", " again"} {
				o := &order{}
				check := h.startCheck(t, cs, "check"+again, o)
				readNotes(t, cs, root, "read_file"+again, o)
				res := <-check
				if first := o.first(); first != "read_file"+again {
					t.Fatalf("answers in the order %s: read_file waited for the check on a server that does not start", o)
				}
				wantHungTimeout(t, "check"+again, m.says, res)
			}
		})
	}
}

// TestHungServerHoldsNoHTTPSession: two sessions on one HTTP server. While
// A's check waits on the server that never answers initialize, B reads a
// file and A reads one, both answered before A's check; B's own check
// answers timeout as A's does.
func TestHungServerHoldsNoHTTPSession(t *testing.T) {
	root := hungRoot(t, lsptest.Hang)
	url, _, logs := startHTTP(t, root, "--tools", "full")
	ctx, cancel := context.WithTimeout(context.Background(), hungWait)
	defer cancel()
	connect := func(h *hungClient) *sdk.ClientSession {
		cs, err := h.c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatalf("connect %s: %v\n%s", url, err, logs)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	ha, hb := newHungClient(), newHungClient()
	a, b := connect(ha), connect(hb)
	o := &order{}
	checkA := ha.startCheck(t, a, "A's check", o)
	readNotes(t, b, root, "B's read_file", o)
	readNotes(t, a, root, "A's read_file", o)
	checkB := hb.startCheck(t, b, "B's check", o)
	resA := <-checkA
	resB := <-checkB
	got := o.String()
	if !strings.HasPrefix(got, "B's read_file, A's read_file, ") {
		t.Fatalf("answers in the order %s: a read_file waited for a check on a server that does not start", got)
	}
	wantHungTimeout(t, "A's check", hungModes[0].says, resA)
	wantHungTimeout(t, "B's check", hungModes[0].says, resB)
}
