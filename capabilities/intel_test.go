package capabilities_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// server is a fake language server: its probe finds it (or not) and
// offers what it is told; its run records the request and answers with
// its name in every field.
type server struct {
	fake
	mu     sync.Mutex
	probes int
	seen   []*capabilities.Request
}

func (s *server) Probe(ctx context.Context) capabilities.Probe {
	s.mu.Lock()
	s.probes++
	s.mu.Unlock()
	return s.fake.Probe(ctx)
}

func (s *server) requests() []*capabilities.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

func (s *server) probed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.probes
}

// newServer is a server doing every language kind, whose probe answers p.
func newServer(name string, p capabilities.Probe) *server {
	s := &server{}
	s.fake = fake{name: name, kinds: append([]engine.Kind{engine.Check}, engine.LanguageKinds()...), probe: p}
	s.run = func(req *capabilities.Request) *capabilities.Result {
		s.mu.Lock()
		s.seen = append(s.seen, req)
		s.mu.Unlock()
		return &capabilities.Result{
			Output: engine.Output{
				Locations: []engine.Location{{Path: "def.x", Line: 1, Column: 1, Text: name}},
				Symbols:   []engine.Symbol{{Name: name + "Sym", Kind: "function", Path: "s.x", Line: 1, Column: 1}},
				Hover:     name + " hover",
				Actions:   []engine.Action{{Title: name + " fix"}},
				Edits:     map[string]*text.Doc{"a.x": text.FromString(name + "\n")},
				Bases:     map[string]string{"other.x": "sha256:0123"},
				Renames:   []engine.FileRename{{From: "a.x", To: "b.x"}},
			},
		}
	}
	return s
}

var (
	found   = capabilities.Probe{State: capabilities.Found}
	missing = capabilities.Probe{State: capabilities.Missing, Reason: "not found on PATH"}
)

// intelSet builds a set over root whose languages "x" (*.x), "y" (*.y)
// and "z" (*.z) list the named servers as their intelligence (z lists
// none, and checks with zc), probed when probe is set.
func intelSet(t *testing.T, root string, probe bool, x, y []*server) *capabilities.Set {
	t.Helper()
	cfg := &configs.Config{Languages: map[string]*configs.Language{
		"x": {FileTypes: []string{"*.x"}},
		"y": {FileTypes: []string{"*.y"}},
		"z": {FileTypes: []string{"*.z"}, Check: []string{"zc"}},
	}, Drivers: map[string]*configs.Driver{"zc": {Type: "fake"}}}
	byName := map[string]capabilities.Driver{"zc": &fake{name: "zc", kinds: []engine.Kind{engine.Check}}}
	for lang, list := range map[string][]*server{"x": x, "y": y} {
		for _, s := range list {
			cfg.Languages[lang].Intelligence = append(cfg.Languages[lang].Intelligence, s.name)
			cfg.Drivers[s.name] = &configs.Driver{Type: "fake", Install: "get " + s.name + " from the shop"}
			byName[s.name] = s
		}
	}
	typ := capabilities.Type{Name: "fake", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		return byName[name], nil
	}}
	s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if probe {
		s.Probe(context.Background())
	}
	return s
}

