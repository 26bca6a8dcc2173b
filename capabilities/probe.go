package capabilities

// This file defines the probe: each driver is probed once, on its own
// goroutine, when something first needs it — a request for a file of its
// language, the languages present under the root (ProbeRoot), or all of
// them (Probe). A request waits for the probes of the drivers it needs,
// not for the others, and for each no longer than its driver's timeout
// (ready.go). A probe whose tool's binary did not change since a
// run that found it working is answered from the [ProbeCache].

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/devbroker/devbroker/engine"
)

// prober is a [Set]'s probing: each driver's probe, found or running,
// the cache that keeps them between processes, the processes started
// early beside them, the drivers trust keeps from running and the root's
// project file. The rest of the Set is fixed when it is built; this part
// changes as probes end, under mu.
type prober struct {
	mu     sync.Mutex
	probes map[string]Probe
	// running are the probes started and not ended, each with a channel
	// closed when it ends.
	running map[string]chan struct{}
	// ctx bounds the probes; Close cancels it.
	ctx     context.Context
	cancel  context.CancelFunc
	onProbe []func()
	cache   *ProbeCache
	// warm: the set probes the languages of the files devbroker writes
	// (see ProbeRoot).
	warm bool
	// early: a probe of a Starter starts its process beside it;
	// starting holds each early start, closed when it returned (see
	// early.go).
	early    bool
	starting map[string]chan struct{}
	// untrusted are the drivers that must not run, with what the probe
	// reports of them.
	untrusted map[string]Probe
	project   *ProjectTrust
	// expected are the drivers [Set.Expect] expects to work, each with
	// the probe it expects (its kinds); a driver's probe, once it ends,
	// replaces its expectation.
	expected map[string]Probe
}

// probeTimeout bounds one driver's probe. It only stops a probe that hangs:
// a language server's smoke test on a loaded machine (pyright's took 20 s
// at a load of 15 on 2 cores) must still pass.
const probeTimeout = 2 * time.Minute

// Probe states of a driver whose probe has not ended, as the report shows
// them.
const (
	// Probing is a driver whose probe runs now.
	Probing ProbeState = "probing"
	// NotProbed is a driver that nothing has needed yet: no file of its
	// language was found under the root. It is probed on first use.
	NotProbed ProbeState = "not_probed"
)

// Untrust marks the driver name as one that must not run: the probe does
// not probe it and reports p (whose state is [Untrusted]), and no request
// is routed to it. A name the set does not use is ignored.
func (s *Set) Untrust(name string, p Probe) {
	if _, ok := s.drivers[name]; !ok {
		return
	}
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	if s.prober.untrusted == nil {
		s.prober.untrusted = map[string]Probe{}
	}
	p.State = Untrusted
	s.prober.untrusted[name] = p
	s.prober.probes[name] = p
}

// UseCache makes the set answer probes from c when the tool's binary is
// unchanged, and record there what it finds working. Call it before the
// first probe.
func (s *Set) UseCache(c *ProbeCache) {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	s.prober.cache = c
}

// OnProbe calls fn after each driver's probe ends (on the probe's
// goroutine): what the set serves may have changed.
func (s *Set) OnProbe(fn func()) {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	s.prober.onProbe = append(s.prober.onProbe, fn)
}

// Probe probes every driver, concurrently, waits for the probes (or ctx)
// and returns the report: only drivers found working serve requests.
// Untrusted drivers are not probed.
func (s *Set) Probe(ctx context.Context) *Report {
	s.wait(ctx, s.start(ctx, slices.Collect(maps.Keys(s.drivers))))
	return s.Report()
}

// ProbeLanguages probes the drivers of the named languages and waits for
// them (or ctx). Names the configuration does not have are ignored.
func (s *Set) ProbeLanguages(ctx context.Context, langs []string) *Report {
	var names []string
	for i := range s.langs {
		if slices.Contains(langs, s.langs[i].name) {
			names = append(names, s.langs[i].drivers("")...)
		}
	}
	s.wait(ctx, s.start(ctx, names))
	return s.Report()
}

// ProbeRoot probes the drivers of the languages whose files are present
// under the root (see [Set.Present]; the set walks the root once), and of
// also, and waits for them (or ctx). From then on, a file devbroker writes
// of another language starts the probe of its language's drivers.
func (s *Set) ProbeRoot(ctx context.Context, also ...string) *Report {
	s.prober.mu.Lock()
	s.prober.warm = true
	s.prober.mu.Unlock()
	return s.ProbeLanguages(ctx, append(s.presentLangs(), also...))
}

