package mcp

import (
	"context"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// probingDrivers may serve every kind of has, but its probe never ends:
// nothing is found working yet, so nothing is advertised.
type probingDrivers struct{ *fakeDrivers }

func (probingDrivers) Serves(engine.Kind) bool { return false }
func (probingDrivers) OnProbe(func())          {}
func (p probingDrivers) ProbeRoot(context.Context, ...string) *capabilities.Report {
	return p.Report()
}
func (probingDrivers) Languages() []string { return nil }

var _ broker.Lazy = probingDrivers{}

// A client that calls a capability tool before the probe has advertised
// it (right after it connects) gets the step's answer, which waits for
// its language's probe as any request does, not "unavailable, do not
// retry"; a tool no driver may serve is still unavailable.
func TestToolCalledBeforeItIsListed(t *testing.T) {
	h := newHarness(t, nil, map[string]string{"a.go": "package a\n"})
	fd := &fakeDrivers{has: map[engine.Kind]bool{engine.Check: true, engine.Definition: true, engine.Symbols: true}}
	h.mgr = broker.NewManager(broker.Options{Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) {
		return probingDrivers{fd}, nil
	}})
	t.Cleanup(func() { h.mgr.Close() })
	srv, err := New(context.Background(), h.mgr, h.root, Options{Tools: ProfileFull})
	if err != nil {
		t.Fatal(err)
	}
	h.srv = srv
	t.Cleanup(srv.Close)
	cs := h.connect(nil)
	for _, name := range []string{"check", "definition", "lint"} {
		if names := toolNames(t, cs); slices.Contains(names, name) {
			t.Fatalf("%s is listed before the probe found a driver: %v", name, names)
		}
	}
	res := call(t, cs, "check", map[string]any{})
	if dr := structured[wire.DevResult](t, res); res.IsError || !dr.OK {
		t.Fatalf("check before it is listed: %q", text(res))
	}
	res = call(t, cs, "definition", map[string]any{"path": "a.go", "line": 1, "column": 9})
	if dr := structured[wire.DevResult](t, res); res.IsError || len(dr.Answers) != 1 {
		t.Fatalf("definition before it is listed: %q", text(res))
	}
	res = call(t, cs, "lint", map[string]any{})
	if dr := structured[wire.DevResult](t, res); !res.IsError || dr.Error == nil || dr.Error.Kind != "unavailable" {
		t.Fatalf("lint, which no driver may serve: %q", text(res))
	}
}
