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
// listener its phases, as the driver's: loading the workspace, in
// gopls's words (its "Setting up workspace" load), begun and ended, and
// then checking, ended last.
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
	var lines []string
	loaded, checking := -1, -1
	for i, e := range evs {
		lines = append(lines, e.String())
		if e.Driver != "gopls" || e.ID == "" {
			t.Errorf("event not the driver's: %+v", e)
		}
		switch {
		case e.ID == "gopls/loading" && !e.Done && e.Title == "loading the workspace" && e.Message == "Setting up workspace: Loading packages..." && loaded < 0:
			loaded = -2 // begun
		case e.ID == "gopls/loading" && e.Done && loaded == -2:
			loaded = i
		case e.ID == "gopls/work" && !e.Done && e.Title == "checking" && loaded >= 0 && checking < 0:
			checking = i
		}
	}
	t.Logf("progress:\n%s", strings.Join(lines, "\n"))
	if loaded < 0 || checking < 0 {
		t.Fatalf("no loading phase in gopls's words, begun and ended, then checking")
	}
	if last := evs[len(evs)-1]; last.ID != "gopls/work" || !last.Done {
		t.Errorf("the last event is %+v, want the end of checking", last)
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
	for _, w := range []string{"still loading", "Loading packages", "ask again", "has reported no progress for 5s (the load bound, 10 times the driver's timeout)", `set timeout = "1s" under [drivers.gopls]`} {
		if !strings.Contains(res.Message, w) {
			t.Errorf("message %q does not say %q", res.Message, w)
		}
	}
}
