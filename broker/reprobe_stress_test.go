package broker

// This file tests the re-probe's swap under concurrent use: requests of
// two sessions and re-probes at once never get a clean answer that no
// driver gave.

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// counted is a lint driver that answers at once and counts its runs
// after Close (there must be none).
type counted struct {
	calls     capabilities.Calls
	afterDone *atomic.Int32
}

func (c *counted) Spec() capabilities.Spec {
	return capabilities.Spec{Name: "counted", Type: "counted", Kinds: []engine.Kind{engine.Lint}}
}

func (c *counted) Probe(context.Context) capabilities.Probe {
	return capabilities.Probe{State: capabilities.Found}
}

func (c *counted) Run(context.Context, *capabilities.Request) *capabilities.Result {
	if !c.calls.Begin() {
		c.afterDone.Add(1)
		return capabilities.ClosedResult("counted")
	}
	defer c.calls.End()
	return &capabilities.Result{Status: engine.StatusOK}
}

func (c *counted) Close() error { return c.calls.Close(nil) }

// TestReprobeUnderLoad: two sessions' requests run while re-probes swap
// the drivers; every answer is a working driver's clean answer (none ran
// on closed drivers), and the root closes every set.
func TestReprobeUnderLoad(t *testing.T) {
	var afterClose atomic.Int32
	var mu sync.Mutex
	var made []*counted
	cfg := &configs.Config{
		Languages: map[string]*configs.Language{"x": {FileTypes: []string{"*.x"}, Lint: []string{"counted"}}},
		Drivers:   map[string]*configs.Driver{"counted": {Type: "counted"}},
	}
	typ := capabilities.Type{Name: "counted", New: func(string, *configs.Driver, capabilities.Env) (capabilities.Driver, error) {
		c := &counted{afterDone: &afterClose}
		mu.Lock()
		made = append(made, c)
		mu.Unlock()
		return c, nil
	}}
	load := setLoader(cfg, typ)
	ctx := context.Background()
	dir := t.TempDir()
	r, err := newRoot(ctx, dir, load)
	if err != nil {
		t.Fatal(err)
	}
	req := engine.Request{Kind: engine.Lint, Root: dir, Files: map[string]*text.Doc{"a.x": text.FromString("a\n")}}
	var wg sync.WaitGroup
	for range 2 { // two sessions
		wg.Go(func() {
			for range 200 {
				resp, err := r.Run(ctx, req)
				if err != nil {
					t.Errorf("a request during re-probes failed: %v", err)
					return
				}
				if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusOK {
					t.Errorf("a request during re-probes answered %+v", resp.Drivers)
					return
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range 20 {
				if _, err := r.Reprobe(ctx); err != nil {
					t.Errorf("re-probe: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := r.close(); err != nil {
		t.Fatal(err)
	}
	if n := afterClose.Load(); n != 0 {
		t.Fatalf("%d runs reached closed drivers", n)
	}
	for i, c := range made {
		if !c.calls.Closed() {
			t.Fatalf("driver %d of %d was never closed", i+1, len(made))
		}
	}
}
