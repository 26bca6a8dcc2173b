package external

// This file defines how long a run may take, and what it tells the
// request's listener meanwhile.
//
// The driver's timeout bounds a run that makes no progress: it counts
// from the command's last output, so a command that keeps writing (the go
// command's -v, one line per package it builds, while it compiles the
// dependencies over a cold build cache) is not cut short, and one that
// hangs silently is. RunCeiling times the timeout bounds a run in all.
// A run that is not one file's reports where it stands as progress: the
// command, how long it has run, and its output's lines (for the go
// command, the packages built and the last one).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// RunCeiling bounds a run that keeps making progress: at most this many
// times the driver's timeout in all.
const RunCeiling = 10

// Test hooks: the clock the watch reads, the ticker that wakes it, and a
// call after each write of the command's output has been counted.
var (
	clockNow = time.Now
	newTick  = func() (<-chan time.Time, func()) {
		t := time.NewTicker(watchTick)
		return t.C, t.Stop
	}
	wroteHook = func() {}
)

// watchTick is how often a run's progress is looked at; progressTick how
// often an unchanged one is reported again.
const (
	watchTick    = time.Second
	progressTick = 5 * time.Second
)

// The causes of a run the watch ended.
var (
	errStalled = errors.New("no progress within the timeout")
	errBounded = errors.New("the run's bound passed")
)

// limits are a run's bounds: idle, the time without output, and total,
// the whole run's (0: none but idle).
type limits struct {
	idle, total time.Duration
}

// meter counts a run's output as it comes.
type meter struct {
	mu       sync.Mutex
	moved    time.Time // the last write
	lines    int       // complete lines written
	packages int       // of them, lines that name a Go package (go -v)
	last     string    // the last such package
}

// wrote records a write of p.
func (m *meter) wrote(p []byte) {
	m.mu.Lock()
	m.moved = clockNow()
	for len(p) > 0 {
		i := strings.IndexByte(string(p), '\n')
		if i < 0 {
			break
		}
		m.lines++
		if line := strings.TrimSpace(string(p[:i])); isPackageLine(line) {
			m.packages++
			m.last = line
		}
		p = p[i+1:]
	}
	m.mu.Unlock()
	wroteHook()
}

// isPackageLine reports whether line is what go build -v writes for a
// package it builds: an import path alone. (A line that starts in the
// middle of an earlier write's line may be counted wrongly; it only
// changes the count shown.)
func isPackageLine(line string) bool {
	return line != "" && !strings.ContainsAny(line, " \t:#\"'()") && !strings.HasPrefix(line, "-")
}

type reading struct {
	lines, packages int
	last            string
}

func (m *meter) read() (reading, time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return reading{m.lines, m.packages, m.last}, m.moved
}

// counting is a writer that records each write in m before passing it on.
type counting struct {
	w io.Writer
	m *meter
}

func (c counting) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.m.wrote(p)
	return n, err
}

// watchRun ends the run under cancel when it made no progress for
// lim.idle, or ran for lim.total, and reports its progress through rep
// (nil: none), until done is closed. began is when the run started.
func watchRun(m *meter, lim limits, began time.Time, cancel context.CancelCauseFunc, rep *reporter, done <-chan struct{}) {
	tick, stop := newTick()
	defer stop()
	last, _ := m.read()
	rep.show(last, began)
	shown := clockNow()
	for {
		select {
		case <-done:
			return
		case now := <-tick: // the time of the tick: a test's clock moves on
			cur, moved := m.read()
			if now.Sub(moved) >= lim.idle {
				cancel(errStalled)
				return
			}
			if lim.total > 0 && now.Sub(began) >= lim.total {
				cancel(errBounded)
				return
			}
			if cur != last || now.Sub(shown) >= progressTick {
				rep.show(cur, began)
				last, shown = cur, now
			}
		}
	}
}

// reporter reports one run's progress as one piece of work.
type reporter struct {
	ctx   context.Context
	name  string // the driver's
	title string
	goCmd bool // the go command: count packages
	open  bool
}

// newReporter is the reporter of a run of argv by driver name, or nil
// when ctx has no listener.
func newReporter(ctx context.Context, name string, argv []string) *reporter {
	if !engine.WantsProgress(ctx) {
		return nil
	}
	r := &reporter{ctx: ctx, name: name, title: "running " + name}
	if base := strings.TrimSuffix(filepath.Base(argv[0]), ".exe"); base == "go" && len(argv) > 1 {
		r.goCmd = true
		switch argv[1] {
		case "vet":
			r.title = "go vet: building the packages and vetting them"
		case "build":
			r.title = "go build: building the packages"
		default:
			r.title = "go " + argv[1]
		}
	}
	return r
}

func (r *reporter) piece(cur reading, began time.Time) engine.Progress {
	p := engine.Progress{Driver: r.name, ID: r.name + "/running", Title: r.title, Percentage: -1, Elapsed: clockNow().Sub(began)}
	switch {
	case r.goCmd && cur.packages > 0:
		p.Message = fmt.Sprintf("%s built, the last %s", plural(cur.packages, "package"), cur.last)
	case r.goCmd:
		p.Message = "no package built yet (a warm build cache builds none)"
	case cur.lines > 0:
		p.Message = plural(cur.lines, "line") + " of output"
	}
	return p
}

func (r *reporter) show(cur reading, began time.Time) {
	if r == nil {
		return
	}
	r.open = true
	engine.ReportProgress(r.ctx, r.piece(cur, began))
}

func (r *reporter) end(cur reading, began time.Time) {
	if r == nil || !r.open {
		return
	}
	p := r.piece(cur, began)
	p.Done = true
	r.open = false
	engine.ReportProgress(r.ctx, p)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// stalledMessage and boundedMessage are the answers of a run the watch
// ended.
func (d *Driver) stalledMessage(o *outcome, what string) string {
	return fmt.Sprintf("%s timed out: it wrote nothing for %s (the driver's timeout, which runs from the command's last output) and was killed; %s%s",
		what, capabilities.ShortDuration(o.limits.idle), capabilities.RaiseTimeout(d.name, d.timeout), stderrTail(o))
}

func (d *Driver) boundedMessage(o *outcome, what string) string {
	return fmt.Sprintf("%s was still making progress after %s (%d times the driver's timeout, the bound of a whole run) and was killed; what it finished may be cached (the go command's build cache keeps each package it built), so asking again goes on from there; %s%s",
		what, capabilities.ShortDuration(o.limits.total), RunCeiling, capabilities.RaiseTimeout(d.name, d.timeout), stderrTail(o))
}
