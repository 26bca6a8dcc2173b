package gotest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/internal/proctest"
)

// module writes a module of three packages: a (Add), b (imports a, tests
// Add through Twice), c (unrelated, with a test of its own).
func module(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nfunc Add(x, y int) int { return x + y }\n",
		"b/b.go":      "package b\n\nimport \"example.com/m/a\"\n\nfunc Twice(x int) int { return a.Add(x, x) }\n",
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif got := Twice(2); got != 4 {\n\t\tt.Errorf(\"Twice(2) = %d, want 4\", got)\n\t}\n}\n",
		"c/c.go":      "package c\n\nfunc C() int { return 1 }\n",
		"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) {}\n",
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

// request asks about the files of changes (workspace content) in root.
func request(root string, changes map[string]string) *capabilities.Request {
	req := &capabilities.Request{Kind: engine.Test, Root: root, All: map[string]*text.Doc{}}
	for p, s := range changes {
		req.All[p] = text.FromString(s)
		req.Changed = append(req.Changed, p)
		req.Files = append(req.Files, p)
	}
	slices.Sort(req.Changed)
	slices.Sort(req.Files)
	return req
}

func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
}

// run runs the driver on req with budget as its configured timeout; the
// wait for it is bounded a minute past that.
func run(t *testing.T, req *capabilities.Request, budget time.Duration) *capabilities.Result {
	t.Helper()
	d, err := New("go-test", &configs.Driver{Timeout: configs.Duration{Duration: budget}}, capabilities.Env{Root: req.Root})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), budget+time.Minute)
	defer cancel()
	return d.Run(ctx, req)
}

