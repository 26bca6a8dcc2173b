//go:build unix

package lspdriver_test

// This file tests a cold start with real gopls behind a fault-injecting
// proxy (lsptest.SlowLoad, EndlessLoad, SlowStart) that holds back what
// gopls says, so that its load, or its taking up of the request, lasts as
// long as the test wants: the driver's timeout does not count either, a
// load that never ends meets the load bound with its own message, and the
// request's listener reads the phases.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// badGo is a file with one type error, at 3:13.
const badGo = "package a\n\nvar _ int = \"s\"\n"

// slowGopls is a gopls driver whose server is real gopls behind proxy
// mode, in a root the proxy holds back (it holds lsptest.HangMarker),
// with timeout.
func slowGopls(t *testing.T, mode string, timeout time.Duration) (capabilities.Driver, string, map[string]*text.Doc) {
	t.Helper()
	gopls := goplsPath(t)
	root, all := workspace(t)
	if err := os.WriteFile(filepath.Join(root, lsptest.HangMarker), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "bad.go"), []byte(badGo), 0o644); err != nil {
		t.Fatal(err)
	}
	all["a/bad.go"] = text.FromString(badGo)
	d := driver(t, &configs.Driver{
		Type: "lsp", Command: []string{os.Args[0]}, Settings: goplsSettings(t),
		Env:     []string{lsptest.EnvVar + "=" + mode, lsptest.ServerVar + "=" + gopls},
		Timeout: configs.Duration{Duration: timeout},
	}, root)
	// The server runs before the check (initialize answered): how long a
	// loaded machine takes to start gopls is not what these tests are
	// about, and its start has a bound of its own.
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	if err := d.(capabilities.Starter).Start(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	return d, root, all
}

// phaseLog records a request's progress.
type phaseLog struct {
	mu  sync.Mutex
	evs []engine.Progress
}

func (l *phaseLog) ctx() context.Context {
	return engine.WithProgress(context.Background(), func(p engine.Progress) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.evs = append(l.evs, p)
	})
}

// lines is the log as the status line draws it.
func (l *phaseLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, len(l.evs))
	for i, e := range l.evs {
		out[i] = e.String()
	}
	return out
}

// has reports whether some event satisfies f.
func (l *phaseLog) has(f func(engine.Progress) bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.evs {
		if f(e) {
			return true
		}
	}
	return false
}

// waitedForLoad makes the driver tell the returned channel each time a
// request's timeout ran out while its server was busy.
func waitedForLoad(t *testing.T) <-chan struct{} {
	waiting := make(chan struct{}, 1)
	lspdriver.OnWaitingForLoad(func() {
		select {
		case waiting <- struct{}{}:
		default:
		}
	})
	t.Cleanup(func() { lspdriver.OnWaitingForLoad(func() {}) })
	return waiting
}

// checkBad runs a check of a/bad.go in the background.
func checkBad(ctx context.Context, d capabilities.Driver, root string, all map[string]*text.Doc) <-chan *capabilities.Result {
	done := make(chan *capabilities.Result, 1)
	go func() {
		done <- d.Run(ctx, &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"a/bad.go"}, All: all})
	}()
	return done
}

// wantBad fails unless res is a complete answer with bad.go's error.
func wantBad(t *testing.T, res *capabilities.Result) {
	t.Helper()
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s (%s); want ok", res.Status, res.Message)
	}
	for _, dg := range res.Diagnostics {
		if dg.Path == "a/bad.go" && dg.Line == 3 && strings.Contains(dg.Message, "cannot use") {
			return
		}
	}
	t.Fatalf("diagnostics %+v; want bad.go's error at line 3", res.Diagnostics)
}

