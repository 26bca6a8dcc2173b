package capabilities_test

import (
	"context"
	"strings"
	"sync"
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
	return kindSet(t, engine.Check, check, working...)
}

// kindSet builds a probed Set whose language "x" (*.x) lists the given
// entries for kind, and whose language "y" (*.y) lists none. Every
// driver does all kinds; each run counts its files in the returned map
// and reports a warning per file ("NAME looked"). Drivers not in working
// probe as missing, with an install hint.
func kindSet(t *testing.T, kind engine.Kind, entries []string, working ...string) (*capabilities.Set, map[string]int) {
	t.Helper()
	ran := map[string]int{}
	var mu sync.Mutex // the drivers of a lint or check run at once
	x := &configs.Language{FileTypes: []string{"*.x"}}
	switch kind {
	case engine.Format:
		x.Format = entries
	case engine.Lint:
		x.Lint = entries
	default:
		x.Check = entries
	}
	cfg := &configs.Config{Languages: map[string]*configs.Language{
		"x": x,
		"y": {FileTypes: []string{"*.y"}},
	}, Drivers: map[string]*configs.Driver{}}
	for _, e := range entries {
		slot, err := configs.ParseSlot(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, dn := range slot.Drivers() {
			cfg.Drivers[dn] = &configs.Driver{Type: "fake", Install: "get " + dn + " from the shop"}
		}
	}
	typ := capabilities.Type{Name: "fake", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		f := &fake{name: name, kinds: []engine.Kind{engine.Format, engine.Lint, engine.Check}, run: func(req *capabilities.Request) *capabilities.Result {
			mu.Lock()
			ran[name] += len(req.Files)
			mu.Unlock()
			r := &capabilities.Result{Status: engine.StatusOK}
			for _, p := range req.Files {
				r.Diagnostics = append(r.Diagnostics, engine.Diagnostic{Path: p, Line: 1, Column: 1, Severity: engine.SeverityWarning, Message: name + " looked"})
			}
			return r
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
	return runFiles(t, s, engine.Check, paths...)
}

func runFiles(t *testing.T, s *capabilities.Set, kind engine.Kind, paths ...string) *engine.Response {
	t.Helper()
	files := map[string]*text.Doc{}
	for _, p := range paths {
		files[p] = text.FromString("content\n")
	}
	resp, err := s.Run(context.Background(), engine.Request{Kind: kind, Files: files})
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
	// An empty list and an uncovered file are coverage notes, not
	// findings.
	if len(resp.Diagnostics) != 0 {
		t.Errorf("diagnostics = %+v, want none: notes are not findings", resp.Diagnostics)
	}
	var notes []string
	for _, n := range resp.Coverage {
		notes = append(notes, string(n.Kind)+": "+n.Message)
	}
	if len(notes) != 2 || notes[0] != "no_language: 1 file not checked (notes.txt): no configured language covers it" ||
		notes[1] != "not_configured: 1 y file not checked (z.y): y lists no checker (languages.y.check is empty)" {
		t.Errorf("coverage = %q, want notes for notes.txt and z.y only", notes)
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

// statuses renders an answer's driver statuses as "driver: status" (with
// the language for an unchecked one), in order.
func statuses(resp *engine.Response) []string {
	var out []string
	for _, d := range resp.Drivers {
		s := d.Driver + ": " + string(d.Status)
		if d.Language != "" {
			s += " (" + d.Language + ")"
		}
		out = append(out, s)
	}
	return out
}

// Every entry of a lint or check list answers for the language's files:
// an entry no working alternative serves is unchecked on its own, even
// when another entry ran. The entries that ran keep their findings, and
// the status names the entry, counts the files, names up to three, and
// says why and how to install.
func TestEveryEntryIsServedOrUnchecked(t *testing.T) {
	for _, kind := range []engine.Kind{engine.Lint, engine.Check} {
		t.Run(string(kind), func(t *testing.T) {
			s, ran := kindSet(t, kind, []string{"a", "b"}, "a")
			resp := runFiles(t, s, kind, "m.x", "n.x", "o.x", "p.x", "q.x", "z.y")
			if got, want := strings.Join(statuses(resp), "; "), "a: ok; b: unchecked (x)"; got != want {
				t.Fatalf("drivers = %q, want %q", got, want)
			}
			if ran["a"] != 5 || ran["b"] != 0 {
				t.Errorf("ran = %v, want a on the 5 x files", ran)
			}
			looked := 0
			for _, d := range resp.Diagnostics {
				if d.Message == "a looked" {
					looked++
				}
			}
			if looked != 5 {
				t.Errorf("diagnostics = %+v, want a's 5 findings kept", resp.Diagnostics)
			}
			msg := resp.Drivers[1].Message
			past := map[engine.Kind]string{engine.Lint: "linted", engine.Check: "checked"}[kind]
			for _, want := range []string{
				"5 x files not " + past + " by b (m.x, n.x, o.x and 2 more)",
				"b is missing: b not found on PATH; install: get b from the shop",
			} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q does not say %q", msg, want)
				}
			}
			if strings.Contains(msg, "p.x") || strings.Contains(msg, "a is") {
				t.Errorf("message %q names more than three files, or the entry that ran", msg)
			}
		})
	}
}

// An entry with alternatives is served by the first whose drivers all
// work; each entry is judged on its own, so one status per entry that
// nothing served (not one per file, nor one per language).
func TestEntriesWithAlternatives(t *testing.T) {
	cases := []struct {
		entries []string
		working []string
		want    string
	}{
		{[]string{"a | c", "b"}, []string{"c"}, "c: ok; b: unchecked (x)"},
		{[]string{"a | c", "b"}, []string{"a", "b"}, "a: ok; b: ok"},
		{[]string{"a | c", "b"}, []string{"b"}, "b: ok; a | c: unchecked (x)"},
		{[]string{"a | c", "b | d"}, []string{"c", "d"}, "c: ok; d: ok"},
		{[]string{"a | c", "b"}, nil, "a | c: unchecked (x); b: unchecked (x)"},
		{[]string{"a | b + c", "d"}, []string{"b", "d"}, "d: ok; a | b + c: unchecked (x)"},
		// A driver serving two entries runs once, and serves both.
		{[]string{"a", "b | a"}, []string{"a"}, "a: ok"},
	}
	for _, c := range cases {
		s, ran := checkSet(t, c.entries, c.working...)
		resp := checkFiles(t, s, "m.x", "n.x")
		if got := strings.Join(statuses(resp), "; "); got != c.want {
			t.Errorf("check = %q, working %v: drivers = %q, want %q", c.entries, c.working, got, c.want)
		}
		for dn, n := range ran {
			if n != 2 {
				t.Errorf("check = %q, working %v: %s ran on %d files, want 2", c.entries, c.working, dn, n)
			}
		}
	}
	s, _ := checkSet(t, []string{"a | c", "b"}, "c")
	resp := checkFiles(t, s, "m.x")
	if len(resp.Drivers) != 2 || !strings.HasPrefix(resp.Drivers[1].Message, "1 x file not checked by b (m.x): b is missing") {
		t.Errorf("drivers = %+v, want the second to name entry b and its one file", resp.Drivers)
	}
}

// A format list is different: the first entry a working alternative
// serves formats, and the language is unchecked only when none does (one
// status naming the whole list).
func TestFormatIsUncheckedOnlyWhenNoFormatterWorks(t *testing.T) {
	cases := []struct {
		working []string
		want    string
	}{
		{[]string{"a", "b"}, "a: ok"},
		{[]string{"b"}, "b: ok"},
		{nil, "a, b: unchecked (x)"},
	}
	for _, c := range cases {
		s, ran := kindSet(t, engine.Format, []string{"a", "b"}, c.working...)
		resp := runFiles(t, s, engine.Format, "m.x")
		if got := strings.Join(statuses(resp), "; "); got != c.want {
			t.Errorf("working %v: drivers = %q, want %q", c.working, got, c.want)
		}
		if len(ran) > 1 {
			t.Errorf("working %v: ran = %v, want one formatter", c.working, ran)
		}
	}
	s, _ := kindSet(t, engine.Format, []string{"a", "b"})
	resp := runFiles(t, s, engine.Format, "m.x")
	for _, want := range []string{"1 x file not formatted (m.x)", "a is missing", "b is missing", "install: get b from the shop"} {
		if len(resp.Drivers) != 1 || !strings.Contains(resp.Drivers[0].Message, want) {
			t.Errorf("message %q does not say %q", resp.Drivers[0].Message, want)
		}
	}
}
