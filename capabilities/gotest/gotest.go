// Package gotest is the go-test driver: the tests a change affects, run
// by `go test -json` on the workspace's content before it is written.
//
// The principal types are [Driver] and [Type], the entry for the driver
// registry. The driver answers the test kind.
//
// Behaviour, decided here and tested:
//
//   - The packages run are those of the files asked about and of the
//     changed files, and every package of their module whose code or
//     tests import a changed package, directly or through other
//     packages' code: the go command's own graph (go list), read with
//     the workspace's content as an overlay (affected.go).
//   - The unwritten content reaches the go command through -overlay: no
//     copy of the tree. Tests run in their packages' directories, as
//     `go test` runs them, with TMPDIR and GOTMPDIR in a private
//     directory removed after the run; the build and test caches are
//     the user's.
//   - A failed test is an error diagnostic at the line its first failure
//     names (a panic: the first frame in the root; else where the test
//     is declared), its message the test's name and that failure. A
//     package that does not build gives the compiler's and vet's
//     findings. A note says what ran: tests passed, failed and skipped,
//     and the packages.
//   - An answer that ran no test (none affected, or every one skipped)
//     is not ok (unchecked, saying why). A
//     run past the driver's timeout is killed with its whole process
//     group; the answer is a timeout naming the tests still running,
//     with the failures seen before. A go command that exits failing
//     without reporting a failure (it died), or ends without a result for
//     a package it was asked to test, is crashed: not every test ran.
//   - The driver runs the repository's code: the configuration marks it
//     runs_repository_code, so it runs only in a trusted root.
//
// This file defines the driver, its probe and its run.
package gotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/testrun"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/internal/privtemp"
	"github.com/devbroker/devbroker/internal/procgroup"
)

// Type is the "gotest" driver type.
var Type = capabilities.Type{Name: "gotest", Doc: doc, New: New}

const doc = "go test -json on the packages a change affects (those of the changed files and their importers in the module), with the workspace content as an overlay; runs the repository's tests."

// waitDelay bounds the wait for output pipes after the go command was
// killed or exited while a leftover child still holds them.
const waitDelay = 2 * time.Second

// Driver runs Go tests. It is safe for concurrent use.
type Driver struct {
	name  string
	doc   string
	env   []string // the configuration's env, added to the environment
	goCmd string   // the go command: the configuration's command, or "go"
	// timeout is a run's budget: the configuration's timeout.
	timeout time.Duration
	calls   capabilities.Calls
}

// New builds a go-test driver named name. It does nothing else: no
// process, no disk.
func New(name string, cfg *configs.Driver, env capabilities.Env) (capabilities.Driver, error) {
	d := &Driver{name: name, doc: doc, goCmd: "go", timeout: testrun.Timeout(cfg)}
	if cfg != nil {
		if cfg.Doc != "" {
			d.doc = cfg.Doc
		}
		if len(cfg.Command) > 1 {
			return nil, errors.New("command names the go command alone (the driver gives its arguments), like [\"go\"]")
		}
		if len(cfg.Command) == 1 {
			d.goCmd = cfg.Command[0]
		}
		d.env = slices.Clone(cfg.Env)
	}
	return d, nil
}

// Spec describes the driver.
func (d *Driver) Spec() capabilities.Spec {
	return capabilities.Spec{Name: d.name, Type: Type.Name, Kinds: []engine.Kind{engine.Test}, Doc: d.doc}
}

// Probe finds the go command and asks its version.
func (d *Driver) Probe(ctx context.Context) capabilities.Probe {
	start := time.Now()
	p := capabilities.Probe{}
	path, err := exec.LookPath(d.goCmd)
	if err != nil {
		p.State, p.Reason = capabilities.Missing, fmt.Sprintf("%s was not found: install Go (https://go.dev/dl) or put it on PATH", d.goCmd)
		return p
	}
	var out bytes.Buffer
	o := d.run(ctx, "", []string{"version"}, &out, io.Discard)
	switch {
	case o.err != nil:
		p.State, p.Reason = capabilities.Failed, o.err.Error()
	case o.code != 0:
		p.State, p.Reason = capabilities.Failed, fmt.Sprintf("%s version exited with code %d", d.goCmd, o.code)
	default:
		p.State, p.Version, p.Path = capabilities.Found, strings.TrimSpace(out.String()), path
	}
	p.Took = time.Since(start)
	return p
}

