// Package staticcheck is the staticcheck driver: honnef.co/go/tools linked
// into devbroker, answering lint for Go files with the findings the
// staticcheck command would print for the workspace content.
//
// The principal types are [Driver] and its [Type]. A run lints the
// module on disk in place when it holds the workspace content (see
// direct.go), else stages the module (see stage.go); it runs
// staticcheck's own runner with its content-addressed cache there
// (lint.go), and converts the findings to engine.Diagnostic values on
// workspace paths (convert.go).
//
// Work is reused across runs: the stage is synchronized, not rebuilt, at a
// fixed place per module, so Go's build cache and staticcheck's cache (in
// the user cache directory, devbroker/staticcheck) serve every package
// that did not change. The driver owns its stages: a re-probe's driver of
// the same configuration takes them over ([Driver.Inherit]); Close
// removes the rest and trims the cache, as the staticcheck command does
// when it exits.
package staticcheck

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"honnef.co/go/tools/lintcmd/version"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/internal/privtemp"
)

// Type is the "staticcheck" driver type.
var Type = capabilities.Type{
	Name: "staticcheck",
	Doc:  "staticcheck, linked in: the staticcheck command's findings (default checks, staticcheck.conf, //lint:ignore) for the workspace content.",
	New:  New,
}

// Driver runs staticcheck in-process. It is safe for concurrent use; runs
// are serialized (staticcheck keeps process-wide state).
type Driver struct {
	name    string
	doc     string
	env     []string
	timeout time.Duration

	calls capabilities.Calls

	mu     sync.Mutex
	stages map[string]*stage // by workspace root
	cached bool              // a run opened the cache
	heir   *Driver           // the driver that took the stages over, or nil
}

// New builds a staticcheck driver. Of the configuration it uses Doc, Env
// and Timeout; it touches nothing on disk.
func New(name string, cfg *configs.Driver, _ capabilities.Env) (capabilities.Driver, error) {
	d := &Driver{name: name, timeout: configs.DefaultTimeout, stages: map[string]*stage{}}
	if cfg != nil {
		if len(cfg.Command) > 0 {
			return nil, fmt.Errorf("a driver of type staticcheck is linked in and takes no command (found %q); use type \"external\" to run a staticcheck binary", cfg.Command)
		}
		d.doc = cfg.Doc
		d.env = cfg.Env
		if cfg.Timeout.Duration > 0 {
			d.timeout = cfg.Timeout.Duration
		}
	}
	return d, nil
}

// Spec describes the driver.
func (d *Driver) Spec() capabilities.Spec {
	doc := d.doc
	if doc == "" {
		doc = Type.Doc
	}
	return capabilities.Spec{Name: d.name, Type: Type.Name, Kinds: []engine.Kind{engine.Lint}, Doc: doc}
}

// Version is staticcheck's version as linked in: its release name and
// module version ("2026.2.2 (v0.8.2)").
func Version() string {
	v := version.Version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == modulePath {
				if m.Replace != nil {
					return fmt.Sprintf("%s (%s, replaced by %s %s)", v, m.Version, m.Replace.Path, m.Replace.Version)
				}
				return fmt.Sprintf("%s (%s)", v, m.Version)
			}
		}
	}
	return fmt.Sprintf("%s (v%s)", v, version.MachineVersion)
}

// smokeSource has one finding: the first value of x is never used.
const smokeSource = "package smoke\n\nfunc F(s string) int {\n\tx := len(s)\n\tx = 2\n\treturn x\n}\n"

