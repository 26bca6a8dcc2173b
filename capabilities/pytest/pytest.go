// Package pytest is the pytest driver: the Python tests a change affects,
// run by pytest on a private copy of the project that holds the
// workspace's unwritten content.
//
// The principal types are [Driver] and [Type], the entry for the driver
// registry. The driver answers the test kind.
//
// Behaviour, decided here and tested:
//
//   - The test files run are the changed or named test files (test_*.py,
//     *_test.py), and every test file that imports a changed module,
//     directly or through other modules of the project: the project's
//     import statements, read as text (select.go).
//   - The tests run in a private copy of the root with the workspace's
//     changes applied (environments and node_modules linked, not
//     copied; version control left out), so they see the unwritten
//     content and what they write never reaches the root. The copy and
//     TMPDIR are removed after the run; pytest's cache and bytecode are
//     not written.
//   - A failed test is an error diagnostic at its line in the test file
//     (the traceback's entry there, else where the test is declared), its
//     message the test's name and the failure's first line. A note says
//     what ran.
//   - An answer that ran no test (none selected, pytest collected none,
//     ran none or skipped every one) is not ok; a run past the driver's timeout is killed with its
//     whole process group.
//   - The driver runs the repository's code: the configuration marks it
//     runs_repository_code, so it runs only in a trusted root, where a
//     pytest in the project's .venv is found before PATH.
//
// This file defines the driver, its probe and its run.
package pytest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/testrun"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/internal/privtemp"
)

// Type is the "pytest" driver type.
var Type = capabilities.Type{Name: "pytest", Doc: doc, New: New}

const doc = "pytest on the test files a change affects (those changed or named, and those importing a changed module), in a private copy of the project holding the workspace's content; runs the repository's tests."

// Driver runs pytest. It is safe for concurrent use.
type Driver struct {
	name    string
	doc     string
	command []string
	env     []string
	install string
	timeout time.Duration // the run's budget: the configuration's timeout
	calls   capabilities.Calls
}

// New builds a pytest driver named name. It does nothing else.
func New(name string, cfg *configs.Driver, env capabilities.Env) (capabilities.Driver, error) {
	d := &Driver{name: name, doc: doc, command: []string{"pytest"}, timeout: testrun.Timeout(cfg)}
	if cfg != nil {
		if cfg.Doc != "" {
			d.doc = cfg.Doc
		}
		if len(cfg.Command) > 0 {
			d.command = slices.Clone(cfg.Command)
		}
		d.env, d.install = slices.Clone(cfg.Env), cfg.Install
	}
	return d, nil
}

// Spec describes the driver.
func (d *Driver) Spec() capabilities.Spec {
	return capabilities.Spec{Name: d.name, Type: Type.Name, Kinds: []engine.Kind{engine.Test}, Doc: d.doc}
}

// Probe finds pytest and asks its version.
func (d *Driver) Probe(ctx context.Context) capabilities.Probe {
	start := time.Now()
	p := capabilities.Probe{}
	found, err := exec.LookPath(d.command[0])
	if err != nil {
		p.State, p.Reason = capabilities.Missing, fmt.Sprintf("%s was not found%s", d.command[0], d.hint())
		return p
	}
	var out testrun.Tail
	code, err := testrun.Run(ctx, testrun.Command{Argv: append(slices.Clone(d.command), "--version"), Env: d.env}, &out)
	switch {
	case err != nil:
		p.State, p.Reason = capabilities.Failed, err.Error()
	case code != 0:
		p.State, p.Reason = capabilities.Failed, fmt.Sprintf("%s --version exited with code %d: %s%s", strings.Join(d.command, " "), code, strings.TrimSpace(out.String()), d.hint())
	default:
		p.State, p.Version, p.Path = capabilities.Found, strings.TrimSpace(out.String()), found
	}
	p.Took = time.Since(start)
	return p
}

func (d *Driver) hint() string {
	if d.install == "" {
		return ""
	}
	return "; install: " + d.install
}

// Close waits for the running calls.
func (d *Driver) Close() error { return d.calls.Close(nil) }

