package capabilities_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// located is a blocking driver that is a Locator: its tool is the file
// bin, or missing when bin is "".
type located struct {
	*blocking
	bin    string
	offers []engine.Kind
	state  capabilities.ProbeState
}

func (l *located) Locate(context.Context) ([]string, error) {
	if l.bin == "" {
		return nil, errors.New("not installed")
	}
	return []string{l.bin}, nil
}

func (l *located) Probe(ctx context.Context) capabilities.Probe {
	p := l.blocking.Probe(ctx)
	if l.bin == "" {
		return capabilities.Probe{State: capabilities.Missing, Reason: "not installed"}
	}
	if p.State == capabilities.Found && l.state != "" {
		p.State, p.Reason = l.state, "its smoke test failed"
	}
	p.Offers = l.offers
	return p
}

// expectSet builds an unprobed set over root whose language x (*.x)
// checks with "works" (found), "broken" (found, fails its probe),
// "gone" (not found) and "linked" (no Locator), each in its own slot,
// and has "works" as its language server (definition and hover; its
// probe says it offers offers). Every probe blocks until released.
func expectSet(t *testing.T, root string, cache *capabilities.ProbeCache, offers []engine.Kind) (*capabilities.Set, map[string]*blocking) {
	t.Helper()
	bin := filepath.Join(root, "tool") // one per root: the cache's key holds its identity
	if _, err := os.Stat(bin); err != nil {
		if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := &configs.Config{Languages: map[string]*configs.Language{
		"x": {FileTypes: []string{"*.x"}, Check: []string{"broken", "gone", "linked"}, Lint: []string{"works"}, Intelligence: []string{"works"}},
	}, Drivers: map[string]*configs.Driver{}}
	made := map[string]*blocking{}
	for _, n := range []string{"works", "broken", "gone", "linked"} {
		cfg.Drivers[n] = &configs.Driver{Type: "t", Install: "install " + n}
	}
	typ := capabilities.Type{Name: "t", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		kinds := []engine.Kind{engine.Check}
		if name == "works" {
			kinds = []engine.Kind{engine.Lint, engine.Definition, engine.Hover}
		}
		b := &blocking{fake: fake{name: name, kinds: kinds}, release: make(chan struct{})}
		made[name] = b
		switch name {
		case "linked":
			return b, nil
		case "gone":
			return &located{blocking: b}, nil
		case "broken":
			return &located{blocking: b, bin: bin, state: capabilities.Failed}, nil
		}
		return &located{blocking: b, bin: bin, offers: offers}, nil
	}}
	s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, root)
	if err != nil {
		t.Fatal(err)
	}
	s.UseCache(cache)
	t.Cleanup(func() { s.Close() })
	return s, made
}

// Expect counts, until their probes end, the drivers whose tool is found
// and those with nothing to find, not those whose tool is missing; it
// runs no probe and the report still says only what probes found. Once
// a probe ends, its finding replaces the expectation.
func TestExpect(t *testing.T) {
	root := t.TempDir()
	testtree.Put(t, root, "a.x", "x\n")
	s, made := expectSet(t, root, nil, nil)
	for _, k := range []engine.Kind{engine.Check, engine.Lint, engine.Definition} {
		if s.Serves(k) {
			t.Fatalf("before Expect: Serves(%s)", k)
		}
	}
	if got := s.Expect(context.Background()); !slices.Equal(got, []string{"x"}) {
		t.Fatalf("Expect = %v, want the languages present, [x]", got)
	}
	if got := s.Expected(); !slices.Equal(got, []string{"broken", "linked", "works"}) {
		t.Errorf("Expected = %v, want broken, linked and works (gone's tool is missing)", got)
	}
	for _, k := range []engine.Kind{engine.Check, engine.Lint, engine.Definition, engine.Hover} {
		if !s.Serves(k) {
			t.Errorf("after Expect: Serves(%s) is false", k)
		}
	}
	for n, b := range made {
		if b.count() != 0 {
			t.Errorf("Expect probed %s", n)
		}
	}
	if rep := s.Report(); len(rep.Available[engine.Check]) != 0 || len(rep.Available[engine.Definition]) != 0 {
		t.Errorf("the report counts what is only expected: %v", rep.Available)
	}

	probed := make(chan struct{}, 8)
	s.OnProbe(func() { probed <- struct{}{} })
	started, cancel := context.WithCancel(context.Background())
	cancel() // start the probes without waiting for them
	s.ProbeRoot(started)
	close(made["broken"].release)
	<-probed
	// check's slot "broken" failed: check is unserved by it, but still
	// served by the slot "linked" (expected) beside it.
	if !s.Serves(engine.Check) {
		t.Error("check with linked still expected: Serves false")
	}
	close(made["linked"].release)
	close(made["gone"].release)
	<-probed
	<-probed
	if !s.Serves(engine.Check) {
		t.Error("check after linked was found: Serves false")
	}
	if why := s.Unavailable(engine.Check); !strings.Contains(why, "broken failed its probe: its smoke test failed; install: install broken") || !strings.Contains(why, "install gone") {
		t.Errorf("Unavailable(check) = %q, want broken's and gone's reasons", why)
	}
	close(made["works"].release)
	<-probed
	if !s.Serves(engine.Definition) || len(s.Expected()) != 0 {
		t.Errorf("after every probe: Serves(definition) %v, Expected %v", s.Serves(engine.Definition), s.Expected())
	}
}

// A server the probe cache knows is expected with the kinds the cache
// recorded it offers, not every kind of its Spec.
func TestExpectFromTheCache(t *testing.T) {
	root := t.TempDir()
	testtree.Put(t, root, "a.x", "x\n")
	cache := capabilities.OpenProbeCache(filepath.Join(t.TempDir(), "cache.json"))
	first, made := expectSet(t, root, cache, []engine.Kind{engine.Lint, engine.Definition})
	for _, b := range made {
		close(b.release)
	}
	first.ProbeLanguages(context.Background(), []string{"x"})

	s, _ := expectSet(t, root, cache, []engine.Kind{engine.Lint, engine.Definition})
	s.Expect(context.Background())
	if !s.Serves(engine.Definition) || s.Serves(engine.Hover) {
		t.Errorf("expected from the cache: Serves(definition) %v, Serves(hover) %v; want true, false (the cache says works offers definition only)", s.Serves(engine.Definition), s.Serves(engine.Hover))
	}
}

// A driver that failed its probe is never expected again, and one whose
// probe ended before Expect keeps its finding.
func TestExpectAfterTheProbe(t *testing.T) {
	root := t.TempDir()
	testtree.Put(t, root, "a.x", "x\n")
	s, made := expectSet(t, root, nil, nil)
	close(made["works"].release)
	close(made["linked"].release)
	close(made["broken"].release)
	close(made["gone"].release)
	s.ProbeRoot(context.Background())
	s.Expect(context.Background())
	if got := s.Expected(); len(got) != 0 {
		t.Errorf("Expected after the probe = %v, want none", got)
	}
	if rep := s.Report(); stateOf(rep, "broken") != capabilities.Failed {
		t.Errorf("broken: %v", rep.Drivers)
	}
}