// Probe checks that the go command is on PATH (staticcheck's loader runs
// go list) and lints a tiny module that has one SA4006 finding.
func (d *Driver) Probe(ctx context.Context) capabilities.Probe {
	start := time.Now()
	p := capabilities.Probe{Version: Version(), Path: "linked in"}
	done := func(state capabilities.ProbeState, reason string) capabilities.Probe {
		p.State, p.Reason, p.Took = state, reason, time.Since(start)
		return p
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return done(capabilities.Missing, "the go command is not on PATH: staticcheck loads packages with go list; install Go (https://go.dev/dl/)")
	}
	p.Path = "linked in (go: " + goBin + ")"
	dir, err := privtemp.Dir("staticcheck-probe")
	if err != nil {
		return done(capabilities.Failed, "smoke test: "+err.Error())
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(dir+"/go.mod", []byte("module smoke\n\ngo 1.21\n"), 0o666); err != nil {
		return done(capabilities.Failed, "smoke test: "+err.Error())
	}
	st, err := newStage(dir)
	if err != nil {
		return done(capabilities.Failed, "smoke test: "+err.Error())
	}
	defer os.RemoveAll(st.dir)
	all := map[string]*text.Doc{"smoke.go": text.FromString(smokeSource)}
	r := d.run(ctx, st, &capabilities.Request{Kind: engine.Lint, Root: dir, Files: []string{"smoke.go"}, All: all, Changed: []string{"smoke.go"}})
	if r.Status != engine.StatusOK {
		return done(capabilities.Failed, fmt.Sprintf("smoke test: %s: %s", r.Status, r.Message))
	}
	for _, dg := range r.Diagnostics {
		if dg.Code == "SA4006" && dg.Line == 4 {
			return done(capabilities.Found, "")
		}
	}
	return done(capabilities.Failed, fmt.Sprintf("smoke test: expected SA4006 at smoke.go:4, got %d other findings", len(r.Diagnostics)))
}

// Run lints the packages that hold req.Files, as the workspace has them,
// and reports the findings in req.Files (and any package that failed to
// load).
func (d *Driver) Run(ctx context.Context, req *capabilities.Request) *capabilities.Result {
	if !d.calls.Begin() {
		return capabilities.ClosedResult(d.name)
	}
	defer d.calls.End()
	if req.Kind != engine.Lint {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("staticcheck does not %s; it only lints", req.Kind)}
	}
	st, err := d.stage(req.Root)
	if err != nil {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: err.Error()}
	}
	r := d.run(ctx, st, req)
	if r.Status == engine.StatusOK {
		analyzed.Store(true) // the probe's tiny run does not count
	}
	return r
}

// stage returns the stage of root, made on first use.
func (d *Driver) stage(root string) (*stage, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if st, ok := d.stages[root]; ok {
		return st, nil
	}
	st, err := newStage(root)
	if err != nil {
		return nil, err
	}
	d.stages[root] = st
	return st, nil
}

// run does one run over st, bounded as watch.go says. A run that runs
// out of time finishes in the background (staticcheck cannot be
// interrupted once analysis started) and keeps later runs waiting until
// then.
func (d *Driver) run(ctx context.Context, st *stage, req *capabilities.Request) *capabilities.Result {
	m := &meter{}
	ch := make(chan *capabilities.Result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("staticcheck panicked: %v", p)}
			}
		}()
		ch <- d.runLocked(ctx, st, req, m)
	}()
	return d.watch(ctx, m, ch)
}

func (d *Driver) runLocked(ctx context.Context, st *stage, req *capabilities.Request, m *meter) *capabilities.Result {
	patterns, files := packagesOf(st, req.Files)
	if len(patterns) == 0 {
		return &capabilities.Result{Status: engine.StatusOK}
	}
	c, err := setupOnce()
	if err != nil {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: err.Error()}
	}
	d.mu.Lock()
	d.cached = true
	d.mu.Unlock()
	if !global.TryLock() {
		m.set(waiting)
		global.Lock()
	}
	defer global.Unlock()
	if err := ctx.Err(); err != nil {
		return &capabilities.Result{Status: engine.StatusTimeout, Message: err.Error()}
	}
	m.set(staging)
	ds, r := d.lintWorkspace(ctx, c, st, req, patterns, files, m)
	if r != nil || !req.Fix {
		if r == nil {
			r = &capabilities.Result{Output: engine.Output{Diagnostics: ds}, Status: engine.StatusOK}
		}
		return r
	}
	edits := applyFixes(req.Root, req.All, ds)
	if len(edits) == 0 {
		return &capabilities.Result{Output: engine.Output{Diagnostics: ds}, Status: engine.StatusOK}
	}
	// Lint the fixed content, so the answer describes it.
	fixed := *req
	fixed.All = make(map[string]*text.Doc, len(req.All)+len(edits))
	for p, doc := range req.All {
		fixed.All[p] = doc
	}
	fixed.Changed = slices.Clone(req.Changed)
	for p, doc := range edits {
		fixed.All[p] = doc
		fixed.Changed = append(fixed.Changed, p)
	}
	ds, r = d.lintWorkspace(ctx, c, st, &fixed, patterns, files, m)
	if r != nil {
		return r
	}
	return &capabilities.Result{Output: engine.Output{Diagnostics: ds, Edits: edits}, Status: engine.StatusOK}
}

