package capabilities_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"

	"github.com/devbroker/devbroker/engine/testtree"
)

// blocking is a driver whose probe waits until release is closed (a tool
// whose smoke test is slow), counting its probes.
type blocking struct {
	fake
	release chan struct{}
	mu      sync.Mutex
	probes  int
}

func (b *blocking) Probe(ctx context.Context) capabilities.Probe {
	b.mu.Lock()
	b.probes++
	b.mu.Unlock()
	select {
	case <-b.release:
	case <-ctx.Done():
		return capabilities.Probe{State: capabilities.Failed, Reason: ctx.Err().Error()}
	}
	return capabilities.Probe{State: capabilities.Found}
}

func (b *blocking) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.probes
}

// lazySet builds an unprobed set over root with languages slow (*.slow,
// checked by "slow", whose probe blocks) and quick (*.quick, checked by
// "quick").
func lazySet(t *testing.T, root string) (*capabilities.Set, map[string]*blocking) {
	t.Helper()
	cfg := &configs.Config{Languages: map[string]*configs.Language{
		"slow":  {FileTypes: []string{"*.slow"}, Check: []string{"slow"}},
		"quick": {FileTypes: []string{"*.quick"}, Check: []string{"quick"}},
	}, Drivers: map[string]*configs.Driver{"slow": {Type: "blocking"}, "quick": {Type: "blocking"}}}
	made := map[string]*blocking{}
	typ := capabilities.Type{Name: "blocking", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		b := &blocking{fake: fake{name: name, kinds: []engine.Kind{engine.Check}, run: func(req *capabilities.Request) *capabilities.Result {
			return &capabilities.Result{Status: engine.StatusOK}
		}}, release: make(chan struct{})}
		if name == "quick" {
			close(b.release)
		}
		made[name] = b
		return b, nil
	}}
	s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, made
}

