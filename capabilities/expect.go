package capabilities

// This file defines the glance that comes before the probe: [Set.Expect]
// finds, without running any tool, which drivers of the languages present
// under the root will probably work, so that a server's first tool list
// names the tools the root will have (an MCP client may list tools only
// once). The probe then confirms or corrects it: a driver found not
// working stops being expected when its probe ends.

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// Expect looks, without running anything, at the drivers of the languages
// present under the root ([Set.Present]'s walk, done once per set) whose
// probe has not ended, and expects to work, until its probe ends:
//
//   - a driver whose probe the cache will answer: with the kinds the
//     cache recorded that its tool offers;
//   - a [Locator] whose tool's files are found: with every kind of its
//     Spec (a language server says what it offers in its probe);
//   - a driver that is not a Locator (one linked in): nothing is to be
//     found before its smoke test.
//
// A driver whose tool is not found, or that is untrusted, is not expected:
// its probe says why. [Set.Serves], and so what the servers advertise,
// counts the expected drivers. Expect starts no probe; it returns the
// languages present.
func (s *Set) Expect(ctx context.Context) []string {
	langs := s.presentLangs()
	var names []string
	for _, ln := range langs {
		names = append(names, s.langByName(ln).drivers("")...)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	s.prober.mu.Lock()
	cache := s.prober.cache
	var look []string
	for _, dn := range names {
		_, untrusted := s.prober.untrusted[dn]
		_, probed := s.prober.probes[dn]
		if !untrusted && !probed {
			look = append(look, dn)
		}
	}
	s.prober.mu.Unlock()
	found := map[string]Probe{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, dn := range look {
		wg.Go(func() {
			p, ok := s.expect(ctx, dn, cache)
			if ok {
				mu.Lock()
				found[dn] = p
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	s.prober.mu.Lock()
	if s.prober.expected == nil {
		s.prober.expected = map[string]Probe{}
	}
	maps.Copy(s.prober.expected, found)
	s.prober.mu.Unlock()
	return langs
}

// expect is what Expect expects of one driver, and whether it expects it
// to work.
func (s *Set) expect(ctx context.Context, name string, cache *ProbeCache) (Probe, bool) {
	l, ok := s.drivers[name].(Locator)
	if !ok {
		return Probe{State: Found}, true
	}
	fp := fingerprint(ctx, l)
	if fp == nil {
		return Probe{}, false
	}
	if p, hit := cache.get(s.cfgKey[name], fp); hit {
		return p, true
	}
	return Probe{State: Found, Path: fp[0].Path}, true
}

// Expected lists the drivers [Set.Expect] expects to work whose probe has
// not ended, sorted.
func (s *Set) Expected() []string {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	var out []string
	for dn := range s.prober.expected {
		if _, probed := s.prober.probes[dn]; !probed {
			out = append(out, dn)
		}
	}
	slices.Sort(out)
	return out
}
