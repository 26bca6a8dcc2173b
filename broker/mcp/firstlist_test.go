package mcp

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// brokenServer is a language server (fault injection) whose binary is
// found (it is a Locator) but whose probe, once released, fails: what
// the first tool list expects to work and the probe then finds not
// working.
type brokenServer struct {
	release chan struct{}
}

const brokenInstall = "reinstall broken-ls"

func (*brokenServer) Spec() capabilities.Spec {
	return capabilities.Spec{Name: "broken-ls", Type: "broken", Kinds: append([]engine.Kind{engine.Check}, engine.LanguageKinds()...)}
}

func (b *brokenServer) Probe(ctx context.Context) capabilities.Probe {
	select {
	case <-b.release:
	case <-ctx.Done():
	}
	return capabilities.Probe{State: capabilities.Failed, Reason: "its smoke test crashed"}
}

func (*brokenServer) Run(context.Context, *capabilities.Request) *capabilities.Result {
	return &capabilities.Result{Status: engine.StatusCrashed, Message: "a broken server never runs"}
}

func (*brokenServer) Close() error { return nil }

// Locate finds the "binary": the test's own executable.
func (*brokenServer) Locate(context.Context) ([]string, error) {
	self, err := os.Executable()
	return []string{self}, err
}

// A tool the first list names because its tool was found, and that the
// probe then finds not working: the first tools/list names it; a call in
// flight while the probe runs answers with the probe's reason and the
// install hint; the tool is then removed with
// notifications/tools/list_changed, and a later call still says why.
func TestFirstListToolFoundBroken(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"a.go": "package a\n\nfunc F() {}\n"})
	srvDriver := &brokenServer{release: make(chan struct{})}
	cfg := &configs.Config{
		Languages: map[string]*configs.Language{"go": {FileTypes: []string{"*.go"}, Check: []string{"broken-ls"}, Intelligence: []string{"broken-ls"}}},
		Drivers:   map[string]*configs.Driver{"broken-ls": {Type: "broken", Install: brokenInstall}},
	}
	typ := capabilities.Type{Name: "broken", New: func(string, *configs.Driver, capabilities.Env) (capabilities.Driver, error) {
		return srvDriver, nil
	}}
	mgr := broker.NewManager(broker.Options{Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) {
		return capabilities.NewSet(cfg, []capabilities.Type{typ}, root)
	}})
	t.Cleanup(func() { mgr.Close() })
	srv, err := New(context.Background(), mgr, root, Options{ProgressInterval: time.Hour, Tools: ProfileFull})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h := &harness{t: t, root: root, mgr: mgr, srv: srv}

	changed := make(chan struct{}, 1)
	var mu sync.Mutex
	started := map[string]bool{}
	startedCh := make(chan struct{}, 4)
	cs := h.connect(&sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			if tok, _ := r.Params.ProgressToken.(string); !started[tok] {
				started[tok] = true
				startedCh <- struct{}{}
			}
		},
	})

	first := toolNames(t, cs)
	for _, name := range []string{"check", "definition", "hover"} {
		if !slices.Contains(first, name) {
			t.Fatalf("the first tools/list lacks %s, whose server was found: %v", name, first)
		}
	}

	// Two calls while the probe runs: each sends "started" from its
	// handler (past the listing), then waits for the probe.
	type answer struct {
		res *sdk.CallToolResult
		err error
	}
	answers := map[string]chan answer{}
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"check", map[string]any{"paths": []string{"a.go"}}},
		{"definition", map[string]any{"path": "a.go", "line": 3, "column": 6}},
	} {
		ch := make(chan answer, 1)
		answers[c.name] = ch
		params := &sdk.CallToolParams{Name: c.name, Arguments: c.args}
		params.SetProgressToken(c.name)
		go func() {
			res, err := cs.CallTool(context.Background(), params)
			ch <- answer{res, err}
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for range 2 {
		select {
		case <-startedCh:
		case <-ctx.Done():
			t.Fatal("the calls never started")
		}
	}
	close(srvDriver.release)
	for name, ch := range answers {
		var a answer
		select {
		case a = <-ch:
		case <-ctx.Done():
			t.Fatalf("%s never answered", name)
		}
		if a.err != nil {
			t.Fatalf("%s: protocol error: %v", name, a.err)
		}
		if msg := text(a.res); !a.res.IsError || !strings.Contains(msg, "its smoke test crashed") || !strings.Contains(msg, brokenInstall) {
			t.Errorf("%s while the probe ran: isError %v, want the probe's reason and %q:\n%s", name, a.res.IsError, brokenInstall, msg)
		}
	}

	for {
		tools := toolNames(t, cs)
		if !slices.Contains(tools, "check") && !slices.ContainsFunc(engine.LanguageKinds(), func(k engine.Kind) bool { return slices.Contains(tools, string(k)) }) {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("the broken server's tools were never removed: %v", tools)
		}
	}
	res := call(t, cs, "hover", map[string]any{"path": "a.go", "line": 3, "column": 6})
	if msg := text(res); !res.IsError || !strings.Contains(msg, "its smoke test crashed") || !strings.Contains(msg, brokenInstall) {
		t.Errorf("hover once removed: isError %v, want the probe's reason and %q:\n%s", res.IsError, brokenInstall, msg)
	}
}

// BenchmarkFirstToolList is a server's start to its first tools/list
// answer over an in-memory transport: building the advertised tools
// (their schemas) and listing them, for a root whose drivers serve
// nothing and every kind, in each profile (full: 11 tools and 20): what
// a complete first list costs over a short one, and a profile over
// another.
func BenchmarkFirstToolList(b *testing.B) {
	for _, c := range []struct {
		name  string
		kinds []engine.Kind
	}{{"none", nil}, {"every kind", append([]engine.Kind{engine.Format, engine.Lint, engine.Check}, engine.LanguageKinds()...)}} {
		for _, p := range profiles {
			b.Run(string(p)+"/"+c.name, func(b *testing.B) { benchFirstList(b, p, c.kinds) })
		}
	}
}

func benchFirstList(b *testing.B, p Profile, kinds []engine.Kind) {
	has := map[engine.Kind]bool{}
	for _, k := range kinds {
		has[k] = true
	}
	root := b.TempDir()
	for b.Loop() {
		mgr := broker.NewManager(broker.Options{Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) {
			return &fakeDrivers{has: has}, nil
		}})
		srv, err := New(context.Background(), mgr, root, Options{Tools: p})
		if err != nil {
			b.Fatal(err)
		}
		ct, st := sdk.NewInMemoryTransports()
		ss, err := srv.SDK().Connect(context.Background(), st, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil || len(res.Tools) < 3 {
			b.Fatalf("tools/list: %v", err)
		}
		cs.Close()
		ss.Close()
		srv.Close()
		mgr.Close()
	}
}
