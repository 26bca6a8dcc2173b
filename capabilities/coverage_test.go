package capabilities_test

import (
	"context"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// coverageSet builds a probed Set whose language "x" (*.x) lists entries
// for kind, and whose language "g" (*.g) is served by the working driver
// "ok". defaulted says the embedded defaults wrote x's list (as the loader
// marks it); states gives a driver's probe state (missing when absent).
func coverageSet(t *testing.T, kind engine.Kind, entries []string, defaulted bool, states map[string]capabilities.ProbeState) *capabilities.Set {
	t.Helper()
	x := &configs.Language{FileTypes: []string{"*.x"}}
	g := &configs.Language{FileTypes: []string{"*.g"}}
	switch kind {
	case engine.Format:
		x.Format, g.Format = entries, []string{"ok"}
	case engine.Lint:
		x.Lint, g.Lint = entries, []string{"ok"}
	default:
		x.Check, g.Check = entries, []string{"ok"}
	}
	if defaulted {
		x.Defaulted = []string{"format", "lint", "check", "intelligence"}
	}
	cfg := &configs.Config{Languages: map[string]*configs.Language{"x": x, "g": g}, Drivers: map[string]*configs.Driver{
		"ok": {Type: "fake"},
	}}
	for _, e := range entries {
		slot, err := configs.ParseSlot(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, dn := range slot.Drivers() {
			cfg.Drivers[dn] = &configs.Driver{Type: "fake", Install: "get " + dn + " from the shop", Defaulted: defaulted && states[dn] != named}
		}
	}
	typ := capabilities.Type{Name: "fake", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		f := &fake{name: name, kinds: []engine.Kind{engine.Format, engine.Lint, engine.Check}, run: func(*capabilities.Request) *capabilities.Result {
			return &capabilities.Result{Status: engine.StatusOK}
		}}
		switch st := states[name]; {
		case name == "ok" || st == capabilities.Found:
			f.probe = capabilities.Probe{State: capabilities.Found}
		case st == "" || st == named:
			f.probe = capabilities.Probe{State: capabilities.Missing, Reason: name + " is not on PATH"}
		default:
			f.probe = capabilities.Probe{State: st, Reason: name + " failed its smoke test"}
		}
		return f, nil
	}}
	s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for dn, st := range states {
		if st == capabilities.Untrusted {
			s.Untrust(dn, capabilities.Probe{Reason: "not run before you trust the root; it would run: " + dn})
		}
	}
	s.Probe(context.Background())
	return s
}

// named is a probe state coverageSet takes to mean: the driver is
// missing, and a configuration file named its program.
const named capabilities.ProbeState = "named"

// sweep runs kind over paths, of which swept (sorted) were swept in.
func sweep(t *testing.T, s *capabilities.Set, kind engine.Kind, paths, swept []string) *engine.Response {
	t.Helper()
	files := map[string]*text.Doc{}
	for _, p := range paths {
		files[p] = text.FromString("content\n")
	}
	resp, err := s.Run(context.Background(), engine.Request{Kind: kind, Files: files, Swept: swept})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func unchecked(resp *engine.Response) []engine.DriverStatus {
	var out []engine.DriverStatus
	for _, d := range resp.Drivers {
		if d.Status != engine.StatusOK {
			out = append(out, d)
		}
	}
	return out
}

// A default driver that was never found leaves the files a walk swept in
// uncovered: a coverage note naming the language, the entry, how many
// files, why, how to install and how to go without; the answer stays
// complete. A file the request asked for (named, or changed) of the same
// language is unchecked, as before.
func TestMissingDefaultDriverIsCoverageForSweptFiles(t *testing.T) {
	s := coverageSet(t, engine.Lint, []string{"a"}, true, nil)
	resp := sweep(t, s, engine.Lint, []string{"b.x", "c.x", "d.x", "e.x", "m.g"}, []string{"b.x", "c.x", "d.x", "e.x", "m.g"})
	if u := unchecked(resp); len(u) != 0 {
		t.Errorf("statuses not ok = %+v, want none: swept files of a missing default driver are coverage", u)
	}
	if len(resp.Diagnostics) != 0 {
		t.Errorf("diagnostics = %+v, want none: coverage is not a finding", resp.Diagnostics)
	}
	if len(resp.Coverage) != 1 {
		t.Fatalf("coverage = %+v, want one note", resp.Coverage)
	}
	n := resp.Coverage[0]
	if n.Kind != engine.NoteMissing || n.Language != "x" || n.Driver != "a" || n.Files != 4 || strings.Join(n.Paths, ",") != "b.x,c.x,d.x" {
		t.Errorf("note = %+v, want missing, x, a, 4 files, the first three named", n)
	}
	for _, want := range []string{"4 x files not linted by a (b.x, c.x, d.x and 1 more)", "a is missing: a is not on PATH", "install: get a from the shop", "set lint = [] under [languages.x]"} {
		if !strings.Contains(n.Message, want) {
			t.Errorf("note %q does not say %q", n.Message, want)
		}
	}

	// Asked for: n.x is not swept, so it is unchecked; the swept one is
	// still only coverage.
	resp = sweep(t, s, engine.Lint, []string{"b.x", "n.x"}, []string{"b.x"})
	u := unchecked(resp)
	if len(u) != 1 || u[0].Status != engine.StatusUnchecked || !strings.Contains(u[0].Message, "1 x file not linted by a (n.x)") {
		t.Errorf("statuses not ok = %+v, want n.x unchecked alone", u)
	}
	if len(resp.Coverage) != 1 || resp.Coverage[0].Files != 1 || resp.Coverage[0].Paths[0] != "b.x" {
		t.Errorf("coverage = %+v, want b.x alone", resp.Coverage)
	}
}

// A default driver that runs only in a trusted root is, in a root not
// trusted, like one never found: the files a walk swept in are coverage
// (kind untrusted, its reason saying that trusting the root runs it), the files
// asked for unchecked. A driver the configuration names stays strict.
func TestUntrustedDefaultDriverIsCoverageForSweptFiles(t *testing.T) {
	s := coverageSet(t, engine.Check, []string{"a"}, true, map[string]capabilities.ProbeState{"a": capabilities.Untrusted})
	resp := sweep(t, s, engine.Check, []string{"b.x", "c.x", "m.g"}, []string{"b.x", "c.x", "m.g"})
	if u := unchecked(resp); len(u) != 0 {
		t.Errorf("statuses not ok = %+v, want none: swept files of an untrusted default driver are coverage", u)
	}
	if len(resp.Coverage) != 1 {
		t.Fatalf("coverage = %+v, want one note", resp.Coverage)
	}
	n := resp.Coverage[0]
	if n.Kind != engine.NoteUntrusted || n.Language != "x" || n.Driver != "a" || n.Files != 2 {
		t.Errorf("note = %+v, want untrusted, x, a, 2 files", n)
	}
	for _, want := range []string{"2 x files not checked by a (b.x, c.x)", "a is untrusted: not run before you trust the root", "set check = [] under [languages.x]"} {
		if !strings.Contains(n.Message, want) {
			t.Errorf("note %q does not say %q", n.Message, want)
		}
	}
	if strings.Contains(n.Message, "install:") {
		t.Errorf("note %q offers an install for a driver that is installed", n.Message)
	}

	resp = sweep(t, s, engine.Check, []string{"b.x", "n.x"}, []string{"b.x"})
	if u := unchecked(resp); len(u) != 1 || u[0].Status != engine.StatusUnchecked || !strings.Contains(u[0].Message, "1 x file not checked by a (n.x)") {
		t.Errorf("statuses not ok = %+v, want n.x unchecked alone", u)
	}

	strict := coverageSet(t, engine.Check, []string{"a"}, false, map[string]capabilities.ProbeState{"a": capabilities.Untrusted})
	resp = sweep(t, strict, engine.Check, []string{"b.x", "m.g"}, []string{"b.x", "m.g"})
	if u := unchecked(resp); len(u) != 1 || len(resp.Coverage) != 0 {
		t.Errorf("a list a configuration file wrote: statuses not ok = %+v, coverage = %+v; want x unchecked, no note", u, resp.Coverage)
	}
}

// Strict everywhere: a list a configuration file wrote, a driver whose
// program one names, and a driver that was found but failed its probe,
// make swept files unchecked too.
func TestNamedOrFailedDriverIsStrictForSweptFiles(t *testing.T) {
	for name, s := range map[string]*capabilities.Set{
		"named by a configuration file":  coverageSet(t, engine.Check, []string{"a"}, false, nil),
		"found but failed":               coverageSet(t, engine.Check, []string{"a"}, true, map[string]capabilities.ProbeState{"a": capabilities.Failed}),
		"one of two missing, one failed": coverageSet(t, engine.Check, []string{"a | b"}, true, map[string]capabilities.ProbeState{"b": capabilities.Failed}),
		"its program named":              coverageSet(t, engine.Check, []string{"a | b"}, true, map[string]capabilities.ProbeState{"b": named}),
	} {
		resp := sweep(t, s, engine.Check, []string{"b.x", "m.g"}, []string{"b.x", "m.g"})
		if u := unchecked(resp); len(u) != 1 || u[0].Language != "x" {
			t.Errorf("%s: statuses not ok = %+v, want x unchecked", name, u)
		}
		if len(resp.Coverage) != 0 {
			t.Errorf("%s: coverage = %+v, want none", name, resp.Coverage)
		}
	}
}

// Format: a default list none of whose formatters was found is coverage
// for swept files, naming the whole list.
func TestFormatListMissingIsCoverage(t *testing.T) {
	s := coverageSet(t, engine.Format, []string{"a", "b"}, true, nil)
	resp := sweep(t, s, engine.Format, []string{"b.x", "m.g"}, []string{"b.x", "m.g"})
	if u := unchecked(resp); len(u) != 0 {
		t.Errorf("statuses not ok = %+v, want none", u)
	}
	if len(resp.Coverage) != 1 || resp.Coverage[0].Driver != "a, b" || !strings.Contains(resp.Coverage[0].Message, "1 x file not formatted (b.x): a is missing") {
		t.Errorf("coverage = %+v, want one note for the list a, b", resp.Coverage)
	}
}

// Coverage never stands for an answer: swept files of a language whose
// default driver is missing, and nothing else, get no driver status at
// all (the engine then answers that the step looked at no file).
func TestCoverageAloneHasNoDriver(t *testing.T) {
	s := coverageSet(t, engine.Lint, []string{"a"}, true, nil)
	resp := sweep(t, s, engine.Lint, []string{"b.x"}, []string{"b.x"})
	if len(resp.Drivers) != 0 || len(resp.Coverage) != 1 {
		t.Errorf("drivers = %+v, coverage = %+v; want no driver and one note", resp.Drivers, resp.Coverage)
	}
}
