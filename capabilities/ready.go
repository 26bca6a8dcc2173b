package capabilities

// This file defines how long a request waits for its drivers to be ready,
// and [Set.Ready], which does that waiting before the request runs.
//
// A request waits for its drivers' probes and for a language server's
// start, and for a language server (a [Starter]) none of that may hold it
// longer than the driver's timeout: a server that never answers
// initialize makes its probe run for probeTimeout, but a request whose
// driver's timeout is 5s answers timeout after 5s, and asks again later.
// The timeout runs from when the call began ([Begin]): the wait for the
// probe and the start counts, and the driver's run gets what is left (a
// language server's run does not count the server's workspace load: see
// capabilities/lspdriver). The probe goes on in the background, within
// its own bound; a later request finds it ended, or waits again. Other
// drivers' probes are waited for to their end, within probeTimeout: a
// linked-in linter's first analysis with a cold cache is slow, not hung
// (staticcheck's smoke test), and their runs have their own timeout.
//
// A surface whose requests run under a lock (a session runs one call at a
// time) calls [Set.Ready] before it takes the lock: the waiting then holds
// nothing, and the session's other calls go on meanwhile.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// call is a call's start: when it began, and which drivers' requests have
// taken it as their own start.
type call struct {
	at    time.Time
	mu    sync.Mutex
	taken map[string]bool
}

type callKey struct{}

type driverBeganKey struct{}

// Begin marks ctx as a call that begins now, unless it is marked already:
// the first request of the call to each driver counts its driver's
// timeout from then, its wait in [Set.Ready] included; a later request of
// the same call to the same driver (a plan's second check) counts from its
// own start.
func Begin(ctx context.Context) context.Context {
	if _, ok := ctx.Value(callKey{}).(*call); ok {
		return ctx
	}
	return context.WithValue(ctx, callKey{}, &call{at: time.Now(), taken: map[string]bool{}})
}

// Began is when the request that ctx carries to a driver began, from which
// its timeout runs; the set sets it for each driver it runs. Without one,
// it is now.
func Began(ctx context.Context) time.Time {
	if t, ok := ctx.Value(driverBeganKey{}).(time.Time); ok {
		return t
	}
	return time.Now()
}

// callStart is when ctx's call began, or now.
func callStart(ctx context.Context) time.Time {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return c.at
	}
	return time.Now()
}

// begins returns, for each named driver, when this request to it began:
// the call's start for the call's first request to the driver, now for
// the others.
func begins(ctx context.Context, names []string) map[string]time.Time {
	now := time.Now()
	out := make(map[string]time.Time, len(names))
	c, ok := ctx.Value(callKey{}).(*call)
	if ok {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	for _, dn := range names {
		out[dn] = now
		if ok && !c.taken[dn] {
			c.taken[dn] = true
			out[dn] = c.at
		}
	}
	return out
}

// peekBegin is when the request of ctx's call to dn begins, as begins
// would say, without taking the call's start.
func peekBegin(ctx context.Context, dn string) time.Time {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		c.mu.Lock()
		defer c.mu.Unlock()
		if !c.taken[dn] {
			return c.at
		}
	}
	return time.Now()
}

// forDriver is ctx for a run of driver dn, whose request began at
// (see [Began]).
func forDriver(ctx context.Context, at time.Time) context.Context {
	return context.WithValue(ctx, driverBeganKey{}, at)
}

// timeoutOf is driver dn's timeout.
func (s *Set) timeoutOf(dn string) time.Duration {
	if t := s.timeouts[dn]; t > 0 {
		return t
	}
	return configs.DefaultTimeout
}