// TestBrokenCallerFailsAtItsLine: an unwritten change to a breaks b's
// test, which fails at its t.Errorf line; c's test does not run; the disk
// is untouched.
func TestBrokenCallerFailsAtItsLine(t *testing.T) {
	needGo(t)
	root := module(t)
	res := run(t, request(root, map[string]string{"a/a.go": "package a\n\nfunc Add(x, y int) int { return x - y }\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	if len(res.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v, want b's test failing", res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.Path != "b/b_test.go" || d.Line != 7 || !strings.HasPrefix(d.Message, "TestTwice: Twice(2) = 0, want 4") || d.Severity != engine.SeverityError {
		t.Errorf("diagnostic %+v", d)
	}
	if len(res.Coverage) != 1 || !slices.Equal(res.Coverage[0].Paths, []string{"example.com/m/a", "example.com/m/b"}) || !strings.Contains(res.Coverage[0].Message, "0 passed, 1 failed, 0 skipped") {
		t.Errorf("coverage %+v, want a and b run (a has no tests), c not", res.Coverage)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "a/a.go")); !strings.Contains(string(data), "x + y") {
		t.Errorf("the disk changed: %s", data)
	}
	// Fixed: it passes.
	res = run(t, request(root, map[string]string{"a/a.go": "package a\n\nfunc Add(x, y int) int { return y + x }\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 0 || !strings.Contains(res.Coverage[0].Message, "1 passed, 0 failed") {
		t.Errorf("fixed: status %s %s, diagnostics %v, coverage %+v", res.Status, res.Message, res.Diagnostics, res.Coverage)
	}
}

// TestBuildFailureIsFound: a change that does not compile gives the
// compiler's finding at its place, and the package counts as failed.
func TestBuildFailureIsFound(t *testing.T) {
	needGo(t)
	root := module(t)
	res := run(t, request(root, map[string]string{"a/a.go": "package a\n\nfunc Add(x, y int) int { return x + z }\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	found := false
	for _, d := range res.Diagnostics {
		if d.Path == "a/a.go" && d.Line == 3 && strings.Contains(d.Message, "undefined: z") && d.Code == "build" {
			found = true
		}
	}
	if !found {
		t.Errorf("diagnostics %v, want a/a.go:3 undefined: z", res.Diagnostics)
	}
}

// TestPanicPointsAtItsFrame: a test that panics fails at the first frame
// in the root, with the panic's message.
func TestPanicPointsAtItsFrame(t *testing.T) {
	needGo(t)
	root := module(t)
	res := run(t, request(root, map[string]string{"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n}\n"}), 10*time.Minute)
	if len(res.Diagnostics) != 1 {
		t.Fatalf("status %s %s, diagnostics %v", res.Status, res.Message, res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.Path != "c/c_test.go" || d.Line != 7 || !strings.Contains(d.Message, "TestC: panic: assignment to entry in nil map") {
		t.Errorf("diagnostic %+v", d)
	}
}

// TestNothingRanIsNotOK: a change to a package that no test covers is
// unchecked, saying so.
func TestNothingRanIsNotOK(t *testing.T) {
	needGo(t)
	root := module(t)
	if err := os.RemoveAll(filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	res := run(t, request(root, map[string]string{"a/a.go": "package a\n\nfunc Add(x, y int) int { return x * y }\n"}), 10*time.Minute)
	if res.Status != engine.StatusUnchecked || !strings.Contains(res.Message, "have no tests") {
		t.Errorf("status %s: %s", res.Status, res.Message)
	}
}

// TestAllSkippedIsNotOK: a run whose every test skipped ran no test:
// unchecked, not ok.
func TestAllSkippedIsNotOK(t *testing.T) {
	needGo(t)
	root := module(t)
	res := run(t, request(root, map[string]string{"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) {\n\tt.Skip(\"later\")\n\tt.Fatal(\"broken\")\n}\n"}), 10*time.Minute)
	if res.Status != engine.StatusUnchecked || !strings.Contains(res.Message, "no test ran") {
		t.Errorf("status %s: %s %v", res.Status, res.Message, res.Diagnostics)
	}
}

// TestHangIsKilledWithItsGroup: a test that hangs, and a process it
// started, are killed when the driver's configured time budget (its
// timeout key) runs out, though the request itself could wait longer; the
// answer says it timed out and how to raise the budget.
func TestHangIsKilledWithItsGroup(t *testing.T) {
	needGo(t)
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	root := module(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	hang := "package c\n\nimport (\n\t\"os\"\n\t\"os/exec\"\n\t\"strconv\"\n\t\"testing\"\n)\n\nfunc TestC(t *testing.T) {\n\tcmd := exec.Command(\"sleep\", \"3600\")\n\tif err := cmd.Start(); err != nil {\n\t\tt.Fatal(err)\n\t}\n\tos.WriteFile(" + strconvQuote(pidFile) + ", []byte(strconv.Itoa(cmd.Process.Pid)), 0o600)\n\tselect {}\n}\n"
	// Compile first with a generous budget, so that the short one
	// below is spent running, not building.
	warm := request(root, map[string]string{"c/c_test.go": strings.Replace(hang, "select {}", "_ = cmd.Process.Kill()", 1)})
	run(t, warm, 10*time.Minute)
	res := run(t, request(root, map[string]string{"c/c_test.go": hang}), 20*time.Second)
	if res.Status != engine.StatusTimeout || !strings.Contains(res.Message, "timed out") || !strings.Contains(res.Message, "TestC") || !strings.Contains(res.Message, `set timeout = "40s" under [drivers.go-test]`) {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the test never started its child: %v", err)
	}
	proctest.AssertGone(t, strings.TrimSpace(string(data)))
}

func strconvQuote(s string) string { return "`" + s + "`" }

// TestUnwrittenTestdataIsUnchecked: a test reads its testdata from the
// disk, so a run with an unwritten change there would not be about the
// change: unchecked, saying to write it first. A changed test file runs
// its own package's tests only.
func TestUnwrittenTestdataIsUnchecked(t *testing.T) {
	needGo(t)
	root := module(t)
	res := run(t, request(root, map[string]string{"b/testdata/want.txt": "4\n", "b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {}\n"}), 10*time.Minute)
	if res.Status != engine.StatusUnchecked || !strings.Contains(res.Message, "b/testdata/want.txt from the disk") {
		t.Errorf("status %s: %s", res.Status, res.Message)
	}
	res = run(t, request(root, map[string]string{"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {}\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK || !slices.Equal(res.Coverage[0].Paths, []string{"example.com/m/b"}) {
		t.Errorf("status %s %s, coverage %+v", res.Status, res.Message, res.Coverage)
	}
}

// TestBaselineRunsWhatTheChangeAffects: a baseline's request (the disk's
// content, the changed file only Affecting) runs the tests the change
// affects, the importers' included, so that a test failing on disk
// already is found there.
func TestBaselineRunsWhatTheChangeAffects(t *testing.T) {
	needGo(t)
	root := module(t)
	broken := "package b\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tt.Error(\"broken on disk\")\n}\n"
	if err := os.WriteFile(filepath.Join(root, "b/b_test.go"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	req := &capabilities.Request{Kind: engine.Test, Root: root, Files: []string{"a/a.go"}, Affecting: []string{"a/a.go"},
		All: map[string]*text.Doc{"a/a.go": text.FromString("package a\n\nfunc Add(x, y int) int { return x + y }\n")}}
	res := run(t, req, 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "b/b_test.go" || !strings.HasPrefix(res.Diagnostics[0].Message, "TestTwice: broken on disk") {
		t.Fatalf("status %s %s, diagnostics %v", res.Status, res.Message, res.Diagnostics)
	}
	if !slices.Equal(res.Coverage[0].Paths, []string{"example.com/m/a", "example.com/m/b"}) {
		t.Errorf("coverage %+v, want a and b run", res.Coverage)
	}
}