// packagesOf returns the go list patterns (relative to the stage's module
// root) of the directories that hold the Go files among files, and the
// set of those files. Directories that go ignores in "./..." (testdata,
// names starting with "." or "_") are left out, as the command leaves
// them out.
func packagesOf(st *stage, files []string) ([]string, map[string]bool) {
	dirs := map[string]bool{}
	set := map[string]bool{}
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") || ignoredDir(path.Dir(f)) {
			continue
		}
		set[f] = true
		pat := path.Join(st.rootRel, path.Dir(f))
		if pat != "." {
			pat = "./" + pat
		}
		dirs[pat] = true
	}
	patterns := make([]string, 0, len(dirs))
	for p := range dirs {
		patterns = append(patterns, p)
	}
	sort.Strings(patterns)
	return patterns, set
}

func ignoredDir(dir string) bool {
	if dir == "." {
		return false
	}
	for _, seg := range strings.Split(dir, "/") {
		if seg == "testdata" || strings.HasPrefix(seg, ".") || strings.HasPrefix(seg, "_") {
			return true
		}
	}
	return false
}

// Inherit takes over the stages of old, the driver this one replaces on a
// re-probe, when it has the same environment: the next run finds the
// module staged. old keeps running its last requests in them, and its
// Close leaves them to this driver unless this one was closed first.
func (d *Driver) Inherit(old capabilities.Driver) {
	o, ok := old.(*Driver)
	if !ok || o == d || !slices.Equal(o.env, d.env) {
		return
	}
	o.mu.Lock()
	stages := maps.Clone(o.stages)
	o.heir = d
	o.mu.Unlock()
	d.mu.Lock()
	defer d.mu.Unlock()
	for root, st := range stages {
		if _, ok := d.stages[root]; !ok {
			d.stages[root] = st
		}
	}
}

// Close waits for the running calls, removes the driver's stages and
// trims staticcheck's cache of entries not used for days (the
// staticcheck command's Close). It is idempotent.
func (d *Driver) Close() error {
	return d.calls.Close(func() error {
		d.mu.Lock()
		stages, cached, heir := d.stages, d.cached, d.heir
		d.stages = map[string]*stage{}
		d.mu.Unlock()
		var errs []error
		for _, st := range stages {
			if !heir.uses(st) {
				errs = append(errs, st.remove())
			}
		}
		if cached {
			if c, err := setupOnce(); err == nil {
				global.Lock()
				trim(c)
				global.Unlock()
			}
		}
		return errors.Join(errs...)
	})
}

// uses reports whether d, an heir (or nil), or the heir it handed its
// stages to when it closed, in turn, is open and holds a stage in st's
// place.
func (d *Driver) uses(st *stage) bool {
	for d != nil {
		d.mu.Lock()
		open := !d.calls.Closed()
		holds := slices.ContainsFunc(slices.Collect(maps.Values(d.stages)), func(own *stage) bool { return own.dir == st.dir })
		next := d.heir
		d.mu.Unlock()
		if open {
			return holds
		}
		d = next
	}
	return false
}

var (
	_ capabilities.Driver = (*Driver)(nil)
	_ capabilities.Heir   = (*Driver)(nil)
)
