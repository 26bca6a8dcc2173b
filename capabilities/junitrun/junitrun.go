// Package junitrun is the junit driver: any test runner, run as a
// configured command that writes a JUnit XML report, on a private copy of
// the project that holds the workspace's unwritten content.
//
// The principal types are [Driver] and [Type], the entry for the driver
// registry. The driver answers the test kind.
//
// Behaviour, decided here and tested:
//
//   - The command is an argv list; each "{report}" in it is replaced by
//     the path of the report, in the run's private directory, where the
//     runner must write its JUnit XML. The command runs the project's
//     whole suite: the driver does not choose the tests a change affects.
//   - It runs in a private copy of the root with the workspace's changes
//     applied (testrun.Stage), in its own process group, killed whole
//     when the driver's timeout (which bounds the whole run) passes or the
//     request is canceled; what it writes never reaches the root.
//   - A failed or errored test case is an error diagnostic at its file
//     (the case's file attribute, relative to the copy or absolute in
//     it) and line: the last place its failure's text gives in that file
//     (a traceback's FILE:LINE), else the case's line attribute, else 1.
//     A case whose report names no file in the project is placed at the
//     first file of the request (or the root, "."), and its message says
//     so. The message is the test's name and its failure's first line.
//   - A run whose report is missing, unreadable or holds no test case is
//     unchecked, and so is one that ran nothing (every case skipped); the
//     answer says why. A non-zero exit whose report names no failure is
//     crashed. A note counts passed, failed and skipped.
//   - The driver runs the repository's code: a junit driver always
//     counts as runs_repository_code, so it runs only in a trusted root.
//
// This file defines the driver, its probe and its run.
package junitrun

import (
	"bytes"
	"context"
	"errors"
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

// Type is the "junit" driver type.
var Type = capabilities.Type{Name: "junit", Doc: doc, New: New}

const doc = "a configured test runner command that writes a JUnit XML report to {report}, run on the whole suite in a private copy of the project holding the workspace's content; runs the repository's tests."

// Placeholder is what the command names the report's path by.
const Placeholder = "{report}"

// Driver runs a configured test command. It is safe for concurrent use.
type Driver struct {
	name    string
	doc     string
	command []string
	env     []string
	install string
	timeout time.Duration // the run's budget: the configuration's timeout
	calls   capabilities.Calls
}

// New builds a junit driver named name from cfg, whose command must name
// the report's path ({report}). It does nothing else.
func New(name string, cfg *configs.Driver, env capabilities.Env) (capabilities.Driver, error) {
	if cfg == nil || len(cfg.Command) == 0 {
		return nil, fmt.Errorf("driver %s: a junit driver needs a command, an argv list that writes a JUnit XML report to %s, like [\"pytest\", \"--junitxml=%s\"]", name, Placeholder, Placeholder)
	}
	if !slices.ContainsFunc(cfg.Command, func(a string) bool { return strings.Contains(a, Placeholder) }) {
		return nil, fmt.Errorf("driver %s: its command names no %s: add the runner's option that writes a JUnit XML report there, like --junitxml=%s", name, Placeholder, Placeholder)
	}
	d := &Driver{name: name, doc: doc, command: slices.Clone(cfg.Command), env: slices.Clone(cfg.Env), install: cfg.Install, timeout: testrun.Timeout(cfg)}
	if cfg.Doc != "" {
		d.doc = cfg.Doc
	}
	return d, nil
}

// Spec describes the driver.
func (d *Driver) Spec() capabilities.Spec {
	return capabilities.Spec{Name: d.name, Type: Type.Name, Kinds: []engine.Kind{engine.Test}, Doc: d.doc}
}

// Probe finds the command's program. It runs nothing: a runner has no
// version option that every runner shares.
func (d *Driver) Probe(ctx context.Context) capabilities.Probe {
	start := time.Now()
	p := capabilities.Probe{}
	found, err := exec.LookPath(d.command[0])
	if err != nil {
		p.State, p.Reason = capabilities.Missing, fmt.Sprintf("%s was not found%s", d.command[0], d.hint())
	} else {
		p.State, p.Path = capabilities.Found, found
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

// Run runs the command on a private copy of the root holding req's
// content and reads its report.
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
	temp, err := privtemp.Dir("junit")
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
			return &capabilities.Result{Status: engine.StatusTimeout, Message: fmt.Sprintf("copying the project for its tests ran past %s's time budget of %s (or was canceled); no test ran; %s", d.name, capabilities.ShortDuration(d.timeout), capabilities.RaiseTimeout(d.name, d.timeout))}
		}
		return &capabilities.Result{Status: engine.StatusCrashed, Message: err.Error()}
	}
	report := filepath.Join(temp, "report.xml")
	argv := make([]string, len(d.command))
	for i, a := range d.command {
		argv[i] = strings.ReplaceAll(a, Placeholder, report)
	}
	shown := strings.Join(d.command, " ")
	var out testrun.Tail
	code, err := testrun.Run(ctx, testrun.Command{Argv: argv, Dir: tree, Tmp: tmp, Env: d.env}, &out)
	res := &capabilities.Result{Status: engine.StatusOK}
	switch {
	case ctx.Err() != nil:
		res.Status, res.Message = testrun.Ended(ctx, d.name, d.timeout, "")
		return res
	case err != nil:
		res.Status, res.Message = engine.StatusNotInstalled, err.Error()+d.hint()
		return res
	}
	data, err := os.ReadFile(report)
	if err != nil {
		why := "it wrote none"
		if !errors.Is(err, os.ErrNotExist) {
			why = err.Error()
		}
		res.Status = engine.StatusUnchecked
		res.Message = fmt.Sprintf("no test result: %s exited with code %d and the JUnit report at %s could not be read (%s); make the command write its JUnit XML report to %s: %s", shown, code, Placeholder, why, Placeholder, out.String())
		return res
	}
	cases, err := testrun.ReadJUnit(bytes.NewReader(data))
	if err != nil {
		res.Status = engine.StatusUnchecked
		res.Message = fmt.Sprintf("no test result: %s exited with code %d and its report is not JUnit XML: %v", shown, code, err)
		return res
	}
	if len(cases) == 0 {
		res.Status = engine.StatusUnchecked
		res.Message = fmt.Sprintf("no test ran: the JUnit report of %s (exit code %d) holds no test case: %s", shown, code, out.String())
		return res
	}
	fallback := "."
	if seeds := slices.Concat(req.Files, req.Changed); len(seeds) > 0 {
		fallback = seeds[0]
	}
	var passed, failed, skipped int
	for _, c := range cases {
		switch {
		case c.Failure != nil || c.Error != nil:
			failed++
			res.Diagnostics = append(res.Diagnostics, d.failed(c, tree, fallback))
		case c.Skipped != nil:
			skipped++
		default:
			passed++
		}
	}
	counts := fmt.Sprintf("%d passed, %d failed, %d skipped", passed, failed, skipped)
	switch {
	case passed+failed == 0:
		res.Status = engine.StatusUnchecked
		res.Message = fmt.Sprintf("no test ran: every test case in the report of %s was skipped (%s)", shown, counts)
		return res
	case code != 0 && failed == 0:
		res.Status = engine.StatusCrashed
		res.Message = fmt.Sprintf("%s exited with code %d, but its report names no failure (%s): %s", shown, code, counts, out.String())
		return res
	}
	res.Coverage = append(res.Coverage, engine.Note{
		Kind: engine.NoteRan, Driver: d.name,
		Message: fmt.Sprintf("%s ran the suite (%s): %s", d.name, shown, counts),
	})
	return res
}

