package lspdriver

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// Each file goes to the nearest directory above it that holds a marker,
// on disk or only in the workspace (the root when none does); a server
// per project for server_root "project", at most max_project_servers of
// them, the rest answered by the root's server, which says so; one group
// for the root's server otherwise.
func TestProjectsNearestMarker(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"a/pyproject.toml":       "",
		"a/x.py":                 "",
		"a/sub/y.py":             "",
		"a/inner/pyproject.toml": "",
		"a/inner/z.py":           "",
		"b/w.py":                 "",
		"top.py":                 "",
		"c/pyproject.toml/d.py":  "", // a directory named like a marker marks nothing
	})
	files := []string{"a/inner/z.py", "a/sub/y.py", "a/x.py", "b/w.py", "c/pyproject.toml/d.py", "new/n.py", "top.py"}
	all := map[string]*text.Doc{"new/pyrightconfig.json": text.FromString("{}\n")}
	req := &capabilities.Request{Kind: engine.Check, Root: root, Files: files, All: all}
	groups := func(cfg configs.Driver) ([]string, string) {
		cfg.Command = []string{"pyright-langserver", "--stdio"}
		drv, err := New("pyright", &cfg, capabilities.Env{Root: root, Language: "python"})
		if err != nil {
			t.Fatal(err)
		}
		prs, over := drv.(*Driver).projects(req)
		var out []string
		for _, pr := range prs {
			var owned []string
			for _, pf := range pr.owned {
				owned = append(owned, fmt.Sprintf("%s%v", pf.Root, pf.Files))
			}
			out = append(out, pr.server+": "+strings.Join(owned, " "))
		}
		return out, over
	}
	markers := []string{"pyrightconfig.json", "pyproject.toml"}

	got, over := groups(configs.Driver{ProjectMarkers: markers, ServerRoot: "project"})
	want := []string{
		".: .[b/w.py c/pyproject.toml/d.py top.py]",
		"a/inner: a/inner[a/inner/z.py]",
		"a: a[a/sub/y.py a/x.py]",
		"new: new[new/n.py]",
	}
	if !slices.Equal(got, want) || over != "" {
		t.Errorf("server per project:\n got %q %q\nwant %q", got, over, want)
	}

	got, over = groups(configs.Driver{ProjectMarkers: markers, ServerRoot: "project", MaxProjectServers: 2})
	want = []string{
		".: .[b/w.py c/pyproject.toml/d.py top.py] new[new/n.py]",
		"a/inner: a/inner[a/inner/z.py]",
		"a: a[a/sub/y.py a/x.py]",
	}
	if !slices.Equal(got, want) || !strings.Contains(over, "pyright runs at most 2 project servers (drivers.pyright.max_project_servers): the files of new were answered by its server of the root") {
		t.Errorf("at most 2 project servers:\n got %q %q\nwant %q", got, over, want)
	}

	got, _ = groups(configs.Driver{ProjectMarkers: markers})
	want = []string{".: a/inner[a/inner/z.py] a[a/sub/y.py a/x.py] .[b/w.py c/pyproject.toml/d.py top.py] new[new/n.py]"}
	if !slices.Equal(got, want) {
		t.Errorf("one server for the root:\n got %q\nwant %q", got, want)
	}

	got, _ = groups(configs.Driver{})
	want = []string{".: "}
	if !slices.Equal(got, want) {
		t.Errorf("no markers:\n got %q\nwant %q", got, want)
	}
}

