package lspdriver_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// TestProgressRelayed: a first check through gopls hands the request's
// listener gopls's workspace load as a begin and an end, as the driver's.
func TestProgressRelayed(t *testing.T) {
	root, all := workspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	var mu sync.Mutex
	var evs []engine.Progress
	ctx := engine.WithProgress(context.Background(), func(p engine.Progress) { mu.Lock(); evs = append(evs, p); mu.Unlock() })
	res := d.Run(ctx, &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"a/a.go"}, All: all})
	if res.Status != engine.StatusOK {
		t.Fatalf("check: %s: %s", res.Status, res.Message)
	}
	mu.Lock()
	defer mu.Unlock()
	begun := map[string]bool{}
	ended := false
	for _, e := range evs {
		if e.Driver != "gopls" || e.ID == "" {
			t.Errorf("event not the driver's: %+v", e)
		}
		if e.Title == "Setting up workspace" {
			begun[e.ID] = begun[e.ID] || !e.Done
			ended = ended || e.Done && begun[e.ID]
		}
	}
	if !ended {
		t.Fatalf("no begin and end of the workspace load among %+v", evs)
	}
}

// fakeDriver is an lsp driver over a fake server, with a short timeout.
func fakeDriver(t *testing.T, mode string, timeout time.Duration) (capabilities.Driver, string, map[string]*text.Doc) {
	t.Helper()
	root, all := workspace(t)
	all["notes.txt"] = text.FromString("abc\n")
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{os.Args[0]}, Env: []string{lsptest.EnvVar + "=" + mode}, Timeout: configs.Duration{Duration: timeout}}, root)
	return d, root, all
}

// TestLoadNeverEnds: a server that opens a load and never ends it, past
// the ceiling, answers indexing with the diagnostics it settled, not
// timeout, and says to retry.
func TestLoadNeverEnds(t *testing.T) {
	d, root, all := fakeDriver(t, lsptest.LoadForever, 500*time.Millisecond)
	res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"notes.txt"}, All: all})
	if res.Status != engine.StatusIndexing {
		t.Fatalf("status %s (%s), want indexing", res.Status, res.Message)
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Message != "settled v1" {
		t.Errorf("diagnostics: %+v, want the settled one", res.Diagnostics)
	}
	for _, w := range []string{"still loading", "Loading packages", "retry", "after 5s"} {
		if !strings.Contains(res.Message, w) {
			t.Errorf("message %q does not say %q", res.Message, w)
		}
	}
}