// ask runs a language kind about q over a workspace of a.x and c.z, a.x
// changed.
func ask(t *testing.T, s *capabilities.Set, kind engine.Kind, q engine.Query) *engine.Response {
	t.Helper()
	files := map[string]*text.Doc{"a.x": text.FromString("a\n"), "c.z": text.FromString("c\n")}
	req := engine.Request{Kind: kind, Files: files, Changed: []string{"a.x"}, Deleted: []string{"gone.x"}, Query: &q}
	if q.Path != "" {
		req.Paths = []string{q.Path}
	}
	resp, err := s.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func driverNames(resp *engine.Response) []string {
	var out []string
	for _, d := range resp.Drivers {
		out = append(out, d.Driver+":"+string(d.Status))
	}
	return out
}

// For each language kind, the first server of the language's list that
// the probe found and that offers the kind answers: a missing server is
// passed over, one that does not offer rename answers definition but
// not rename, and a server whose probe says nothing of what it offers
// (Offers nil) offers every kind of its spec.
func TestLanguageKindGoesToFirstFoundServerOfferingIt(t *testing.T) {
	gone := newServer("gone", missing)
	partial := newServer("partial", capabilities.Probe{State: capabilities.Found, Offers: []engine.Kind{engine.Check, engine.Definition, engine.Hover}})
	full := newServer("full", found)
	s := intelSet(t, t.TempDir(), true, []*server{gone, partial, full}, nil)

	q := engine.Query{Path: "a.x", Line: 1, Column: 1}
	resp := ask(t, s, engine.Definition, q)
	if got := driverNames(resp); !slices.Equal(got, []string{"partial:ok"}) {
		t.Fatalf("definition's drivers = %q, want partial alone", got)
	}
	if len(resp.Locations) != 1 || resp.Locations[0].Text != "partial" {
		t.Errorf("definition's locations = %+v, want partial's", resp.Locations)
	}
	reqs := partial.requests()
	if len(reqs) != 1 {
		t.Fatalf("partial ran %d times, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Kind != engine.Definition || r.Query == nil || r.Query.Path != q.Path || r.Query.Line != 1 || !slices.Equal(r.Files, []string{"a.x"}) ||
		len(r.All) != 2 || !slices.Equal(r.Changed, []string{"a.x"}) || !slices.Equal(r.Deleted, []string{"gone.x"}) {
		t.Errorf("partial's request = %+v, want the query, a.x, the whole workspace, changed and deleted", r)
	}

	resp = ask(t, s, engine.Rename, engine.Query{Path: "a.x", Line: 1, Column: 1, NewName: "b"})
	if got := driverNames(resp); !slices.Equal(got, []string{"full:ok"}) {
		t.Fatalf("rename's drivers = %q, want full alone (partial does not offer rename)", got)
	}
	if resp.Edits["a.x"].Content() != "full\n" || resp.Bases["other.x"] != "sha256:0123" || len(resp.Renames) != 1 {
		t.Errorf("rename's answer = edits %v, bases %v, renames %v; want full's", resp.Edits, resp.Bases, resp.Renames)
	}
	for kind, check := range map[engine.Kind]func(*engine.Response) bool{
		engine.Hover:       func(r *engine.Response) bool { return r.Hover == "partial hover" },
		engine.Symbols:     func(r *engine.Response) bool { return len(r.Symbols) == 1 && r.Symbols[0].Name == "fullSym" },
		engine.CodeActions: func(r *engine.Response) bool { return len(r.Actions) == 1 && r.Actions[0].Title == "full fix" },
	} {
		if resp := ask(t, s, kind, q); !check(resp) {
			t.Errorf("%s answered %+v", kind, resp)
		}
	}
}

// A request waits for the probe of the server it needs, and the servers
// after it in the list are not probed when it answers.
func TestLanguageKindProbesItsServerInOrder(t *testing.T) {
	first, second := newServer("first", found), newServer("second", found)
	s := intelSet(t, t.TempDir(), false, []*server{first, second}, nil)
	if !s.Has(engine.References) {
		t.Fatal("Has(references) = false before the probe; a request would probe its server")
	}
	resp := ask(t, s, engine.References, engine.Query{Path: "a.x", Line: 1, Column: 1})
	if got := driverNames(resp); !slices.Equal(got, []string{"first:ok"}) {
		t.Fatalf("drivers = %q, want first", got)
	}
	if first.probed() != 1 || second.probed() != 0 {
		t.Errorf("probes: first %d, second %d; want 1 and 0", first.probed(), second.probed())
	}
}

// A server's status other than ok reaches the answer, as for check.
func TestLanguageKindReportsTheServersStatus(t *testing.T) {
	sick := newServer("sick", found)
	sick.run = func(*capabilities.Request) *capabilities.Result {
		return &capabilities.Result{Status: engine.StatusTimeout, Message: "sick did not answer in 60s"}
	}
	s := intelSet(t, t.TempDir(), true, []*server{sick}, nil)
	resp := ask(t, s, engine.Hover, engine.Query{Path: "a.x", Line: 1, Column: 1})
	if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusTimeout || resp.Drivers[0].Message != "sick did not answer in 60s" {
		t.Errorf("drivers = %+v, want sick's timeout with its message", resp.Drivers)
	}
}

// With no server for the file's language, the answer has no driver and
// one info diagnostic that says why, in words the engine puts after
// "<step> is not available for <path>: ".
func TestLanguageKindWithoutServerSaysWhy(t *testing.T) {
	partial := newServer("partial", capabilities.Probe{State: capabilities.Found, Offers: []engine.Kind{engine.Definition}})
	gone, gone2 := newServer("gone", missing), newServer("gone2", missing)
	s := intelSet(t, t.TempDir(), true, []*server{partial}, []*server{gone, gone2})
	for _, tc := range []struct {
		kind engine.Kind
		path string
		want string
	}{
		{engine.Rename, "a.x", "partial does not offer rename"},
		{engine.Hover, "c.z", "no language server is configured for z files (languages.z.intelligence is empty)"},
		{engine.Hover, "notes.txt", "no configured language covers its file type"},
		{engine.Hover, "b.y", "no language server for y files offers hover: gone is missing: not found on PATH; install: get gone from the shop; gone2 is missing: not found on PATH; install: get gone2 from the shop"},
	} {
		resp := ask(t, s, tc.kind, engine.Query{Path: tc.path, Line: 1, Column: 1})
		if len(resp.Drivers) != 0 || len(resp.Diagnostics) != 1 {
			t.Errorf("%s on %s: drivers %+v, diagnostics %+v; want no driver and one info", tc.kind, tc.path, resp.Drivers, resp.Diagnostics)
			continue
		}
		d := resp.Diagnostics[0]
		if d.Severity != engine.SeverityInfo || d.Message != tc.want {
			t.Errorf("%s on %s: %s %q, want info %q", tc.kind, tc.path, d.Severity, d.Message, tc.want)
		}
	}
}

// A workspace symbol search asks the first server offering symbols of
// every language with files under the root, and merges their answers.
func TestWorkspaceSymbolsMergeLanguages(t *testing.T) {
	root := testtree.New(t, map[string]string{"src/a.x": "a\n", "lib/b.y": "b\n", "c.z": "c\n"})
	nosym := newServer("nosym", capabilities.Probe{State: capabilities.Found, Offers: []engine.Kind{engine.Definition}})
	xs, ys := newServer("xs", found), newServer("ys", found)
	s := intelSet(t, root, false, []*server{nosym, xs}, []*server{ys})
	resp := ask(t, s, engine.Symbols, engine.Query{Text: "Sym"})
	if got := driverNames(resp); !slices.Equal(got, []string{"xs:ok", "ys:ok"}) {
		t.Fatalf("drivers = %q, want xs and ys", got)
	}
	var names []string
	for _, sym := range resp.Symbols {
		names = append(names, sym.Name)
	}
	if !slices.Equal(names, []string{"xsSym", "ysSym"}) {
		t.Errorf("symbols = %q, want xs's and ys's", names)
	}
	if r := ys.requests(); len(r) != 1 || r[0].Files != nil || r[0].Query.Text != "Sym" {
		t.Errorf("ys's requests = %+v, want one with no files and the query", r)
	}
}

// A workspace symbol search with no server for the languages under the
// root says why, once for a server two languages share.
func TestWorkspaceSymbolsWithoutServerSaysWhy(t *testing.T) {
	root := testtree.New(t, map[string]string{"b.y": "b\n", "c.z": "c\n"})
	nosym := newServer("nosym", capabilities.Probe{State: capabilities.Found, Offers: []engine.Kind{engine.Definition}})
	gone := newServer("gone", missing)
	s := intelSet(t, root, true, []*server{gone, nosym}, []*server{gone})
	resp := ask(t, s, engine.Symbols, engine.Query{Text: "Sym"}) // the workspace holds a.x
	if len(resp.Drivers) != 0 || len(resp.Diagnostics) != 1 ||
		resp.Diagnostics[0].Message != "no language server for the languages under the root (x, y) offers symbols: gone is missing: not found on PATH; install: get gone from the shop; nosym does not offer symbols" {
		t.Errorf("answer = drivers %+v, diagnostics %+v", resp.Drivers, resp.Diagnostics)
	}
}

// Has and Serves follow the same rule: a language kind is served when
// some language's server found working offers it; Has also counts a
// server not probed yet whose spec has the kind.
func TestHasAndServesForLanguageKinds(t *testing.T) {
	partial := newServer("partial", capabilities.Probe{State: capabilities.Found, Offers: []engine.Kind{engine.Check, engine.Hover}})
	s := intelSet(t, t.TempDir(), true, []*server{partial, newServer("gone", missing)}, nil)
	for kind, want := range map[engine.Kind]bool{engine.Hover: true, engine.Rename: false, engine.Definition: false} {
		if s.Serves(kind) != want || s.Has(kind) != want {
			t.Errorf("%s: Serves %v, Has %v; want %v", kind, s.Serves(kind), s.Has(kind), want)
		}
	}
	rep := s.Report()
	if got := rep.Available[engine.Hover]; !slices.Equal(got, []string{"x"}) {
		t.Errorf("report's hover languages = %q, want [x]", got)
	}
	if got := rep.Available[engine.Rename]; len(got) != 0 {
		t.Errorf("report's rename languages = %q, want none", got)
	}
	if got := rep.Answering[engine.Hover]; len(got) != 1 || got["x"] != "partial" {
		t.Errorf("report's hover servers = %v, want x: partial", got)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hover: x (partial)\n", "rename: unavailable\n", "check,hover"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report's text does not say %q:\n%s", want, b.String())
		}
	}

	lazy := intelSet(t, t.TempDir(), false, []*server{newServer("later", found)}, nil)
	if lazy.Serves(engine.Rename) || !lazy.Has(engine.Rename) {
		t.Errorf("before the probe: Serves(rename) %v, Has(rename) %v; want false, true", lazy.Serves(engine.Rename), lazy.Has(engine.Rename))
	}
}

// An untrusted server (one that runs the repository's code, in a root the
// user has not trusted) answers nothing and is not probed: the answer says
// it is untrusted, and the next server of the list answers.
func TestLanguageKindPassesOverUntrustedServer(t *testing.T) {
	repo, next := newServer("repo", found), newServer("next", found)
	s := intelSet(t, t.TempDir(), false, []*server{repo}, []*server{repo, next})
	s.Untrust("repo", capabilities.Probe{Reason: "repo runs code the repository provides: trust the root first"})
	resp := ask(t, s, engine.Definition, engine.Query{Path: "a.x", Line: 1, Column: 1})
	if len(resp.Drivers) != 0 || len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Message != "repo is untrusted: repo runs code the repository provides: trust the root first" {
		t.Errorf("answer = drivers %+v, diagnostics %+v; want repo untrusted", resp.Drivers, resp.Diagnostics)
	}
	if got := driverNames(ask(t, s, engine.Definition, engine.Query{Path: "b.y", Line: 1, Column: 1})); !slices.Equal(got, []string{"next:ok"}) {
		t.Errorf("y's drivers = %q, want next", got)
	}
	if repo.probed() != 0 || len(repo.requests()) != 0 {
		t.Errorf("the untrusted server was probed %d times and ran %d times", repo.probed(), len(repo.requests()))
	}
}

// Offers narrows format, lint and check too: a driver whose tool does not
// offer check leaves its files unchecked, saying so.
func TestOffersNarrowsCheck(t *testing.T) {
	d := &fake{name: "ls", kinds: []engine.Kind{engine.Check, engine.Hover}, probe: capabilities.Probe{State: capabilities.Found, Offers: []engine.Kind{engine.Hover}}}
	s := newFakeSetFor(t, engine.Check, d)
	if s.Serves(engine.Check) || s.Has(engine.Check) {
		t.Error("check is served by a driver whose tool does not offer it")
	}
	resp := runFiles(t, s, engine.Check, "a.x")
	if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusUnchecked || !strings.Contains(resp.Drivers[0].Message, "ls does not offer check") {
		t.Errorf("drivers = %+v, want x unchecked: ls does not offer check", resp.Drivers)
	}
}
