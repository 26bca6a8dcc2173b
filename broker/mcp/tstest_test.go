package mcp

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// TestTypeScriptClientRunsTests: through the TypeScript SDK's client, in
// every profile, in a trusted root: a plan whose edit breaks a Go test
// fails with the failing test's message (an answer that validates), and
// the test step alone answers.
func TestTypeScriptClientRunsTests(t *testing.T) {
	tsClient(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	for _, p := range profiles {
		t.Run(string(p), func(t *testing.T) {
			env := tsEnv(t)
			testtree.Write(t, filepath.Join(env["XDG_CONFIG_HOME"], "devbroker"), map[string]string{"config.toml": "[drivers.go-test]\ntimeout = \"10m\"\n"})
			root := testtree.New(t, map[string]string{
				"go.mod":      "module example.com/m\n\ngo 1.22\n",
				"a/a.go":      "package a\n\nfunc Add(x, y int) int { return x + y }\n",
				"b/b.go":      "package b\n\nimport \"example.com/m/a\"\n\nfunc Twice(x int) int { return a.Add(x, x) }\n",
				"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif got := Twice(2); got != 4 {\n\t\tt.Errorf(\"Twice(2) = %d, want 4\", got)\n\t}\n}\n",
			})
			trust := exec.Command(devbrokerBinary(t), "trust", root)
			trust.Env = append(trust.Environ(), "XDG_STATE_HOME="+env["XDG_STATE_HOME"], "XDG_CONFIG_HOME="+env["XDG_CONFIG_HOME"])
			if out, err := trust.CombinedOutput(); err != nil {
				t.Fatalf("devbroker trust: %v\n%s", err, out)
			}
			steps := []tsStep{{Op: "list"}, {Op: "call", Name: "dev_plan", Arguments: map[string]any{"paths": []string{"a/a.go"}, "ops": []any{
				map[string]any{"step": "edit", "args": map[string]any{"path": "a/a.go", "edits": []any{map[string]any{"find": "func Add(x, y int) int { return x + y }", "replace": "func Add(x, y int) int { return x - y }"}}}},
				map[string]any{"step": "test"},
				map[string]any{"step": "write"},
			}}}}
			// Failing tests are the answer, not a tool failure (as check's
			// errors are): kind diagnostics, isError false.
			wants := []want{{}, {kind: "diagnostics", text: []string{"TestTwice: Twice(2) = 0, want 4"}}}
			s, w := tsCall(p, "discard", map[string]any{}, want{})
			steps, wants = append(steps, s), append(wants, w)
			s, w = tsCall(p, "test", map[string]any{"paths": []string{"b/b.go"}}, want{text: []string{"1 passed, 0 failed"}})
			steps, wants = append(steps, s), append(wants, w)
			out := tsScenario(t, p, root, env, steps)
			if out[0].Error != nil {
				t.Fatalf("tools/list: %s", out[0].Error.Message)
			}
			for i := 1; i < len(steps); i++ {
				checkOutcome(t, i, steps[i], out[i], wants[i])
			}
		})
	}
}