// Run runs the test files that req's files and changes affect.
func (d *Driver) Run(ctx context.Context, req *capabilities.Request) *capabilities.Result {
	if !d.calls.Begin() {
		return capabilities.ClosedResult(d.name)
	}
	defer d.calls.End()
	if req.Kind != engine.Test {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("%s runs tests, not %s", d.name, req.Kind)}
	}
	ctx, cancel := testrun.Budget(ctx, d.timeout)
	defer cancel()
	files, cut := pyFiles(req.Root, req.All, req.Deleted)
	read := func(p string) []byte {
		if doc, ok := req.All[p]; ok {
			return doc.Bytes()
		}
		b, _ := os.ReadFile(filepath.Join(req.Root, filepath.FromSlash(p)))
		if len(b) > maxFileBytes {
			b = b[:maxFileBytes]
		}
		return b
	}
	seeds := slices.Concat(req.Files, req.Changed, capabilities.Present(req.Affecting, req.All))
	tests := selectTests(files, seeds, read)
	res := &capabilities.Result{Status: engine.StatusOK}
	if cut {
		res.Coverage = append(res.Coverage, engine.Note{Kind: engine.NoteNotLooked, Language: "python", Driver: d.name, Message: fmt.Sprintf("%s read the imports of the first %d Python files only: tests that import a changed module through the others may not have run", d.name, maxFiles)})
	}
	if len(tests) == 0 {
		res.Status = engine.StatusUnchecked
		res.Message = "no test ran: no test file (test_*.py, *_test.py) is among the files, or imports a changed module, directly or through the project's other modules; name the test files to run"
		return res
	}
	temp, err := privtemp.Dir("pytest")
	if err != nil {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("making a temporary directory: %v", err)}
	}
	defer os.RemoveAll(temp)
	if real, err := filepath.EvalSymlinks(temp); err == nil {
		temp = real
	}
	tree, tmp := filepath.Join(temp, "tree"), filepath.Join(temp, "tmp")
	for _, dir := range []string{tree, tmp} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("making a temporary directory: %v", err)}
		}
	}
	if err := testrun.Stage(ctx, tree, req.Root, req.All, req.Changed, req.Deleted); err != nil {
		if ctx.Err() != nil {
			return &capabilities.Result{Status: engine.StatusTimeout, Message: fmt.Sprintf("copying the project for its tests ran past %s's timeout (or was canceled); no test ran (raise the driver's timeout, [drivers.%s] timeout)", d.name, d.name)}
		}
		return &capabilities.Result{Status: engine.StatusCrashed, Message: err.Error()}
	}
	report := filepath.Join(temp, "report.xml")
	argv := append(slices.Clone(d.command), "-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1", "--junitxml="+report, "--rootdir="+tree)
	argv = append(argv, tests...)
	var out testrun.Tail
	code, err := testrun.Run(ctx, testrun.Command{Argv: argv, Dir: tree, Tmp: tmp, Env: append([]string{"PYTHONDONTWRITEBYTECODE=1"}, d.env...)}, &out)
	switch {
	case ctx.Err() != nil:
		res.Status, res.Message = testrun.Ended(ctx, d.name, d.timeout, "")
		return res
	case err != nil:
		res.Status, res.Message = engine.StatusNotInstalled, err.Error()+d.hint()
		return res
	case code == 5:
		res.Status = engine.StatusUnchecked
		res.Message = fmt.Sprintf("no test ran: pytest collected no test from %s", strings.Join(tests, ", "))
		return res
	case code != 0 && code != 1:
		res.Status = engine.StatusCrashed
		res.Message = fmt.Sprintf("pytest exited with code %d (%s): %s", code, exitMeaning(code), out.String())
		return res
	}
	data, err := os.ReadFile(report)
	if err != nil {
		res.Status, res.Message = engine.StatusCrashed, fmt.Sprintf("pytest wrote no report: %v: %s", err, out.String())
		return res
	}
	cases, err := testrun.ReadJUnit(bytes.NewReader(data))
	if err != nil {
		res.Status, res.Message = engine.StatusCrashed, err.Error()
		return res
	}
	var passed, failed, skipped int
	for _, c := range cases {
		switch {
		case c.Failure != nil || c.Error != nil:
			failed++
			res.Diagnostics = append(res.Diagnostics, d.failed(c, tree, tests, read))
		case c.Skipped != nil:
			skipped++
		default:
			passed++
		}
	}
	if code == 1 && failed == 0 {
		res.Status = engine.StatusCrashed
		res.Message = "pytest said tests failed, but its report names no failure: " + out.String()
		return res
	}
	if passed+failed == 0 {
		// pytest exited 0 without running a test: the project's options
		// collect only, or every selected test was skipped.
		res.Status = engine.StatusUnchecked
		if skipped > 0 {
			res.Message = fmt.Sprintf("no test ran: pytest skipped every test it selected from %s (%d skipped), so nothing tested the change; name test files that run", strings.Join(tests, ", "), skipped)
		} else {
			res.Message = fmt.Sprintf("no test ran: pytest reported no test run from %s (does the project's pytest configuration, addopts, collect only?): %s", strings.Join(tests, ", "), out.String())
		}
		return res
	}
	shown := tests[:min(len(tests), engine.NotePaths)]
	res.Coverage = append(res.Coverage, engine.Note{
		Kind: engine.NoteRan, Language: "python", Driver: d.name, Files: len(tests), Paths: shown,
		Message: fmt.Sprintf("%s ran %d test file(s) (%s%s): %d passed, %d failed, %d skipped", d.name, len(tests), strings.Join(shown, ", "), more(len(tests)-len(shown)), passed, failed, skipped),
	})
	return res
}

