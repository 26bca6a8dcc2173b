package mcp

// Introduced and pre-existing findings through the official TypeScript
// SDK's client (testdata/tsclient), which validates every answer's
// structured content against the tool's output schema: in a Go, a Python
// and a TypeScript project, edit_file breaks a caller, check marks the
// findings, and a plan with fail_on introduced writes past an error that
// was there before.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// tsIntroducedProject is a project with an error that was there before,
// and an edit of lib that breaks a call in main.
type tsIntroducedProject struct {
	name, server        string
	files               map[string]string
	lib, libOld, libNew string
	main, mainLine      string
	comment             string
	broken, old         string
}

var tsIntroducedProjects = []tsIntroducedProject{
	{
		name: "go", server: "gopls",
		files: map[string]string{
			"go.mod": "module example.com/m\n\ngo 1.22\n",
			"a/a.go": "package a\n\nfunc F() int { return 1 }\n",
			"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nfunc G() int { return a.F() }\n\nfunc H() int { return undefinedThing }\n",
		},
		lib: "a/a.go", libOld: "func F() int { return 1 }", libNew: "func F(x int) int { return x }",
		main: "b/b.go", mainLine: "func H() int { return undefinedThing }", comment: "//",
		broken: "not enough arguments in call to a.F", old: "undefined: undefinedThing",
	},
	{
		name: "python", server: "pyright-langserver",
		files: map[string]string{
			"lib.py":  "def f() -> int:\n    return 1\n",
			"main.py": "from lib import f\n\n\nn = f()\nprint(undefined_name)\n",
		},
		lib: "lib.py", libOld: "def f() -> int:", libNew: "def f(x: int) -> int:",
		main: "main.py", mainLine: "print(undefined_name)", comment: "#",
		broken: `Argument missing for parameter "x"`, old: `"undefined_name" is not defined`,
	},
	{
		name: "typescript", server: "typescript-language-server",
		files: map[string]string{
			"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}` + "\n",
			"src/lib.ts":    "export function f(): number {\n  return 1;\n}\n",
			"src/main.ts":   "import { f } from \"./lib\";\n\nexport const n: number = f();\nexport const s: string = 1;\n",
		},
		lib: "src/lib.ts", libOld: "export function f(): number {", libNew: "export function f(x: number): number {",
		main: "src/main.ts", mainLine: "export const s: string = 1;", comment: "//",
		broken: "Expected 1 arguments, but got 0.", old: "Type 'number' is not assignable to type 'string'.",
	},
}

func TestTypeScriptClientGetsIntroduced(t *testing.T) {
	for _, p := range tsIntroducedProjects {
		t.Run(p.name, func(t *testing.T) { tsIntroduced(t, p) })
	}
}

func tsIntroduced(t *testing.T, p tsIntroducedProject) {
	env := tsEnv(t)
	if !onPath(env["PATH"], p.server) {
		t.Skipf("%s is not installed (make tools)", p.server)
	}
	root := testtree.New(t, p.files)
	// The TypeScript server runs only in a trusted root.
	trust := exec.Command(devbrokerBinary(t), "trust", root)
	trust.Env = os.Environ()
	for k, v := range env {
		trust.Env = append(trust.Env, k+"="+v)
	}
	if out, err := trust.CombinedOutput(); err != nil {
		t.Fatalf("devbroker trust: %v\n%s", err, out)
	}
	lib, main := filepath.Join(root, p.lib), p.main
	moved := map[string]any{"step": "edit", "args": map[string]any{"path": main, "edits": []any{
		map[string]any{"find": p.mainLine, "replace": p.comment + " moved down\n\n" + p.mainLine}}}}
	steps := []tsStep{
		{Op: "list"},
		{Op: "call", Name: "edit_file", Arguments: map[string]any{"command": "view", "file_path": lib}},
		{Op: "call", Name: "edit_file", Arguments: map[string]any{"command": "str_replace", "file_path": lib, "old_str": p.libOld, "new_str": p.libNew}},
		{Op: "call", Name: "check", Arguments: map[string]any{}},
		{Op: "call", Name: "edit_file", Arguments: map[string]any{"command": "undo_edit", "file_path": lib}},
		{Op: "call", Name: "dev_plan", Arguments: map[string]any{"paths": []string{main}, "ops": []any{moved, map[string]any{"step": "check"}, map[string]any{"step": "write"}}}},
		{Op: "call", Name: "dev_plan", Arguments: map[string]any{"paths": []string{main}, "fail_on": "introduced", "ops": []any{map[string]any{"step": "check"}, map[string]any{"step": "write"}}}},
	}
	out := tsScenario(t, ProfileFull, root, env, steps)
	wants := map[int]want{
		1: {},
		2: {},
		3: {kind: "diagnostics", text: []string{p.broken, "[introduced]", p.old, "[pre-existing]", "introduced by the change"}},
		4: {},
		5: {kind: "diagnostics", text: []string{p.old, "0 introduced by the change, 1 there before it"}},
		6: {text: []string{"ok: true", "written: " + main, "pre-existing (they do not stop the plan", p.old}},
	}
	for i, w := range wants {
		checkOutcome(t, i, steps[i], out[i], w)
	}
	if t.Failed() {
		return
	}
	var check, plan struct {
		Diagnostics []struct {
			Path       string `json:"path"`
			Message    string `json:"message"`
			Introduced *bool  `json:"introduced"`
		} `json:"diagnostics"`
		PreExisting []struct {
			Message    string `json:"message"`
			Introduced *bool  `json:"introduced"`
		} `json:"pre_existing"`
		Baseline *struct {
			Introduced  int `json:"introduced"`
			PreExisting int `json:"pre_existing"`
		} `json:"baseline"`
	}
	if err := json.Unmarshal(out[3].Result.StructuredContent, &check); err != nil {
		t.Fatal(err)
	}
	marked := map[string]bool{}
	for _, d := range check.Diagnostics {
		if d.Path == main && d.Introduced != nil {
			for _, m := range []string{p.broken, p.old} {
				if strings.Contains(d.Message, m) {
					marked[m] = *d.Introduced
				}
			}
		}
	}
	if got, ok := marked[p.broken]; !ok || !got {
		t.Errorf("check: the broken call is not marked introduced: %s", out[3].Result.StructuredContent)
	}
	if got, ok := marked[p.old]; !ok || got {
		t.Errorf("check: the old error is not marked pre-existing: %s", out[3].Result.StructuredContent)
	}
	if check.Baseline == nil || check.Baseline.Introduced < 1 || check.Baseline.PreExisting < 1 {
		t.Errorf("check: baseline %+v", check.Baseline)
	}
	if err := json.Unmarshal(out[6].Result.StructuredContent, &plan); err != nil {
		t.Fatal(err)
	}
	if len(plan.PreExisting) == 0 || plan.PreExisting[0].Introduced == nil || *plan.PreExisting[0].Introduced {
		t.Errorf("fail_on introduced: pre_existing %+v", plan.PreExisting)
	}
}
