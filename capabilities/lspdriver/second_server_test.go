package lspdriver_test

// This file tests a second language server, pyright, end to end from the
// embedded default configuration: devbroker has no code for pyright, so
// what passes here passes for any server configured the same way.

import (
	"github.com/devbroker/devbroker/capabilities/lspdriver"

	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// pyrightSet loads the embedded defaults for a fresh root, builds and
// probes the Set, and returns it with pyright's probe line.
func pyrightSet(t *testing.T) (*capabilities.Set, capabilities.DriverReport, string) {
	t.Helper()
	return defaultsSet(t, "pyright-langserver", "pyright", "npm install -g pyright", drivers.Options{})
}

// defaultsSet loads the embedded defaults for a fresh root with opts,
// builds and probes the Set, and returns it with the probe line of the
// driver named driver, whose server bin (skipped without it: install
// says how to install it) must be on PATH.
func defaultsSet(t *testing.T, bin, driver, install string, opts drivers.Options) (*capabilities.Set, capabilities.DriverReport, string) {
	t.Helper()
	if _, err := exec.LookPath(bin); err != nil {
		t.Skipf("no %s on PATH (%s; make tools installs it)", bin, install)
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	set, rep, err := drivers.LoadWith(ctx, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = set.Close() })
	for _, dr := range rep.Drivers {
		if dr.Name == driver {
			return set, dr, root
		}
	}
	t.Fatalf("the default configuration has no %s driver: %+v", driver, rep.Drivers)
	return nil, capabilities.DriverReport{}, ""
}

// TestPyrightFromDefaults checks a Python file that exists only in the
// workspace: pyright reports its type error and undefined name at the
// right positions (characters, not UTF-16), and fixing them in the
// workspace clears them.
func TestPyrightFromDefaults(t *testing.T) {
	set, probe, root := pyrightSet(t)
	if probe.State != capabilities.Found || !strings.HasPrefix(probe.Version, "pyright 1.") || probe.Type != "lsp" {
		t.Fatalf("probe: %+v", probe)
	}
	t.Logf("probe: %s %s at %s in %v", probe.State, probe.Version, probe.Path, probe.Took)

	// 𝄞 is one character and two UTF-16 units: the error on line 3 is at
	// character 23, UTF-16 unit 24.
	const broken = "import os\n\nlabel = \"𝄞\"; n: int = label\nprint(os.sep, n, undefined_name)\n"
	const fixed = "import os\n\nlabel = \"𝄞\"; n: str = label\nprint(os.sep, n)\n"
	check := func(content string) *engine.Response {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
		defer cancel()
		start := time.Now()
		resp, err := set.Run(ctx, engine.Request{
			Kind: engine.Check, Root: root,
			Files:   map[string]*text.Doc{"pkg/m.py": text.FromString(content)},
			Changed: []string{"pkg/m.py"},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("check took %v: %+v", time.Since(start), resp.Diagnostics)
		if len(resp.Drivers) != 1 || resp.Drivers[0].Driver != "pyright" || resp.Drivers[0].Status != engine.StatusOK {
			t.Fatalf("drivers: %+v", resp.Drivers)
		}
		return resp
	}

	resp := check(broken)
	var sawType, sawUndefined bool
	for _, d := range resp.Diagnostics {
		if d.Path != "pkg/m.py" || d.Severity != engine.SeverityError || d.Source != "pyright" {
			t.Errorf("unexpected diagnostic %+v", d)
			continue
		}
		switch {
		case d.Line == 3 && d.Column == 23 && d.EndColumn == 28 && d.Code == "reportAssignmentType" && strings.Contains(d.Message, `"int"`):
			sawType = true
		case d.Line == 4 && d.Column == 18 && d.Code == "reportUndefinedVariable" && strings.Contains(d.Message, `"undefined_name" is not defined`):
			sawUndefined = true
		}
	}
	if !sawType || !sawUndefined {
		t.Fatalf("want the type error at 3:23 and the undefined name at 4:18; got %+v", resp.Diagnostics)
	}

	// Fixed in the workspace: clean, with no sleep in between.
	if resp := check(fixed); len(resp.Diagnostics) != 0 {
		t.Fatalf("fixed content still has diagnostics: %+v", resp.Diagnostics)
	}
	// Broken again: the answer follows the content, not a cache.
	if resp := check(broken); len(resp.Diagnostics) != 2 {
		t.Fatalf("broken again: want 2 diagnostics, got %+v", resp.Diagnostics)
	}
}

// TestPyrightDependentsInMemory changes a module on disk in the workspace
// only: pyright reports the module that imports it, on the changed
// content, and every rapid edit after that gets its own answer.
func TestPyrightDependentsInMemory(t *testing.T) {
	set, probe, root := pyrightSet(t)
	if probe.State != capabilities.Found {
		t.Fatalf("probe: %+v", probe)
	}
	disk := map[string]string{
		"a.py": "def f() -> int:\n    return 1\n",
		"b.py": "from a import f\n\ny: int = f()\n",
	}
	for p, c := range disk {
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(a string) []engine.Diagnostic {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
		defer cancel()
		resp, err := set.Run(ctx, engine.Request{
			Kind: engine.Check, Root: root,
			Files:   map[string]*text.Doc{"a.py": text.FromString(a), "b.py": text.FromString(disk["b.py"])},
			Changed: []string{"a.py"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusOK {
			t.Fatalf("drivers: %+v", resp.Drivers)
		}
		return resp.Diagnostics
	}
	if ds := check(disk["a.py"]); len(ds) != 0 {
		t.Fatalf("clean module: %+v", ds)
	}
	const str = "def f() -> str:\n    return \"1\"\n"
	for i := range 10 {
		ds := check(str)
		if len(ds) != 1 || ds[0].Path != "b.py" || ds[0].Line != 3 || ds[0].Column != 10 {
			t.Fatalf("edit %d: want b.py's assignment error at 3:10, got %+v", i, ds)
		}
		if ds := check(disk["a.py"]); len(ds) != 0 {
			t.Fatalf("edit %d undone: %+v", i, ds)
		}
	}
}

// TestPyrightSettle pins how pyright's answers are made current: it
// registers pull diagnostics after initialize (and then stops pushing for
// open documents), so the settle step must notice the registration and
// pull rather than wait for pushes that never come.
func TestPyrightSettle(t *testing.T) {
	bin, err := exec.LookPath("pyright-langserver")
	if err != nil {
		t.Skip("no pyright-langserver on PATH (npm install -g pyright)")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	srv := lsp.NewServer(lsp.Config{Command: []string{bin, "--stdio"}, Root: root, IdleTimeout: -1})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	file := filepath.Join(root, "m.py")
	for i, tc := range []struct {
		text string
		want int
	}{{"x: int = 's'\n", 1}, {"x: int = 1\n", 0}, {"x: int = 's'\ny: str = 2\n", 2}} {
		rep, err := srv.Diagnose(ctx, []lsp.Document{{Path: file, LanguageID: "python", Text: tc.text}}, []string{file})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Settle != lsp.SettlePull || len(rep.Files[file]) != tc.want || len(rep.Stale) != 0 {
			t.Fatalf("request %d: settle %s, %d diagnostics (want %d), stale %v", i, rep.Settle, len(rep.Files[file]), tc.want, rep.Stale)
		}
	}
}

// TestRegisteredPull is TestPyrightSettle without pyright: a fake server
// that registers pull diagnostics only once a document is open (while the
// driver may already be waiting for pushes) and never pushes. Every check
// must pull, promptly, and see the content it sent.
func TestRegisteredPull(t *testing.T) {
	root, all := workspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{os.Args[0]}, Env: []string{lsptest.EnvVar + "=" + lsptest.RegisterPull}, Timeout: configs.Duration{Duration: 5 * time.Second}}, root)
	for _, first := range []string{"one", "two", "three"} {
		all["notes.txt"] = text.FromString(first + "\nmore\n")
		// A push wait that missed the registration would time out (5 s)
		// and say so in the status: no timing assertion is needed.
		res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"notes.txt"}, All: all, Changed: []string{"notes.txt"}})
		if res.Status != engine.StatusOK || len(res.Diagnostics) != 1 || res.Diagnostics[0].Message != "pull: "+first {
			t.Fatalf("check of %q: %s %s %+v", first, res.Status, res.Message, res.Diagnostics)
		}
	}
}
