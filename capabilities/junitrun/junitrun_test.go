package junitrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/internal/proctest"
)

// write writes files under a new root.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
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

func request(root string, changes map[string]string) *capabilities.Request {
	req := &capabilities.Request{Kind: engine.Test, Root: root, All: map[string]*text.Doc{}}
	for p, s := range changes {
		req.All[p] = text.FromString(s)
		req.Changed = append(req.Changed, p)
		req.Files = append(req.Files, p)
	}
	return req
}

// run runs a junit driver with command on req, budget its configured
// timeout; the wait for it is bounded a minute past that.
func run(t *testing.T, command []string, req *capabilities.Request, budget time.Duration) *capabilities.Result {
	t.Helper()
	d, err := New("junit", &configs.Driver{Type: "junit", Command: command, Timeout: configs.Duration{Duration: budget}}, capabilities.Env{Root: req.Root})
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

func needPytest(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("pytest"); err != nil {
		t.Skip("pytest is not installed (.ci/install-tools installs it)")
	}
}

var pyProject = map[string]string{
	"pyproject.toml":      "[tool.pytest.ini_options]\npythonpath = [\".\"]\n",
	"pkg/__init__.py":     "",
	"pkg/calc.py":         "def add(a, b):\n    return a + b\n",
	"tests/test_calc.py":  "from pkg.calc import add\n\n\ndef test_add():\n    got = add(2, 2)\n    assert got == 4\n",
	"tests/test_other.py": "import pytest\n\n\ndef test_other():\n    pass\n\n\n@pytest.mark.skip\ndef test_skipped():\n    pass\n",
}

// TestPytestThroughJUnit: pytest, configured as a junit driver, runs the
// suite on an unwritten change that breaks a test; the failure is at the
// assert's line (the traceback's place in the case's file), the note
// counts the cases, and the disk is untouched. Without a file attribute
// (pytest's default xunit2 report) the failure goes to the request's
// first file and says so.
func TestPytestThroughJUnit(t *testing.T) {
	needPytest(t)
	root := write(t, pyProject)
	broken := map[string]string{"pkg/calc.py": "def add(a, b):\n    return a - b\n"}
	cmd := []string{"pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1", "--junitxml={report}"}
	res := run(t, cmd, request(root, broken), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 1 {
		t.Fatalf("%s: %s %v", res.Status, res.Message, res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.Path != "tests/test_calc.py" || d.Line != 6 || !strings.HasPrefix(d.Message, "test_add: assert 0 == 4") || d.Severity != engine.SeverityError || d.Code != engine.CodeTestFailed {
		t.Errorf("diagnostic %+v", d)
	}
	if len(res.Coverage) != 1 || !strings.Contains(res.Coverage[0].Message, "1 passed, 1 failed, 1 skipped") {
		t.Errorf("coverage %+v", res.Coverage)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "pkg/calc.py")); !strings.Contains(string(b), "a + b") {
		t.Errorf("the disk changed: %s", b)
	}
	for _, p := range []string{".pytest_cache", "pkg/__pycache__"} {
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			t.Errorf("%s was written into the root", p)
		}
	}

	cmd = []string{"pytest", "-q", "-p", "no:cacheprovider", "--junitxml={report}"}
	res = run(t, cmd, request(root, broken), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 1 {
		t.Fatalf("xunit2: %s: %s %v", res.Status, res.Message, res.Diagnostics)
	}
	if d := res.Diagnostics[0]; d.Path != "pkg/calc.py" || d.Line != 1 || !strings.Contains(d.Message, "the report names no file of the project") {
		t.Errorf("xunit2 diagnostic %+v", d)
	}

	res = run(t, cmd, request(root, nil), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 0 || !strings.Contains(res.Coverage[0].Message, "2 passed, 0 failed, 1 skipped") {
		t.Errorf("unchanged: %s %s %v %+v", res.Status, res.Message, res.Diagnostics, res.Coverage)
	}
}

// script is a runner: sh runner.sh REPORT, the script given.
func script(t *testing.T, body string) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	return write(t, map[string]string{"runner.sh": body, "src/a.test.js": "one\ntwo\nthree\n"}), []string{"sh", "runner.sh", "{report}"}
}

// TestBadReportsAreNotOK: a report that is missing, not XML, empty of test
// cases or all skipped is unchecked and says why; a non-zero exit whose
// report names no failure is crashed.
func TestBadReportsAreNotOK(t *testing.T) {
	for _, c := range []struct {
		name, body string
		status     engine.Status
		says       string
	}{
		{"missing", "echo boom; exit 1\n", engine.StatusUnchecked, "it wrote none"},
		{"malformed", "printf '<testsuites><testcase' > \"$1\"\n", engine.StatusUnchecked, "is not JUnit XML"},
		{"not junit", "printf '<html/>' > \"$1\"\n", engine.StatusUnchecked, "not <testsuites> or <testsuite>"},
		{"no cases", "printf '<testsuites></testsuites>' > \"$1\"\n", engine.StatusUnchecked, "holds no test case"},
		{"all skipped", "printf '<testsuite><testcase name=\"a\"><skipped/></testcase></testsuite>' > \"$1\"\n", engine.StatusUnchecked, "every test case in the report"},
		{"exit without failure", "printf '<testsuite><testcase name=\"a\"/></testsuite>' > \"$1\"; exit 3\n", engine.StatusCrashed, "exited with code 3, but its report names no failure"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, cmd := script(t, c.body)
			res := run(t, cmd, request(root, nil), 10*time.Minute)
			if res.Status != c.status || !strings.Contains(res.Message, c.says) || len(res.Diagnostics) != 0 {
				t.Errorf("%s: %s %v", res.Status, res.Message, res.Diagnostics)
			}
		})
	}
}

// TestPlaces: a case's file, absolute in the copy, and the last place its
// failure's stack gives there; a case with no file goes to the request's
// first file; an error is an error; the runner's writes stay in the copy.
func TestPlaces(t *testing.T) {
	root, cmd := script(t, `cat > "$1" <<XML
<testsuites><testsuite>
<testcase classname="a" name="adds" file="$PWD/src/a.test.js" line="1"><failure message="expected 3&#10;got 4">Error: expected 3
    at f ($PWD/lib/x.js:9:1)
    at Object.&lt;anonymous&gt; ($PWD/src/a.test.js:2:5)</failure></testcase>
<testcase classname="a" name="errs" file="src/a.test.js" line="3"><error message="boom"/></testcase>
<testcase classname="b" name="nowhere"><failure message="lost"/></testcase>
<testcase classname="b" name="outside" file="/etc/passwd" line="4"><failure>bad</failure></testcase>
<testcase classname="a" name="passes" file="src/a.test.js"/>
</testsuite></testsuites>
XML
echo written > written.txt
exit 1
`)
	res := run(t, cmd, request(root, map[string]string{"src/a.test.js": "uno\ndos\ntres\n"}), 10*time.Minute)
	if res.Status != engine.StatusOK || len(res.Diagnostics) != 4 {
		t.Fatalf("%s: %s %v", res.Status, res.Message, res.Diagnostics)
	}
	want := []struct {
		path string
		line int
		msg  string
	}{
		{"src/a.test.js", 2, "adds: expected 3"},
		{"src/a.test.js", 3, "errs: error: boom"},
		{"src/a.test.js", 1, "nowhere: lost (the report names no file of the project for this test)"},
		{"src/a.test.js", 1, "outside: bad (the report names no file of the project for this test)"},
	}
	for i, w := range want {
		d := res.Diagnostics[i]
		if d.Path != w.path || d.Line != w.line || d.Message != w.msg {
			t.Errorf("diagnostic %d: %+v, want %+v", i, d, w)
		}
	}
	if !strings.Contains(res.Coverage[0].Message, "1 passed, 4 failed, 0 skipped") {
		t.Errorf("coverage %+v", res.Coverage)
	}
	if _, err := os.Stat(filepath.Join(root, "written.txt")); err == nil {
		t.Error("the runner's write reached the root")
	}
}

// TestHangIsKilled: a runner that hangs, and a process it started, are
// killed when the driver's configured budget runs out; the answer says it
// timed out and how to raise the budget.
func TestHangIsKilled(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	root, cmd := script(t, "sleep 3600 &\necho $! > '"+pidFile+"'\nwait\n")
	res := run(t, cmd, request(root, nil), 20*time.Second)
	if res.Status != engine.StatusTimeout || !strings.Contains(res.Message, "timed out") || !strings.Contains(res.Message, "[drivers.junit]") {
		t.Errorf("%s: %s", res.Status, res.Message)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the runner never started its child: %v", err)
	}
	proctest.AssertGone(t, strings.TrimSpace(string(data)))
}

// TestCanceledIsKilled: a request canceled while the runner hangs ends
// the run, and the runner's child with it.
func TestCanceledIsKilled(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	root, cmd := script(t, "sleep 3600 &\necho $! > '"+pidFile+".tmp'\nmv '"+pidFile+".tmp' '"+pidFile+"'\nwait\n")
	d, err := New("junit", &configs.Driver{Type: "junit", Command: cmd, Timeout: configs.Duration{Duration: 10 * time.Minute}}, capabilities.Env{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	done := make(chan *capabilities.Result, 1)
	go func() { done <- d.Run(ctx, request(root, nil)) }()
	pid, err := proctest.ReadPid(pidFile)
	if err != nil {
		t.Fatalf("the runner never started its child: %v", err)
	}
	cancel()
	res := <-done
	if res.Status != engine.StatusTimeout || !strings.Contains(res.Message, "canceled") {
		t.Errorf("%s: %s", res.Status, res.Message)
	}
	proctest.AssertGone(t, pid)
}

// TestProbeAndConfig: a command not found is missing, with its install
// hint; a command without {report} is refused with what to add.
func TestProbeAndConfig(t *testing.T) {
	d, err := New("unit", &configs.Driver{Type: "junit", Command: []string{"no-such-runner-devbroker", "--out={report}"}, Install: "get it"}, capabilities.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if p := d.Probe(context.Background()); p.State != capabilities.Missing || !strings.Contains(p.Reason, "no-such-runner-devbroker was not found; install: get it") {
		t.Errorf("probe %s: %s", p.State, p.Reason)
	}
	if _, err := New("unit", &configs.Driver{Type: "junit", Command: []string{"runner"}}, capabilities.Env{}); err == nil || !strings.Contains(err.Error(), "names no {report}") {
		t.Errorf("no placeholder: %v", err)
	}
}