// Languages lists the languages whose drivers were probed or are being
// probed.
func (s *Set) Languages() []string {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	var out []string
	for i := range s.langs {
		for _, dn := range s.langs[i].drivers("") {
			if _, ok := s.prober.running[dn]; ok || s.prober.probes[dn].State != "" {
				if _, untrusted := s.prober.untrusted[dn]; !untrusted {
					out = append(out, s.langs[i].name)
					break
				}
			}
		}
	}
	return out
}

// drivers lists the drivers of the language's slots for kind ("" for
// every kind, its intelligence servers too), sorted; for a language kind,
// its intelligence servers.
func (l *language) drivers(kind engine.Kind) []string {
	if isLanguageKind(kind) {
		return slices.Clone(l.intel)
	}
	var out []string
	if kind == "" {
		out = slices.Clone(l.intel)
	}
	for k, slots := range l.byKind {
		if kind != "" && k != kind {
			continue
		}
		for _, slot := range slots {
			for _, alt := range slot {
				out = append(out, alt...)
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// Prepare starts, without waiting, what a request for kind on paths will
// wait for: the probes of the drivers that serve kind for the paths'
// languages, and after [Set.StartEarly] their servers: the root's, and
// the servers of the paths' projects below it (startProjects). A command that
// knows its files calls it before it reads them, so that the probes and
// the servers' start overlap the reading.
func (s *Set) Prepare(kind engine.Kind, paths []string) {
	names := s.driversFor(kind, paths)
	s.start(context.Background(), names)
	s.startProjects(names, paths)
}

// driversFor lists the drivers that serve kind for the paths' languages.
func (s *Set) driversFor(kind engine.Kind, paths []string) []string {
	var names []string
	seen := map[string]bool{}
	for _, p := range paths {
		if l := s.languageOf(p); l != nil && !seen[l.name] {
			seen[l.name] = true
			names = append(names, l.drivers(kind)...)
		}
	}
	return names
}

// warmPaths starts, without waiting, the probes of the drivers of the
// paths' languages, once ProbeRoot has run.
func (s *Set) warmPaths(paths []string) {
	s.prober.mu.Lock()
	warm := s.prober.warm
	s.prober.mu.Unlock()
	if !warm {
		return
	}
	var names []string
	for _, p := range paths {
		if l := s.languageOf(p); l != nil {
			names = append(names, l.drivers("")...)
		}
	}
	s.start(context.Background(), names)
}

// start starts the probe of each named driver that has neither run nor
// started, and returns the channels of the named drivers' probes that have
// not ended. The first caller's deadline, if it has one, bounds the probe;
// its cancellation does not (another caller may wait for the probe too):
// the set's Close does.
func (s *Set) start(ctx context.Context, names []string) []chan struct{} {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	var out []chan struct{}
	for _, name := range names {
		if ch, ok := s.prober.running[name]; ok {
			out = append(out, ch)
			continue
		}
		if _, done := s.prober.probes[name]; done {
			continue
		}
		d, ok := s.drivers[name]
		if !ok || !s.calls.Begin() {
			continue // closed: the last results stand
		}
		ch := make(chan struct{})
		s.prober.running[name] = ch
		out = append(out, ch)
		timeout := probeTimeout
		if dl, ok := ctx.Deadline(); ok {
			timeout = min(timeout, time.Until(dl))
		}
		go s.probeOne(name, d, timeout, ch)
		s.startEarly(name, d, timeout)
	}
	return out
}

// wait waits for the channels to close, or for ctx.
func (s *Set) wait(ctx context.Context, chans []chan struct{}) error {
	for _, ch := range chans {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// probeOne probes one driver (or answers from the cache), records the
// result and tells the OnProbe callbacks.
func (s *Set) probeOne(name string, d Driver, timeout time.Duration, done chan struct{}) {
	defer s.calls.End()
	ctx, cancel := context.WithTimeout(s.prober.ctx, timeout)
	defer cancel()
	s.prober.mu.Lock()
	cache := s.prober.cache
	s.prober.mu.Unlock()
	start := time.Now()
	var key string
	var fp []fileID
	if l, ok := d.(Locator); ok && cache != nil {
		key = s.cfgKey[name]
		fp = fingerprint(ctx, l)
	}
	p, hit := cache.get(key, fp)
	if !hit {
		p = safeProbe(ctx, d)
		if p.Took == 0 {
			p.Took = time.Since(start)
		}
		if p.State == Found && ctx.Err() == nil {
			cache.put(key, fp, p)
		}
	}
	s.prober.mu.Lock()
	s.prober.probes[name] = p
	delete(s.prober.running, name)
	fns := slices.Clone(s.prober.onProbe)
	s.prober.mu.Unlock()
	close(done)
	for _, fn := range fns {
		fn()
	}
}

// safeProbe runs a probe, turning a panic into a failed state.
func safeProbe(ctx context.Context, d Driver) (p Probe) {
	defer func() {
		if r := recover(); r != nil {
			p = Probe{State: Failed, Reason: fmt.Sprintf("the probe panicked: %v", r)}
		}
	}()
	return d.Probe(ctx)
}

// Serves reports whether a driver serves kind for some language: one
// found working, or, while its probe has not ended, one [Set.Expect]
// expects to work. It is what the servers advertise: a driver later found
// not working stops counting when its probe ends (OnProbe tells).
func (s *Set) Serves(kind engine.Kind) bool {
	for i := range s.langs {
		if s.serving(&s.langs[i], kind, true) != "" {
			return true
		}
	}
	return false
}

// serving names a driver that serves kind for lang ("" for none): for a
// language kind, the server that answers it; otherwise the first driver
// of its route. It counts the drivers found working and, with expect,
// those expected to work while their probe runs (see [Set.route]).
func (s *Set) serving(lang *language, kind engine.Kind, expect bool) string {
	if isLanguageKind(kind) {
		dn, _, _ := s.answerer(context.Background(), lang, kind, false, expect)
		return dn
	}
	if d := s.route(lang, kind, expect).drivers; len(d) > 0 {
		return d[0]
	}
	return ""
}

// Has reports whether a driver may serve kind: one found working, or one
// not probed yet, which a request for its language probes first.
//
// The pending probes are looked at first: a probe only ever ends, so once
// none is pending what Serves reads is final. (Asked the other way round,
// a probe that ended between the two looks made a working driver count
// as neither serving nor pending.)
func (s *Set) Has(kind engine.Kind) bool {
	if s.pending(kind) {
		return true
	}
	return s.Serves(kind)
}

// pending reports whether a driver that supports kind for a language
// present has not ended its probe.
func (s *Set) pending(kind engine.Kind) bool {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	for i := range s.langs {
		for _, dn := range s.langs[i].drivers(kind) {
			if _, done := s.prober.probes[dn]; !done && supports(s.drivers[dn], kind) {
				return true
			}
		}
	}
	return false
}

// unprobed is what the report says of a driver whose probe has not ended.
func (s *Set) unprobed(name string) Probe {
	if _, ok := s.prober.running[name]; ok {
		return Probe{State: Probing, Reason: "its probe is running; a request that needs it waits for it"}
	}
	return Probe{State: NotProbed, Reason: fmt.Sprintf("no %s file under the root: probed when a request first needs it", s.langOf[name])}
}

// Unavailable says why kind goes unserved for the languages present
// under the root, one clause per language, with what to install ("go:
// gopls is missing: ...; install: ..."): for format, lint and check, why
// each entry of the language's list that no driver found working serves
// is unserved; for a language kind, why no server of its intelligence
// list answers it. It is "" when nothing is unserved, or no language is
// present.
func (s *Set) Unavailable(kind engine.Kind) string {
	var out []string
	for _, ln := range s.presentLangs() {
		lang := s.langByName(ln)
		var why []string
		switch {
		case isLanguageKind(kind) && len(lang.intel) == 0:
			why = []string{fmt.Sprintf("no language server is configured for %s files (languages.%s.intelligence is empty)", ln, ln)}
		case isLanguageKind(kind):
			_, why, _ = s.answerer(context.Background(), lang, kind, false, false)
		default:
			rt := s.route(lang, kind, false)
			if rt.empty {
				why = []string{fmt.Sprintf("no %s driver is configured for %s files (languages.%s.%s is empty)", kind, ln, ln, kind)}
			}
			for _, u := range rt.unserved {
				why = append(why, u.why...)
			}
		}
		if len(why) > 0 {
			out = append(out, ln+": "+strings.Join(why, "; "))
		}
	}
	return strings.Join(out, ". ")
}