func more(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" and %d more", n)
}

// exitMeaning is what pytest's exit code says.
func exitMeaning(code int) string {
	switch code {
	case 2:
		return "interrupted"
	case 3:
		return "an internal error"
	case 4:
		return "a usage error"
	}
	return "not one of pytest's"
}

// entryLine is a traceback entry's place: "tests/test_a.py:7: AssertionError".
var entryLine = regexp.MustCompile(`(?m)^(\S+\.py):(\d+): `)

// failed is a failed test case's diagnostic.
func (d *Driver) failed(c testrun.Case, tree string, tests []string, read func(string) []byte) engine.Diagnostic {
	pr := c.Failure
	if pr == nil {
		pr = c.Error
	}
	file := filepath.ToSlash(c.File)
	line := 0
	if n, err := strconv.Atoi(c.Line); err == nil {
		line = n + 1 // xunit1's line is 0-based: where the test is declared
	}
	if file == "" {
		// No file attribute: the classname is the module, dotted.
		file = strings.ReplaceAll(c.Classname, ".", "/") + ".py"
	}
	if rel, ok := local(tree, file); ok {
		file = rel
	}
	// The traceback's last entry in the test file is the failing line.
	for _, m := range entryLine.FindAllStringSubmatch(pr.Text, -1) {
		if p, ok := local(tree, m[1]); ok && p == file {
			line, _ = strconv.Atoi(m[2])
		}
	}
	if !slices.Contains(tests, file) && len(tests) > 0 {
		// The report named a file the run did not ask for (a
		// conftest): the diagnostic goes where the test is.
		if _, ok := local(tree, file); !ok {
			file = tests[0]
		}
	}
	msg := strings.TrimSpace(pr.Message)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		msg = "failed"
	}
	name := c.Name
	if c.Error != nil && c.Failure == nil {
		msg = "error: " + msg
	}
	return engine.Diagnostic{Path: file, Line: max(line, 1), Column: 1, Severity: engine.SeverityError, Source: d.name, Code: engine.CodeTestFailed, Message: name + ": " + msg}
}

// local turns a path pytest printed (relative to the tree, or absolute
// in it) into a workspace path.
func local(tree, p string) (string, bool) {
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(tree, p)
		if err != nil || !filepath.IsLocal(rel) {
			return "", false
		}
		return filepath.ToSlash(rel), true
	}
	p = path.Clean(filepath.ToSlash(p))
	return p, filepath.IsLocal(filepath.FromSlash(p))
}
