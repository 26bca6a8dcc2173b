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
