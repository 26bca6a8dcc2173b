package capabilities_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// readyWait bounds the waits of these tests: far beyond the drivers'
// timeouts, so that only a request that waits for a probe past its
// driver's timeout runs into it.
const readyWait = time.Minute

// startable is a blocking driver that keeps a process, as a language server
// does (a Starter): a request waits for its probe at most its timeout.
type startable struct {
	*blocking
	starts atomic.Int32
}

func (s *startable) Start(context.Context) error {
	s.starts.Add(1)
	return nil
}

// stuckSet is a set whose language "slow" (*.slow) is checked by "slow", a
// server whose probe blocks until release is closed, with a timeout of
// 300ms; runs counts slow's runs.
func stuckSet(t *testing.T) (s *capabilities.Set, slow *startable, runs *atomic.Int32) {
	t.Helper()
	runs = &atomic.Int32{}
	cfg := &configs.Config{
		Languages: map[string]*configs.Language{"slow": {FileTypes: []string{"*.slow"}, Check: []string{"slow"}}},
		Drivers:   map[string]*configs.Driver{"slow": {Type: "blocking", Timeout: configs.Duration{Duration: 300 * time.Millisecond}}},
	}
	typ := capabilities.Type{Name: "blocking", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		slow = &startable{blocking: &blocking{fake: fake{name: name, kinds: []engine.Kind{engine.Check}, run: func(*capabilities.Request) *capabilities.Result {
			runs.Add(1)
			return &capabilities.Result{Status: engine.StatusOK}
		}}, release: make(chan struct{})}}
		return slow, nil
	}}
	s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, slow, runs
}

// runWithin runs a check of a.slow, failing the test when it has not
// answered within readyWait.
func runWithin(t *testing.T, ctx context.Context, s *capabilities.Set) *engine.Response {
	t.Helper()
	type answer struct {
		resp *engine.Response
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := s.Run(ctx, engine.Request{Kind: engine.Check, Files: map[string]*text.Doc{"a.slow": text.FromString("x\n")}})
		done <- answer{resp, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			t.Fatal(a.err)
		}
		return a.resp
	case <-time.After(readyWait):
		t.Fatalf("the check waited for the driver's probe past its timeout")
		return nil
	}
}

// TestRequestWaitsForAProbeAtMostItsTimeout: a check whose server's
// probe does not end answers timeout after the driver's timeout, naming
// it and the probe, without running the driver; the probe goes on, and
// once it ends the next check runs the driver. Ready, too, returns while
// the probe runs, and after it, starts the server.
func TestRequestWaitsForAProbeAtMostItsTimeout(t *testing.T) {
	s, slow, runs := stuckSet(t)
	resp := runWithin(t, context.Background(), s)
	if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusTimeout {
		t.Fatalf("drivers = %+v, want slow's timeout", resp.Drivers)
	}
	msg := resp.Drivers[0].Message
	for _, w := range []string{"no answer within 300ms (the driver's timeout)", "slow's probe has not ended", "ask again"} {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not say %q", msg, w)
		}
	}
	if runs.Load() != 0 {
		t.Errorf("the driver ran %d times before its probe ended", runs.Load())
	}
	readied := make(chan struct{})
	go func() {
		s.Ready(capabilities.Begin(context.Background()), engine.Check, []string{"b.slow"})
		close(readied)
	}()
	select {
	case <-readied:
	case <-time.After(readyWait):
		t.Fatal("Ready waited for the driver's probe past its timeout")
	}
	if stateOf(s.Report(), "slow") != capabilities.Probing || slow.count() != 1 {
		t.Fatalf("the probe did not go on (probes: %d): %+v", slow.count(), s.Report().Drivers)
	}
	probed := make(chan struct{})
	s.OnProbe(func() { close(probed) })
	close(slow.release)
	<-probed
	if slow.starts.Load() != 0 {
		t.Fatalf("Ready started a server whose probe had not ended")
	}
	s.Ready(capabilities.Begin(context.Background()), engine.Check, []string{"b.slow"})
	if slow.starts.Load() != 1 {
		t.Fatalf("Ready after the probe started the server %d times, want once", slow.starts.Load())
	}
	resp = runWithin(t, context.Background(), s)
	if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusOK || runs.Load() != 1 {
		t.Fatalf("after the probe: drivers = %+v, runs %d", resp.Drivers, runs.Load())
	}
}

// TestReadyWaitsForItsLanguagesOnly: Ready for a file of one language
// does not wait for another language's probe that does not end, nor for
// one whose paths name no language; a glob stands for every language under
// the root.
func TestReadyWaitsForItsLanguagesOnly(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "b.slow"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, made := lazySet(t, root)
	t.Cleanup(func() { close(made["slow"].release) })
	s.ProbeLanguages(cancelled(), []string{"slow"}) // starts slow's probe
	readied := make(chan struct{})
	go func() {
		ctx := capabilities.Begin(context.Background())
		s.Ready(ctx, engine.Check, []string{"a.quick"})
		s.Ready(ctx, engine.Check, []string{"notes.txt"})
		close(readied)
	}()
	select {
	case <-readied:
	case <-time.After(readyWait):
		t.Fatal("Ready for a .quick file waited for the .slow language's probe")
	}
	if stateOf(s.Report(), "quick") != capabilities.Found {
		t.Fatalf("Ready did not probe quick: %+v", s.Report().Drivers)
	}
}

// cancelled is a context that has ended.
func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
