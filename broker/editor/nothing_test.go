package editor_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine/testtree"
)

// On the editor endpoint too, a check without paths works on the root
// (real gopls): a caller broken by a change on disk that no buffer holds
// is named; and a check that looked at no file is not ok.
func TestNoPathCheckWorksOnTheRoot(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\n// F is used by b.\nfunc F() int { return 1 }\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\n// X uses F.\nvar X = a.F()\n",
	})
	c := startWith(t, root, broker.Options{Load: realDrivers})
	c.init(nil)
	plan := map[string]any{"paths": []string{}, "ops": []any{checkOp}}
	var r planResult
	c.must("devbroker/plan", plan, &r)
	if !r.OK || len(r.Drivers) == 0 {
		t.Fatalf("check without paths of a clean module: ok %v, drivers %v, error %+v", r.OK, r.Drivers, r.Error)
	}
	// Another program (an agent's edit_file, say) breaks b's call.
	if err := os.WriteFile(filepath.Join(root, "a/a.go"), []byte("package a\n\n// F is used by b.\nfunc F(x int) int { return x }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = planResult{}
	c.must("devbroker/plan", plan, &r)
	if r.OK || r.Error == nil || r.Error.Kind != "diagnostics" {
		t.Fatalf("check without paths after a/a.go broke b: ok %v, error %+v", r.OK, r.Error)
	}
	if !slices.ContainsFunc(r.Diagnostics, func(d wire.Diagnostic) bool { return d.Path == "b/b.go" && d.Severity == "error" }) {
		t.Fatalf("no error in b/b.go: %+v", r.Diagnostics)
	}

	empty := startWith(t, testtree.New(t, map[string]string{}), broker.Options{Load: realDrivers})
	empty.init(nil)
	r = planResult{}
	empty.must("devbroker/plan", plan, &r)
	if r.OK || r.Error == nil || r.Error.Kind != "unchecked" || !strings.Contains(r.Error.Message, "check looked at no file") {
		t.Fatalf("check without paths of an empty root: ok %v, error %+v", r.OK, r.Error)
	}
}
