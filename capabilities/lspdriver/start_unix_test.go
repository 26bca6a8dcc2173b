//go:build unix

package lspdriver_test

// This file tests the early start (Driver.Start) where a fake server
// controls the load: the load an early server began is relayed to the
// first request, and an early server that crashed is started again by
// the first request, which answers; one whose probe fails is stopped.

import (
	"context"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/lsp"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// loads subscribes to srv's workspace loads: each begin and each end.
func loads(t *testing.T, srv *lsp.Server) (begun, ended chan struct{}) {
	t.Helper()
	begun, ended = make(chan struct{}, 8), make(chan struct{}, 8)
	stop := srv.Subscribe(func(p lsp.Progress) {
		if p.Title != "Setting up workspace" {
			return
		}
		if p.Done {
			ended <- struct{}{}
		} else if p.Message == "Loading packages..." {
			begun <- struct{}{}
		}
	})
	t.Cleanup(stop)
	return begun, ended
}

// started is the driver's server after an early start.
func started(t *testing.T, d capabilities.Driver, root string) *lsp.Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	if err := d.(capabilities.Starter).Start(ctx); err != nil {
		t.Fatal(err)
	}
	srv := d.(*lspdriver.Driver).Server(root)
	if srv == nil || srv.PID() == 0 || srv.Starts() != 1 {
		t.Fatalf("Start did not start the server: %v", srv)
	}
	return srv
}

// TestEarlyLoadIsRelayed: the first request meets the load the early
// start began, hands it to its listener as the driver's progress, waits
// for its end and answers ok, from the same process.
func TestEarlyLoadIsRelayed(t *testing.T) {
	d, root, all := fakeDriver(t, lsptest.LoadLate, 5*time.Second)
	srv := started(t, d, root)
	begun, _ := loads(t, srv)
	<-begun
	var mu sync.Mutex
	relayed := make(chan struct{})
	var evs []engine.Progress
	ctx := engine.WithProgress(context.Background(), func(p engine.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Title != "loading the workspace" {
			return
		}
		if !p.Done && len(evs) == 0 && p.Message == "Setting up workspace: Loading packages..." {
			close(relayed)
		}
		evs = append(evs, p)
	})
	done := make(chan *capabilities.Result)
	go func() {
		done <- d.Run(ctx, &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"notes.txt"}, All: all})
	}()
	<-relayed // the request saw the early load before it ended
	if err := syscall.Kill(srv.PID(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 1 || srv.Starts() != 1 {
		t.Fatalf("status %s (%s), diagnostics %+v, %d starts; want ok with one, one start", res.Status, res.Message, res.Diagnostics, srv.Starts())
	}
	mu.Lock()
	defer mu.Unlock()
	if last := evs[len(evs)-1]; !last.Done || last.Driver != "gopls" || last.ID != "gopls/loading" {
		t.Errorf("the load's end was not relayed as the driver's loading phase: %+v", evs)
	}
}

// TestEarlyServerCrash: an early server that dies during its load (here
// killed) does not break the first request: it starts the server again
// and answers ok.
func TestEarlyServerCrash(t *testing.T) {
	d, root, all := fakeDriver(t, lsptest.LoadLate, 5*time.Second)
	srv := started(t, d, root)
	begun, ended := loads(t, srv)
	<-begun
	pid := srv.PID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-ended // the exit ended the load: the death is noticed
	done := make(chan *capabilities.Result)
	go func() {
		done <- d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"notes.txt"}, All: all})
	}()
	<-begun // the request started a new server, which loads
	if err := syscall.Kill(srv.PID(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 1 {
		t.Fatalf("status %s (%s), diagnostics %+v; want ok with one", res.Status, res.Message, res.Diagnostics)
	}
	if srv.Starts() != 2 || srv.PID() == pid {
		t.Errorf("%d starts, pid %d (the early one was %d); want a second process", srv.Starts(), srv.PID(), pid)
	}
}

// TestFailedProbeStopsTheEarlyServer: a server started early for a
// driver whose probe then fails is stopped (no request will use it), and
// no later early start holds one again.
func TestFailedProbeStopsTheEarlyServer(t *testing.T) {
	root, _ := workspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{os.Args[0]}, Env: []string{lsptest.EnvVar + "=" + lsptest.LoadLate}, VersionCommand: []string{"false"}}, root)
	srv := started(t, d, root)
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	if p := d.Probe(ctx); p.State != capabilities.Failed {
		t.Fatalf("probe: %+v; want failed", p)
	}
	if srv.PID() != 0 || d.(*lspdriver.Driver).Server(root) != nil {
		t.Fatalf("after the failed probe the early server runs (pid %d)", srv.PID())
	}
	if err := d.(capabilities.Starter).Start(ctx); err == nil || d.(*lspdriver.Driver).Server(root) != nil {
		t.Fatalf("an early start after the failed probe: %v", err)
	}
}
