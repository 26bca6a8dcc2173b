// Package vitest is the vitest driver: the JavaScript and TypeScript tests
// a change affects, chosen by vitest itself (vitest related) and run on a
// private copy of the project that holds the workspace's unwritten
// content.
//
// The principal types are [Driver] and [Type], the entry for the driver
// registry. The driver answers the test kind.
//
// Behaviour, decided here and tested:
//
//   - The tests run are those vitest relates to the changed and named
//     files: the test files among them and the test files that import
//     them, directly or not (its module graph).
//   - They run in a private copy of the root with the workspace's changes
//     applied (node_modules a directory of its own whose packages are
//     linked, not copied, so that what vitest writes under node_modules
//     stays in the copy; its cache is off too; version control left
//     out), so they see the unwritten content and what they write never
//     reaches the root.
//   - A failed test is an error diagnostic at the line in its test file
//     that the failure's stack names (else line 1), its message the
//     test's name and the failure's message. A note says what ran.
//   - An answer that ran no test (none related, or every one skipped) is
//     not ok; a run past the driver's
//     timeout is killed with its whole process group.
//   - The driver runs the repository's code (its tests, its vite
//     configuration): runs_repository_code, so only in a trusted root,
//     where the project's node_modules/.bin/vitest is found before PATH.
//
// This file defines the driver, its probe and its run.
package vitest

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

// Type is the "vitest" driver type.
var Type = capabilities.Type{Name: "vitest", Doc: doc, New: New}

const doc = "vitest on the tests a change affects (vitest related), in a private copy of the project holding the workspace's content; runs the repository's tests."

// Driver runs vitest. It is safe for concurrent use.
type Driver struct {
	name    string
	doc     string
	command []string
	env     []string
	install string
	timeout time.Duration // the run's budget: the configuration's timeout
	calls   capabilities.Calls
}

// New builds a vitest driver named name. It does nothing else.
func New(name string, cfg *configs.Driver, env capabilities.Env) (capabilities.Driver, error) {
	d := &Driver{name: name, doc: doc, command: []string{"vitest"}, timeout: testrun.Timeout(cfg)}
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

// Probe finds vitest and asks its version.
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
		p.State, p.Reason = capabilities.Failed, fmt.Sprintf("%s --version exited with code %d: %s%s", strings.Join(d.command, " "), code, out.String(), d.hint())
	default:
		p.State, p.Version, p.Path = capabilities.Found, out.String(), found
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

// Run runs the tests vitest relates to req's files and changes.
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
	res := &capabilities.Result{Status: engine.StatusOK}
	seeds := slices.Compact(slices.Sorted(slices.Values(slices.Concat(req.Files, req.Changed, capabilities.Present(req.Affecting, req.All)))))
	temp, err := privtemp.Dir("vitest")
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
	argv := append(slices.Clone(d.command), "related")
	argv = append(argv, seeds...)
	argv = append(argv, "--run", "--reporter=junit", "--outputFile="+report, "--passWithNoTests", "--watch=false",
		// Its results cache would be written to node_modules/.vite, which
		// is the root's (linked into the copy).
		"--no-cache")
	var out testrun.Tail
	code, err := testrun.Run(ctx, testrun.Command{Argv: argv, Dir: tree, Tmp: tmp, Env: d.env}, &out)
	switch {
	case ctx.Err() != nil:
		res.Status, res.Message = testrun.Ended(ctx, d.name, d.timeout, "")
		return res
	case err != nil:
		res.Status, res.Message = engine.StatusNotInstalled, err.Error()+d.hint()
		return res
	}
	data, rerr := os.ReadFile(report)
	if rerr != nil {
		res.Status, res.Message = engine.StatusCrashed, fmt.Sprintf("vitest exited with code %d and wrote no report: %s", code, out.String())
		return res
	}
	cases, err := testrun.ReadJUnit(bytes.NewReader(data))
	if err != nil {
		res.Status, res.Message = engine.StatusCrashed, err.Error()
		return res
	}
	var passed, failed, skipped int
	files := map[string]bool{}
	for _, c := range cases {
		files[c.Classname] = true
		switch {
		case c.Failure != nil || c.Error != nil:
			failed++
			res.Diagnostics = append(res.Diagnostics, d.failed(c, tree, seeds))
		case c.Skipped != nil:
			skipped++
		default:
			passed++
		}
	}
	switch {
	case len(cases) == 0 && code == 0:
		res.Status = engine.StatusUnchecked
		res.Message = fmt.Sprintf("no test ran: vitest relates no test file to %s; name the test files to run", strings.Join(seeds, ", "))
		return res
	case code != 0 && failed == 0:
		res.Status = engine.StatusCrashed
		res.Message = fmt.Sprintf("vitest exited with code %d and its report names no failure: %s", code, out.String())
		return res
	case passed+failed == 0:
		res.Status = engine.StatusUnchecked
		res.Message = fmt.Sprintf("no test ran: vitest skipped every test it related to %s (%d skipped), so nothing tested the change; name test files that run", strings.Join(seeds, ", "), skipped)
		return res
	}
	ran := slices.Sorted(func(yield func(string) bool) {
		for f := range files {
			if !yield(f) {
				return
			}
		}
	})
	shown := ran[:min(len(ran), engine.NotePaths)]
	more := ""
	if n := len(ran) - len(shown); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	res.Coverage = append(res.Coverage, engine.Note{
		Kind: engine.NoteRan, Language: "typescript", Driver: d.name, Files: len(ran), Paths: shown,
		Message: fmt.Sprintf("%s ran %d test file(s) (%s%s): %d passed, %d failed, %d skipped", d.name, len(ran), strings.Join(shown, ", "), more, passed, failed, skipped),
	})
	return res
}

// stackPlace is a place in vitest's failure stack: " ❯ src/a.test.ts:6:15"
// (or an "at" frame).
var stackPlace = regexp.MustCompile(`(?:❯|at)\s+\(?(\S+?):(\d+):(\d+)\)?\s*$`)

// failed is a failed test case's diagnostic: at the first place of its
// stack in its test file.
func (d *Driver) failed(c testrun.Case, tree string, seeds []string) engine.Diagnostic {
	pr := c.Failure
	if pr == nil {
		pr = c.Error
	}
	file := filepath.ToSlash(c.Classname)
	if rel, ok := local(tree, file); ok {
		file = rel
	} else if len(seeds) > 0 {
		file = seeds[0]
	}
	line, col := 1, 1
	for _, l := range strings.Split(pr.Text, "\n") {
		m := stackPlace.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		if p, ok := local(tree, m[1]); ok && p == file {
			line, _ = strconv.Atoi(m[2])
			col, _ = strconv.Atoi(m[3])
			break
		}
	}
	msg := strings.TrimSpace(pr.Message)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		msg = "failed"
	}
	return engine.Diagnostic{Path: file, Line: max(line, 1), Column: max(col, 1), Severity: engine.SeverityError, Source: d.name, Code: engine.CodeTestFailed, Message: c.Name + ": " + msg}
}

// local turns a path vitest printed (relative to the tree, or absolute
// in it) into a workspace path.
func local(tree, p string) (string, bool) {
	p = strings.TrimPrefix(p, "file://")
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(tree, p)
		if err != nil || !filepath.IsLocal(rel) {
			return "", false
		}
		return filepath.ToSlash(rel), true
	}
	p = path.Clean(filepath.ToSlash(p))
	return p, p != "" && filepath.IsLocal(filepath.FromSlash(p))
}
