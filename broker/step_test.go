package broker

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/devbroker/devbroker/engine"
)

// TestStepDecodesNothing keeps a step called on its own to the registry's
// answers: step.go decodes no JSON and parses no patch envelope (the
// surface decoded the typed arguments once; engine.Named says what they
// name, and the registry whether the step mutates), and names no step by
// a string.
func TestStepDecodesNothing(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "step.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		switch p, _ := strconv.Unquote(imp.Path.Value); p {
		case "encoding/json", "github.com/devbroker/devbroker/engine/patch", "github.com/devbroker/devbroker/engine/jsonarg":
			t.Errorf("step.go imports %s: the arguments arrive typed; ask the engine's registry", p)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, _ := strconv.Unquote(lit.Value)
		if _, step := engine.LookupStep(engine.StepName(s)); step {
			t.Errorf("%s: step.go names the step %q by a string: use the registry's constant", fset.Position(lit.Pos()), s)
		}
		return true
	})
}
