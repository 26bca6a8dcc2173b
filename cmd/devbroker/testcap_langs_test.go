package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine/testtree"
)

// testResult is the part of a test answer these tests read.
type testResult struct {
	OK          bool       `json:"ok"`
	Diagnostics []testDiag `json:"diagnostics"`
	PreExisting []testDiag `json:"pre_existing"`
	Baseline    *struct {
		Introduced  int `json:"introduced"`
		PreExisting int `json:"pre_existing"`
	} `json:"baseline"`
	Written []string       `json:"written"`
	Drivers []driverStatus `json:"drivers"`
	Error   *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

type testDiag struct {
	Path       string `json:"path"`
	Line       int    `json:"line"`
	Message    string `json:"message"`
	Introduced *bool  `json:"introduced"`
}

// findTest is the finding of d's whose message begins with prefix, or nil.
func findTest(ds []testDiag, prefix string) *testDiag {
	for i := range ds {
		if strings.HasPrefix(ds[i].Message, prefix) {
			return &ds[i]
		}
	}
	return nil
}

// testCall calls a tool that answers a DevResult, within freshTimeout.
func testCall(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (testResult, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), freshTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	var r testResult
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	return r, string(b)
}

// testServe starts `devbroker serve --mcp --tools full` on root, with the
// test drivers' timeouts at freshTimeout, trusted (or not) for this
// server only.
func testServe(t *testing.T, root string, trusted bool) *toolWatch {
	t.Helper()
	cfg := t.TempDir()
	testtree.Write(t, filepath.Join(cfg, "devbroker"), map[string]string{"config.toml": testCapConfig + "\n[drivers.vitest]\ntimeout = \"10m\"\n"})
	goenv, _ := goCommand(t, root, "env", "GOENV")
	ctx, cancel := context.WithTimeout(context.Background(), freshTimeout)
	defer cancel()
	args := []string{"--tools", "full"}
	if trusted {
		args = append(args, "--trust")
	}
	w, err := connectWatching(ctx, t, root, []string{"XDG_CONFIG_HOME=" + cfg, "XDG_STATE_HOME=" + t.TempDir(), "GOENV=" + goenv}, args...)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if trusted {
		w.waitTools(ctx, t, func(tools []string) bool { return slices.Contains(tools, "test") })
	}
	return w
}

// testPlan edits path (find → replace), runs test, and writes; failOn,
// if not "", is the plan's fail_on.
func testPlan(path, find, replace, failOn string) map[string]any {
	p := map[string]any{"paths": []string{path}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": path, "edits": []any{map[string]any{"find": find, "replace": replace}}}},
		map[string]any{"step": "test", "args": map[string]any{}},
		map[string]any{"step": "write", "args": map[string]any{}},
	}}
	if failOn != "" {
		p["fail_on"] = failOn
	}
	return p
}

// testCase is one language's project for [TestTestsThroughMCPPerLanguage].
type testCase struct {
	files map[string]string
	need  func(t *testing.T, root string)
	// path and the edit that breaks its test, and the one that fixes it.
	path, find, broken, fixed string
	// the broken test's finding: its path, line and message's start; the
	// test that failed on disk already, by its message's start.
	brokenPath string
	brokenLine int
	brokenMsg  string
	oldMsg     string
}