// waitProbes starts the probes of the named drivers that have not run and
// waits for each until it ends or its driver's time (its timeout from its
// begin) runs out, whichever is first. It fails only when ctx ends.
func (s *Set) waitProbes(ctx context.Context, names []string, began map[string]time.Time) error {
	s.start(ctx, names)
	for _, dn := range names {
		if !s.waitProbe(ctx, dn, s.probeDeadline(dn, began[dn])) && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// probeDeadline is when a request to dn that began at stops waiting for
// dn's probe: its timeout later for a language server (a Starter); never
// (the zero time) for another driver, whose probe is waited for to its
// end.
func (s *Set) probeDeadline(dn string, at time.Time) time.Time {
	if _, ok := s.drivers[dn].(Starter); ok {
		return at.Add(s.timeoutOf(dn))
	}
	return time.Time{}
}

// waitProbe waits for dn's probe, started already, until it ends (true),
// until the deadline (none when zero), or until ctx ends.
func (s *Set) waitProbe(ctx context.Context, dn string, deadline time.Time) bool {
	s.prober.mu.Lock()
	ch, running := s.prober.running[dn]
	s.prober.mu.Unlock()
	if !running {
		return true
	}
	var expired <-chan time.Time
	if !deadline.IsZero() {
		timer := time.NewTimer(time.Until(deadline))
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case <-ch:
		return true
	case <-expired:
	case <-ctx.Done():
	}
	return false
}

// probing reports whether dn's probe has not ended with the driver found
// working: a request routed to it while its probe ran answers without it.
func (s *Set) probing(dn string) bool {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	p, probed := s.prober.probes[dn]
	return !probed || p.State != Found
}

// stillProbing is the answer of driver dn, whose probe has not ended
// within its timeout from its request's start at.
func (s *Set) stillProbing(dn string, at time.Time) *Result {
	return &Result{Status: engine.StatusTimeout, Message: fmt.Sprintf(
		"no answer within %s (the driver's timeout): %s's probe has not ended (it starts the tool on a small example to try it); the probe goes on, for up to %s: ask again in a moment, and if it keeps timing out, the tool may hang at its start (devbroker probe shows what the probe finds); %s",
		s.timeoutOf(dn), dn, probeTimeout, RaiseTimeout(dn, s.timeoutOf(dn)))}
}

// Ready makes ready, without running anything, what a request for kind
// on paths (workspace paths or globs; a glob, or none, stands for every
// language under the root) will wait for: the probes of the drivers that serve kind for the paths'
// languages and, for those found working that keep a process (a
// [Starter]: a language server), the process's start. It returns when
// they are ready, or when each one's time has run out (its timeout from
// the call's start, see [Begin]), or when ctx ends; the request that
// follows then waits no more than what is left. A probe or a start that
// runs out of time goes on in the background. It reports what it waits
// for as progress (engine.ReportProgress).
func (s *Set) Ready(ctx context.Context, kind engine.Kind, paths []string) {
	if !s.calls.Begin() {
		return
	}
	defer s.calls.End()
	at := callStart(ctx)
	var langs []*language
	globs := len(paths) == 0
	for _, p := range paths {
		if l := s.languageOf(p); l != nil {
			if !slices.Contains(langs, l) {
				langs = append(langs, l)
			}
		} else if strings.ContainsAny(p, "*?[{") {
			globs = true // it may name files of any language
		}
	}
	if globs {
		for _, ln := range s.presentLangs() {
			if l := s.langByName(ln); !slices.Contains(langs, l) {
				langs = append(langs, l)
			}
		}
	}
	var wg sync.WaitGroup
	for _, l := range langs {
		wg.Go(func() { s.readyLang(ctx, at, l, kind) })
	}
	wg.Wait()
}

// readyLang is Ready for one language: the drivers a request's route
// would take, or for a language kind the server answerer would pick.
func (s *Set) readyLang(ctx context.Context, at time.Time, lang *language, kind engine.Kind) {
	if isLanguageKind(kind) {
		for _, dn := range lang.intel {
			if !supports(s.drivers[dn], kind) {
				continue
			}
			if !s.readyProbe(ctx, at, dn) {
				return // the request answers that the probe runs
			}
			if bad, _ := s.unusable([]string{dn}, kind, false); len(bad) == 0 {
				s.readyStart(ctx, at, dn)
				return
			}
		}
		return
	}
	names := lang.drivers(kind)
	var wg sync.WaitGroup
	for _, dn := range names {
		wg.Go(func() { s.readyProbe(ctx, at, dn) })
	}
	wg.Wait()
	for _, dn := range s.route(lang, kind, false).drivers {
		wg.Go(func() { s.readyStart(ctx, at, dn) })
	}
	wg.Wait()
}

// readyProbe starts dn's probe unless it ran, and waits for it until it
// ends (true) or dn's time from at runs out. The probe is not bounded by
// ctx: it goes on for the requests after this one.
func (s *Set) readyProbe(ctx context.Context, at time.Time, dn string) bool {
	if len(s.start(context.WithoutCancel(ctx), []string{dn})) == 0 {
		return true // ended already (or the set is closing)
	}
	p := engine.Progress{Driver: dn, ID: "devbroker/ready/" + dn, Title: "starting", Message: "waiting for its probe, which finds it and tries it", Percentage: -1}
	engine.ReportProgress(ctx, p)
	ok := s.waitProbe(ctx, dn, s.probeDeadline(dn, at))
	p.Done = true
	p.Message = "its probe has ended"
	if !ok {
		p.Message = "its probe has not ended within its timeout"
	}
	engine.ReportProgress(ctx, p)
	return ok
}

// readyStart starts dn's process, when dn is a Starter found working,
// and waits for it until dn's time from at runs out.
func (s *Set) readyStart(ctx context.Context, at time.Time, dn string) {
	st, ok := s.drivers[dn].(Starter)
	if !ok || s.probing(dn) {
		return
	}
	s.prober.mu.Lock()
	_, untrusted := s.prober.untrusted[dn]
	s.prober.mu.Unlock()
	if untrusted {
		return
	}
	ctx, cancel := context.WithDeadline(ctx, at.Add(s.timeoutOf(dn)))
	defer cancel()
	_ = safeStart(ctx, st) // a failure is the request's to report
}
