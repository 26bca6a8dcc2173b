package capabilities_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// fake is a driver whose Run is a function.
type fake struct {
	name  string
	kinds []engine.Kind
	run   func(req *capabilities.Request) *capabilities.Result
	probe capabilities.Probe
}

func (f *fake) Spec() capabilities.Spec {
	return capabilities.Spec{Name: f.name, Type: "fake", Kinds: f.kinds}
}

func (f *fake) Probe(context.Context) capabilities.Probe {
	if f.probe.State == "" {
		return capabilities.Probe{State: capabilities.Found}
	}
	return f.probe
}

func (f *fake) Run(_ context.Context, req *capabilities.Request) *capabilities.Result {
	return f.run(req)
}

func (f *fake) Close() error { return nil }

// newFakeSet builds a probed Set whose language "x" (*.x) lints with the
// given drivers, in order.
func newFakeSet(t *testing.T, drivers ...*fake) *capabilities.Set {
	t.Helper()
	return newFakeSetFor(t, engine.Lint, drivers...)
}

// newFakeSetFor is newFakeSet with the drivers in kind's list.
func newFakeSetFor(t *testing.T, kind engine.Kind, drivers ...*fake) *capabilities.Set {
	t.Helper()
	cfg := &configs.Config{Languages: map[string]*configs.Language{}, Drivers: map[string]*configs.Driver{}}
	lang := &configs.Language{FileTypes: []string{"*.x"}}
	list := map[engine.Kind]*[]string{engine.Lint: &lang.Lint, engine.Check: &lang.Check, engine.Format: &lang.Format}[kind]
	byName := map[string]*fake{}
	for _, d := range drivers {
		*list = append(*list, d.name)
		cfg.Drivers[d.name] = &configs.Driver{Type: "fake"}
		byName[d.name] = d
	}
	cfg.Languages["x"] = lang
	typ := capabilities.Type{Name: "fake", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		return byName[name], nil
	}}
	s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s.Probe(context.Background())
	return s
}

// A later lint driver must see an earlier driver's fixes as changed
// content: drivers that overlay only req.Changed (go vet's -overlay, the
// language servers' didOpen of changed files) would otherwise read the
// stale disk file.
func TestRunFixEditsAreChangedForLaterDrivers(t *testing.T) {
	fixer := &fake{name: "fixer", kinds: []engine.Kind{engine.Lint}, run: func(req *capabilities.Request) *capabilities.Result {
		return &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Edits: map[string]*text.Doc{"a.x": text.FromString("fixed\n")}}}
	}}
	var seen *capabilities.Request
	after := &fake{name: "after", kinds: []engine.Kind{engine.Lint}, run: func(req *capabilities.Request) *capabilities.Result {
		seen = req
		return &capabilities.Result{Status: engine.StatusOK}
	}}
	s := newFakeSet(t, fixer, after)
	all := map[string]*text.Doc{"a.x": text.FromString("broken\n"), "b.x": text.FromString("b\n")}
	resp, err := s.Run(context.Background(), engine.Request{Kind: engine.Lint, Fix: true, Files: all, Changed: []string{"b.x"}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Edits["a.x"] == nil || resp.Edits["a.x"].Content() != "fixed\n" {
		t.Fatalf("edits = %v, want a.x fixed", resp.Edits)
	}
	if seen == nil {
		t.Fatal("the second driver did not run")
	}
	if got := seen.All["a.x"].Content(); got != "fixed\n" {
		t.Errorf("second driver saw a.x = %q, want the fixed content", got)
	}
	if !slices.Equal(seen.Changed, []string{"a.x", "b.x"}) {
		t.Errorf("second driver's Changed = %v, want [a.x b.x] (the fixed file is changed content now)", seen.Changed)
	}
}

// Drivers that report the same finding on the same line (go vet and
// staticcheck both print the compiler's error, each at its own column and
// severity: the README's demo listed it twice) give one diagnostic: the
// most severe, naming the other drivers; findings that differ in path,
// line or message are all kept.
func TestRunDropsRepeatedFindings(t *testing.T) {
	diag := func(source, msg string, line, col int, sev engine.Severity) engine.Diagnostic {
		return engine.Diagnostic{Path: "a.x", Line: line, Column: col, EndLine: line, EndColumn: col, Severity: sev, Source: source, Message: msg}
	}
	first := &fake{name: "first", kinds: []engine.Kind{engine.Lint}, run: func(*capabilities.Request) *capabilities.Result {
		return &capabilities.Result{
			Status: engine.StatusOK,
			Output: engine.Output{
				Diagnostics: []engine.Diagnostic{
					diag("first", "not enough arguments", 5, 22, engine.SeverityWarning), diag("first", "other", 2, 5, engine.SeverityError),
				},
			},
		}
	}}
	second := &fake{name: "second", kinds: []engine.Kind{engine.Lint}, run: func(*capabilities.Request) *capabilities.Result {
		return &capabilities.Result{
			Status: engine.StatusOK,
			Output: engine.Output{
				Diagnostics: []engine.Diagnostic{
					diag("second", "not enough arguments", 5, 15, engine.SeverityError), diag("second", "not enough arguments", 6, 1, engine.SeverityError),
				},
			},
		}
	}}
	third := &fake{name: "third", kinds: []engine.Kind{engine.Lint}, run: func(*capabilities.Request) *capabilities.Result {
		return &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Diagnostics: []engine.Diagnostic{diag("third", "not enough arguments", 5, 15, engine.SeverityError)}}}
	}}
	s := newFakeSet(t, first, second, third)
	resp, err := s.Run(context.Background(), engine.Request{Kind: engine.Lint, Files: map[string]*text.Doc{"a.x": text.FromString("a\nb\n")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range resp.Diagnostics {
		got = append(got, d.String())
	}
	want := []string{
		"a.x:2:5: error: other (first)",
		"a.x:5:15: error: not enough arguments (second; also first, third)",
		"a.x:6:1: error: not enough arguments (second)",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics\n got %q\nwant %q", got, want)
	}
}

// The lint drivers of a request (without fixes) and its check drivers run
// at once: an answer waits for the slowest driver, not for their sum. The
// first driver here returns only once the second has started (or the
// request's context ends, which fails the test).
func TestDriversOfARequestRunAtOnce(t *testing.T) {
	for _, kind := range []engine.Kind{engine.Lint, engine.Check} {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		started := make(chan struct{})
		alone := false
		first := &fake{name: "first", kinds: []engine.Kind{engine.Lint, engine.Check}, run: func(*capabilities.Request) *capabilities.Result {
			select {
			case <-started:
			case <-ctx.Done():
				alone = true
			}
			return &capabilities.Result{Status: engine.StatusOK}
		}}
		second := &fake{name: "second", kinds: []engine.Kind{engine.Lint, engine.Check}, run: func(*capabilities.Request) *capabilities.Result {
			close(started)
			return &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Diagnostics: []engine.Diagnostic{{Path: "a.x", Line: 1, Column: 1, EndLine: 1, EndColumn: 1, Severity: engine.SeverityWarning, Message: "found"}}}}
		}}
		s := newFakeSetFor(t, kind, first, second)
		resp, err := s.Run(ctx, engine.Request{Kind: kind, Files: map[string]*text.Doc{"a.x": text.FromString("a\n")}})
		cancel()
		if err != nil || alone {
			t.Fatalf("%s: the first driver ran alone (err %v)", kind, err)
		}
		var order []string
		for _, d := range resp.Drivers {
			order = append(order, d.Driver+" "+string(d.Status))
		}
		if !slices.Equal(order, []string{"first ok", "second ok"}) || len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Source != "second" {
			t.Errorf("%s: drivers %q, diagnostics %+v", kind, order, resp.Diagnostics)
		}
	}
}

