package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// tsTestCase is one language's project for
// [TestTypeScriptClientTestsPerLanguage]: a test the edit of path breaks
// (find → broken), and a test that fails on disk already.
type tsTestCase struct {
	files               map[string]string
	need                func(t *testing.T, root string)
	path, find          string
	broken, fixed       string
	brokenAt, brokenMsg string // "path:line:" and the start of its message
	oldMsg              string
}

// TestTypeScriptClientTestsPerLanguage: through the TypeScript SDK's
// client, in a trusted root holding a Go module, a pytest project or a
// vitest project, each with a test that fails on disk already: a plan
// whose edit breaks a test fails (kind diagnostics) with the broken test at
// its line, marked introduced, the old failure marked pre-existing, and
// writes nothing; the fixed edit with fail_on "introduced" is written. In
// a root not trusted, the test step runs nothing: the plan is refused
// (unavailable) with the trust hint.
func TestTypeScriptClientTestsPerLanguage(t *testing.T) {
	tsClient(t)
	runner, _ := filepath.Abs("../../capabilities/vitest/testdata/runner/node_modules")
	needCmd := func(name, hint string) func(*testing.T, string) {
		return func(t *testing.T, _ string) {
			if _, err := exec.LookPath(name); err != nil {
				t.Skip(hint)
			}
		}
	}
	cases := map[string]tsTestCase{
		"go": {
			files: map[string]string{
				"go.mod":      "module example.com/m\n\ngo 1.22\n",
				"a/a.go":      "package a\n\nfunc Add(x, y int) int { return x + y }\n",
				"b/b.go":      "package b\n\nimport \"example.com/m/a\"\n\nfunc Twice(x int) int { return a.Add(x, x) }\n",
				"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif got := Twice(2); got != 4 {\n\t\tt.Errorf(\"Twice(2) = %d, want 4\", got)\n\t}\n}\n",
				"c/c.go":      "package c\n\nimport \"example.com/m/a\"\n\nfunc Three() int { return a.Add(1, 2) }\n",
				"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestThree(t *testing.T) {\n\tt.Errorf(\"broken before the change\")\n}\n",
			},
			need: needCmd("go", "needs the go command"),
			path: "a/a.go", find: "func Add(x, y int) int { return x + y }",
			broken: "func Add(x, y int) int { return x - y }", fixed: "func Add(x, y int) int { return y + x }",
			brokenAt: "b/b_test.go:7:", brokenMsg: "TestTwice: Twice(2) = 0, want 4", oldMsg: "TestThree: broken before the change",
		},
		"pytest": {
			files: map[string]string{
				"pyproject.toml":      "[tool.pytest.ini_options]\npythonpath = [\".\"]\n",
				"pkg/__init__.py":     "",
				"pkg/calc.py":         "def add(a, b):\n    return a + b\n",
				"pkg/twice.py":        "from pkg.calc import add\n\n\ndef twice(x):\n    return add(x, x)\n",
				"tests/test_twice.py": "from pkg.twice import twice\n\n\ndef test_twice():\n    got = twice(2)\n    assert got == 4\n",
				"tests/test_old.py":   "from pkg.calc import add\n\n\ndef test_old():\n    assert add(1, 1) == 3\n",
			},
			need: needCmd("pytest", "pytest is not installed (.ci/install-tools installs it)"),
			path: "pkg/calc.py", find: "    return a + b", broken: "    return a - b", fixed: "    return b + a",
			brokenAt: "tests/test_twice.py:6:", brokenMsg: "test_twice: assert 0 == 4", oldMsg: "test_old: assert",
		},
		"vitest": {
			files: map[string]string{
				"package.json":      "{\"name\":\"p\",\"private\":true,\"type\":\"module\"}\n",
				"src/calc.ts":       "export function add(a: number, b: number) {\n  return a + b\n}\n",
				"src/twice.ts":      "import { add } from './calc'\n\nexport const twice = (x: number) => add(x, x)\n",
				"src/twice.test.ts": "import { test, expect } from 'vitest'\nimport { twice } from './twice'\n\ntest('twice', () => {\n  const got = twice(2)\n  expect(got).toBe(4)\n})\n",
				"src/old.test.ts":   "import { test, expect } from 'vitest'\nimport { add } from './calc'\n\ntest('old', () => {\n  expect(add(1, 1)).toBe(3)\n})\n",
			},
			need: func(t *testing.T, root string) {
				if _, err := os.Stat(filepath.Join(runner, ".bin", "vitest")); err != nil {
					t.Skip("vitest is not installed in capabilities/vitest/testdata/runner (.ci/install-tools installs it)")
				}
				if err := os.Symlink(runner, filepath.Join(root, "node_modules")); err != nil {
					t.Fatal(err)
				}
			},
			path: "src/calc.ts", find: "  return a + b", broken: "  return a - b", fixed: "  return b + a",
			brokenAt: "src/twice.test.ts:6:", brokenMsg: "twice: expected +0 to be 4", oldMsg: "old: expected",
		},
	}
	plan := func(tc tsTestCase, replace, failOn string) map[string]any {
		p := map[string]any{"paths": []string{tc.path}, "ops": []any{
			map[string]any{"step": "edit", "args": map[string]any{"path": tc.path, "edits": []any{map[string]any{"find": tc.find, "replace": replace}}}},
			map[string]any{"step": "test"},
			map[string]any{"step": "write"},
		}}
		if failOn != "" {
			p["fail_on"] = failOn
		}
		return p
	}
	scenario := func(t *testing.T, tc tsTestCase, trusted bool) (string, []tsStep, []want) {
		env := tsEnv(t)
		testtree.Write(t, filepath.Join(env["XDG_CONFIG_HOME"], "devbroker"), map[string]string{"config.toml": "[drivers.go-test]\ntimeout = \"10m\"\n\n[drivers.pytest]\ntimeout = \"10m\"\n\n[drivers.vitest]\ntimeout = \"10m\"\n"})
		root := testtree.New(t, tc.files)
		tc.need(t, root)
		if trusted {
			trust := exec.Command(devbrokerBinary(t), "trust", root)
			trust.Env = append(trust.Environ(), "XDG_STATE_HOME="+env["XDG_STATE_HOME"], "XDG_CONFIG_HOME="+env["XDG_CONFIG_HOME"])
			if out, err := trust.CombinedOutput(); err != nil {
				t.Fatalf("devbroker trust: %v\n%s", err, out)
			}
		}
		var steps []tsStep
		var wants []want
		if trusted {
			steps = []tsStep{
				{Op: "call", Name: "dev_plan", Arguments: plan(tc, tc.broken, "")},
				{Op: "call", Name: "discard", Arguments: map[string]any{}},
				{Op: "call", Name: "dev_plan", Arguments: plan(tc, tc.fixed, "introduced")},
			}
			wants = []want{
				{kind: "diagnostics", text: []string{tc.brokenAt, tc.brokenMsg, "[introduced]", tc.oldMsg, "[pre-existing]", "1 introduced by the change, 1 there before it"}},
				{},
				{text: []string{"written: " + tc.path}},
			}
		} else {
			steps = []tsStep{{Op: "call", Name: "dev_plan", Arguments: plan(tc, tc.broken, "")}}
			wants = []want{{fails: true, kind: "unavailable", text: []string{"not before you trust the root", "devbroker trust"}}}
		}
		out := tsScenario(t, ProfileDefault, root, env, steps)
		for i := range steps {
			checkOutcome(t, i, steps[i], out[i], wants[i])
		}
		return root, steps, wants
	}
	for _, name := range []string{"go", "pytest", "vitest"} {
		tc := cases[name]
		t.Run(name, func(t *testing.T) {
			root, _, _ := scenario(t, tc, true)
			if data, _ := os.ReadFile(filepath.Join(root, tc.path)); !strings.Contains(string(data), tc.fixed) {
				t.Errorf("the fixed edit was not written: %s", data)
			}
		})
	}
	t.Run("untrusted", func(t *testing.T) {
		tc := cases["go"]
		root, _, _ := scenario(t, tc, false)
		if data, _ := os.ReadFile(filepath.Join(root, tc.path)); string(data) != tc.files[tc.path] {
			t.Errorf("the disk changed: %s", data)
		}
	})
}
