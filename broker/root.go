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

// Loader reads root's configuration, builds its drivers and probes them.
// A nil Drivers with a nil error means the root has no capabilities.
type Loader func(ctx context.Context, root string) (Drivers, error)

// Root is one root directory and its drivers, shared by the sessions on it.
// It implements engine.Capabilities by delegating to the current drivers,
// so a reload reaches every session's engine at once. It is safe for
// concurrent use.
type Root struct {
	dir  string
	load Loader

	// mu guards drivers. Requests hold it for reading while they run, so
	// a reload closes the old drivers only after the requests using them
	// have finished.
	mu      sync.RWMutex
	drivers Drivers
	closed  bool

	subMu sync.Mutex
	subs  map[int]func()
	next  int

	// writeMu is the root's one writer: every session's engine and
	// edit_file session hold it over each write to the root, so that a
	// write's conflict check and its disk operations see no other write
	// of the broker in between.
	writeMu sync.Mutex
}

func newRoot(ctx context.Context, dir string, load Loader) (*Root, error) {
	r := &Root{dir: dir, load: load, subs: map[int]func(){}}
	if load != nil {
		d, err := load(ctx, dir)
		if err != nil {
			return nil, err
		}
		r.drivers = d
	}
	return r, nil
}

// WriteLock is the lock every writer of the root holds over each write
// (see engine.Options.WriteLock).
func (r *Root) WriteLock() sync.Locker { return &r.writeMu }

// Dir is the root's absolute directory.
func (r *Root) Dir() string { return r.dir }

// Has reports whether a working driver serves kind.
func (r *Root) Has(kind engine.Kind) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.drivers != nil && r.drivers.Has(kind)
}

// Run runs a format, lint or check request on the current drivers.
func (r *Root) Run(ctx context.Context, req engine.Request) (*engine.Response, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.drivers == nil {
		return nil, errors.New("no drivers are loaded for " + r.dir)
	}
	return r.drivers.Run(ctx, req)
}

var _ engine.Capabilities = (*Root)(nil)

// DiskChanged passes the paths a session changed on disk to the drivers
// that keep their own copy of the disk (see engine.DiskObserver).
func (r *Root) DiskChanged(paths []string) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if o, ok := r.drivers.(engine.DiskObserver); ok {
		o.DiskChanged(paths)
	}
}

var _ engine.DiskObserver = (*Root)(nil)

// Kinds lists the capability kinds that have a working driver, in the
// seed's order (format, lint, check).
func (r *Root) Kinds() []engine.Kind {
	var out []engine.Kind
	for _, k := range []engine.Kind{engine.Format, engine.Lint, engine.Check} {
		if r.Has(k) {
			out = append(out, k)
		}
	}
	return out
}

// Report returns the latest probe report; a root without drivers reports
// none.
func (r *Root) Report() *capabilities.Report {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.drivers == nil {
		return &capabilities.Report{Drivers: []capabilities.DriverReport{}, Available: map[engine.Kind][]string{
			engine.Format: {}, engine.Lint: {}, engine.Check: {},
		}}
	}
	return r.drivers.Report()
}

// Reprobe reloads the root's configuration and probes its drivers again,
// then swaps the new drivers in for every session on the root and closes
// the old ones once no request uses them. Subscribers are told when the
// available kinds changed. On error the current drivers stay.
func (r *Root) Reprobe(ctx context.Context) (*capabilities.Report, error) {
	if r.load == nil {
		return r.Report(), nil
	}
	before := r.Kinds()
	d, err := r.load(ctx, r.dir)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		if d != nil {
			d.Close()
		}
		return nil, errors.New("the broker is shutting down")
	}
	old := r.drivers
	r.drivers = d
	r.mu.Unlock()
	if old != nil {
		old.Close()
	}
	if !equalKinds(before, r.Kinds()) {
		r.notify()
	}
	return r.Report(), nil
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
// kinds change after a reprobe. The returned function unsubscribes.
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

// close closes the drivers, after the requests using them finish.
func (r *Root) close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	if r.drivers == nil {
		return nil
	}
	err := r.drivers.Close()
	r.drivers = nil
	return err
}
