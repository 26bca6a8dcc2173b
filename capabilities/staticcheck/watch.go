package staticcheck

// This file defines how long a run may take, and what it tells the
// request's listener meanwhile.
//
// A run goes through phases: it waits for an earlier run to end (runs are
// serialized, and one that ran out of time finishes in the background),
// stages the module when it must, loads the packages (go list, which
// builds them when Go's build cache is cold), analyzes them and their
// dependencies (each from staticcheck's cache when it holds it), and
// converts the findings. The driver's timeout bounds a run that makes no
// progress: it counts from the end of the load and from each package
// analyzed, so a first analysis with a cold cache, slow but moving, is
// not cut short, and a stuck analyzer is. The waiting, staging and
// loading, which report no progress, are bounded by the load bound,
// LoadCeiling times the timeout, from when they began. A run the load
// bound ends answers indexing: its work goes on and is cached, and a
// later request finds it done.

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"honnef.co/go/tools/lintcmd/runner"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// LoadCeiling bounds a phase that reports no progress (waiting, staging,
// loading): at most this many times the driver's timeout. Tests lower
// it.
var LoadCeiling = 10

// watchTick is how often a run's progress is read; progressTick how often
// an unchanged phase is reported again. Tests shorten them.
var (
	watchTick    = time.Second
	progressTick = 5 * time.Second
)

// Fault-injection hooks of the tests: loadHook is called as a load
// begins, analyzeHook each time an analyzer has finished with a package,
// waitingForLoad when the timeout ran out while the run was not yet
// analyzing.
var (
	loadHook       = func() {}
	analyzeHook    func()
	waitingForLoad = func() {}
)

// phase is what a run is doing.
type phase int

const (
	starting  phase = iota // finding its packages, opening the cache
	waiting                // for an earlier run to end
	staging                // synchronizing the module's copy
	loading                // go list
	analyzing              // the runner's analysis
	finishing              // filtering and converting the findings
)

// timed reports whether the driver's timeout counts phase p.
func (p phase) timed() bool { return p >= analyzing }

// meter is where a run stands, written by the run and read by its watch.
type meter struct {
	mu       sync.Mutex
	phase    phase
	stats    *runner.Stats // the runner's, while it runs
	packages int           // the packages asked about
}

func (m *meter) set(p phase) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.phase, m.stats = p, nil
}

// runs records that a runner over packages started, with stats.
func (m *meter) runs(stats *runner.Stats, packages int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.phase, m.stats, m.packages = loading, stats, packages
}

// reading is a run's progress at one moment.
type reading struct {
	phase       phase
	done, total int // packages analyzed, of all (dependencies included)
	packages    int // the packages asked about
}

func (m *meter) read() reading {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := reading{phase: m.phase, packages: m.packages}
	if m.stats == nil {
		return r
	}
	switch m.stats.State() {
	case runner.StateInitializing, runner.StateLoadPackageGraph, runner.StateBuildActionGraph:
		r.phase = loading
	case runner.StateProcessing:
		r.phase = analyzing
		// The runner counts its packages as len(all)-1, though all does
		// not hold its root: one too few.
		r.done, r.total = m.stats.ProcessedPackages(), m.stats.TotalPackages()+1
	default:
		r.phase = finishing
	}
	return r
}

// Whether staticcheck's cache was empty when this process opened it, and
// whether a run (not the probe's, which analyzes one tiny package) has
// ended since: the first analysis fills the cache, and says so.
var (
	coldCache atomic.Bool
	analyzed  atomic.Bool
)

// first reports whether an analysis now would be the first over an empty
// cache.
func first() bool { return coldCache.Load() && !analyzed.Load() }