// failed is a failed test case's diagnostic; fallback is where a case
// whose report names no file of the project goes.
func (d *Driver) failed(c testrun.Case, tree, fallback string) engine.Diagnostic {
	pr := c.Failure
	if pr == nil {
		pr = c.Error
	}
	msg := strings.TrimSpace(pr.Message)
	if msg == "" {
		msg = strings.TrimSpace(pr.Text)
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		msg = "failed"
	}
	if c.Error != nil && c.Failure == nil {
		msg = "error: " + msg
	}
	name := c.Name
	if name == "" {
		name = c.Classname
	}
	file, ok := local(tree, c.File)
	if !ok {
		return engine.Diagnostic{Path: fallback, Line: 1, Column: 1, Severity: engine.SeverityError, Source: d.name, Code: engine.CodeTestFailed,
			Message: name + ": " + msg + " (the report names no file of the project for this test)"}
	}
	line, _ := strconv.Atoi(c.Line)
	if n := Place(pr.Text, file, tree); n > 0 {
		line = n
	}
	return engine.Diagnostic{Path: file, Line: max(line, 1), Column: 1, Severity: engine.SeverityError, Source: d.name, Code: engine.CodeTestFailed, Message: name + ": " + msg}
}

// fileLine is a place in a failure's text: "tests/test_a.py:7", a stack
// frame's "(/tmp/x/tree/src/a.test.js:7:3)".
var fileLine = regexp.MustCompile(`([^\s():"'<>]+):(\d+)`)

// Place is the line of the last place in a failure's text that names
// file (a workspace path; in the text relative to the copy, or absolute
// in tree); 0 if none does.
func Place(text, file, tree string) int {
	line := 0
	for _, m := range fileLine.FindAllStringSubmatch(text, -1) {
		if p, ok := local(tree, m[1]); ok && p == file {
			if n, err := strconv.Atoi(m[2]); err == nil && n > 0 {
				line = n
			}
		}
	}
	return line
}

// local turns a path the runner wrote (relative to the copy, or
// absolute in it) into a workspace path.
func local(tree, p string) (string, bool) {
	if p == "" {
		return "", false
	}
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