// Close waits for the running calls; their private directories go with
// them.
func (d *Driver) Close() error { return d.calls.Close(nil) }

// Run runs the tests that req's files and changes affect.
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
	temp, err := privtemp.Dir("gotest")
	if err != nil {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("making a temporary directory: %v", err)}
	}
	defer os.RemoveAll(temp)
	if real, err := filepath.EvalSymlinks(temp); err == nil {
		temp = real // the paths the go command prints are real
	}
	ov, err := capabilities.WriteGoOverlay(temp, req.Root, req.All, req.Changed, req.Deleted)
	if err != nil {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: err.Error()}
	}
	tmp := filepath.Join(temp, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("making a temporary directory: %v", err)}
	}
	res := &capabilities.Result{Status: engine.StatusOK}
	var tot tally
	for _, m := range d.modules(req) {
		if !d.module(ctx, req, m, ov, tmp, res, &tot) {
			break
		}
	}
	if res.Status == engine.StatusOK && tot.passed+tot.failed == 0 {
		res.Status = engine.StatusUnchecked
		res.Message = tot.nothing(req)
	}
	if tot.ran() > 0 || len(tot.pkgs) > 0 {
		res.Coverage = append(res.Coverage, tot.note(d.name))
	}
	return res
}

// mod is one module of a run: its directory, and the directories of the
// files asked about and of the changed files in it.
type mod struct {
	dir            string
	asked, changed []string
	unseen         []string // changed files a test would read from the disk
	all            bool     // go.mod or go.sum changed: every package moved
	first          string   // the first file of the request in the module
}

// modules groups the directories of req's Go files and changes by the
// module that holds them (the nearest go.mod at or above, within the
// root or above it), sorted by directory.
func (d *Driver) modules(req *capabilities.Request) []*mod {
	byDir := map[string]*mod{}
	add := func(p string, changed, affecting bool) {
		dir := filepath.Join(req.Root, filepath.FromSlash(path.Dir(p)))
		mdir := moduleDir(req, dir)
		if mdir == "" {
			return
		}
		m := byDir[mdir]
		if m == nil {
			m = &mod{dir: mdir, first: p}
			byDir[mdir] = m
		}
		base := path.Base(p)
		switch {
		case changed && (base == "go.mod" || base == "go.sum"):
			m.all = true
		case changed && strings.HasSuffix(base, "_test.go"):
			// A test changed, not the code: its package's
			// tests run, not its importers'.
			m.asked = append(m.asked, dir)
		case changed && path.Ext(base) == ".go":
			m.changed = append(m.changed, dir)
		case affecting:
			// A baseline's: its content is the disk's, so a test
			// reads what the go command does.
		case changed:
			// The go command reads Go files through the
			// overlay, but a test reads other files (testdata,
			// fixtures) from the disk.
			m.unseen = append(m.unseen, p)
		default:
			m.asked = append(m.asked, dir)
		}
	}
	for _, p := range req.Files {
		add(p, false, false)
	}
	for _, p := range slices.Concat(req.Changed, req.Deleted) {
		add(p, true, false)
	}
	for _, p := range req.Affecting {
		add(p, true, true)
	}
	var out []*mod
	for _, k := range slices.Sorted(maps.Keys(byDir)) {
		out = append(out, byDir[k])
	}
	return out
}