// A request waits for the probes of its files' languages only: a check of
// a .quick file answers while the .slow language's probe still runs.
func TestRequestWaitsForItsLanguageOnly(t *testing.T) {
	s, made := lazySet(t, t.TempDir())
	if !s.Has(engine.Check) || s.Serves(engine.Check) {
		t.Fatalf("unprobed: Has(check)=%v Serves(check)=%v, want true, false", s.Has(engine.Check), s.Serves(engine.Check))
	}
	probed := make(chan struct{}, 4)
	s.OnProbe(func() { probed <- struct{}{} })
	// Start slow's probe without waiting for it: a cancelled context
	// stops the wait, not the probe.
	started, cancel := context.WithCancel(context.Background())
	cancel()
	s.ProbeLanguages(started, []string{"slow"})
	resp, err := s.Run(context.Background(), engine.Request{Kind: engine.Check, Files: map[string]*text.Doc{"a.quick": text.FromString("x\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Drivers) != 1 || resp.Drivers[0].Driver != "quick" || resp.Drivers[0].Status != engine.StatusOK {
		t.Fatalf("drivers = %+v, want quick ok", resp.Drivers)
	}
	<-probed // quick's
	if rep := s.Report(); stateOf(rep, "slow") != capabilities.Probing || stateOf(rep, "quick") != capabilities.Found {
		t.Fatalf("report while slow probes: %+v", rep.Drivers)
	}
	close(made["slow"].release)
	<-probed
	if stateOf(s.Report(), "slow") != capabilities.Found || made["slow"].count() != 1 || made["quick"].count() != 1 {
		t.Errorf("after release: %+v, probes slow %d quick %d, want each found once", s.Report().Drivers, made["slow"].count(), made["quick"].count())
	}
}

// ProbeRoot probes only the languages whose files are under the root; the
// others stay not probed until a request needs them.
func TestProbeRootProbesPresentLanguages(t *testing.T) {
	root := t.TempDir()
	testtree.Put(t, root, "a.quick", "x\n")
	testtree.Put(t, root, "node_modules/dep/b.slow", "x\n")
	s, made := lazySet(t, root)
	if got := s.Present(); !slices.Equal(got, []string{"quick"}) {
		t.Fatalf("Present = %v, want [quick] (node_modules is skipped)", got)
	}
	rep := s.ProbeRoot(context.Background())
	if stateOf(rep, "quick") != capabilities.Found || stateOf(rep, "slow") != capabilities.NotProbed || made["slow"].count() != 0 {
		t.Fatalf("report = %+v, slow probed %d times; want quick found, slow not probed", rep.Drivers, made["slow"].count())
	}
	if !slices.Equal(s.Languages(), []string{"quick"}) {
		t.Errorf("Languages = %v, want [quick]", s.Languages())
	}
}

// The walk skips vendor-like directories and what .gitignore ignores.
func TestPresentSkipsIgnored(t *testing.T) {
	root := t.TempDir()
	testtree.Put(t, root, ".gitignore", "# comment\n/gen/\n*.quick\n!keep.quick\nout/\n")
	testtree.Put(t, root, "gen/a.slow", "x\n")
	testtree.Put(t, root, "sub/out/b.slow", "x\n")
	testtree.Put(t, root, "vendor/c.slow", "x\n")
	testtree.Put(t, root, "d.quick", "x\n")
	s, _ := lazySet(t, root)
	if got := s.Present(); len(got) != 0 {
		t.Fatalf("Present = %v, want none: every file is ignored", got)
	}
	testtree.Put(t, root, "src/e.slow", "x\n")
	if got := s.Present(); !slices.Equal(got, []string{"slow"}) {
		t.Fatalf("Present = %v, want [slow]", got)
	}
	// A negation re-includes, as git reads it.
	testtree.Put(t, root, "keep.quick", "x\n")
	if got := s.Present(); len(got) != 2 {
		t.Fatalf("Present = %v, want quick (keep.quick, re-included by !keep.quick) and slow", got)
	}
}

func stateOf(r *capabilities.Report, name string) capabilities.ProbeState {
	for _, d := range r.Drivers {
		if d.Name == name {
			return d.State
		}
	}
	return ""
}

// Once ProbeRoot has run, a file devbroker writes of a language not probed
// yet starts its probe, without a request waiting for it.
func TestWrittenFileStartsItsLanguagesProbe(t *testing.T) {
	root := t.TempDir()
	testtree.Put(t, root, "a.quick", "x\n")
	s, made := lazySet(t, root)
	s.DiskChanged([]string{"b.slow"})
	if made["slow"].count() != 0 {
		t.Fatal("a write before ProbeRoot started a probe")
	}
	s.ProbeRoot(context.Background())
	probed := make(chan struct{}, 1)
	s.OnProbe(func() { probed <- struct{}{} })
	s.DiskChanged([]string{"b.slow"})
	close(made["slow"].release)
	<-probed
	if stateOf(s.Report(), "slow") != capabilities.Found || made["slow"].count() != 1 {
		t.Fatalf("after writing b.slow: %+v", s.Report().Drivers)
	}
}

// The walk passes over the testdata and vendor directories a check's walk
// passes over (two C files in a fixture start no C server for the root),
// and what nested .gitignore files and .git/info/exclude ignore.
func TestPresentSkipsWhatTheCheckWalkSkips(t *testing.T) {
	root := t.TempDir()
	testtree.Put(t, root, "a/testdata/x.slow", "x\n")
	testtree.Put(t, root, "testdata/y.slow", "x\n")
	testtree.Put(t, root, "sub/.gitignore", "*.slow\n")
	testtree.Put(t, root, "sub/z.slow", "x\n")
	testtree.Put(t, root, ".git/info/exclude", "/scratch/\n")
	testtree.Put(t, root, "scratch/w.slow", "x\n")
	testtree.Put(t, root, "d.quick", "x\n")
	s, _ := lazySet(t, root)
	if got := s.Present(); !slices.Equal(got, []string{"quick"}) {
		t.Fatalf("Present = %v, want [quick]: the slow files are all in testdata or ignored", got)
	}
	testtree.Put(t, root, "sub/deeper/keep/v.slow", "x\n")
	testtree.Put(t, root, "sub/deeper/keep/.gitignore", "!*.slow\n")
	if got := s.Present(); !slices.Equal(got, []string{"quick", "slow"}) {
		t.Fatalf("Present = %v, want [quick slow]: a deeper .gitignore re-includes v.slow", got)
	}
}
