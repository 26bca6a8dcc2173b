package broker

// This file defines [Root]: one root directory's drivers, loaded once and
// shared by every session on that root.

import (
	"context"
	"errors"
	"sync"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// Drivers is what a root's loaded and probed configuration offers: the
// engine's capabilities, the probe report, and resources to close.
// *capabilities.Set implements it.
type Drivers interface {
	engine.Capabilities
	// Report returns the latest probe results.
	Report() *capabilities.Report
	// Close releases the drivers' resources (language servers). It is
	// called once, when no request uses the drivers any more.
	Close() error
}

var _ Drivers = (*capabilities.Set)(nil)

// Lazy is Drivers that probe in the background and on first use
// (*capabilities.Set): the Root starts the probe of the languages present
// under the root without waiting for it, advertises a kind once a driver
// serving it was found working (or, with [Expecting], is expected to
// work), and tells its subscribers when the kinds change.
type Lazy interface {
	// Serves reports whether a driver found working (or expected to
	// work, see Expecting) serves kind.
	Serves(kind engine.Kind) bool
	// OnProbe calls fn after each driver's probe ends.
	OnProbe(fn func())
	// ProbeRoot probes the drivers of the languages present under the
	// root, and of also, and waits for them (or ctx).
	ProbeRoot(ctx context.Context, also ...string) *capabilities.Report
	// Languages lists the languages probed or being probed.
	Languages() []string
}

var _ Lazy = (*capabilities.Set)(nil)

// Expecting is Lazy drivers that can say, before their probe, which of
// them will work (*capabilities.Set): the Root asks them first, so that
// the kinds it advertises at once are the ones the root will have; a
// driver the probe then finds not working stops counting when its probe
// ends, and subscribers are told.
type Expecting interface {
	Lazy
	// Expect finds, without running any tool, the drivers of the
	// languages present under the root that will probably work (their
	// tool is found, or the probe cache knows it), and counts them in
	// Serves until their probe ends.
	Expect(ctx context.Context) []string
	// Unavailable says why no working driver serves kind, with what to
	// install ("" when one does).
	Unavailable(kind engine.Kind) string
}

var _ Expecting = (*capabilities.Set)(nil)

// Preparer is Drivers that can wait, before a request runs, for what it
// will wait for: its drivers' probes and servers' starts, each within its
// driver's timeout (*capabilities.Set; see capabilities.Set.Ready). A
// session waits so before it takes its lock, so that a driver slow to
// become ready (a language server that never answers initialize) holds
// none of the session's other calls.
type Preparer interface {
	Ready(ctx context.Context, kind engine.Kind, paths []string)
}

var _ Preparer = (*capabilities.Set)(nil)

// Need is what one capability step of a call will ask for: its kind, on
// paths (workspace paths or globs; a glob, or none, stands for every
// language under the root).
type Need struct {
	Kind  engine.Kind
	Paths []string
}

// Loader reads root's configuration, builds its drivers and probes them.
// prev is the drivers the new ones will replace (nil on the first load):
// a loader builds the new drivers beside them, taking over what keeps
// running (language servers), and leaves closing prev to the Root. A nil
// Drivers with a nil error means the root has no capabilities.
type Loader func(ctx context.Context, root string, prev Drivers) (Drivers, error)

// Root is one root directory and its drivers, shared by the sessions on it.
// It implements engine.Capabilities by delegating to the current drivers,
// so a reload reaches every session's engine at once. It is safe for
// concurrent use.
type Root struct {
	dir  string
	load Loader

	// mu guards cur and closed; it is never held while drivers run.
	mu     sync.RWMutex
	cur    *generation
	closed bool
	// reprobeMu makes re-probes take turns (each builds on the last);
	// requests never wait for it.
	reprobeMu sync.Mutex
	// retiring counts the replaced generations not yet closed.
	retiring sync.WaitGroup

	subMu sync.Mutex
	subs  map[int]func()
	next  int
	// kinds are the kinds last told to the subscribers (under subMu).
	kinds []engine.Kind
	// expected is closed once the drivers said what they expect to work
	// (see [Root.Expected]).
	expected chan struct{}

	// writeMu is the root's one writer: every session's engine and
	// edit_file session hold it over each write to the root, so that a
	// write's conflict check and its disk operations see no other write
	// of the broker in between.
	writeMu sync.Mutex
}

// generation is one loaded Drivers and the requests running on it: a
// re-probe swaps in a new generation and closes the old one when its last
// request ends (caddy's graceful reload).
type generation struct {
	d       Drivers
	running sync.WaitGroup
}

func newRoot(ctx context.Context, dir string, load Loader) (*Root, error) {
	r := &Root{dir: dir, load: load, subs: map[int]func(){}, expected: make(chan struct{})}
	if load != nil {
		d, err := load(ctx, dir, nil)
		if err != nil {
			return nil, err
		}
		if d != nil {
			r.cur = &generation{d: d}
			r.kinds = r.Kinds()
			if l, ok := d.(Lazy); ok {
				l.OnProbe(r.probed)
				// The first requests need not wait: the probe runs
				// beside them, and a request for a language waits
				// only for that language's drivers. What the probe
				// will likely find is known first, in a few
				// milliseconds (a walk and a look for each tool).
				go func() {
					ctx := context.WithoutCancel(ctx)
					if e, ok := l.(Expecting); ok {
						e.Expect(ctx)
						r.probed()
					}
					close(r.expected)
					l.ProbeRoot(ctx)
				}()
				return r, nil
			}
		}
	}
	close(r.expected)
	return r, nil
}

// Expected is closed once [Root.Kinds] holds, beside the kinds of the
// drivers found working, those of the drivers expected to work (their
// tool was found, or the probe cache knows it) whose probe has not ended,
// and the subscribers were told: the first tool list a server gives
// waits for it, so that it names every tool the root will have. It is
// closed at once for drivers that cannot say (and a root without any).
func (r *Root) Expected() <-chan struct{} { return r.expected }

// Unavailable says why no working driver serves kind for the languages
// under the root, with what to install; "" when the drivers cannot say.
func (r *Root) Unavailable(kind engine.Kind) string {
	if e, ok := r.current().(Expecting); ok {
		return e.Unavailable(kind)
	}
	return ""
}

// probed tells the subscribers when a probe changed the available kinds.
func (r *Root) probed() {
	kinds := r.Kinds()
	r.subMu.Lock()
	changed := !equalKinds(kinds, r.kinds)
	r.kinds = kinds
	r.subMu.Unlock()
	if changed {
		r.notify()
	}
}

// WriteLock is the lock every writer of the root holds over each write
// (see engine.Options.WriteLock).
func (r *Root) WriteLock() sync.Locker { return &r.writeMu }

// Dir is the root's absolute directory.
func (r *Root) Dir() string { return r.dir }

// current returns the current drivers, or nil.
func (r *Root) current() Drivers {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.cur == nil {
		return nil
	}
	return r.cur.d
}

// Has reports whether a driver serves kind, or may: of drivers that probe
// lazily, one not probed yet counts, and a request for kind waits for the
// probes of its files' languages (not for the others). What the servers
// advertise is [Root.Kinds]: the kinds a driver found working serves.
func (r *Root) Has(kind engine.Kind) bool {
	d := r.current()
	return d != nil && d.Has(kind)
}

// serves reports whether a driver found working, or expected to work
// while its probe runs, serves kind: what Kinds lists and the servers
// advertise.
func (r *Root) serves(kind engine.Kind) bool {
	if l, ok := r.current().(Lazy); ok {
		return l.Serves(kind)
	}
	return r.Has(kind)
}

// Run runs a format, lint or check request on the current drivers; a
// re-probe during the request swaps in new drivers for the next ones and
// closes these after this request ends.
func (r *Root) Run(ctx context.Context, req engine.Request) (*engine.Response, error) {
	r.mu.RLock()
	g := r.cur
	if g != nil {
		g.running.Add(1) // before any swap can retire g
	}
	r.mu.RUnlock()
	if g == nil {
		return nil, errors.New("no drivers are loaded for " + r.dir)
	}
	defer g.running.Done()
	return g.d.Run(ctx, req)
}

// Ready waits, for each need, for what its request will wait for (see
// [Preparer]); drivers that cannot say return at once. ctx should carry
// the call's start (capabilities.Begin): each driver's wait ends when its
// timeout from then runs out.
func (r *Root) Ready(ctx context.Context, needs []Need) {
	r.mu.RLock()
	g := r.cur
	if g != nil {
		g.running.Add(1) // a re-probe closes g only after this
	}
	r.mu.RUnlock()
	if g == nil {
		return
	}
	defer g.running.Done()
	p, ok := g.d.(Preparer)
	if !ok {
		return
	}
	var wg sync.WaitGroup
	for _, n := range needs {
		wg.Go(func() { p.Ready(ctx, n.Kind, n.Paths) })
	}
	wg.Wait()
}

var (
	_ engine.Capabilities = (*Root)(nil)
	_ engine.Explainer    = (*Root)(nil)
)

// Covers reports whether a configured language of the current drivers
// covers the file at p, for a step without paths, which works on the
// files of the root they cover (engine.Coverage). Drivers that cannot
// tell cover every file.
func (r *Root) Covers(p string) bool {
	if c, ok := r.current().(engine.Coverage); ok {
		return c.Covers(p)
	}
	return true
}

var _ engine.Coverage = (*Root)(nil)

// FailOn is the fail_on of the language of the file at p under the
// current drivers (engine.FailPolicy).
func (r *Root) FailOn(p string) string {
	if f, ok := r.current().(engine.FailPolicy); ok {
		return f.FailOn(p)
	}
	return ""
}

// MaxDiagnostics is the current drivers' cap on an answer's diagnostics
// (engine.DiagnosticLimiter); 0 when they set none.
func (r *Root) MaxDiagnostics() int {
	if l, ok := r.current().(engine.DiagnosticLimiter); ok {
		return l.MaxDiagnostics()
	}
	return 0
}

// Scope passes on the current drivers' project scope for kind, for a
// step without paths (engine.Scoper); drivers that cannot tell narrow
// nothing.
func (r *Root) Scope(kind engine.Kind) (func(string) (engine.Scope, bool), func() []engine.Note) {
	if s, ok := r.current().(engine.Scoper); ok {
		return s.Scope(kind)
	}
	return nil, nil
}

var _ engine.Scoper = (*Root)(nil)

// DiskChanged passes the paths a session changed on disk to the drivers
// that keep their own copy of the disk (see engine.DiskObserver).
func (r *Root) DiskChanged(paths []string) {
	if o, ok := r.current().(engine.DiskObserver); ok {
		o.DiskChanged(paths)
	}
}

var _ engine.DiskObserver = (*Root)(nil)

// Kinds lists the capability kinds that have a driver found working, or
// expected to work while its probe runs (see [Root.Expected]), in the
// order format, lint, check, then the language kinds in the steps' order
// (engine.LanguageKinds).
func (r *Root) Kinds() []engine.Kind {
	var out []engine.Kind
	for _, k := range append(engine.CapabilityKinds(), engine.LanguageKinds()...) {
		if r.serves(k) {
			out = append(out, k)
		}
	}
	return out
}

// Report returns the latest probe report; a root without drivers reports
// none.
func (r *Root) Report() *capabilities.Report {
	d := r.current()
	if d == nil {
		return &capabilities.Report{Drivers: []capabilities.DriverReport{}, Available: map[engine.Kind][]string{
			engine.Format: {}, engine.Lint: {}, engine.Check: {}, engine.Test: {},
		}}
	}
	return d.Report()
}

// Reprobe reloads the root's configuration and probes its drivers again,
// beside the current ones, which keep serving meanwhile; then swaps the
// new drivers in for every session on the root and closes the old ones
// once their last request ends, without waiting for it. Language servers
// whose configuration did not change keep running (the loader hands them
// over). Subscribers are told when the available kinds changed. On error
// the current drivers stay.
func (r *Root) Reprobe(ctx context.Context) (*capabilities.Report, error) {
	if r.load == nil {
		return r.reportWithheld(ctx), nil
	}
	r.reprobeMu.Lock()
	defer r.reprobeMu.Unlock()
	prev := r.current()
	d, err := r.load(ctx, r.dir, prev)
	if err != nil {
		return nil, err
	}
	if l, ok := d.(Lazy); ok {
		// The languages present now, and those the current drivers
		// were asked for since.
		var also []string
		if pl, ok := prev.(Lazy); ok {
			also = pl.Languages()
		}
		l.ProbeRoot(ctx, also...)
		l.OnProbe(r.probed)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		if d != nil {
			d.Close()
		}
		return nil, errors.New("the broker is shutting down")
	}
	old := r.cur
	r.cur = nil
	if d != nil {
		r.cur = &generation{d: d}
	}
	if old != nil {
		r.retiring.Add(1)
	}
	r.mu.Unlock()
	if old != nil {
		go func() {
			defer r.retiring.Done()
			old.running.Wait()
			old.d.Close()
		}()
	}
	r.probed()
	return r.reportWithheld(ctx), nil
}

// reportWithheld is the probe's report, with what drivers withhold (see
// capabilities.Set.ReportWithheld) when the drivers can say.
func (r *Root) reportWithheld(ctx context.Context) *capabilities.Report {
	if w, ok := r.current().(interface {
		ReportWithheld(context.Context) *capabilities.Report
	}); ok {
		return w.ReportWithheld(ctx)
	}
	return r.Report()
}

func equalKinds(a, b []engine.Kind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Subscribe calls fn, on its own goroutine's time, whenever the available
// kinds change: after a probe (in the background or on first use) or a
// reprobe. The returned function unsubscribes.
func (r *Root) Subscribe(fn func()) (cancel func()) {
	r.subMu.Lock()
	defer r.subMu.Unlock()
	id := r.next
	r.next++
	r.subs[id] = fn
	return func() {
		r.subMu.Lock()
		delete(r.subs, id)
		r.subMu.Unlock()
	}
}

func (r *Root) notify() {
	r.subMu.Lock()
	fns := make([]func(), 0, len(r.subs))
	for _, fn := range r.subs {
		fns = append(fns, fn)
	}
	r.subMu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// close closes the drivers, after the requests using them finish, and
// waits for the drivers that re-probes replaced to close.
func (r *Root) close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	g := r.cur
	r.cur = nil
	r.mu.Unlock()
	var err error
	if g != nil {
		g.running.Wait()
		err = g.d.Close()
	}
	r.retiring.Wait()
	return err
}
