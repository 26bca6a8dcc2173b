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

// checkSet builds a probed Set whose language "x" (*.x) checks with the
// given list entries; drivers not in working probe as missing, with an
// install hint.
func checkSet(t *testing.T, check []string, working ...string) (*capabilities.Set, map[string]int) {
	t.Helper()
	ran := map[string]int{}
	cfg := &configs.Config{Languages: map[string]*configs.Language{
		"x": {FileTypes: []string{"*.x"}, Check: check},
		"y": {FileTypes: []string{"*.y"}, Check: []string{}},
	}, Drivers: map[string]*configs.Driver{}}
	for _, e := range check {
		slot, err := configs.ParseSlot(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, dn := range slot.Drivers() {
			cfg.Drivers[dn] = &configs.Driver{Type: "fake", Install: "get " + dn + " from the shop"}
		}
	}
	typ := capabilities.Type{Name: "fake", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		f := &fake{name: name, kinds: []engine.Kind{engine.Check}, run: func(req *capabilities.Request) *capabilities.Result {
			ran[name] += len(req.Files)
			return &capabilities.Result{Status: engine.StatusOK}
		}}
		f.probe = capabilities.Probe{State: capabilities.Missing, Reason: name + " not found on PATH"}
		for _, w := range working {
			if w == name {
				f.probe = capabilities.Probe{State: capabilities.Found}
			}
		}
		return f, nil
	}}
	s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s.Probe(context.Background())
	return s, ran
}

func checkFiles(t *testing.T, s *capabilities.Set, paths ...string) *engine.Response {
	t.Helper()
	files := map[string]*text.Doc{}
	for _, p := range paths {
		files[p] = text.FromString("content\n")
	}
	resp, err := s.Run(context.Background(), engine.Request{Kind: engine.Check, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// A language whose only check driver is missing is unchecked: a status
// names the language, why and how to install, while another language's
// driver works (the Set as a whole still has check).
func TestLanguageWithoutWorkingDriverIsUnchecked(t *testing.T) {
	s, _ := checkSet(t, []string{"a"}, "other")
	resp := checkFiles(t, s, "m.x", "n.x", "z.y", "notes.txt")
	var un []engine.DriverStatus
	for _, d := range resp.Drivers {
		if d.Status == engine.StatusUnchecked {
			un = append(un, d)
		}
	}
	if len(un) != 1 {
		t.Fatalf("drivers = %+v, want one unchecked status", resp.Drivers)
	}
	u := un[0]
	if u.Language != "x" || u.Driver != "a" {
		t.Errorf("unchecked status = %+v, want language x, driver a", u)
	}
	for _, want := range []string{"2 x files", "m.x", "a is missing: a not found on PATH", "install: get a from the shop"} {
		if !strings.Contains(u.Message, want) {
			t.Errorf("message %q does not say %q", u.Message, want)
		}
	}
	// An empty list and an uncovered file keep their info diagnostics.
	var infos []string
	for _, d := range resp.Diagnostics {
		infos = append(infos, d.Path+": "+d.Message)
	}
	if len(infos) != 2 || !strings.Contains(infos[0]+infos[1], "notes.txt: no check driver: no configured language covers") || !strings.Contains(infos[0]+infos[1], "z.y: no check driver for y files") {
		t.Errorf("diagnostics = %q, want infos for notes.txt and z.y only", infos)
	}
}

// A slot's first alternative serves when it works; otherwise the next
// whose drivers all work serves, and its status says in place of what.
func TestAlternativeServesWhenTheFirstIsMissing(t *testing.T) {
	s, ran := checkSet(t, []string{"a | b + c"}, "b", "c")
	if !s.Has(engine.Check) {
		t.Fatal("Has(check) = false with a working alternative")
	}
	resp := checkFiles(t, s, "m.x")
	if ran["a"] != 0 || ran["b"] != 1 || ran["c"] != 1 {
		t.Fatalf("ran = %v, want b and c on m.x", ran)
	}
	if len(resp.Drivers) != 2 {
		t.Fatalf("drivers = %+v, want b and c", resp.Drivers)
	}
	for _, d := range resp.Drivers {
		if d.Status != engine.StatusOK || !strings.Contains(d.Message, "served x files in place of a (a is missing: a not found on PATH") {
			t.Errorf("status %+v does not say it served in place of a", d)
		}
	}

	// The first alternative serves when it works; the others do not run.
	s, ran = checkSet(t, []string{"a | b + c"}, "a", "b", "c")
	resp = checkFiles(t, s, "m.x")
	if ran["a"] != 1 || ran["b"] != 0 || ran["c"] != 0 || len(resp.Drivers) != 1 || resp.Drivers[0].Message != "" {
		t.Errorf("ran = %v, drivers = %+v; want a alone, with no note", ran, resp.Drivers)
	}

	// An alternative serves only when all its drivers work.
	s, _ = checkSet(t, []string{"a | b + c"}, "b")
	if s.Has(engine.Check) {
		t.Error("Has(check) = true with no alternative whose drivers all work")
	}
	resp = checkFiles(t, s, "m.x")
	if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusUnchecked || !strings.Contains(resp.Drivers[0].Message, "c is missing") {
		t.Errorf("drivers = %+v, want x unchecked naming c as missing", resp.Drivers)
	}
}
