package vitest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/internal/proctest"
)

// runner is the vitest that .ci/install-tools installs for these tests.
func runner(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testdata/runner/node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".bin", "vitest")); err != nil {
		t.Skip("vitest is not installed in testdata/runner (.ci/install-tools installs it)")
	}
	return dir
}

// project writes a TypeScript project: calc (add), twice (imports add),
// a test of twice (through calc) and one of nothing else; its
// node_modules is the test runner's.
func project(t *testing.T, modules string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"package.json":       "{\"name\":\"p\",\"private\":true,\"type\":\"module\"}\n",
		"src/calc.ts":        "export function add(a: number, b: number) {\n  return a + b\n}\n",
		"src/twice.ts":       "import { add } from './calc'\n\nexport const twice = (x: number) => add(x, x)\n",
		"src/twice.test.ts":  "import { test, expect } from 'vitest'\nimport { twice } from './twice'\n\ntest('twice', () => {\n  const got = twice(2)\n  expect(got).toBe(4)\n})\n",
		"src/other.test.ts":  "import { test } from 'vitest'\n\ntest('other', () => {})\n",
		"src/writes.test.ts": "import { test } from 'vitest'\nimport { writeFileSync } from 'node:fs'\n\ntest('writes', () => {\n  writeFileSync('written.txt', 'x')\n})\n",
		"src/alone.ts":       "export const alone = 1\n",
	}
	for p, s := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(modules, filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return root
}

func request(root string, changes map[string]string, named ...string) *capabilities.Request {
	req := &capabilities.Request{Kind: engine.Test, Root: root, All: map[string]*text.Doc{}, Files: named}
	for p, s := range changes {
		req.All[p] = text.FromString(s)
		req.Changed = append(req.Changed, p)
		req.Files = append(req.Files, p)
	}
	slices.Sort(req.Changed)
	slices.Sort(req.Files)
	return req
}

// run runs the driver on req with budget as its configured timeout; the
// wait for it is bounded a minute past that.
func run(t *testing.T, modules string, req *capabilities.Request, budget time.Duration) *capabilities.Result {
	t.Helper()
	d, err := New("vitest", &configs.Driver{Command: []string{filepath.Join(modules, ".bin", "vitest")}, Timeout: configs.Duration{Duration: budget}}, capabilities.Env{Root: req.Root})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), budget+time.Minute)
	defer cancel()
	if p := d.Probe(ctx); p.State != capabilities.Found {
		t.Fatalf("probe: %s: %s", p.State, p.Reason)
	}
	return d.Run(ctx, req)
}