// release ends what the proxy of d's server holds back.
func release(t *testing.T, d capabilities.Driver, root string) {
	t.Helper()
	if err := syscall.Kill(d.(*lspdriver.Driver).Server(root).PID(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
}

// TestSlowLoadRealGopls: real gopls whose workspace load lasts past the
// driver's short timeout (the proxy holds the load's end until the
// timeout has run out during it) answers the check completely: the
// timeout runs from the load's end. The listener read the loading phase
// in gopls's words, then checking.
func TestSlowLoadRealGopls(t *testing.T) {
	d, root, all := slowGopls(t, lsptest.SlowLoad, 5*time.Second)
	waiting := waitedForLoad(t)
	var log phaseLog
	done := checkBad(log.ctx(), d, root, all)
	select {
	case <-waiting: // the timeout ran out during the load
	case res := <-done:
		t.Fatalf("answered before the timeout ran out during the load: %s (%s)", res.Status, res.Message)
	}
	release(t, d, root)
	wantBad(t, <-done)
	t.Logf("progress:\n%s", strings.Join(log.lines(), "\n"))
	if !log.has(func(p engine.Progress) bool {
		return p.Driver == "gopls" && p.Title == "loading the workspace" && p.Message == "Setting up workspace: Loading packages..." && !p.Done
	}) {
		t.Error("the loading phase was not reported in gopls's words")
	}
	if !log.has(func(p engine.Progress) bool { return p.Title == "checking" && !p.Done }) {
		t.Error("the checking phase was not reported")
	}
}

// TestSlowStartRealGopls: real gopls that ends its load but has not begun
// the check when the driver's short timeout runs out (the proxy holds
// the request back from it, as gopls taking in the documents opened for
// a check holds it) answers completely: the timeout runs from when gopls
// begins the check. The listener read that gopls had not begun it.
func TestSlowStartRealGopls(t *testing.T) {
	d, root, all := slowGopls(t, lsptest.SlowStart, 5*time.Second)
	waiting := waitedForLoad(t)
	var log phaseLog
	done := checkBad(log.ctx(), d, root, all)
	select {
	case <-waiting: // the timeout ran out before gopls began the check
	case res := <-done:
		t.Fatalf("answered before the timeout ran out with the check not begun: %s (%s)", res.Status, res.Message)
	}
	release(t, d, root)
	wantBad(t, <-done)
	t.Logf("progress:\n%s", strings.Join(log.lines(), "\n"))
	if !log.has(func(p engine.Progress) bool {
		return p.Title == "loading the workspace" && p.Message == "taking in 1 file; the check has not begun"
	}) {
		t.Error("the loading phase did not say that gopls had not begun the check")
	}
}

// TestEndlessLoadRealGopls: real gopls whose load never ends and says
// nothing more (the proxy never passes its end on) meets the load bound,
// LoadCeiling times the timeout: the answer is indexing, says which bound
// and how to give the driver longer, and the loading phase was reported
// again and again with the time it had taken, so that a listener saw the
// wait go on.
func TestEndlessLoadRealGopls(t *testing.T) {
	lspdriver.SetLoadCeiling(t, 3)
	lspdriver.SetProgressTick(t, 50*time.Millisecond)
	d, root, all := slowGopls(t, lsptest.EndlessLoad, 2*time.Second)
	var log phaseLog
	res := <-checkBad(log.ctx(), d, root, all)
	if res.Status != engine.StatusIndexing {
		t.Fatalf("status %s (%s); want indexing", res.Status, res.Message)
	}
	for _, w := range []string{
		"gopls is still loading the workspace (Setting up workspace: Loading packages...",
		"has reported no progress for 6s (the load bound, 3 times the driver's timeout)",
		"ask again when the load has ended",
		`set timeout = "4s" under [drivers.gopls]`,
	} {
		if !strings.Contains(res.Message, w) {
			t.Errorf("message %q does not say %q", res.Message, w)
		}
	}
	var elapsed []time.Duration
	log.mu.Lock()
	for _, e := range log.evs {
		if e.ID == "gopls/loading" && !e.Done {
			elapsed = append(elapsed, e.Elapsed)
		}
	}
	log.mu.Unlock()
	moved := 0
	for i := 1; i < len(elapsed); i++ {
		if elapsed[i] > elapsed[i-1] {
			moved++
		}
	}
	if moved < 2 {
		t.Errorf("the loading phase was reported %d times, its time growing %d times; want it to move", len(elapsed), moved)
	}
}
