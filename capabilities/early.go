package capabilities

// This file defines the early start: a set told to [Set.StartEarly]
// starts, beside the probe of each [Starter] driver, the driver's
// long-lived process on the root (a language server), so that the
// server's initial work (gopls loading the workspace) overlaps the probe
// and the first request meets a warm server instead of starting one.
// Untrusted drivers are never probed, so never started early.

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/devbroker/devbroker/configs"
)

// Starter is a Driver that keeps a long-lived process on its root and can
// start it before the first request.
type Starter interface {
	Driver
	// Start starts the driver's process on its root and returns once it
	// runs (at once when it runs already), or when ctx ends: a start
	// then goes on within its own bound. A failure is left to the first
	// request, which starts the process again. It runs beside the
	// driver's probe, and before a request ([Set.Ready]); a driver whose
	// probe then fails lets the process go. The process is the one the
	// requests use (never a second one), and Close stops it.
	Start(ctx context.Context) error
}

// ProjectStarter is a Starter that starts a server per project (a
// language server with server_root "project"): it can start, before a
// request, the servers of the projects below the root that the files of
// the request belong to, within its bound on project servers.
type ProjectStarter interface {
	Starter
	// PerProject reports whether the driver starts servers per project.
	PerProject() bool
	// StartProjects starts the servers of the projects of paths
	// (workspace paths; those of other languages are passed over) and
	// returns once they are initialized, or when ctx ends. As with Start,
	// a failure is left to the request, and a driver whose probe fails
	// lets the servers go.
	StartProjects(ctx context.Context, paths []string) error
}

// startProjects starts, beside the probes [Set.Prepare] began, the
// project servers of the paths for each named driver that starts servers
// per project, once per driver, when the set was told to start early: a
// command that knows its files (check, lint, a language command) meets
// the servers of their projects started, not starting. The servers of
// projects no request names are never started: each is a process of its
// own (a pyright per Python project).
func (s *Set) startProjects(names, paths []string) {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	if !s.prober.early {
		return
	}
	for _, name := range names {
		ps, ok := s.drivers[name].(ProjectStarter)
		key := name + " (projects)"
		if _, untrusted := s.prober.untrusted[name]; !ok || untrusted || !ps.PerProject() || s.prober.starting[key] != nil || !s.calls.Begin() {
			continue
		}
		ch := make(chan struct{})
		if s.prober.starting == nil {
			s.prober.starting = map[string]chan struct{}{}
		}
		s.prober.starting[key] = ch
		timeout := s.timeouts[name]
		if timeout <= 0 {
			timeout = configs.DefaultTimeout
		}
		go func() {
			defer s.calls.End()
			defer close(ch)
			ctx, cancel := context.WithTimeout(s.prober.ctx, timeout)
			defer cancel()
			defer func() { _ = recover() }() // a panic is the request's to meet
			_ = ps.StartProjects(ctx, paths)
		}()
	}
}

// StartEarly makes each later probe of a [Starter] driver start, beside
// it, the driver's process on the root. Commands that will run a request
// call it (the server, check); one that only reports (probe) does not.
func (s *Set) StartEarly() {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	s.prober.early = true
}

// startEarly starts the named driver's process beside its probe, once,
// when the set was told to. Called by start, with s.prober.mu held.
func (s *Set) startEarly(name string, d Driver, timeout time.Duration) {
	st, ok := d.(Starter)
	if _, untrusted := s.prober.untrusted[name]; !ok || untrusted || !s.prober.early || s.prober.starting[name] != nil || !s.calls.Begin() {
		return
	}
	ch := make(chan struct{})
	if s.prober.starting == nil {
		s.prober.starting = map[string]chan struct{}{}
	}
	s.prober.starting[name] = ch
	go func() {
		defer s.calls.End()
		defer close(ch)
		ctx, cancel := context.WithTimeout(s.prober.ctx, timeout)
		defer cancel()
		safeStart(ctx, st)
	}()
}

// safeStart starts a driver's process, turning a panic into an error.
func safeStart(ctx context.Context, st Starter) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the start panicked: %v", r)
		}
	}()
	return st.Start(ctx)
}

// WaitStarts waits for the early starts begun so far to return (or for
// ctx), and lists the drivers whose start began, sorted: for tests and
// benchmarks.
func (s *Set) WaitStarts(ctx context.Context) ([]string, error) {
	s.prober.mu.Lock()
	names := make([]string, 0, len(s.prober.starting))
	chans := make([]chan struct{}, 0, len(s.prober.starting))
	for n, ch := range s.prober.starting {
		names = append(names, n)
		chans = append(chans, ch)
	}
	s.prober.mu.Unlock()
	slices.Sort(names)
	return names, s.wait(ctx, chans)
}
