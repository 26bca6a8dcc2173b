package broker

// This file tests the re-probe's graceful swap: a request running on the
// old drivers finishes on them, the old drivers close after it, and a
// running gopls is handed to the new drivers instead of being restarted.

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/trust"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// gate is a lint driver whose runs wait until released; each set's gate
// is told apart by gen. It injects the one fault the test needs: a
// request that is still running when the re-probe swaps.
type gate struct {
	gen     int
	started chan struct{}
	release chan struct{}
	closed  chan struct{}
	calls   capabilities.Calls
}

func (g *gate) Spec() capabilities.Spec {
	return capabilities.Spec{Name: "gate", Type: "gate", Kinds: []engine.Kind{engine.Lint}}
}

func (g *gate) Probe(context.Context) capabilities.Probe {
	return capabilities.Probe{State: capabilities.Found}
}

func (g *gate) Run(_ context.Context, req *capabilities.Request) *capabilities.Result {
	if !g.calls.Begin() {
		return capabilities.ClosedResult("gate")
	}
	defer g.calls.End()
	close(g.started)
	<-g.release
	return &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Diagnostics: []engine.Diagnostic{{Path: req.Files[0], Line: 1, Column: 1, Severity: engine.SeverityInfo, Message: "generation " + string(rune('0'+g.gen))}}}}
}

func (g *gate) Close() error { return g.calls.Close(func() error { close(g.closed); return nil }) }

// TestReprobeSwapsWithoutWaiting: a re-probe returns while a request runs
// on the old drivers; the next request runs on the new ones; the running
// one finishes on the old drivers, which close only after it ended.
func TestReprobeSwapsWithoutWaiting(t *testing.T) {
	dir := t.TempDir()
	var gates []*gate
	var gen atomic.Int32
	cfg := &configs.Config{
		Languages: map[string]*configs.Language{"x": {FileTypes: []string{"*.x"}, Lint: []string{"gate"}}},
		Drivers:   map[string]*configs.Driver{"gate": {Type: "gate"}},
	}
	typ := capabilities.Type{Name: "gate", New: func(string, *configs.Driver, capabilities.Env) (capabilities.Driver, error) {
		g := &gate{gen: int(gen.Add(1)), started: make(chan struct{}), release: make(chan struct{}), closed: make(chan struct{})}
		gates = append(gates, g)
		return g, nil
	}}
	load := setLoader(cfg, typ)
	ctx := context.Background()
	r, err := newRoot(ctx, dir, load)
	if err != nil {
		t.Fatal(err)
	}
	req := engine.Request{Kind: engine.Lint, Root: dir, Files: map[string]*text.Doc{"a.x": text.FromString("a\n")}}
	type answer struct {
		resp *engine.Response
		err  error
	}
	first := make(chan answer, 1)
	go func() {
		resp, err := r.Run(ctx, req)
		first <- answer{resp, err}
	}()
	old := gates[0]
	<-old.started

	if _, err := r.Reprobe(ctx); err != nil {
		t.Fatalf("reprobe with a request in flight: %v", err)
	}
	select {
	case <-old.closed:
		t.Fatal("the old drivers were closed while a request was running on them")
	default:
	}
	// The next request runs on the new drivers.
	next := gates[1]
	close(next.release)
	resp, err := r.Run(ctx, req)
	if err != nil || len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Message != "generation 2" {
		t.Fatalf("request after the swap: %+v, %v; want generation 2's answer", resp, err)
	}
	// The running request finishes on the old drivers, then they close.
	close(old.release)
	a := <-first
	if a.err != nil || len(a.resp.Diagnostics) != 1 || a.resp.Diagnostics[0].Message != "generation 1" || a.resp.Drivers[0].Status != engine.StatusOK {
		t.Fatalf("request in flight during the swap: %+v, %v; want generation 1's clean answer", a.resp, a.err)
	}
	<-old.closed
	if err := r.close(); err != nil {
		t.Fatal(err)
	}
	<-next.closed
	if _, err := r.Run(ctx, req); err == nil {
		t.Fatal("a request after the root closed ran")
	}
}

// untrusted trusts no root: the embedded defaults serve.
type untrusted struct{}

func (untrusted) Check(string, string) trust.Verdict {
	return trust.Verdict{Reason: "the test trusts no root"}
}

// realLoader is cmd/devbroker's loader: the defaults, probed, built beside
// the previous set.
func realLoader(ctx context.Context, root string, prev Drivers) (Drivers, error) {
	p, _ := prev.(*capabilities.Set)
	set, _, err := drivers.LoadWith(ctx, root, drivers.Options{Trust: untrusted{}, Previous: p})
	if err != nil {
		return nil, err
	}
	return set, nil
}

// TestReprobeKeepsGopls checks a Go file, re-probes, and checks again: the
// same gopls process (the same server, started once) answers both, and
// the answers agree. It logs the median check time before and after.
func TestReprobeKeepsGopls(t *testing.T) {
	if _, _, err := lsp.FindServer(context.Background(), "gopls", ".", true); err != nil {
		t.Skipf("no gopls: %v", err)
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a.go":   "package m\n\nvar X int = \"not an int\"\n",
	}
	all := map[string]*text.Doc{}
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		all[p] = text.FromString(c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := newRoot(ctx, dir, realLoader)
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	req := engine.Request{Kind: engine.Check, Root: dir, Files: all, Paths: []string{"a.go"}}
	check := func(what string) time.Duration {
		t.Helper()
		start := time.Now()
		resp, err := r.Run(ctx, req)
		took := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		i := slices.IndexFunc(resp.Drivers, func(d engine.DriverStatus) bool { return d.Driver == "gopls" })
		if i < 0 || resp.Drivers[i].Status != engine.StatusOK || !slices.ContainsFunc(resp.Diagnostics, func(d engine.Diagnostic) bool { return d.Source == "compiler" || d.Line == 3 }) {
			t.Fatalf("%s: gopls did not answer with the type error: %+v", what, resp)
		}
		return took
	}
	server := func() *lsp.Server {
		t.Helper()
		set := r.current().(*capabilities.Set)
		d, ok := set.Drivers()["gopls"].(*lspdriver.Driver)
		if !ok || d.Server(dir) == nil {
			t.Fatalf("the set holds no gopls server for %s", dir)
		}
		return d.Server(dir)
	}
	check("the first check")
	before := server()
	pid := before.PID()
	var warm []time.Duration
	for range 5 {
		warm = append(warm, check("a warm check"))
	}
	if _, err := r.Reprobe(ctx); err != nil {
		t.Fatal(err)
	}
	var after []time.Duration
	for range 5 {
		after = append(after, check("a check after the re-probe"))
	}
	t.Logf("check median: %v before the re-probe, %v after (the first after: %v)", median(warm), median(after), after[0])
	srv := server()
	if srv != before || srv.PID() != pid || pid == 0 || srv.Starts() != 1 {
		t.Fatalf("after the re-probe another gopls answered: pid %d → %d, starts %d (want the same process, started once)", pid, srv.PID(), srv.Starts())
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// setLoader loads cfg's drivers of the one type typ, beside the previous
// set as a re-probe does, and probes them.
func setLoader(cfg *configs.Config, typ capabilities.Type) Loader {
	return func(ctx context.Context, root string, prev Drivers) (Drivers, error) {
		p, _ := prev.(*capabilities.Set)
		s, err := capabilities.NewSetAfter(p, cfg, []capabilities.Type{typ}, root)
		if err != nil {
			return nil, err
		}
		s.Probe(ctx)
		return s, nil
	}
}
