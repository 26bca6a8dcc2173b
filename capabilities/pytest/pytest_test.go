package pytest

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

// project writes a Python project: pkg.calc (add), pkg.twice (imports
// add), tests of twice (through calc) and of nothing else.
func project(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"pyproject.toml":       "[tool.pytest.ini_options]\npythonpath = [\".\"]\n",
		"pkg/__init__.py":      "",
		"pkg/calc.py":          "def add(a, b):\n    return a + b\n",
		"pkg/twice.py":         "from pkg.calc import add\n\n\ndef twice(x):\n    return add(x, x)\n",
		"tests/test_twice.py":  "from pkg.twice import twice\n\n\ndef test_twice():\n    got = twice(2)\n    assert got == 4\n",
		"tests/test_other.py":  "def test_other():\n    pass\n",
		"tests/test_writes.py": "import pathlib\n\n\ndef test_writes():\n    pathlib.Path('written.txt').write_text('x')\n",
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
	return root
}

func needPytest(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("pytest"); err != nil {
		t.Skip("pytest is not installed (.ci/install-tools installs it)")
	}
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
func run(t *testing.T, req *capabilities.Request, budget time.Duration) *capabilities.Result {
	t.Helper()
	d, err := New("pytest", &configs.Driver{Timeout: configs.Duration{Duration: budget}}, capabilities.Env{Root: req.Root})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if p := d.Probe(context.Background()); p.State != capabilities.Found {
		t.Fatalf("probe: %s: %s", p.State, p.Reason)
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget+time.Minute)
	defer cancel()
	return d.Run(ctx, req)
}

// TestBrokenModuleFailsItsTest: an unwritten change to calc breaks
// twice's test (which imports calc through twice), at its assert line;
// the other tests do not run; the disk is untouched.
func TestBrokenModuleFailsItsTest(t *testing.T) {
	needPytest(t)
	root := project(t)
	res := run(t, request(root, map[string]string{"pkg/calc.py": "def add(a, b):\n    return a - b\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	if len(res.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v", res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.Path != "tests/test_twice.py" || d.Line != 6 || !strings.HasPrefix(d.Message, "test_twice: assert 0 == 4") {
		t.Errorf("diagnostic %+v", d)
	}
	if len(res.Coverage) != 1 || !slices.Equal(res.Coverage[0].Paths, []string{"tests/test_twice.py"}) || !strings.Contains(res.Coverage[0].Message, "0 passed, 1 failed, 0 skipped") {
		t.Errorf("coverage %+v", res.Coverage)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "pkg/calc.py")); !strings.Contains(string(b), "a + b") {
		t.Errorf("the disk changed: %s", b)
	}
	res = run(t, request(root, map[string]string{"pkg/calc.py": "def add(a, b):\n    return b + a\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 0 || !strings.Contains(res.Coverage[0].Message, "1 passed, 0 failed") {
		t.Errorf("fixed: %s %s %v %+v", res.Status, res.Message, res.Diagnostics, res.Coverage)
	}
}

// TestWritesStayInTheCopy: a test that writes into its working directory
// writes into the private copy, never the root.
func TestWritesStayInTheCopy(t *testing.T) {
	needPytest(t)
	root := project(t)
	res := run(t, request(root, nil, "tests/test_writes.py"), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 0 {
		t.Fatalf("%s %s %v", res.Status, res.Message, res.Diagnostics)
	}
	if _, err := os.Stat(filepath.Join(root, "written.txt")); err == nil {
		t.Error("the test's write reached the root")
	}
}

// TestNothingSelectedIsNotOK: a change no test imports is unchecked.
func TestNothingSelectedIsNotOK(t *testing.T) {
	needPytest(t)
	root := project(t)
	res := run(t, request(root, map[string]string{"pkg/alone.py": "X = 1\n"}), 10*time.Minute)
	if res.Status != engine.StatusUnchecked || !strings.Contains(res.Message, "no test ran") {
		t.Errorf("%s: %s", res.Status, res.Message)
	}
}

// TestNothingRunIsNotOK: a run whose report holds no test that ran is
// unchecked, not ok, though pytest exited 0: the project's addopts
// collect only (a failing test then goes unseen), or every selected test
// is skipped.
func TestNothingRunIsNotOK(t *testing.T) {
	needPytest(t)
	for name, c := range map[string]struct{ project, change, content string }{
		"collect only": {"[tool.pytest.ini_options]\npythonpath = [\".\"]\naddopts = \"--collect-only\"\n", "tests/test_twice.py", "def test_twice():\n    assert False\n"},
		"all skipped":  {"", "tests/test_other.py", "import pytest\n\n\n@pytest.mark.skip(reason='later')\ndef test_other():\n    assert False\n"},
	} {
		t.Run(name, func(t *testing.T) {
			root := project(t)
			if c.project != "" {
				if err := os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte(c.project), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res := run(t, request(root, map[string]string{c.change: c.content}), 10*time.Minute)
			if res.Status != engine.StatusUnchecked || !strings.Contains(res.Message, "no test ran") {
				t.Errorf("%s: %s %v", res.Status, res.Message, res.Diagnostics)
			}
		})
	}
}

// TestHangIsKilled: a test that hangs, and a process it started, are
// killed when the driver's configured time budget (its timeout key) runs
// out, though the request could wait longer; the answer says it timed
// out and how to raise the budget.
func TestHangIsKilled(t *testing.T) {
	needPytest(t)
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	root := project(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	hang := "import subprocess\nimport time\n\n\ndef test_other():\n    p = subprocess.Popen(['sleep', '3600'])\n    with open(" + strconv.Quote(pidFile) + ", 'w') as f:\n        f.write(str(p.pid))\n    while True:\n        time.sleep(1)\n"
	res := run(t, request(root, map[string]string{"tests/test_other.py": hang}), 20*time.Second)
	if res.Status != engine.StatusTimeout || !strings.Contains(res.Message, "timed out") || !strings.Contains(res.Message, `set timeout = "40s" under [drivers.pytest]`) {
		t.Errorf("%s: %s", res.Status, res.Message)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the test never started its child: %v", err)
	}
	proctest.AssertGone(t, strings.TrimSpace(string(data)))
}

func TestSelectTests(t *testing.T) {
	src := map[string]string{
		"src/app/core.py":       "X = 1\n",
		"src/app/api.py":        "from .core import X\n",
		"src/app/other.py":      "import os\n",
		"tests/test_api.py":     "from app.api import thing\n",
		"tests/test_core.py":    "import app.core as c\n",
		"tests/test_other.py":   "from app import other\n",
		"tests/util_test.py":    "from app import (\n    api,\n)\n",
		"tests/test_nothing.py": "import json\n",
	}
	files := make([]string, 0, len(src))
	for p := range src {
		files = append(files, p)
	}
	read := func(p string) []byte { return []byte(src[p]) }
	got := selectTests(files, []string{"src/app/core.py"}, read)
	want := []string{"tests/test_api.py", "tests/test_core.py"}
	if !slices.Equal(got, want) {
		t.Errorf("core changed: %v, want %v", got, want)
	}
	got = selectTests(files, []string{"src/app/other.py", "tests/test_nothing.py"}, read)
	want = []string{"tests/test_nothing.py", "tests/test_other.py"}
	if !slices.Equal(got, want) {
		t.Errorf("other changed: %v, want %v", got, want)
	}
}