// A request the engine caps itself (Uncapped: it keeps introduced
// findings first) gets every diagnostic; others are cut at the limit with
// a note. The set says its limit and each language's fail_on.
func TestUncappedAndFailOn(t *testing.T) {
	many := &fake{name: "many", kinds: []engine.Kind{engine.Check}, run: func(*capabilities.Request) *capabilities.Result {
		var ds []engine.Diagnostic
		for i := range configs.DefaultMaxDiagnostics + 5 {
			ds = append(ds, engine.Diagnostic{Path: "a.x", Line: i + 1, Severity: engine.SeverityError, Message: "bad"})
		}
		return &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Diagnostics: ds}}
	}}
	s := newFakeSetFor(t, engine.Check, many)
	files := map[string]*text.Doc{"a.x": text.FromString("a\n")}
	for _, uncapped := range []bool{false, true} {
		resp, err := s.Run(context.Background(), engine.Request{Kind: engine.Check, Files: files, Uncapped: uncapped})
		if err != nil {
			t.Fatal(err)
		}
		want, notes := configs.DefaultMaxDiagnostics, 1
		if uncapped {
			want, notes = configs.DefaultMaxDiagnostics+5, 0
		}
		omitted := 0
		for _, n := range resp.Coverage {
			if n.Kind == engine.NoteOmitted {
				omitted++
			}
		}
		if len(resp.Diagnostics) != want || omitted != notes {
			t.Errorf("uncapped %v: %d diagnostics, %d omitted notes; want %d and %d", uncapped, len(resp.Diagnostics), omitted, want, notes)
		}
	}
	if got := s.MaxDiagnostics(); got != configs.DefaultMaxDiagnostics {
		t.Errorf("MaxDiagnostics = %d", got)
	}

	cfg := &configs.Config{Languages: map[string]*configs.Language{
		"x": {FileTypes: []string{"*.x"}, FailOn: "introduced"},
		"y": {FileTypes: []string{"*.y"}},
	}, Drivers: map[string]*configs.Driver{}}
	s2, err := capabilities.NewSet(cfg, nil, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for p, want := range map[string]string{"a.x": "introduced", "b.y": "", "c.z": ""} {
		if got := s2.FailOn(p); got != want {
			t.Errorf("FailOn(%s) = %q, want %q", p, got, want)
		}
	}
}

// Has never says no for a driver that works, whatever the moment its probe
// ends: while the probe runs the driver may serve, and after it, it does.
// (Has once read what serves before what is pending, so a probe ending
// between the two reads made lint unavailable for a moment.)
func TestHasHoldsWhileAProbeEnds(t *testing.T) {
	for range 200 {
		d := &fake{name: "l", kinds: []engine.Kind{engine.Lint}}
		cfg := &configs.Config{
			Languages: map[string]*configs.Language{"x": {FileTypes: []string{"*.x"}, Lint: []string{"l"}}},
			Drivers:   map[string]*configs.Driver{"l": {Type: "fake"}},
		}
		typ := capabilities.Type{Name: "fake", New: func(string, *configs.Driver, capabilities.Env) (capabilities.Driver, error) { return d, nil }}
		s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Probe(context.Background())
		}()
		for ended := false; !ended; {
			select {
			case <-done:
				ended = true
			default:
			}
			if !s.Has(engine.Lint) {
				t.Fatal("Has(lint) = false for a driver that works")
			}
		}
		s.Close()
	}
}