// A workspace symbol search's answers merge: a symbol in a project's file
// comes from that project's server when it answered (once, though the
// root's found it too), from the root's when the project's did not
// answer; a server that declined is left out when another answered; the
// answer names each file's project and the server that found it.
func TestMergeSymbols(t *testing.T) {
	sym := func(name, p string) engine.Symbol { return engine.Symbol{Name: name, Path: p, Line: 1, Column: 1} }
	find := func(dir string) string {
		for _, p := range []string{"web", "tools"} {
			if dir == p || strings.HasPrefix(dir, p+"/") {
				return p
			}
		}
		return "."
	}
	servers := []string{".", "tools", "web"}
	results := []*capabilities.Result{{Status: engine.StatusOK}, {Status: engine.StatusUnchecked, Message: "No Project: declined", Declined: true}, {Status: engine.StatusOK}}
	results[0].Symbols = []engine.Symbol{sym("a", "web/a.ts"), sym("b", "scripts/b.ts"), sym("t", "tools/t.py"), sym("lib", "/usr/lib/x.d.ts")}
	results[2].Symbols = []engine.Symbol{sym("a", "web/a.ts"), sym("lib", "/usr/lib/x.d.ts")}
	got := mergeSymbols(servers, results, find)
	var names []string
	for _, s := range got.Symbols {
		names = append(names, s.Name+"@"+s.Path)
	}
	if want := []string{"b@scripts/b.ts", "t@tools/t.py", "a@web/a.ts", "lib@/usr/lib/x.d.ts"}; !slices.Equal(names, want) {
		t.Errorf("symbols %v, want %v", names, want)
	}
	if got.Status != engine.StatusOK || got.Message != "" {
		t.Errorf("status %s %q, want ok: the declining server is left out", got.Status, got.Message)
	}
	var projects []string
	for _, pf := range got.Projects {
		projects = append(projects, fmt.Sprintf("%s@%s%v", pf.Root, pf.ServerRoot, pf.Files))
	}
	if want := []string{".@.[scripts/b.ts]", "tools@.[tools/t.py]", "web@web[web/a.ts]"}; !slices.Equal(projects, want) {
		t.Errorf("projects %v, want %v", projects, want)
	}
	// Every server declined: the answer says so.
	results = []*capabilities.Result{{Status: engine.StatusUnchecked, Message: "No Project: declined", Declined: true}, {Status: engine.StatusUnchecked, Message: "No Project: declined", Declined: true}, {Status: engine.StatusUnchecked, Message: "No Project: declined", Declined: true}}
	if got := mergeSymbols(servers, results, find); got.Status != engine.StatusUnchecked || !strings.Contains(got.Message, "server in web: No Project: declined") {
		t.Errorf("all declined: %s %q", got.Status, got.Message)
	}
	// A refusal is an error answer; a request not offered is not one.
	if r := refusal(nil, fmt.Errorf("No Project: %w", lsp.ErrDeclined)); !r.Declined || r.Status != engine.StatusUnchecked {
		t.Errorf("an error answer: %s declined %v, want unchecked and declined", r.Status, r.Declined)
	}
	if r := refusal(nil, lsp.ErrNotOffered); r.Declined {
		t.Errorf("a request not offered is taken for a refusal")
	}
	// A server that failed otherwise (unchecked, not a refusal; or timed
	// out) is not left out: the answer is not ok and says which and why.
	for _, failure := range []*capabilities.Result{
		{Status: engine.StatusUnchecked, Message: "workspace/symbol is not offered"},
		{Status: engine.StatusTimeout, Message: "timed out"},
	} {
		results = []*capabilities.Result{{Status: engine.StatusOK}, failure, {Status: engine.StatusOK}}
		results[0].Symbols = []engine.Symbol{sym("b", "scripts/b.ts")}
		got := mergeSymbols(servers, results, find)
		if got.Status != failure.Status || !strings.Contains(got.Message, "server in tools: "+failure.Message) {
			t.Errorf("a server %s (%q) among answers: %s %q, want its status and message", failure.Status, failure.Message, got.Status, got.Message)
		}
		if len(got.Symbols) != 1 {
			t.Errorf("a server %s: symbols %v, want the others' answers kept", failure.Status, got.Symbols)
		}
	}
}

// A workspace symbol search finds its projects from a file of each
// directory of the driver's language, of the workspace (a file not yet
// written) and of the disk, passing over installed packages, virtual
// environments, testdata, what .gitignore ignores and deleted files.
func TestLanguageFiles(t *testing.T) {
	root := testtree.New(t, map[string]string{
		".gitignore":            "generated/\n",
		"a/x.py":                "",
		"a/y.py":                "",
		"a/README.md":           "",
		"top.py":                "",
		"gone.py":               "",
		"node_modules/m/z.py":   "",
		".venv/lib/q.py":        "",
		"testdata/t.py":         "",
		"generated/g.py":        "",
		"tools/pyproject.toml":  "",
		"tools/gen/scale.py":    "",
		"tools/gen/scale_2.py":  "",
		"docs/only-markdown.md": "",
	})
	req := &capabilities.Request{Kind: engine.Symbols, Root: root, All: map[string]*text.Doc{"new/n.py": text.FromString("X = 1\n")}, Deleted: []string{"gone.py"}}
	cfg := configs.Driver{Command: []string{"pyright-langserver", "--stdio"}, ProjectMarkers: []string{"pyproject.toml"}, ServerRoot: "project"}
	drv, err := New("pyright", &cfg, capabilities.Env{Root: root, Language: "python", FileTypes: map[string][]string{"python": {"*.py"}}})
	if err != nil {
		t.Fatal(err)
	}
	got, cut := drv.(*Driver).languageFiles(req)
	if want := []string{"a/x.py", "new/n.py", "tools/gen/scale.py", "top.py"}; !slices.Equal(got, want) || cut {
		t.Errorf("files %v (cut %v), want %v", got, cut, want)
	}
}

// In a root not trusted, a workspace symbol search starts no server of a
// confined driver (clangd) for a project no request started: the answer
// names the projects whose server was not asked.
func TestWorkspaceSymbolsConfinedNamesProjectsNotAsked(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"p/compile_commands.json": "[]\n",
		"p/a.c":                   "int a;\n",
		"top.c":                   "int t;\n",
	})
	cfg := configs.Driver{Command: []string{"devbroker-no-such-clangd"}, ProjectMarkers: []string{"compile_commands.json"}, ServerRoot: "project", ConfineIncludes: true}
	drv, err := New("clangd", &cfg, capabilities.Env{Root: root, Language: "c", FileTypes: map[string][]string{"c": {"*.c"}}})
	if err != nil {
		t.Fatal(err)
	}
	d := drv.(*Driver)
	defer d.Close()
	res := d.workspaceSymbols(t.Context(), &capabilities.Request{Kind: engine.Symbols, Root: root, Query: &engine.Query{Text: "a"}})
	if res == nil || !strings.Contains(res.Message, "clangd's servers of the projects p were not asked") {
		t.Fatalf("answer %+v, want it to name p's server as not asked", res)
	}
	if s := d.heldProjects(root); len(s) != 0 {
		t.Errorf("servers started for the search: %v", s)
	}
}