// TestTestsThroughMCPPerLanguage drives the real binary through the Go
// SDK's client, for a Go module, a pytest project and a vitest project,
// each with a test that fails on disk already: a plan whose edit breaks a
// test fails at that test's line before its write, the disk untouched,
// the broken test introduced and the old failure pre-existing (counted in
// baseline); the fixed edit, with fail_on "introduced", passes and is
// written, the old failure listed apart. In a root not trusted the test
// step runs nothing: the plan is refused, saying to trust the root.
func TestTestsThroughMCPPerLanguage(t *testing.T) {
	runner, _ := filepath.Abs("../../capabilities/vitest/testdata/runner/node_modules")
	cases := map[string]testCase{
		"go": {
			files: map[string]string{
				"go.mod":      "module example.com/m\n\ngo 1.22\n",
				"a/a.go":      "package a\n\nfunc Add(x, y int) int { return x + y }\n",
				"b/b.go":      "package b\n\nimport \"example.com/m/a\"\n\nfunc Twice(x int) int { return a.Add(x, x) }\n",
				"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif got := Twice(2); got != 4 {\n\t\tt.Errorf(\"Twice(2) = %d, want 4\", got)\n\t}\n}\n",
				"c/c.go":      "package c\n\nimport \"example.com/m/a\"\n\nfunc Three() int { return a.Add(1, 2) }\n",
				"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestThree(t *testing.T) {\n\tt.Errorf(\"broken before the change\")\n}\n",
			},
			need: func(t *testing.T, _ string) {
				if _, err := exec.LookPath("go"); err != nil {
					t.Skip("needs the go command")
				}
			},
			path: "a/a.go", find: "func Add(x, y int) int { return x + y }",
			broken: "func Add(x, y int) int { return x - y }", fixed: "func Add(x, y int) int { return y + x }",
			brokenPath: "b/b_test.go", brokenLine: 7, brokenMsg: "TestTwice: Twice(2) = 0, want 4", oldMsg: "TestThree: broken before the change",
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
			need: func(t *testing.T, _ string) {
				if _, err := exec.LookPath("pytest"); err != nil {
					t.Skip("pytest is not installed (.ci/install-tools installs it)")
				}
			},
			path: "pkg/calc.py", find: "    return a + b", broken: "    return a - b", fixed: "    return b + a",
			brokenPath: "tests/test_twice.py", brokenLine: 6, brokenMsg: "test_twice: assert 0 == 4", oldMsg: "test_old: assert",
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
			brokenPath: "src/twice.test.ts", brokenLine: 6, brokenMsg: "twice: expected +0 to be 4", oldMsg: "old: expected",
		},
	}
	for _, name := range []string{"go", "pytest", "vitest"} {
		tc := cases[name]
		t.Run(name, func(t *testing.T) {
			root := testtree.New(t, tc.files)
			tc.need(t, root)
			cs := testServe(t, root, true).cs
			before, _ := os.ReadFile(filepath.Join(root, tc.path))

			r, raw := testCall(t, cs, "dev_plan", testPlan(tc.path, tc.find, tc.broken, ""))
			broke := findTest(r.Diagnostics, tc.brokenMsg)
			if r.OK || r.Error == nil || r.Error.Kind != "diagnostics" || len(r.Written) != 0 || broke == nil || broke.Path != tc.brokenPath || broke.Line != tc.brokenLine {
				t.Fatalf("the broken plan: %s", raw)
			}
			if broke.Introduced == nil || !*broke.Introduced {
				t.Errorf("the broken test is not marked introduced: %s", raw)
			}
			if old := findTest(r.Diagnostics, tc.oldMsg); old == nil || old.Introduced == nil || *old.Introduced {
				t.Errorf("the test that failed on disk already is not marked pre-existing: %s", raw)
			}
			if r.Baseline == nil || r.Baseline.Introduced != 1 || r.Baseline.PreExisting != 1 {
				t.Errorf("baseline counts: %s", raw)
			}
			if now, _ := os.ReadFile(filepath.Join(root, tc.path)); string(now) != string(before) {
				t.Fatalf("the disk changed: %s", now)
			}

			testCall(t, cs, "discard", map[string]any{})
			r, raw = testCall(t, cs, "dev_plan", testPlan(tc.path, tc.find, tc.fixed, "introduced"))
			if !r.OK || len(r.Diagnostics) != 0 || findTest(r.PreExisting, tc.oldMsg) == nil || !slices.Equal(r.Written, []string{tc.path}) {
				t.Fatalf("the fixed plan, fail_on introduced: %s", raw)
			}
			if now, _ := os.ReadFile(filepath.Join(root, tc.path)); !strings.Contains(string(now), tc.fixed) {
				t.Errorf("the fixed edit was not written: %s", now)
			}
		})
	}
	t.Run("untrusted", func(t *testing.T) {
		tc := cases["go"]
		root := testtree.New(t, tc.files)
		tc.need(t, root)
		w := testServe(t, root, false)
		if slices.Contains(listTools(t, w.cs), "test") {
			t.Error("the test tool is listed in a root not trusted")
		}
		r, raw := testCall(t, w.cs, "dev_plan", testPlan(tc.path, tc.find, tc.broken, ""))
		if r.OK || r.Error == nil || r.Error.Kind != "unavailable" || !strings.Contains(r.Error.Message, "not before you trust the root") || len(r.Written) != 0 {
			t.Fatalf("a test step in a root not trusted: %s", raw)
		}
		if now, _ := os.ReadFile(filepath.Join(root, tc.path)); string(now) != tc.files[tc.path] {
			t.Fatalf("the disk changed: %s", now)
		}
	})
}
