package editor_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/devbroker/devbroker/engine/testtree"
)

// devbroker/plan decodes its request once: the plan and apply together,
// each op's arguments by its step. It neither re-encodes the request nor
// parses a plan from it again; its errors say what is wrong as before.
func TestPlanRequestDecodedOnce(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "methods.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "plan" {
			ast.Inspect(fd, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && slices.Contains([]string{"ParsePlan", "Marshal"}, sel.Sel.Name) {
					t.Errorf("%s: the plan method calls %s: decode the request once", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		}
	}
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	c := start(t, root, false)
	c.init(nil)
	for _, tc := range []struct {
		params any
		want   string
	}{
		{[]int{1}, `devbroker/plan: invalid params: want an object {"paths": [...], "ops": [...], "apply": "editor" | "disk"}`},
		{map[string]any{"ops": []any{}, "apply": 5}, `devbroker/plan: invalid params: apply must be "editor" or "disk", got 5`},
		{map[string]any{"ops": []any{}, "extra": 1}, `devbroker/plan: invalid params: the plan is not valid JSON of the form {"paths": [...], "ops": [{"step": ..., "args": {...}}]}: unknown argument "extra"; the arguments are: paths, ops (required), fail_on, apply, workDoneToken`},
		{map[string]any{"paths": []string{"a.txt"}}, `devbroker/plan: invalid params: the plan is not valid JSON of the form {"paths": [...], "ops": [{"step": ..., "args": {...}}]}: ops is required (an array of objects): the steps, run in order`},
		{map[string]any{"ops": []any{map[string]any{"step": "read_lines", "arg": map[string]any{}}}}, `unknown argument "arg" in ops[0]; its arguments are: step (required), args, label`},
	} {
		err := c.call("devbroker/plan", tc.params, nil)
		if code, _, _, msg := rpcErr(t, err); code != jsonrpc2.InvalidParams || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: %d %q, want %q", tc.params, code, msg, tc.want)
		}
	}
	var bad struct {
		Error struct{ Message string } `json:"error"`
	}
	c.must("devbroker/plan", map[string]any{"ops": []any{map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": "1"}}}}, &bad)
	if want := "the plan was rejected and nothing was run:\n- step 1 (read_lines): start must be an integer, got a JSON string"; bad.Error.Message != want {
		t.Errorf("bad arguments: %q, want %q", bad.Error.Message, want)
	}
	var r struct {
		Reads map[string]string `json:"reads"`
	}
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "apply": "editor", "ops": []any{
		map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 1}, "label": "first"}}}, &r)
	if r.Reads["first"] != "one" {
		t.Errorf("reads %v", r.Reads)
	}
}
