package capabilities_test

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// scopeSet is a set whose python check is served by drivers with the
// project scopes given, and whose typescript check by one with
// tsconfig's; python's lint by a driver without one.
func scopeSet(t *testing.T, root string, pyScopes ...string) *capabilities.Set {
	t.Helper()
	drivers := map[string]*configs.Driver{"ts": {Type: "fake", ProjectScope: "tsconfig"}, "ruff": {Type: "fake"}}
	var check []string
	for i, sc := range pyScopes {
		name := "py" + string(rune('a'+i))
		drivers[name] = &configs.Driver{Type: "fake", ProjectScope: sc}
		check = append(check, name)
	}
	cfg := &configs.Config{Languages: map[string]*configs.Language{
		"python":     {FileTypes: []string{"*.py"}, Check: check, Lint: []string{"ruff"}},
		"typescript": {FileTypes: []string{"*.ts"}, Check: []string{"ts"}},
	}, Drivers: drivers}
	typ := capabilities.Type{Name: "fake", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		return &fake{name: name, kinds: []engine.Kind{engine.Check, engine.Lint}}, nil
	}}
	s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A language's files are narrowed by the project scope every driver of
// its list for the kind has; a project file that cannot be parsed
// narrows nothing and warns, naming the driver.
func TestScopeFollowsTheDriversProjectScope(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"pyproject.toml": "[tool.pyright]\ninclude = [\"src\"]\n",
		"tsconfig.json":  "{\n  \"include\": [\"web\"\n",
	})
	s := scopeSet(t, root, "pyright")
	out, warn := s.Scope(engine.Check)
	if out == nil {
		t.Fatal("no scope for check")
	}
	if sc, left := out("tests/t.py"); !left || sc.Language != "python" || sc.Driver != "pya" || sc.Config != `pyproject.toml [tool.pyright] include = ["src"]` {
		t.Errorf("tests/t.py: %+v, %v", sc, left)
	}
	for _, p := range []string{"src/a.py", "scripts/x.ts", "README.md"} {
		if sc, left := out(p); left {
			t.Errorf("%s left out: %+v", p, sc)
		}
	}
	notes := warn()
	if len(notes) != 1 || notes[0].Kind != engine.NoteConfig || notes[0].Driver != "ts" ||
		!strings.Contains(notes[0].Message, "warning: tsconfig.json: line 2") || !strings.Contains(notes[0].Message, "not used") {
		t.Errorf("notes %+v, want one warning about tsconfig.json naming ts", notes)
	}
	// Lint is ruff's: no scope.
	if out, _ := s.Scope(engine.Lint); out != nil {
		if _, left := out("tests/t.py"); left {
			t.Error("lint narrowed by pyright's scope")
		}
	}
	// A second checker without a project scope looks at every file.
	if out, _ := scopeSet(t, root, "pyright", "").Scope(engine.Check); out != nil {
		if _, left := out("tests/t.py"); left {
			t.Error("python narrowed though one of its checkers has no project scope")
		}
	}
}

// With a server per project, each file is narrowed by its own project's
// scope, the nearest directory above it with a project marker: the root's
// include narrows the root's files only, a project's include and exclude
// its own, a project without a scope of its own nothing; a project file
// that cannot be parsed warns once the walk meets its project.
func TestScopePerProject(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"pyproject.toml":       "[tool.pyright]\ninclude = [\"src\"]\n",
		"tools/pyproject.toml": "[tool.pyright]\ninclude = [\"gen\"]\nexclude = [\"gen/old\"]\n",
		"lib/pyproject.toml":   "[project]\nname = \"lib\"\n",
		"web/tsconfig.json":    "{\"include\": [\"src\"]}\n",
		"bad/tsconfig.json":    "{\n  \"include\": [\"src\"\n",
	})
	drivers := map[string]*configs.Driver{
		"py": {Type: "fake", ProjectScope: "pyright", ProjectMarkers: []string{"pyrightconfig.json", "pyproject.toml"}, ServerRoot: "project"},
		"ts": {Type: "fake", ProjectScope: "tsconfig", ProjectMarkers: []string{"tsconfig.json", "package.json"}, ServerRoot: "project"},
	}
	cfg := &configs.Config{Languages: map[string]*configs.Language{
		"python":     {FileTypes: []string{"*.py"}, Check: []string{"py"}},
		"typescript": {FileTypes: []string{"*.ts"}, Check: []string{"ts"}},
	}, Drivers: drivers}
	typ := capabilities.Type{Name: "fake", New: func(name string, _ *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
		return &fake{name: name, kinds: []engine.Kind{engine.Check}}, nil
	}}
	s, err := capabilities.NewSet(cfg, []capabilities.Type{typ}, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	out, warn := s.Scope(engine.Check)
	if out == nil {
		t.Fatal("no scope for check")
	}
	if notes := warn(); len(notes) != 0 {
		t.Errorf("warnings before the walk met bad/: %+v", notes)
	}
	for p, want := range map[string]string{
		"src/a.py":           "",
		"tests/t.py":         `pyproject.toml [tool.pyright] include = ["src"]`,
		"tools/gen/a.py":     "",
		"tools/misc/b.py":    `tools/pyproject.toml [tool.pyright] include = ["gen"]`,
		"tools/gen/old/c.py": `tools/pyproject.toml [tool.pyright] exclude "gen/old"`,
		"lib/x/d.py":         "",
		"web/src/a.ts":       "",
		"web/scripts/b.ts":   `web/tsconfig.json include = ["src"]`,
		"bad/other/c.ts":     "",
	} {
		sc, left := out(p)
		if left != (want != "") || sc.Config != want {
			t.Errorf("%s: left out %v (%q), want %q", p, left, sc.Config, want)
		}
	}
	notes := warn()
	if len(notes) != 1 || notes[0].Driver != "ts" || !strings.Contains(notes[0].Message, "warning: bad/tsconfig.json: line 2") {
		t.Errorf("notes %+v, want one warning about bad/tsconfig.json naming ts", notes)
	}
}