// piece is the progress of reading r.
func (r reading) piece(name string, firstRun bool) engine.Progress {
	p := engine.Progress{Driver: name, Percentage: -1}
	switch r.phase {
	case starting:
		return engine.Progress{} // nothing to say yet
	case waiting:
		p.ID, p.Title = name+"/waiting", "waiting for an earlier staticcheck run to end"
		if firstRun {
			p.Title = "waiting for staticcheck's first analysis to end"
		}
	case staging:
		p.ID, p.Title = name+"/loading", "copying the module"
	case loading:
		p.ID, p.Title = name+"/loading", "loading "+plural(r.packages, "package")
		p.Message = "go list, which builds them when Go's build cache is cold"
	case analyzing:
		p.ID, p.Title = name+"/analyzing", "analyzing"
		if firstRun {
			p.Title = "first analysis, filling staticcheck's cache"
		}
		p.Message = fmt.Sprintf("%d of %s", r.done, plural(r.total, "package"))
		if r.total > 0 {
			p.Percentage = r.done * 100 / r.total
		}
	default:
		p.ID, p.Title = name+"/finishing", "reading the findings"
	}
	return p
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// watch waits for the run's result on ch, reading m: it answers timeout
// when the run made no progress for the driver's timeout in a phase the
// timeout counts, indexing when the load bound ran out in one it does
// not, and reports each phase to ctx's listener.
func (d *Driver) watch(ctx context.Context, m *meter, ch <-chan *capabilities.Result) *capabilities.Result {
	began := capabilities.Began(ctx)
	bound := time.Duration(LoadCeiling) * d.timeout
	rep := reporter{ctx: ctx, began: began}
	defer rep.end()
	last := m.read()
	moved, shown := time.Now(), time.Now()
	rep.show(last.piece(d.name, first()))
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	waited := false
	for {
		select {
		case r := <-ch:
			return r
		case <-ctx.Done():
			return &capabilities.Result{Status: engine.StatusTimeout, Message: fmt.Sprintf("staticcheck's run was cancelled (%v); it goes on in the background", context.Cause(ctx))}
		case now := <-tick.C:
			cur := m.read()
			if cur != last {
				moved, last = now, cur
				rep.show(cur.piece(d.name, first()))
				shown = now
			} else if now.Sub(shown) >= progressTick {
				rep.show(cur.piece(d.name, first()))
				shown = now
			}
			if now.Sub(moved) >= bound {
				return d.bounded(cur, bound)
			}
			if now.Sub(moved) < d.timeout {
				continue
			}
			if cur.phase.timed() {
				return d.stalled(cur)
			}
			if !waited {
				waited = true
				waitingForLoad()
			}
		}
	}
}

// stalled is the answer of a run that made no progress for the timeout.
func (d *Driver) stalled(r reading) *capabilities.Result {
	where := "reading its findings"
	if r.phase == analyzing {
		where = fmt.Sprintf("analyzing, %d of %s done", r.done, plural(r.total, "package"))
	}
	return &capabilities.Result{Status: engine.StatusTimeout, Message: fmt.Sprintf(
		"staticcheck made no progress for %s (the driver's timeout, which does not count loading the packages) while %s; the run goes on in the background; %s",
		capabilities.ShortDuration(d.timeout), where, capabilities.RaiseTimeout(d.name, d.timeout))}
}

// bounded is the answer of a run the load bound ended while it moved.
func (d *Driver) bounded(r reading, bound time.Duration) *capabilities.Result {
	var where string
	switch r.phase {
	case starting:
		where = "starting"
	case waiting:
		where = "waiting for an earlier run to end"
	case staging:
		where = "copying the module"
	case loading:
		where = "loading the packages (go list, which builds them when Go's build cache is cold)"
	case analyzing:
		where = fmt.Sprintf("analyzing, %d of %s done", r.done, plural(r.total, "package"))
	default:
		where = "reading its findings"
	}
	return &capabilities.Result{Status: engine.StatusIndexing, Message: fmt.Sprintf(
		"staticcheck is still %s and has made no progress for %s (the load bound, %d times the driver's timeout): its work goes on in the background and is cached; ask again in a while; %s",
		where, capabilities.ShortDuration(bound), LoadCeiling, capabilities.RaiseTimeout(d.name, d.timeout))}
}

// reporter reports a run's phases, one piece of work each, with the time
// since the request began.
type reporter struct {
	ctx   context.Context
	began time.Time
	open  engine.Progress // ID "" when none
}

func (r *reporter) show(p engine.Progress) {
	if !engine.WantsProgress(r.ctx) || p.ID == "" {
		return
	}
	if r.open.ID != "" && r.open.ID != p.ID {
		r.end()
	}
	p.Elapsed = time.Since(r.began)
	r.open = p
	engine.ReportProgress(r.ctx, p)
}

func (r *reporter) end() {
	if r.open.ID == "" {
		return
	}
	p := r.open
	p.Done, p.Message, p.Percentage, p.Elapsed = true, "", -1, time.Since(r.began)
	r.open = engine.Progress{}
	engine.ReportProgress(r.ctx, p)
}
