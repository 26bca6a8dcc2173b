//go:build unix

package lspdriver_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// TestLoadEndsLate: a load that ends after the driver's timeout ran out
// is waited for, and the answer is complete.
func TestLoadEndsLate(t *testing.T) {
	d, root, all := fakeDriver(t, lsptest.LoadLate, 2*time.Second)
	waiting := make(chan struct{}, 1)
	lspdriver.OnWaitingForLoad(func() {
		select {
		case waiting <- struct{}{}:
		default:
		}
	})
	t.Cleanup(func() { lspdriver.OnWaitingForLoad(func() {}) })
	done := make(chan *capabilities.Result)
	go func() {
		done <- d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"notes.txt"}, All: all})
	}()
	// The timeout (long enough for the fake to start and begin its load)
	// runs out during the load; then the load ends.
	select {
	case <-waiting:
	case res := <-done:
		t.Fatalf("answered before the timeout ran out during the load: %s (%s)", res.Status, res.Message)
	}
	pid := d.(*lspdriver.Driver).Server(root).PID()
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 1 {
		t.Fatalf("status %s (%s), diagnostics %+v; want ok with one", res.Status, res.Message, res.Diagnostics)
	}
}

// TestMovingLoadOutlastsTheBound: a load that keeps reporting progress
// is waited for past the load bound (LoadCeiling times the timeout), which
// runs from its last news, and the answer is complete. The test makes the
// fake report whenever the request's listener has seen the wait go on for
// another second, until the wait is three bounds long; then the load
// ends. Without the news, the request would have answered indexing after
// one bound.
func TestMovingLoadOutlastsTheBound(t *testing.T) {
	lspdriver.SetLoadCeiling(t, 2)
	lspdriver.SetProgressTick(t, 50*time.Millisecond)
	const timeout = 2 * time.Second
	bound := 2 * timeout
	d, root, all := fakeDriver(t, lsptest.LoadMoving, timeout)
	elapsed := make(chan time.Duration, 1024)
	ctx := engine.WithProgress(context.Background(), func(p engine.Progress) {
		if p.ID == "gopls/loading" && !p.Done {
			select {
			case elapsed <- p.Elapsed:
			default: // the test has what it needs
			}
		}
	})
	done := make(chan *capabilities.Result, 1)
	go func() {
		done <- d.Run(ctx, &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"notes.txt"}, All: all})
	}()
	var pid int
	next := time.Second // the wait's length at which the fake reports next
	for {
		var e time.Duration
		select {
		case e = <-elapsed:
		case res := <-done:
			t.Fatalf("answered while the load went on: %s (%s)", res.Status, res.Message)
		}
		if e < next {
			continue
		}
		if pid == 0 {
			pid = d.(*lspdriver.Driver).Server(root).PID()
		}
		if e >= 3*bound {
			break
		}
		if err := syscall.Kill(pid, syscall.SIGUSR2); err != nil {
			t.Fatal(err)
		}
		next = e + time.Second
	}
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 1 {
		t.Fatalf("status %s (%s), diagnostics %+v; want ok with one", res.Status, res.Message, res.Diagnostics)
	}
}