// TestBrokenModuleFailsItsTest: an unwritten change to calc breaks
// twice's test at its expect line; the other tests do not run; the disk
// is untouched. Fixed, it passes.
func TestBrokenModuleFailsItsTest(t *testing.T) {
	modules := runner(t)
	root := project(t, modules)
	res := run(t, modules, request(root, map[string]string{"src/calc.ts": "export function add(a: number, b: number) {\n  return a - b\n}\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	if len(res.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v", res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.Path != "src/twice.test.ts" || d.Line != 6 || !strings.HasPrefix(d.Message, "twice: expected +0 to be 4") {
		t.Errorf("diagnostic %+v", d)
	}
	if len(res.Coverage) != 1 || !slices.Equal(res.Coverage[0].Paths, []string{"src/twice.test.ts"}) || !strings.Contains(res.Coverage[0].Message, "0 passed, 1 failed, 0 skipped") {
		t.Errorf("coverage %+v", res.Coverage)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "src/calc.ts")); !strings.Contains(string(b), "a + b") {
		t.Errorf("the disk changed: %s", b)
	}
	res = run(t, modules, request(root, map[string]string{"src/calc.ts": "export function add(a: number, b: number) {\n  return b + a\n}\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 0 || !strings.Contains(res.Coverage[0].Message, "1 passed, 0 failed") {
		t.Errorf("fixed: %s %s %v %+v", res.Status, res.Message, res.Diagnostics, res.Coverage)
	}
}

// TestWritesStayInTheCopy: a test's writes stay in the private copy.
func TestWritesStayInTheCopy(t *testing.T) {
	modules := runner(t)
	root := project(t, modules)
	res := run(t, modules, request(root, nil, "src/writes.test.ts"), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 0 {
		t.Fatalf("%s %s %v", res.Status, res.Message, res.Diagnostics)
	}
	if _, err := os.Stat(filepath.Join(root, "written.txt")); err == nil {
		t.Error("the test's write reached the root")
	}
}

// TestCachesStayInTheCopy: vitest's caches (its results under
// node_modules/.vite) go to the private copy, never into the project's
// node_modules, though the copy links the project's packages.
func TestCachesStayInTheCopy(t *testing.T) {
	modules := runner(t)
	root := project(t, modules)
	// The project's own node_modules: a directory of links to the
	// runner's packages, holding a .vite of its own as a project that
	// ran vitest itself does.
	nm := filepath.Join(root, "node_modules")
	if err := os.Remove(nm); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(modules)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(nm, ".vite"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".vite" {
			if err := os.Symlink(filepath.Join(modules, e.Name()), filepath.Join(nm, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	before, err := os.ReadDir(nm)
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, modules, request(root, map[string]string{"src/calc.ts": "export function add(a: number, b: number) {\n  return b + a\n}\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 0 {
		t.Fatalf("%s %s %v", res.Status, res.Message, res.Diagnostics)
	}
	after, err := os.ReadDir(nm)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("the run added to the project's node_modules: %d entries, %d before", len(after), len(before))
	}
	if cache, _ := os.ReadDir(filepath.Join(nm, ".vite")); len(cache) != 0 {
		t.Errorf("the run wrote its cache into the project's node_modules/.vite: %v", cache)
	}
}

// TestNothingRelatedIsNotOK: a change no test imports is unchecked.
func TestNothingRelatedIsNotOK(t *testing.T) {
	modules := runner(t)
	root := project(t, modules)
	res := run(t, modules, request(root, map[string]string{"src/alone.ts": "export const alone = 2\n"}), 10*time.Minute)
	if res.Status != engine.StatusUnchecked || !strings.Contains(res.Message, "no test ran") {
		t.Errorf("%s: %s", res.Status, res.Message)
	}
}

// TestHangIsKilled: a test that hangs, and a process it started, are
// killed when the driver's configured time budget (its timeout key) runs
// out, though the request could wait longer; the answer says it timed
// out and how to raise the budget.
func TestHangIsKilled(t *testing.T) {
	modules := runner(t)
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	root := project(t, modules)
	pidFile := filepath.Join(t.TempDir(), "pid")
	hang := "import { test } from 'vitest'\nimport { spawn } from 'node:child_process'\nimport { writeFileSync } from 'node:fs'\n\ntest('other', async () => {\n  const child = spawn('sleep', ['3600'])\n  writeFileSync(" + strconv.Quote(pidFile) + ", String(child.pid))\n  await new Promise(() => {})\n}, 3600000)\n"
	res := run(t, modules, request(root, map[string]string{"src/other.test.ts": hang}), time.Minute)
	if res.Status != engine.StatusTimeout || !strings.Contains(res.Message, "timed out") || !strings.Contains(res.Message, `set timeout = "2m" under [drivers.vitest]`) {
		t.Errorf("%s: %s", res.Status, res.Message)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the test never started its child: %v", err)
	}
	proctest.AssertGone(t, strings.TrimSpace(string(data)))
}

// TestNothingWrittenIntoNodeModules: the copy links the root's
// node_modules; vitest's own cache (node_modules/.vite) must not be
// written there: nothing of a run reaches the root.
func TestNothingWrittenIntoNodeModules(t *testing.T) {
	modules := runner(t)
	root := project(t, modules)
	// The root's own node_modules: a directory of links to the runner's
	// packages, so that what a run writes there is seen here.
	own := filepath.Join(root, "node_modules")
	if err := os.Remove(own); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(own, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(modules)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == ".vite" {
			continue
		}
		if err := os.Symlink(filepath.Join(modules, e.Name()), filepath.Join(own, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	res := run(t, modules, request(root, nil, "src/other.test.ts"), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 0 {
		t.Fatalf("%s %s %v", res.Status, res.Message, res.Diagnostics)
	}
	after, err := os.ReadDir(own)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range after {
		if e.Type()&os.ModeSymlink == 0 {
			t.Errorf("the run wrote node_modules/%s into the root", e.Name())
		}
	}
}

// TestAllSkippedIsNotOK: a run whose every test was skipped ran no test:
// unchecked, not ok, though vitest exited 0.
func TestAllSkippedIsNotOK(t *testing.T) {
	modules := runner(t)
	root := project(t, modules)
	res := run(t, modules, request(root, map[string]string{"src/other.test.ts": "import { test, expect } from 'vitest'\n\ntest.skip('other', () => {\n  expect(1).toBe(2)\n})\n"}), 10*time.Minute)
	if res.Status != engine.StatusUnchecked || !strings.Contains(res.Message, "no test ran") {
		t.Errorf("%s: %s %v", res.Status, res.Message, res.Diagnostics)
	}
}