// moduleDir is the directory of the go.mod nearest above dir, or "".
func moduleDir(req *capabilities.Request, dir string) string {
	for {
		if rel, err := filepath.Rel(req.Root, filepath.Join(dir, "go.mod")); err == nil && filepath.IsLocal(rel) {
			if _, ok := req.All[filepath.ToSlash(rel)]; ok {
				return dir
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// module runs the affected tests of one module into res, and reports
// whether the run may go on (not past its timeout).
func (d *Driver) module(ctx context.Context, req *capabilities.Request, m *mod, ov *capabilities.GoOverlay, tmp string, res *capabilities.Result, tot *tally) bool {
	overlay := ov.File
	pkgs, err := d.list(ctx, m.dir, overlay)
	if err != nil {
		return d.cut(ctx, res, err, nil)
	}
	changed := m.changed
	if m.all {
		for _, p := range pkgs {
			changed = append(changed, p.Dir)
		}
	}
	run := affected(pkgs, m.asked, changed)
	if len(run) == 0 {
		return true
	}
	if unseen := under(req.Root, m.unseen, run); len(unseen) > 0 {
		// The tests would read the disk's content of these, not the
		// workspace's: the verdict would not be about the change.
		res.Status = engine.StatusUnchecked
		res.Message = fmt.Sprintf("the tests would read %s from the disk, which does not hold the workspace's changes to %s (only Go files reach the go command unwritten): write %s first, then run the tests", strings.Join(unseen, ", "), plural(len(unseen), "it", "them"), plural(len(unseen), "it", "them"))
		return false
	}
	byPath := map[string]*listed{}
	args := []string{"test", "-json", "-overlay", overlay}
	if dl, ok := ctx.Deadline(); ok {
		// The go command's own timeout first, so that a hung test
		// panics with its goroutines' stacks before it is killed.
		if left := time.Until(dl) * 9 / 10; left > time.Second {
			args = append(args, "-timeout", left.Round(time.Second).String())
		}
	}
	for _, p := range run {
		byPath[p.ImportPath] = p
		args = append(args, p.ImportPath)
	}
	var stderr capped
	var rep *report
	o := d.runWith(ctx, m.dir, args, &stderr, tmp, func(r io.Reader) { rep = readEvents(r) })
	tot.add(rep, run)
	res.Diagnostics = append(res.Diagnostics, d.findings(rep, places{root: req.Root, copies: ov.Copies, fallback: m.first}, m.dir, byPath, req.All)...)
	switch {
	case o.err != nil || ctx.Err() != nil:
		return d.cut(ctx, res, o.err, rep)
	case rep.timedOut != "":
		res.Status = engine.StatusTimeout
		res.Message = fmt.Sprintf("the tests timed out: a test ran past the time left of %s's budget of %s (%s) and was stopped with every process it started; still running: %s; %s", d.name, capabilities.ShortDuration(d.timeout), strings.TrimPrefix(rep.timedOut, "panic: "), strings.Join(rep.running, ", "), capabilities.RaiseTimeout(d.name, d.timeout))
		return false
	case o.code != 0 && len(rep.failures) == 0 && len(rep.failedBuild) == 0 && len(rep.packages) == 0:
		res.Status = engine.StatusCrashed
		res.Message = fmt.Sprintf("go test in %s exited with code %d and reported no test: %s", filepath.Base(m.dir), o.code, tail(stderr.String()+strings.Join(rep.other, "\n")))
		return false
	case o.code != 0 && len(rep.failures) == 0 && len(rep.failedBuild) == 0:
		// It failed, or died (a signal), and said of no failure: what
		// it did not report went untested.
		res.Status = engine.StatusCrashed
		res.Message = fmt.Sprintf("go test in %s exited with code %d and reported no failure, so not every test was run: %s", filepath.Base(m.dir), o.code, tail(stderr.String()+strings.Join(rep.other, "\n")))
		return false
	}
	var missing []string
	for _, p := range run {
		if _, ok := rep.packages[p.ImportPath]; !ok {
			missing = append(missing, p.ImportPath)
		}
	}
	if len(missing) > 0 {
		res.Status = engine.StatusCrashed
		res.Message = fmt.Sprintf("go test in %s ended without a result for %s, so %s went untested: %s", filepath.Base(m.dir), strings.Join(missing, ", "), plural(len(missing), "its tests", "their tests"), tail(stderr.String()+strings.Join(rep.other, "\n")))
		return false
	}
	return true
}

// cut records a run that ended early: past the timeout, canceled, or the
// go command failing.
func (d *Driver) cut(ctx context.Context, res *capabilities.Result, err error, rep *report) bool {
	running := ""
	if rep != nil && len(rep.running) > 0 {
		running = strings.Join(rep.running, ", ")
	}
	switch {
	case ctx.Err() != nil:
		res.Status, res.Message = testrun.Ended(ctx, d.name, d.timeout, running)
	default:
		res.Status = engine.StatusCrashed
		res.Message = err.Error()
	}
	return false
}

// tally adds up a request's runs.
type tally struct {
	passed, failed, skipped int
	pkgs                    []string
}

func (t *tally) add(rep *report, run []*listed) {
	if rep == nil {
		return
	}
	t.passed += rep.passed
	t.failed += rep.failed
	t.skipped += rep.skipped
	for _, p := range run {
		t.pkgs = append(t.pkgs, p.ImportPath)
	}
	// A package that fails outside any test (it did not build, TestMain
	// failed) counts as a failure too: it ran and did not pass.
	for _, f := range rep.failures {
		if f.test == "" {
			t.failed++
		}
	}
	for p, r := range rep.packages {
		if r == "build failed" && !slices.ContainsFunc(rep.failures, func(f *failure) bool { return f.pkg == p }) {
			t.failed++
		}
	}
}

func (t *tally) ran() int { return t.passed + t.failed + t.skipped }

// nothing says why nothing ran.
func (t *tally) nothing(req *capabilities.Request) string {
	if len(t.pkgs) == 0 {
		return "no test ran: no Go package of a module holds the files asked about or changed, so no test is affected; name a package's files to run its tests"
	}
	if t.skipped > 0 {
		return fmt.Sprintf("no test ran: every test of the affected packages (%s) skipped (%d skipped), so nothing tested the change", strings.Join(t.pkgs, ", "), t.skipped)
	}
	return fmt.Sprintf("no test ran: the affected packages (%s) have no tests, so nothing tested the change", strings.Join(t.pkgs, ", "))
}

// note says what ran.
func (t *tally) note(name string) engine.Note {
	pkgs := slices.Clone(t.pkgs)
	slices.Sort(pkgs)
	shown := pkgs
	if len(shown) > engine.NotePaths {
		shown = shown[:engine.NotePaths]
	}
	more := ""
	if len(pkgs) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(pkgs)-len(shown))
	}
	return engine.Note{
		Kind:     engine.NoteRan,
		Language: "go",
		Driver:   name,
		Files:    len(pkgs),
		Paths:    shown,
		Message:  fmt.Sprintf("%s ran the tests of %d package(s) (%s%s): %d passed, %d failed, %d skipped", name, len(pkgs), strings.Join(shown, ", "), more, t.passed, t.failed, t.skipped),
	}
}

// outcome is how one go command ended.
type outcome struct {
	code int   // exit code; -1 when there is none
	err  error // a failure to run it
}

// run runs the go command with args in dir, its output to stdout and
// stderr.
func (d *Driver) run(ctx context.Context, dir string, args []string, stdout, stderr io.Writer) outcome {
	return d.runWith(ctx, dir, args, stderr, "", func(r io.Reader) { _, _ = io.Copy(stdout, r) })
}

// runWith runs the go command with args in dir, its standard output read
// by read, in its own process group, killed whole when ctx ends; tmp, if
// not "", is its TMPDIR and GOTMPDIR.
func (d *Driver) runWith(ctx context.Context, dir string, args []string, stderr io.Writer, tmp string, read func(io.Reader)) outcome {
	cmd := exec.CommandContext(ctx, d.goCmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), d.env...)
	if tmp != "" {
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp, "GOTMPDIR="+tmp)
	}
	cmd.Stderr = stderr
	procgroup.Set(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process) }
	cmd.WaitDelay = waitDelay
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return outcome{code: -1, err: err}
	}
	if err := cmd.Start(); err != nil {
		return outcome{code: -1, err: fmt.Errorf("starting %s: %w", d.goCmd, err)}
	}
	read(pipe)
	_, _ = io.Copy(io.Discard, pipe)
	err = cmd.Wait()
	_ = procgroup.Kill(cmd.Process) // what it left behind in its group
	o := outcome{code: cmd.ProcessState.ExitCode()}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		o.err = fmt.Errorf("%s %s: %w", d.goCmd, args[0], err)
	}
	if ctx.Err() != nil {
		o.err = ctx.Err()
	}
	return o
}

// capped keeps the first 64 KiB written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := 64<<10 - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// under lists the workspace paths of files that lie in the directory
// tree of a package of run (its directory, testdata and the rest below
// it): the files its tests read by relative path.
func under(root string, files []string, run []*listed) []string {
	var out []string
	for _, p := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		for _, pkg := range run {
			if rel, err := filepath.Rel(pkg.Dir, full); err == nil && filepath.IsLocal(rel) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// tail is the end of a command's output, for a message.
func tail(s string) string {
	s = strings.TrimSpace(s)
	lines := strings.Split(s, "\n")
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	s = strings.Join(lines, "\n")
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}
