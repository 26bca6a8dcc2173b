package broker

// This file defines [Manager]: the registry of roots (keyed by absolute
// directory, so sessions on one root share its drivers) and of the sessions
// open on them, with the idle reaper.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/devbroker/devbroker/engine/workspace"
)

// Options configure a [Manager].
type Options struct {
	// Load builds and probes a root's drivers the first time a session
	// opens on it, and again on Root.Reprobe. Nil means no capabilities:
	// format, lint and check are then never available.
	Load Loader
	// Limits bound every session's workspace; zero fields take the
	// defaults. A key that a root's configuration sets ([limits]
	// max_files, max_file_bytes, max_total_bytes) replaces it for the
	// sessions on that root.
	Limits workspace.Limits
	// IdleTimeout ends a session that has had no call for this long,
	// discarding its unwritten changes. Zero means sessions end only when
	// their connection does.
	IdleTimeout time.Duration
	// Logger receives the broker's log; nil discards it.
	Logger *slog.Logger
}

// ErrClosed is returned by a [Manager] or [Session] that has been closed.
var ErrClosed = errors.New("the session has ended")

// Manager is the registry of one broker process's roots and sessions. It is
// safe for concurrent use.
type Manager struct {
	opts Options
	log  *slog.Logger

	mu       sync.Mutex
	roots    map[string]*rootEntry
	sessions map[string]*Session
	seq      int
	closed   bool

	stopReaper chan struct{}
	reaperDone chan struct{}

	// now is the clock of the sessions' idle time: time.Now, or a test's.
	now func() time.Time
}

// testHookRootWait, set by the tests (export_test.go) before any manager
// runs, is called when a Root call waits for another's load of the same
// root; nil otherwise.
var testHookRootWait func()

// rootEntry lets concurrent first opens of one root share one load.
type rootEntry struct {
	ready chan struct{}
	root  *Root
	err   error
}

// NewManager returns a Manager. It loads nothing until a root is opened.
func NewManager(opts Options) *Manager { return newManager(opts, time.Now) }

func newManager(opts Options, now func() time.Time) *Manager {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	m := &Manager{
		opts: opts, log: log,
		roots: map[string]*rootEntry{}, sessions: map[string]*Session{}, now: now,
	}
	if opts.IdleTimeout > 0 {
		m.stopReaper = make(chan struct{})
		m.reaperDone = make(chan struct{})
		go m.reap(opts.IdleTimeout)
	}
	return m
}

// Abs returns the canonical form of a root directory: absolute, cleaned and
// with symlinks resolved, so two spellings of one directory share a Root.
func Abs(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("root %s: %w", dir, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("root %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("root %s is not a directory", dir)
	}
	return real, nil
}

// Root returns the shared Root for dir, loading and probing its drivers
// the first time. Concurrent first calls share one load; a failed load is
// not remembered, so a corrected configuration can be tried again.
func (m *Manager) Root(ctx context.Context, dir string) (*Root, error) {
	abs, err := Abs(dir)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	e, ok := m.roots[abs]
	if !ok {
		e = &rootEntry{ready: make(chan struct{})}
		m.roots[abs] = e
		m.mu.Unlock()
		start := time.Now()
		e.root, e.err = newRoot(ctx, abs, m.opts.Load)
		if e.err != nil {
			m.mu.Lock()
			delete(m.roots, abs)
			m.mu.Unlock()
			m.log.Error("loading root", "root", abs, "err", e.err)
		} else {
			m.log.Info("root loaded", "root", abs, "kinds", e.root.Kinds(), "took", time.Since(start))
		}
		close(e.ready)
	} else {
		m.mu.Unlock()
		if testHookRootWait != nil {
			select {
			case <-e.ready:
			default:
				testHookRootWait()
			}
		}
	}
	select {
	case <-e.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return e.root, e.err
}

// Open starts a session on dir: a fresh workspace and edit_file state over
// the root's shared drivers. The session takes absolute paths under dir
// spelled as given (through a symlink, say) as well as under the resolved
// root.
func (m *Manager) Open(ctx context.Context, dir string) (*Session, error) {
	root, err := m.Root(ctx, dir)
	if err != nil {
		return nil, err
	}
	given, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	m.seq++
	id := fmt.Sprintf("s%d", m.seq)
	s, err := newSession(id, m, root, given)
	if err != nil {
		return nil, err
	}
	m.sessions[id] = s
	m.log.Info("session opened", "session", id, "root", root.Dir())
	return s, nil
}

// Session returns the open session with the given id.
func (m *Manager) Session(id string) (*Session, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	return s, ok
}

// Sessions lists the ids of the open sessions, sorted.
func (m *Manager) Sessions() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.sessions))
	for id := range m.sessions {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// forget removes a closed session from the registry.
func (m *Manager) forget(s *Session) {
	m.mu.Lock()
	delete(m.sessions, s.id)
	m.mu.Unlock()
}

// reap ends sessions idle for longer than timeout.
func (m *Manager) reap(timeout time.Duration) {
	defer close(m.reaperDone)
	tick := time.NewTicker(max(timeout/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-m.stopReaper:
			return
		case <-tick.C:
			m.reapIdle(timeout)
		}
	}
}

// reapIdle ends the sessions idle for longer than timeout now.
func (m *Manager) reapIdle(timeout time.Duration) {
	now := m.now()
	m.mu.Lock()
	var idle []*Session
	for _, s := range m.sessions {
		if s.idleSince(now) > timeout {
			idle = append(idle, s)
		}
	}
	m.mu.Unlock()
	for _, s := range idle {
		m.log.Info("session idle, ending it", "session", s.id, "idle", timeout)
		s.end(fmt.Sprintf("it was idle for longer than %s", timeout))
	}
}

// Close ends every session (discarding unwritten changes) and closes every
// root's drivers, waiting for running requests to finish. It is idempotent.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	sessions := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		sessions = append(sessions, s)
	}
	roots := make([]*rootEntry, 0, len(m.roots))
	for _, e := range m.roots {
		roots = append(roots, e)
	}
	m.mu.Unlock()
	if m.stopReaper != nil {
		close(m.stopReaper)
		<-m.reaperDone
	}
	for _, s := range sessions {
		s.end("the broker is shutting down")
	}
	var errs []error
	for _, e := range roots {
		<-e.ready
		if e.root != nil {
			if err := e.root.close(); err != nil {
				errs = append(errs, fmt.Errorf("closing the drivers of %s: %w", e.root.Dir(), err))
			}
		}
	}
	return errors.Join(errs...)
}
