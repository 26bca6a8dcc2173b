package editor_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/engine/testtree"
)

// Over the editor endpoint, a check of a monorepo (a Go module and a
// Python project below the root) names each file's project and the server
// that answered, with the directory it ran in (real gopls and pyright).
func TestPlanNamesEachFilesProject(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"services/api/go.mod":  "module example.com/api\n\ngo 1.22\n",
		"services/api/main.go": "package main\n\nfunc main() {\n\tvar port int = \"8080\"\n\tprintln(port)\n}\n",
		"tools/pyproject.toml": "[project]\nname = \"tools\"\n\n[tool.pyright]\ntypeCheckingMode = \"strict\"\n",
		"tools/scale.py":       "def scale(budget, factor: float) -> float:\n    return float(budget) * factor\n",
	})
	c := startWith(t, root, broker.Options{Load: realDrivers})
	c.init(nil)
	var r planResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"services/api/main.go", "tools/scale.py"}, "ops": []any{checkOp}}, &r)
	var got []string
	for _, p := range r.Projects {
		for _, s := range p.Servers {
			got = append(got, p.Root+": "+s.Driver+" in "+s.Root)
		}
	}
	if want := []string{"services/api: gopls in .", "tools: pyright in tools"}; !slices.Equal(got, want) {
		t.Errorf("projects %q, want %q\n%+v", got, want, r.DevResult)
	}
	var errs []string
	for _, d := range r.Diagnostics {
		if d.Severity == "error" {
			errs = append(errs, d.Path+": "+d.Message)
		}
	}
	for _, want := range []string{`services/api/main.go: cannot use "8080"`, `tools/scale.py: Type annotation is missing for parameter "budget"`} {
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, want) }) {
			t.Errorf("no error %q among %q", want, errs)
		}
	}
}
